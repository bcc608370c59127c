r"""The LaTeX export: ``posproof.tex`` and a file per topic."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from posproof.derivations.export.common import (
    ABSTRACT,
    TITLE,
    each_claim,
    figures_in,
    lower_first,
    placement,
    references,
    rules_table,
    topic_title,
)

from posproof.printing import latex as latex_format
from posproof.printing.prose import prose

#: The file an export leaves in its directory: what it wrote (so that it may replace it next time).

# ==============================================================================================================
# LaTeX
# ==============================================================================================================

PREAMBLE = r"""\documentclass[a4paper]{article}
\usepackage{amsmath,amssymb}
\usepackage[margin=2cm]{geometry}
\usepackage{graphicx}
\usepackage{array}
\allowdisplaybreaks
\setlength{\parindent}{0pt}
\setlength{\parskip}{3pt plus 1pt}
\setlength{\emergencystretch}{3em}
\setcounter{tocdepth}{1}
\renewcommand{\labelitemi}{$\bullet$}
% Figures stay in their section: at its end, the ones LaTeX has deferred are set before the next section starts.
\makeatletter
\newcommand{\placefigures}{\ifx\@deferlist\@empty\else\clearpage\fi}
% A claim's heading is never stranded at the foot of a page: with less than 7 lines left, it starts the next one
% (unless it follows a section heading, which must not be left alone either).
\let\posproof@subsection\subsection
\renewcommand{\subsection}{\par\if@nobreak\else\ifdim\pagegoal<\maxdimen
  \ifdim\dimexpr\pagegoal-\pagetotal\relax<7\baselineskip\newpage\fi\fi\fi\posproof@subsection}
\makeatother
"""


def _latex_figure(name: str) -> str:
    from posproof.derivations import plots

    spec = plots.PLOTS[name]
    return (
        "\\begin{figure}[htbp]\n\\centering\n"
        f"\\includegraphics[width={'' if name in plots.WIDE else '0.9'}\\linewidth]{{figures/{name}.pdf}}\n"
        f"\\caption{{{prose(spec.caption, 'latex')}}}\\label{{fig:{name}}}\n\\end{{figure}}"
    )


def _figure_reference(name: str) -> str:
    from posproof.derivations import plots

    return f"Figure~\\ref{{fig:{name}}} draws this: {_tex_text(lower_first(plots.PLOTS[name].title))}."


def topic_file(topic: str, claims, figures: Iterable[str] = (), tick: Callable[[str], None] | None = None) -> str:
    r"""One topic's LaTeX: its claims, each figure referenced from the claim it draws and set right after it
    (:func:`placement`); ``tick(claim id)`` after each claim."""
    places = placement([(topic, claims)], figures)
    parts = []
    for c in each_claim(claims, tick):
        text = latex_format.identity_latex(c)
        mine = places.get(c.id, [])
        if mine:
            text += "\n" + " ".join(_figure_reference(f) for f in mine) + "\n\n" + "\n".join(map(_latex_figure, mine))
            text += "\n"
        parts.append(text)
    return "\n".join(parts)


def latex_document(topics: list[str], figures: Iterable[str] = (), rules: bool = False, refs=()) -> str:
    r"""The standalone document: title, contents, one section per topic (``\input``; its figures are set in it,
    see :func:`topic_file`), the rules table (``\input{rules}``), the references."""
    body = []
    for t in topics:
        body.append(f"\\section{{{_tex_text(topic_title(t))}}}\\label{{topic:{t}}}\n\\input{{{t}}}\n\\placefigures")
    if rules:
        body.append(
            "\\section{The rules table}\\label{rules}\n"
            "Table~\\ref{tab:rules} judges every scheme by the three rules; each cell names the claim that decides it"
            + (
                " (Section~\\ref{topic:properties} proves the cells no scheme's own section decides).\n\n"
                if "properties" in topics
                else ".\n\n"
            )
            + "{\\small\\input{rules}}"
        )
    if refs:
        items = []
        for source, ids in refs:
            cited = ", ".join(f"\\ref{{claim:{i}}}" for i in ids)
            items.append(f"\\item {prose(source, 'latex')}. Cited in {cited}.")
        body.append(
            "\\section*{References}\n\\addcontentsline{toc}{section}{References}\n{\\raggedright\n\\begin{itemize}\n"
        )
        body[-1] += "\n".join(items) + "\n\\end{itemize}\n}"
    return (
        PREAMBLE
        + f"\\title{{{_tex_text(TITLE)}}}\n\\author{{posproof {_tex_text(_version())}}}\n\\date{{}}\n"
        + "\\begin{document}\n\\maketitle\n"
        + f"\\begin{{abstract}}\n{prose(ABSTRACT, 'latex')}\n\\end{{abstract}}\n\\tableofcontents\n\\clearpage\n"
        + "\n".join(body)
        + "\n\\end{document}\n"
    )


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("posproof")
    except PackageNotFoundError:  # pragma: no cover - a source tree that was never installed
        return "(source tree)"


def _tex_text(s: str) -> str:
    return prose(s, "latex")


def latex_files(topics, with_figures: bool, tick: Callable[[str], None]) -> tuple[dict[str, bytes], str]:
    figures, note = figures_in("pdf", tick) if with_figures else ({}, "")
    files = {f"{t}.tex": topic_file(t, claims, figures, tick).encode() for t, claims in topics}
    files |= {f"figures/{n}.pdf": b for n, b in figures.items()}
    table = rules_table("latex")
    if table is not None:
        files["rules.tex"] = table.encode()
    doc = latex_document([t for t, _ in topics], figures, table is not None, references(topics))
    files["posproof.tex"] = doc.encode()
    return files, note
