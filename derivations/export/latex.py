r"""The LaTeX export: ``posproof.tex``, a file per topic, ``rules.tex``, ``posproof.sty`` (the preamble the
derivations need), the bibliography (``posproof.bib``, and ``posproof.bbl`` so that ``pdflatex`` alone sets it;
``bibtex posproof`` rebuilds it from the ``.bib``) and the verification record as the appendix."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from importlib import resources

from posproof.derivations.export.common import (
    ABSTRACT,
    ABSTRACT_REFERENCE,
    RECORD_INTRO,
    RECORD_TITLE,
    TITLE,
    each_claim,
    figure_lead,
    figures_in,
    numbering,
    placement,
    rules_table,
    topic_title,
    works_cited,
)

from posproof.printing import latex as latex_format
from posproof.printing.bib import bibtex, reference_latex
from posproof.printing.blocks import record_text
from posproof.printing.prose import prose
from posproof.printing.refs import Numbering, cite

# ==============================================================================================================
# LaTeX
# ==============================================================================================================

#: The export's own layout, after ``posproof.sty`` (which holds what every derivation needs) and before hyperref.
LAYOUT = r"""\setlength{\parindent}{0pt}
\setlength{\parskip}{3pt plus 1pt}
\setlength{\emergencystretch}{3em}
\setcounter{tocdepth}{1}
\renewcommand{\labelitemi}{$\bullet$}
% Figures stay in their section: at its end, the ones LaTeX has deferred are set before the next section starts.
\makeatletter
\newcommand{\placefigures}{\ifx\@deferlist\@empty\else\clearpage\fi}
% A claim never starts in the last 7 lines of a page (unless it follows a heading, which must not be left alone).
\newcommand{\claimbreak}{\par\if@nobreak\else\ifdim\pagegoal<\maxdimen
  \ifdim\dimexpr\pagegoal-\pagetotal\relax<7\baselineskip\newpage\fi\fi\fi}
\let\posproof@subsection\subsection
\renewcommand{\subsection}{\claimbreak\posproof@subsection}
\makeatother
"""


def preamble(*, twocolumn: bool = False) -> str:
    r"""The document's preamble: ``article``, ``posproof.sty``, the layout, ``hyperref`` last."""
    options = "a4paper,twocolumn" if twocolumn else "a4paper"
    margin = "1.8cm" if twocolumn else "2cm"
    return (
        f"\\documentclass[{options}]{{article}}\n\\usepackage[margin={margin}]{{geometry}}\n\\usepackage{{posproof}}\n"
        + LAYOUT
        + "\\usepackage[hidelinks]{hyperref}\n"
    )


#: The preamble of the one-column document.
PREAMBLE = preamble()


def style() -> str:
    r"""``posproof.sty``, as the package ships it (``posproof preamble`` prints it too)."""
    return resources.files("posproof.printing").joinpath("posproof.sty").read_text(encoding="utf-8")


def _latex_figure(name: str, refs: Numbering | None) -> str:
    from posproof.derivations import plots

    spec = plots.PLOTS[name]
    return (
        "\\begin{figure}[htbp]\n\\centering\n"
        f"\\includegraphics[width={'' if name in plots.WIDE else '0.9'}\\linewidth]{{figures/{name}.pdf}}\n"
        f"\\caption{{{prose(spec.caption, 'latex', refs=refs)}}}\\label{{fig:{name}}}\n\\end{{figure}}"
    )


def topic_file(
    topic: str,
    claims,
    figures: Iterable[str] = (),
    tick: Callable[[str], None] | None = None,
    *,
    audience: str = "paper",
    refs: Numbering | None = None,
    textwidth: float | None = None,
) -> str:
    r"""One topic's LaTeX: its claims (``audience="paper"``: each in its environment, the statement a numbered
    equation; ``reference``: a subsection with every strategy), each figure announced after the claim it draws
    and set right after it (:func:`placement`); ``tick(claim id)`` after each claim."""
    figures = list(figures)
    places = placement([(topic, claims)], figures)
    refs = refs if refs is not None else numbering([(topic, claims)], figures)
    paper = audience == "paper"
    parts = []
    for c in each_claim(claims, tick):
        if paper:
            text = "\\claimbreak\n" + latex_format.identity_latex(
                c, audience="paper", refs=refs, numbered=True, textwidth=textwidth
            )
        else:
            text = latex_format.identity_latex(c)
        mine = places.get(c.id, [])
        if mine:
            lead = " ".join(prose(figure_lead(f), "latex", refs=refs) for f in mine)
            text += "\n" + lead + "\n\n" + "\n".join(_latex_figure(f, refs) for f in mine) + "\n"
        parts.append(text)
    return "\n".join(parts)


