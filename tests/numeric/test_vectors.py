r"""Golden vectors: deterministic bytes, atomic writes, and agreement with the float64 kernels."""

import hashlib
import io
import json
import sys

import numpy as np
import pytest
from posproof.derivations.args import INTERRUPTED, Parser, UsageError
from posproof.derivations.commands import vectors as cli_vectors
from posproof.numeric import alibi_slopes, deberta_log_bucket, rope, sinusoidal, t5_relative_bucket, vectors
from posproof.numeric.scaling.rules import rope_inv_freq


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("vectors")
    vectors.write_vectors(out)
    return out


def _load(written, name):
    return json.loads((written / name).read_text())


def test_same_command_writes_the_same_bytes(written, tmp_path):
    again = tmp_path / "again"
    paths = vectors.write_vectors(again)
    assert sorted(p.name for p in paths) == sorted(p.name for p in written.iterdir())
    for p in paths:
        assert p.read_bytes() == (written / p.name).read_bytes(), p.name
    vectors.write_vectors(again)  # overwriting in place gives the same bytes and leaves no temporary file
    assert sorted(p.name for p in again.iterdir()) == sorted(p.name for p in paths)


def test_index_holds_the_hashes(written):
    index = _load(written, "index.json")
    for name, entry in index["files"].items():
        assert hashlib.sha256((written / name).read_bytes()).hexdigest() == entry["sha256"]


def test_every_document_states_precision_and_conventions(written):
    for name in ("sinusoidal.json", "rope.json", "t5.json", "deberta.json", "alibi.json", "multiaxis.json"):
        doc = _load(written, name)
        assert doc["precision"]["dps"] == 50 and doc["precision"]["digits"] == 17
        assert doc["conventions"] and doc["cases"]


def test_reals_have_17_significant_digits(written):
    doc = _load(written, "rope.json")
    for s in doc["cases"][0]["outputs"][3]:
        mantissa = s.split("e")[0].lstrip("-").replace(".", "").lstrip("0")
        assert len(mantissa) == 17 or float(s) == 0.0, s


