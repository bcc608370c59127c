r"""``posproof plot``: every figure in every file type, the same bytes on every run."""

import sys

import pytest
from posproof.derivations import export, plots
from posproof.derivations.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


MAGIC = {"png": b"\x89PNG", "svg": b"<?xml", "pdf": b"%PDF"}


@pytest.mark.xdist_group("exports")  # with the exports, which draw the figures once per process
@pytest.mark.parametrize("name", list(plots.PLOTS))
def test_every_figure_draws_and_is_deterministic(name):
    pytest.importorskip("matplotlib")
    for suffix in ("svg", "pdf") if name != "sinusoidal-heatmap" else ("svg", "pdf", "png"):
        data = plots.plot_bytes(name, suffix)
        assert data.startswith(MAGIC[suffix])
        # drawn again: by the exports (once per process, for every export of this session), or here
        again = export.draw_all(suffix)[name] if suffix in ("svg", "pdf") else plots.plot_bytes(name, suffix)
        assert again == data, f"{name}.{suffix} differs between runs"


def test_plot_command_writes_the_file(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "heatmap.png"
    code, stdout, _ = run(capsys, "plot", "sinusoidal-heatmap", "--out", str(out))
    assert code == 0 and out.read_bytes().startswith(MAGIC["png"]) and "wrote" in stdout


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["plot", "no-such-figure", "--out", "x.png"], "NAME must be one of"),
        (["plot", "rope-decy", "--out", "x.png"], "got 'rope-decy'; did you mean rope-decay, rope-precision?"),
        (["plot", "t5-buckets", "--out", "x.gif"], "--out must end in .png, .svg, .pdf, got 'x.gif'"),
    ],
)
def test_plot_usage_errors(capsys, argv, fragment):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and fragment in err


def test_the_figure_is_drawn_only_once_out_is_known_to_be_writable(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(plots, "plot_bytes", lambda *a: pytest.fail("drew the figure"))
    (tmp_path / "file").write_text("x")
    code, out, err = run(capsys, "plot", "t5-buckets", "--out", str(tmp_path / "file" / "x.svg"))
    assert code == 2 and out == "" and "--out: cannot create" in err and err.count("\n") == 1


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")
def test_an_out_the_system_refuses_is_one_line_before_drawing(capsys, monkeypatch):
    # as root, /proc/posproof-x passes every permission check and only mkdir says no
    monkeypatch.setattr(plots, "plot_bytes", lambda *a: pytest.fail("drew the figure"))
    monkeypatch.setattr(plots, "available", lambda: True)
    code, out, err = run(capsys, "plot", "t5-buckets", "--out", "/proc/posproof-x/x.svg")
    assert code == 2 and out == "" and err.startswith("posproof: error: --out: cannot") and err.count("\n") == 1


def test_an_error_while_writing_is_one_line(capsys, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    monkeypatch.setattr(plots, "plot_bytes", lambda *a: b"<svg/>")

    def full(path, data):
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(export, "write_atomic", full)
    code, out, err = run(capsys, "plot", "t5-buckets", "--out", str(tmp_path / "x.svg"))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("posproof: error: --out: cannot write ") and "No space left on device" in err


def test_without_matplotlib_the_command_says_how_to_install_it(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(plots, "available", lambda: False)
    code, _, err = run(capsys, "plot", "t5-buckets", "--out", str(tmp_path / "x.svg"))
    assert code == 2 and "pip install 'posproof[plots]'" in err
    code, _, err = run(capsys, "export", "--format", "md", "--out", str(tmp_path / "md"))
    assert code == 0 and "figures left out" in err and not (tmp_path / "md" / "figures").exists()


def drawn(name):
    matplotlib = pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    with matplotlib.rc_context(plots.RC):
        fig = Figure(layout="constrained")
        plots.PLOTS[name].draw(fig)
    return fig


def test_figures_set_their_text_in_computer_modern():
    matplotlib = pytest.importorskip("matplotlib")
    from matplotlib import font_manager

    assert plots.RC["mathtext.fontset"] == "cm" and plots.RC["axes.formatter.use_mathtext"] is True
    assert plots.RC["axes.unicode_minus"] is False  # cmr10 has no U+2212
    with matplotlib.rc_context(plots.RC):
        found = font_manager.findfont(font_manager.FontProperties(family="serif"), fallback_to_default=False)
    assert found.endswith("cmr10.ttf"), found


@pytest.mark.parametrize("name", list(plots.PLOTS))
def test_no_title_is_drawn_inside_a_figure_and_legends_keep_off_the_data(name):
    fig = drawn(name)
    assert fig.get_suptitle() == ""
    for ax in fig.axes:
        assert all(ax.get_title(loc=where) == "" for where in ("left", "center", "right")), name
        assert "$" in ax.get_xlabel() or ax.get_xlabel() == "", (name, ax.get_xlabel())
        legend = ax.get_legend()
        if legend is not None:
            assert legend._loc == 0, name  # loc="best": the corner with the least data under it
            assert legend.get_frame_on(), name
    texts = [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))]
    assert plots.PLOTS[name].title not in texts
