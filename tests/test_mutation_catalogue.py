r"""The mutation catalogue follows the code, and its runner tests the code it mutates.

Every mutant's function exists and its pattern occurs exactly once in it (``make mutate`` counts a stale entry as
a failure; this test finds one without running a mutant); the mutated module still parses (a mutant killed by a
``SyntaxError`` tests nothing); the tests it names exist. A copy laid out by the runner imports its own modules,
not the editable install's folders. The anchoring itself (:mod:`tests.mutation.anchor`) survives reformatting and
moves, and refuses what is ambiguous.
"""

import textwrap
from pathlib import Path

import pytest

from tests.mutation.anchor import INSTALLED, Stale, locate, module_file, split_target
from tests.mutation.catalogue import MUTANTS
from tests.mutation.run import imported_files, lay_out, stale_reason

ROOT = Path(__file__).resolve().parents[1]


def test_mutant_ids_are_unique():
    ids = [m.id for m in MUTANTS]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.id for m in MUTANTS])
def test_mutant_applies_to_the_current_code(mutant):
    module, _ = split_target(mutant.target)
    assert module.split(".")[0] == "posproof", mutant.target
    assert mutant.new.strip() != mutant.pattern.strip()
    reason = stale_reason(mutant)
    assert reason is None, f"{mutant.id} is stale: {reason} (update tests/mutation/catalogue.py)"


def test_a_copy_imports_its_own_code(tmp_path):
    lay_out(tmp_path)
    modules = ["posproof", "posproof.symbolic.engine.core", "posproof.numeric.rotary", "posproof.derivations.cli"]
    files = imported_files(tmp_path, modules)
    for module in modules:
        assert files[module] == module_file(module, tmp_path, INSTALLED).resolve()
        assert files[module].is_relative_to(tmp_path.resolve()), (module, files[module])


# ---- the anchoring, on a small package of its own -----------------------------------------------------------------


def _package(tmp_path, source: str) -> dict[str, str]:
    (tmp_path / "src" / "sub").mkdir(parents=True)
    (tmp_path / "src" / "__init__.py").write_text("")
    (tmp_path / "src" / "sub" / "__init__.py").write_text("")
    (tmp_path / "src" / "sub" / "mod.py").write_text(textwrap.dedent(source))
    return {"pkg": "src"}


SOURCE = """\
    LIMIT = 10


    def f(x, y):
        if x > LIMIT:
            return x
        elif y > LIMIT:
            return y
        return min(x, y)


    class C:
        def m(self, a):
            total = sum(a,
                        start=0)
            return total
"""


def test_a_pattern_matches_whatever_the_whitespace(tmp_path):
    dirs = _package(tmp_path, SOURCE)
    site = locate("pkg.sub.mod:C.m", "total = sum(a, start=0)", tmp_path, dirs)
    assert site.text[site.start : site.end].startswith("total = sum(a,\n")
    site = locate("pkg.sub.mod:C.m", "sum(\n    a, start=0\n)", tmp_path, dirs)  # joined or split at brackets
    assert site.text[site.start : site.end] == "sum(a,\n                    start=0)"


def test_a_pattern_matches_only_inside_its_function_at_word_boundaries(tmp_path):
    dirs = _package(tmp_path, SOURCE)
    site = locate("pkg.sub.mod:f", "if x > LIMIT:", tmp_path, dirs)
    assert site.text[site.start - 4 : site.start] == "    "
    with pytest.raises(Stale, match="0 times"):
        locate("pkg.sub.mod:f", "if y > LIMIT:", tmp_path, dirs)  # only `elif y > LIMIT:` is there
    with pytest.raises(Stale, match="2 times"):
        locate("pkg.sub.mod:f", "> LIMIT:", tmp_path, dirs)
    with pytest.raises(Stale, match="0 times"):
        locate("pkg.sub.mod:C.m", "return x", tmp_path, dirs)  # in f, not in C.m
    with pytest.raises(Stale, match="no function or class g"):
        locate("pkg.sub.mod:g", "return x", tmp_path, dirs)
    with pytest.raises(Stale, match="not found"):
        locate("pkg.sub.other:f", "return x", tmp_path, dirs)


def test_module_level_is_only_outside_every_function(tmp_path):
    dirs = _package(tmp_path, SOURCE)
    site = locate("pkg.sub.mod", "LIMIT = 10", tmp_path, dirs)
    assert site.mutated("LIMIT = 40").startswith("LIMIT = 40\n")
    with pytest.raises(Stale, match="inside f"):
        locate("pkg.sub.mod", "return min(x, y)", tmp_path, dirs)


def test_a_replacement_takes_the_indentation_of_its_place(tmp_path):
    dirs = _package(tmp_path, SOURCE)
    site = locate("pkg.sub.mod:f", "if x > LIMIT:\n    return x", tmp_path, dirs)
    mutated = site.mutated("if x >= LIMIT:\n    return x")
    assert "    if x >= LIMIT:\n        return x\n    elif y > LIMIT:" in mutated
    deleted = locate("pkg.sub.mod:C.m", "return total", tmp_path, dirs).mutated("")
    assert deleted.endswith("start=0)\n")  # whole lines deleted, nothing left of them
    compile(deleted, "mod.py", "exec")