def test_rope_vectors_cover_both_layouts_and_every_rule(written):
    doc = _load(written, "rope.json")
    names = {c["name"] for c in doc["cases"]}
    for rule in ("default", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope", "partial rotary 0.5"):
        assert {f"{rule}, interleaved", f"{rule}, half"} <= names


def test_rope_vectors_agree_with_the_float64_kernel(written):
    for c in _load(written, "rope.json")["cases"]:
        p = c["parameters"]
        inv, af = rope_inv_freq(p["width"], base=float(p["base"]), scaling=p["scaling"], seq_len=p["seq_len"])
        x = np.array(c["inputs"]["vectors"], dtype=float)
        got = rope(
            x,
            c["inputs"]["positions"],
            layout=p["layout"],
            inv_freq=inv,
            attention_factor=af,
            rotary_dim=p["rotary_dim"],
        )
        # angles up to 1e6 rad: float64 argument reduction costs ~1e6 * 2**-53 ~ 1e-10 absolute
        np.testing.assert_allclose(got, np.array(c["outputs"], dtype=float), atol=1e-9, err_msg=c["name"])
        np.testing.assert_allclose(inv, np.array(c["inv_freq"], dtype=float), rtol=1e-12)


def test_other_schemes_agree_with_the_kernels(written):
    for c in _load(written, "sinusoidal.json")["cases"]:
        p = c["parameters"]
        want = sinusoidal(c["inputs"]["positions"], width=p["width"], layout=p["layout"], frequencies=p["frequencies"])
        np.testing.assert_allclose(np.array(c["outputs"], dtype=float), want, atol=1e-9)
    for c in _load(written, "t5.json")["cases"]:
        p = c["parameters"]
        want = t5_relative_bucket(
            c["inputs"]["relative_position"],
            bidirectional=p["bidirectional"],
            num_buckets=p["num_buckets"],
            max_distance=p["max_distance"],
        )
        assert c["outputs"] == want.tolist()
    for c in _load(written, "deberta.json")["cases"]:
        p = c["parameters"]
        want = deberta_log_bucket(
            c["inputs"]["relative_position"], bucket_size=p["bucket_size"], max_position=p["max_position"]
        )
        assert c["outputs"] == want.tolist()
    for c in _load(written, "alibi.json")["cases"]:
        np.testing.assert_allclose(np.array(c["slopes"], dtype=float), alibi_slopes(c["parameters"]["n_heads"]))


def test_multiaxis_vectors_agree_with_the_float64_kernel(written):
    from posproof.numeric.multiaxis import rope_multiaxis

    for c in _load(written, "multiaxis.json")["cases"]:
        x = np.array(c["inputs"]["vectors"], dtype=float)
        if c["parameters"].get("kernel") == "xdrope":
            from posproof.numeric.multiaxis import rope_xdrope

            got = rope_xdrope(x, c["inputs"]["positions"], mrope_section=c["parameters"]["mrope_section"])
            np.testing.assert_allclose(got, np.array(c["outputs"], dtype=float), rtol=0, atol=1e-11)
            continue
        phase = np.array(c["phase"], dtype=float) if "phase" in c else None
        got = rope_multiaxis(
            x, c["inputs"]["positions"], axes=c["parameters"]["axes"], inv_freq=np.array(c["inv_freq"], dtype=float),
            layout=c["parameters"]["layout"], phase=phase,
        )  # fmt: skip
        np.testing.assert_allclose(got, np.array(c["outputs"], dtype=float), rtol=0, atol=1e-11)


def _run(argv):
    p = Parser(prog="posproof")
    cli_vectors.add_parser(p.add_subparsers(dest="command", required=True, parser_class=Parser))
    args = p.parse_args(["vectors", *argv])
    return args.func(args)


def test_cli_writes_and_refuses_a_file(tmp_path, capsys):
    assert _run(["--out", str(tmp_path / "v")]) == 0
    assert f"wrote {len(vectors.DOCUMENTS) + 1} files" in capsys.readouterr().out  # the documents and the index
    (tmp_path / "file").write_text("x")
    with pytest.raises(UsageError, match="--out must be a directory"):
        _run(["--out", str(tmp_path / "file")])
    with pytest.raises(ValueError, match="out_dir must be a directory"):
        vectors.write_vectors(tmp_path / "file")


def test_regression_golden_vectors_are_readable_by_everyone(tmp_path):
    # they were written mode 0600 (mkstemp's) while exports were 0644: vectors are meant to be shared
    import os
    import stat

    mask = os.umask(0o022)
    try:
        for path in vectors.write_vectors(tmp_path / "v"):
            assert stat.S_IMODE(path.stat().st_mode) == 0o644, path.name
    finally:
        os.umask(mask)


class _Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.fixture
def small(monkeypatch):
    r"""Two tiny documents instead of the real ones: the tests of how the command writes, not of what."""
    documents = {"a.json": lambda: {"cases": [1]}, "b.json": lambda: {"cases": [1, 2]}}
    monkeypatch.setattr(vectors, "DOCUMENTS", documents)
    return documents


def test_write_vectors_tells_progress_of_each_file(small, tmp_path):
    seen = []
    vectors.write_vectors(tmp_path, lambda name, total: seen.append((name, total)))
    assert seen == [("a.json", 3), ("b.json", 3), ("index.json", 3)]
    assert json.loads((tmp_path / "index.json").read_text())["files"]["b.json"]["cases"] == 2


def test_cli_draws_a_bar_on_a_terminal_and_none_when_quiet(small, tmp_path, capsys, monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert _run(["--out", str(tmp_path / "v")]) == 0
    assert "computing [" in terminal.getvalue() and "3/3 index.json" in terminal.getvalue()
    quiet = _Terminal()
    monkeypatch.setattr(sys, "stderr", quiet)
    assert _run(["--out", str(tmp_path / "v"), "-q"]) == 0
    assert quiet.getvalue() == ""
    assert capsys.readouterr().out.startswith("wrote 3 files to ")


def test_cli_checks_out_before_computing(tmp_path, monkeypatch):
    monkeypatch.setattr(vectors, "DOCUMENTS", {"a.json": lambda: pytest.fail("computed")})
    (tmp_path / "file").write_text("x")
    with pytest.raises(UsageError, match="--out: cannot create .*: '.*file' is a file"):
        _run(["--out", str(tmp_path / "file" / "v")])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")
def test_regression_an_out_the_system_refuses_is_refused_before_computing(monkeypatch):
    # as root /proc/posproof-x passed the permission check, and mkdir's error came after the work
    monkeypatch.setattr(vectors, "DOCUMENTS", {"a.json": lambda: pytest.fail("computed")})
    with pytest.raises(UsageError, match="^--out: cannot (create|write to) /proc/posproof-x"):
        _run(["--out", "/proc/posproof-x"])


def test_ctrl_c_says_which_files_were_written_and_leaves_them_whole(small, tmp_path, capsys, monkeypatch):
    def interrupted():
        raise KeyboardInterrupt

    monkeypatch.setitem(small, "b.json", interrupted)
    assert _run(["--out", str(tmp_path / "v")]) == INTERRUPTED
    err = capsys.readouterr().err.strip()
    assert err == f"posproof: interrupted: wrote a.json to {tmp_path / 'v'} before stopping, each whole"
    assert sorted(p.name for p in (tmp_path / "v").iterdir()) == ["a.json"]  # no temporary file, no index


def test_ctrl_c_before_the_first_file_leaves_no_directory(tmp_path, capsys, monkeypatch):
    def interrupted():
        raise KeyboardInterrupt

    monkeypatch.setattr(vectors, "DOCUMENTS", {"a.json": interrupted})
    assert _run(["--out", str(tmp_path / "new" / "v")]) == INTERRUPTED
    assert capsys.readouterr().err.strip() == "posproof: interrupted: nothing written"
    assert not (tmp_path / "new").exists()


def test_an_error_while_writing_is_one_line(small, tmp_path, monkeypatch):
    def full(path, data):
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(vectors, "write_atomic", full)
    with pytest.raises(UsageError, match=r"^--out: cannot write .*a\.json: No space left on device$"):
        _run(["--out", str(tmp_path / "v")])
