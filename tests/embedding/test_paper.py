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
Equation~\eqref{eq:%s} is cited by its number.
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


def paper(folder, claims) -> str:
    r"""``posproof preamble`` and each claim's paper LaTeX in ``folder``, a two-column article ``\input``\ ing them,
    set by pdflatex: its log (an error fails here)."""
    code, sty, err = cli("preamble")
    assert code == 0, err
    (folder / "posproof.sty").write_text(sty)
    for claim in claims:
        tex = derive(claim)
        assert f"\\label{{eq:{claim}}}" in tex, tex
        (folder / f"{claim}.tex").write_text(tex)
    inputs = "\n".join(f"\\input{{{claim}}}" for claim in claims)
    (folder / "paper.tex").write_text(PAPER % (inputs, claims[0]))
    rc, log = pdflatex(folder, "paper")
    assert rc == 0, log[-3000:]
    assert (folder / "paper.pdf").stat().st_size > 0
    return log


def test_three_derivations_set_in_a_two_column_paper(tmp_path):
    log = paper(tmp_path, CLAIMS)
    wide = overfull(log)
    assert not wide, "\n".join(wide)
    undefined = [line for line in log.splitlines() if re.search("undefined", line, re.I)]
    assert not undefined, "\n".join(undefined)
    aux = (tmp_path / "paper.aux").read_text()
    for claim in CLAIMS:
        assert f"\\newlabel{{claim:{claim}}}" in aux
        assert f"\\newlabel{{eq:{claim}}}" in aux


def test_a_facts_wide_table_fits_a_column(tmp_path):  # scaled to the column (posproof.sty's \posprooffit)
    log = paper(tmp_path, ("deberta-log-bucket-values",))
    wide = overfull(log)
    assert not wide, "\n".join(wide)
