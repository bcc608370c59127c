r"""A scheme is one place: the files a scheme owns, and no scheme named where the catalogue is gathered.

Adding a scheme is its module in ``symbolic/`` (its claims, and as data its rows of the rules table
``RULES_ROWS``, its annotations of the texts ``ANNOTATIONS``, its named parts ``SYMBOLS``), its module in
``numeric/``, their tests and one line of :data:`posproof.symbolic.registry.MODULES` (docs/architecture.md, "Adding a
scheme"). So the code that gathers them, ``posproof properties``, ``posproof annotate`` and the printer, names no
scheme: no claim id, no scheme module, no scheme's word or printed name.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest
from posproof.symbolic import registry, tables

ROOT = Path(__file__).resolve().parents[1]

#: Two schemes and what each owns: its registry line, its files, and what its module declares.
SCHEMES = {
    "ALiBi": {
        "module": "alibi",
        "files": (
            "symbolic/alibi.py",  # claims and the rules table's row
            "numeric/alibi.py",  # the kernels and their mpmath twins
            "numeric/audit/alibi.py",  # the audit of a user's ALiBi
            "tests/numeric/test_alibi.py",
            "tests/audit_corpus/alibi_impls.py",
            "tests/golden/alibi-translation-invariant.tex",  # one golden file per claim
        ),
        "claims": (
            "alibi-translation-invariant",
            "alibi-monotone-decay",
            "alibi-slopes-geometric",
            "alibi-slopes-non-power-of-two",
        ),  # fmt: skip
        "rows": ("ALiBi",),
        "symbols": (),
    },
    "YaRN": {
        "module": "scaling.yarn",
        "files": (
            "symbolic/scaling/yarn.py",  # claims, the row, the named parts of its formulas
            "numeric/scaling/rules.py",  # one kernel for every rule (rope_type 'yarn' among them)
            "tests/symbolic/scaling/test_scaling.py",
            "tests/numeric/scaling/test_rules.py",
            "tests/golden/extension-yarn-inv-freq.tex",
        ),
        "claims": ("extension-yarn-correction-dimension", "extension-yarn-inv-freq"),
        "rows": ("RoPE + YaRN",),
        "symbols": ("gamma_i", "low", "high", "c(32)", "c(1)"),
    },
}

#: The code that gathers what the scheme modules declare: it names no scheme.
GATHERERS = ("derivations/commands/properties.py", "derivations/commands/annotate.py", "posproof/printing")
#: What the gatherers may import of the catalogue: the registry, the data's types, the engine, the works cited.
CATALOGUE_ALLOWED = (
    "posproof.symbolic.registry",
    "posproof.symbolic.tables",
    "posproof.symbolic.engine",
    "posproof.symbolic.sources",
)
#: Words that name a scheme (in code: identifiers and strings that are not docstrings).
SCHEME_WORDS = re.compile(
    r"(?i)(?<![a-z])(yarn|llama|alibi|ntk|deberta|t5|xpos|longrope|transformer_xl|txl|rope|sinusoid|multiaxis|mrope)"
    r"(?![a-z])"
)


def _module(name: str):
    return importlib.import_module(f"posproof.symbolic.{name}")


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
def test_a_scheme_owns_its_files_and_one_registry_line(scheme):
    own = SCHEMES[scheme]
    assert registry.MODULES.count(own["module"]) == 1
    missing = [f for f in own["files"] if not (ROOT / f).is_file()]
    assert not missing, f"{scheme}: {missing}"
    assert set(own["claims"]) <= {c.id for c in registry.module(own["module"])}
    module = _module(own["module"])
    assert tuple(row.name for row in getattr(module, "RULES_ROWS", ())) == own["rows"]
    names = [str(part.name) for part in getattr(module, "SYMBOLS", ()) if part not in _shared()]
    assert tuple(dict.fromkeys(names)) == own["symbols"]


def _shared() -> set:
    r"""Named parts that several modules print with (each declares them; the registry keeps one)."""
    seen: dict = {}
    for name in registry.MODULES:
        for part in getattr(_module(name), "SYMBOLS", ()):
            seen.setdefault(part, set()).add(name)
    return {part for part, names in seen.items() if len(names) > 1}


def test_every_row_annotation_and_named_part_is_declared_by_a_registered_module():
    declared = {
        kind: [item for name in registry.MODULES for item in getattr(_module(name), kind, ())]
        for kind in ("RULES_ROWS", "ANNOTATIONS", "SYMBOLS")
    }
    assert sorted(declared["RULES_ROWS"], key=lambda r: r.order) == list(registry.rules_rows())
    assert sorted(declared["ANNOTATIONS"], key=lambda a: a.order) == list(registry.statements())
    assert list(dict.fromkeys(declared["SYMBOLS"])) == list(registry.symbols())
    assert all(isinstance(r, tables.Row) for r in declared["RULES_ROWS"])
    assert all(isinstance(a, tables.Annotation) for a in declared["ANNOTATIONS"])
    assert all(isinstance(s, tables.Name) for s in declared["SYMBOLS"])
    cited = [c.claim for r in declared["RULES_ROWS"] for c in (*r.cells, r.length)]
    cited += [a.claim for a in declared["ANNOTATIONS"] if a.claim is not None]
    assert set(cited) <= set(registry.ids())


# ---- the gatherers name no scheme ------------------------------------------------------------------------------


def _sources() -> list[Path]:
    out: list[Path] = []
    for where in GATHERERS:
        path = ROOT / where
        out += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return out


def _docstrings(tree: ast.AST) -> set[int]:
    nodes = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, nodes) and node.body and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant) and isinstance(node.body[0].value.value, str)
    }  # fmt: skip


def scheme_names(source: str, claim_ids, printed_names) -> list[str]:
    r"""What in ``source`` names a scheme: a claim id anywhere (docstrings and comments too), an import of the
    catalogue beyond :data:`CATALOGUE_ALLOWED`, and in code (identifiers, strings that are not docstrings) a
    scheme's word or a name a scheme's formulas print."""
    found = [f"claim id {c}" for c in claim_ids if re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", source)]
    tree = ast.parse(source)
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if isinstance(node, ast.ImportFrom) and node.module == "posproof.symbolic":
                names = [f"posproof.symbolic.{a.name}" for a in node.names]
            found += [f"import {n}" for n in names if n.startswith("posproof.symbolic.")
                      and not n.startswith(CATALOGUE_ALLOWED)]  # fmt: skip
        words = []
        if isinstance(node, ast.Name):
            words = [node.id]
        elif isinstance(node, ast.Attribute):
            words = [node.attr]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            words = [node.value]
            found += [
                f"printed name {p!r}" for p in printed_names if re.search(rf"(?<!\w){re.escape(p)}(?!\w)", node.value)
            ]
        words = [w.replace("RoPE note", "") for w in words]  # the name of a text, not of a scheme
        found += [f"word {m.group(0)!r} in {w[:40]!r}" for w in words for m in SCHEME_WORDS.finditer(w)]
    return found


def _printed_names() -> list[str]:
    r"""The names the scheme modules' formulas print with that a scheme gives them (``gamma_i``, not ``low``)."""
    return sorted({str(part.name) for part in registry.symbols() if "_" in str(part.name)})


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_gatherers_name_no_scheme(path):
    found = scheme_names(path.read_text(encoding="utf-8"), registry.ids(), _printed_names())
    assert not found, f"{path.relative_to(ROOT)} names a scheme: {found}"


@pytest.mark.parametrize(
    "source, what",
    [
        ('ROW = Cell("alibi-monotone-decay", "holds")\n', "claim id alibi-monotone-decay"),
        ("from posproof.symbolic.scaling import yarn\n", "import posproof.symbolic.scaling"),
        ("from posproof.symbolic import alibi\n", "import posproof.symbolic.alibi"),
        ('gamma = sp.Symbol("gamma_i")\n', "printed name 'gamma_i'"),
        ("def f(x):\n    return x.llama3_bands\n", "word 'llama'"),
    ],
)
def test_the_check_finds_a_scheme(source, what):
    found = scheme_names(source, registry.ids(), _printed_names())
    assert any(f.startswith(what) for f in found), found


def test_a_docstring_may_mention_a_scheme_in_words():
    source = 'def f():\n    r"""Prints ``rope_mp`` and YaRN as any other."""\n    return 1\n'
    assert scheme_names(source, registry.ids(), _printed_names()) == []
