r"""What every subcommand shares (:mod:`posproof.derivations.args`): paths checked before work, jobs clamped."""

import os

import pytest
from posproof.derivations import args


def test_output_dir_accepts_a_new_path_and_creates_nothing(tmp_path):
    target = tmp_path / "a" / "b"
    assert args.output_dir(str(target)) == target
    assert not (tmp_path / "a").exists()


def test_output_dir_refuses_a_file_and_a_path_under_a_file(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(args.UsageError, match="--out must be a directory"):
        args.output_dir(str(tmp_path / "f"))
    with pytest.raises(args.UsageError, match="is a file"):
        args.output_dir(str(tmp_path / "f" / "sub"))
    with pytest.raises(args.UsageError, match="--out must name a directory"):
        args.output_dir("")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root may write anywhere")
def test_output_dir_refuses_an_unwritable_parent(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(args.UsageError, match="not writable"):
            args.output_dir(str(locked / "out"), "--out")
    finally:
        locked.chmod(0o700)


def test_output_file_checks_the_suffix_and_a_directory(tmp_path):
    assert args.output_file(str(tmp_path / "r.xml"), "--junit", (".xml",)) == tmp_path / "r.xml"
    with pytest.raises(args.UsageError, match=r"--junit must end in \.xml"):
        args.output_file(str(tmp_path / "r.txt"), "--junit", (".xml",))
    with pytest.raises(args.UsageError, match="--junit must be a file"):
        args.output_file(str(tmp_path), "--junit")


def test_jobs_are_clamped_to_the_cores_with_one_line(capsys):
    n = args.cores()
    assert args.jobs_arg("auto") == n
    assert args.jobs_arg(str(n + 5)) == n
    assert capsys.readouterr().err == f"posproof: --jobs {n + 5} is more than the {n} cores: using {n}\n"
    with pytest.raises(args.UsageError, match=r"--jobs must be an integer in \[1, 4096\]"):
        args.jobs_arg("0")


def test_a_format_and_its_json_alias_set_one_option():
    parser = args.Parser(prog="t")
    args.add_format_option(parser)
    assert parser.parse_args([]).format == "text"
    assert parser.parse_args(["--json"]).format == "json"
    assert parser.parse_args(["--format", "json"]).format == "json"
    with pytest.raises(args.UsageError, match="--format must be one of text, json, got 'yaml'"):
        args.output_format("yaml", args.REPORT_FORMATS)


def test_help_shows_a_default_once_and_none_for_flags():
    parser = args.Parser(prog="t")
    parser.add_argument("--width", default="64", help="head width")
    parser.add_argument("--base", help="the base")
    parser.add_argument("--fast", action="store_true", help="go fast")
    text = " ".join(parser.format_help().split())
    assert "head width (default: 64)" in text
    assert "the base (default" not in text and "go fast (default" not in text


def test_ctrl_c_is_one_line_and_exit_130(capsys):
    def build():
        parser = args.Parser(prog="t")
        parser.set_defaults(func=lambda a: (_ for _ in ()).throw(KeyboardInterrupt))
        return parser

    assert args.run(build, []) == args.INTERRUPTED
    assert capsys.readouterr().err.strip() == "posproof: interrupted"