def bibliography(topics, refs: Numbering | None = None) -> tuple[str, str]:
    r"""The ``.bib`` of the works the claims cite, and the ``.bbl`` ``pdflatex`` reads: each work with the claims
    citing it (a source no record names is an item of its own, as the claim writes it)."""
    refs = refs if refs is not None else numbering(topics)
    works, items = [], []
    for k, (w, source, ids) in enumerate(works_cited(topics), 1):
        cited = ", ".join(cite("claim", i, "latex", refs) for i in ids)
        if w is None:
            items.append(f"\\bibitem{{source{k}}} {prose(source, 'latex')}. Cited in {cited}.")
        else:
            works.append(w)
            items.append(f"\\bibitem{{{w.key}}} {reference_latex(w)} Cited in {cited}.")
    bbl = "\\begin{thebibliography}{" + str(len(items)) + "}\n" + "\n".join(items) + "\n\\end{thebibliography}\n"
    return bibtex(works), bbl


def record_appendix(topics, refs: Numbering) -> str:
    r"""The appendix: the verification record of every claim, topic by topic, one paragraph a claim."""
    out = [
        f"\\appendix\n\\section{{{prose(RECORD_TITLE, 'latex')}}}\\label{{section:record}}",
        prose(RECORD_INTRO, "latex"),
    ]
    for t, claims in topics:
        out.append(f"\\subsection*{{{prose(topic_title(t), 'latex')}}}")
        out.append(
            "{\\small\\raggedright\n"
            + "\n\n".join(prose(record_text(c), "latex", refs=refs) for c in claims)
            + "\\par}"
        )
    return "\n\n".join(out)


def latex_document(
    topics: list[str],
    figures: Iterable[str] = (),
    rules: bool = False,
    refs=(),
    *,
    audience: str = "paper",
    appendix: str = "",
    twocolumn: bool = False,
) -> str:
    r"""The standalone document: title, abstract, contents, one section per topic (``\input``; its figures are set
    in it, see :func:`topic_file`), the rules table (``\input{rules}``), the references (``posproof.bbl``; ``refs``
    true when there are any), the appendix."""
    body = []
    for t in topics:
        body.append(f"\\section{{{_tex_text(topic_title(t))}}}\\label{{section:{t}}}\n\\input{{{t}}}\n\\placefigures")
    if rules:
        decided = (
            " (Section~\\ref{section:properties} proves the cells no scheme's own section decides).\n\n"
            if "properties" in topics
            else ".\n\n"
        )
        body.append(
            "\\section{The rules table}\\label{section:rules}\n"
            "Table~\\ref{table:rules} judges every scheme by the three rules; each cell cites the claim that decides it"
            + decided
            + "\\input{rules}"
        )
        if twocolumn:  # the table spans the page: longtable sets one column only
            body[-1] = "\\onecolumn\n" + body[-1] + "\n\\twocolumn"
    if refs:
        body.append("\\nocite{*}\n\\bibliographystyle{plain}\n\\bibliography{posproof}")
    if appendix:
        body.append(appendix)
    abstract = ABSTRACT if audience == "paper" else ABSTRACT_REFERENCE
    return (
        preamble(twocolumn=twocolumn)
        + f"\\title{{{_tex_text(TITLE)}}}\n\\author{{posproof {_tex_text(_version())}}}\n\\date{{}}\n"
        + "\\begin{document}\n\\maketitle\n"
        + f"\\begin{{abstract}}\n{prose(abstract, 'latex')}\n\\end{{abstract}}\n\\tableofcontents\n\\clearpage\n"
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


def latex_files(
    topics,
    with_figures: bool,
    tick: Callable[[str], None],
    *,
    audience: str = "paper",
    textwidth: str | None = None,
    rules: bool = True,
) -> tuple[dict[str, bytes], str]:
    r"""Every file of the LaTeX export (``textwidth``: ``twocolumn`` sets the document in two columns, and every
    display to fit one; see :func:`posproof.printing.latex.text_width`; ``rules``: the rules table)."""
    width = latex_format.text_width(textwidth)
    twocolumn = textwidth == "twocolumn"
    figures, note = figures_in("pdf", tick) if with_figures else ({}, "")
    refs = numbering(topics, figures)
    files = {
        f"{t}.tex": topic_file(t, claims, figures, tick, audience=audience, refs=refs, textwidth=width).encode()
        for t, claims in topics
    }
    files |= {f"figures/{n}.pdf": b for n, b in figures.items()}
    table = rules_table("latex", refs=refs) if rules else None
    if table is not None:
        files["rules.tex"] = table.encode()
    bib, bbl = bibliography(topics, refs)
    files |= {"posproof.sty": style().encode(), "posproof.bib": bib.encode(), "posproof.bbl": bbl.encode()}
    appendix = record_appendix(topics, refs) if audience == "paper" else ""
    doc = latex_document(
        [t for t, _ in topics],
        figures,
        table is not None,
        bool(works_cited(topics)),
        audience=audience,
        appendix=appendix,
        twocolumn=twocolumn,
    )
    files["posproof.tex"] = doc.encode()
    return files, note
