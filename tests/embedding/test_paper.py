r"""A writer's two-column paper: ``posproof preamble > posproof.sty``, three derivations from ``posproof derive ID
--format latex --audience paper --numbered --textwidth twocolumn``, each in its own file ``\input`` by a
``\documentclass[twocolumn]{article}`` with ``hyperref``; pdflatex, run twice, sets it without an error, an
overfull line or an undefined reference. Skipped, with the reason, where pdflatex is missing."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from tests.exports import cli

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex needed (a TeX Live with amsmath)"),
]

#: A long chained theorem whose steps are broken over rows, a definition of vectors, and a bound of four steps
#: with wide sums and a citation of a lemma.
CLAIMS = ("rope-block-relative", "sinusoidal-definition", "extension-pi-second-derivative-bound")

PAPER = r"""\documentclass[twocolumn]{article}
\usepackage{posproof}
\usepackage{hyperref}
\begin{document}
\section{Results}
%s
As Equation~\eqref{eq:%s} shows, the score depends on $n - m$ only.
\end{document}
"""


def derive(claim: str) -> str:
    code, out, err = cli(
        "derive", claim, "--format", "latex", "--audience", "paper", "--numbered", "--textwidth", "twocolumn"
    )
    assert code == 0, err
    return out


def pdflatex(folder, name: str) -> tuple[int, str]:
    r"""``pdflatex`` twice (the second run resolves the references); its exit code and the log."""
    for _ in range(2):
        proc = subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if proc.returncode:
            break
    return proc.returncode, (folder / f"{name}.log").read_text(errors="replace")


def overfull(log: str) -> list[str]:
    r"""Each ``Overfull \hbox`` of a log with the line of material it names."""
    lines = log.splitlines()
    return [f"{line} {lines[k + 1][:120]}" for k, line in enumerate(lines[:-1]) if line.startswith("Overfull \\hbox")]


def test_three_derivations_set_in_a_two_column_paper(tmp_path):
    code, sty, err = cli("preamble")
    assert code == 0, err
    (tmp_path / "posproof.sty").write_text(sty)
    for claim in CLAIMS:
        tex = derive(claim)
        assert f"\\label{{eq:{claim}}}" in tex, tex
        (tmp_path / f"{claim}.tex").write_text(tex)
    inputs = "\n".join(f"\\input{{{claim}}}" for claim in CLAIMS)
    (tmp_path / "paper.tex").write_text(PAPER % (inputs, CLAIMS[0]))
    rc, log = pdflatex(tmp_path, "paper")
    assert rc == 0, log[-3000:]
    assert (tmp_path / "paper.pdf").stat().st_size > 0
    wide = overfull(log)
    assert not wide, "\n".join(wide)
    undefined = [line for line in log.splitlines() if re.search("undefined", line, re.I)]
    assert not undefined, "\n".join(undefined)
    aux = (tmp_path / "paper.aux").read_text()
    for claim in CLAIMS:
        assert f"\\newlabel{{claim:{claim}}}" in aux
        assert f"\\newlabel{{eq:{claim}}}" in aux
