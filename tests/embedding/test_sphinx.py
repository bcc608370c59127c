r"""The Sphinx extension: a real project (reStructuredText and MyST pages) built with ``-W``."""

from __future__ import annotations

import pytest
from posproof.symbolic import registry

pytestmark = pytest.mark.slow

ID = "order-sum-is-tied-concat"
OTHER = "sinusoidal-definition"

CONF = 'extensions = ["posproof.sphinx", "myst_parser"]\nmyst_enable_extensions = ["dollarmath"]\n'

RST = f"""Claims
======

.. posproof:: {ID}

See :claim:`{ID}`.

.. toctree::

   myst
"""

MYST = f"""# MyST

```{{posproof}} {OTHER}
:statement-only:
```

See {{claim}}`{ID}`.
"""


def build(tmp_path, index: str):
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_parser")
    from sphinx.cmd.build import build_main

    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(CONF)
    (src / "index.rst").write_text(index)
    (src / "myst.md").write_text(MYST)
    out = tmp_path / "html"
    rc = build_main(["-W", "-q", "-b", "html", str(src), str(out), "-w", str(tmp_path / "warnings.txt")])
    return rc, out, (tmp_path / "warnings.txt").read_text()


def test_directive_and_role_in_rst_and_myst(tmp_path):
    rc, out, warnings = build(tmp_path, RST)
    assert rc == 0, warnings
    c = registry.get(ID)
    page = (out / "index.html").read_text()
    assert f'id="claim-{ID}"' in page
    assert page.count('class="math') >= 1 + len(c.steps)  # the statement and each step's display
    assert "distributivity" in page  # a step's justification
    assert f'href="#claim-{ID}"' in page  # the role
    myst = (out / "myst.html").read_text()
    assert f'href="index.html#claim-{ID}"' in myst
    assert f'id="claim-{OTHER}"' in myst
    assert "Checked" not in myst  # statement only
    assert 'class="math' in myst


def test_unknown_id_fails_the_build_naming_it(tmp_path):
    rc, _, warnings = build(tmp_path, "Claims\n======\n\n.. posproof:: no-such-claim\n\n.. toctree::\n\n   myst\n")
    assert rc != 0
    assert "no-such-claim" in warnings
