r"""``posproof t5-buckets``: the table and its help."""

import pytest
from posproof.derivations.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _help(capsys, *argv):
    with pytest.raises(SystemExit):
        main([*argv, "--help"])
    return " ".join(capsys.readouterr().out.split())


def test_t5_buckets_table(capsys):
    code, out, _ = run(capsys, "t5-buckets", "--num-buckets", "8", "--max-distance", "16")
    assert code == 0 and "max_exact=2" in out and "(unused)" in out
    code, out, _ = run(capsys, "t5-buckets", "--unidirectional")
    assert code == 0 and "bidirectional=False" in out


def test_regression_t5_max_distance_help_says_what_it_is(capsys):
    # "distance where the last bucket starts" was wrong: with the defaults the last bucket starts at 91
    text = _help(capsys, "t5-buckets")
    assert "where the last bucket starts" not in text
    assert "share the last bucket" in text and "91" in text
    from posproof.numeric import t5_bucket_boundaries

    assert t5_bucket_boundaries()[15] == (15, None, -91)
