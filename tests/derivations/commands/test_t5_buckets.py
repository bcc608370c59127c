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


def test_regression_t5_buckets_huge_max_distance_prints_at_once(capsys):
    # --max-distance 10**15 raised NumPy's "Maximum allowed size exceeded" (every r up to it in one array)
    code, out, _ = run(capsys, "t5-buckets", "--num-buckets", "8", "--max-distance", "9007199254740992")
    assert code == 0 and "max_distance=9007199254740992" in out
    assert out.splitlines()[-1].split() == ["7", "134217728", "+inf", "inf"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--max-distance", "1" + "0" * 30],
         "--max-distance must be an integer in [1, 9007199254740992], got 1" + "0" * 30),
        (["--num-buckets", "100000000"],
         "--num-buckets must be an even integer in [4, 4096] (bidirectional: half the buckets for each side), got "
         "'100000000'"),
        (["--num-buckets", "1024"],
         "--num-buckets 1024 needs --max-distance >= 257 (the 256 distances below it get one bucket each), and "
         "--max-distance is 128 (its default): pass a larger --max-distance or fewer --num-buckets"),
        (["--num-buckets", "64", "--max-distance", "10"],
         "--max-distance must be an integer in [17, 9007199254740992] with --num-buckets 64 (the 16 distances below "
         "it get one bucket each), got 10"),
        (["--num-buckets", "2"],
         "--num-buckets must be an even integer in [4, 4096] (bidirectional: half the buckets for each side), got '2'"),
        (["--num-buckets", "3", "--unidirectional"], "--num-buckets must be an even integer in [2, 4096], got '3'"),
    ],
)  # fmt: skip
def test_regression_t5_buckets_blames_the_option_that_is_wrong(capsys, argv, message):
    # --num-buckets 100000000 was reported as "--max-distance must be an integer >= 25000001"
    code, out, err = run(capsys, "t5-buckets", *argv)
    assert code == 2 and out == "" and err == f"posproof: error: {message}\n"


def test_t5_buckets_defaults_are_the_librarys(capsys):
    from posproof.derivations.commands import t5_buckets
    from posproof.numeric.t5 import T5BucketConfig

    text = _help(capsys, "t5-buckets")
    assert "(default: 32)" in text and "(default: 128)" in text
    assert t5_buckets.DEFAULTS == {"num_buckets": T5BucketConfig.num_buckets, "max_distance": 128}
