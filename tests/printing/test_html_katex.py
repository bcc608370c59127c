r"""Where the HTML printer finds KaTeX (:func:`posproof.printing.html.katex_dir`): ``$POSPROOF_KATEX`` in each of
its spellings, and one that holds no KaTeX said on stderr, once, instead of a silent fall back to MathML. The
KaTeX found is a fake package (a stylesheet): nothing here runs Node.js."""

import pytest

from posproof.printing import html


def package(folder):
    r"""A fake KaTeX package at ``folder`` (what the lookup looks for: ``dist/katex.min.css``)."""
    (folder / "dist").mkdir(parents=True)
    (folder / "dist" / "katex.min.css").write_text(".katex{}", encoding="utf-8")
    return folder


@pytest.fixture
def lookup(monkeypatch, tmp_path):
    r"""``lookup(value)``: :func:`html.katex_dir` with ``$POSPROOF_KATEX`` set to ``value``, the checkout's KaTeX and
    npm's global one replaced by a folder of this test's (none unless the test makes it); the cache cleared before
    and after."""
    monkeypatch.setattr(html, "CHECKOUT_KATEX", tmp_path / "checkout")
    monkeypatch.setattr(html, "_npm_global_root", lambda: tmp_path / "npm-global" / "node_modules")
    html._katex_dir.cache_clear()

    def find(value):
        monkeypatch.setenv("POSPROOF_KATEX", str(value))
        return html.katex_dir()

    yield find
    html._katex_dir.cache_clear()


@pytest.mark.parametrize(
    "named", ["node_modules/katex", "node_modules", "."], ids=["package", "node_modules", "project"]
)
def test_posproof_katex_names_the_package_its_node_modules_or_its_project(lookup, tmp_path, capsys, named):
    found = package(tmp_path / "project" / "node_modules" / "katex")
    assert lookup(tmp_path / "project" / named) == found
    assert capsys.readouterr().err == ""


def test_regression_posproof_katex_naming_a_node_modules_folder_was_silently_dropped(lookup, tmp_path, capsys):
    found = package(tmp_path / "node_modules" / "katex")
    assert lookup(tmp_path / "node_modules") == found  # it used to fall back to MathML without a word


def test_posproof_katex_holding_no_katex_is_said_once_and_the_math_falls_back(lookup, tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert lookup(tmp_path / "empty") is None
    assert lookup(tmp_path / "empty") is None
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"posproof: warning: POSPROOF_KATEX={tmp_path / 'empty'} ")
    assert "node_modules/katex" in err and "MathML" in err


def test_posproof_katex_holding_no_katex_names_the_one_used_instead(lookup, tmp_path, capsys):
    found = package(tmp_path / "npm-global" / "node_modules" / "katex")
    assert lookup(tmp_path / "no-such-folder") == found
    assert f"using {found}" in capsys.readouterr().err


def test_without_posproof_katex_the_checkout_comes_before_npm(lookup, monkeypatch, tmp_path, capsys):
    checkout = package(tmp_path / "checkout" / "node_modules" / "katex")
    package(tmp_path / "npm-global" / "node_modules" / "katex")
    monkeypatch.delenv("POSPROOF_KATEX", raising=False)
    assert html.katex_dir() == checkout and capsys.readouterr().err == ""


def test_regression_a_relative_posproof_katex_is_made_absolute_for_node(lookup, monkeypatch, tmp_path):
    found = package(tmp_path / "project" / "node_modules" / "katex")
    monkeypatch.chdir(tmp_path)
    assert lookup("project") == found and found.is_absolute()  # node's require() reads a relative one as a name
