r"""Bad ``posproof sweep`` command lines: each exits 2 with one line naming what is wrong, before any target runs.

The files named are :data:`tests.derivations.refusals.FILES`. ``--scheduler`` rows that need a scheduler to answer
(or ``distributed`` installed) are in ``tests/derivations/test_sweep.py``.
"""

from __future__ import annotations

OK = "rope_ok.py:rope"


def _sweep(*options: str) -> list[str]:
    return ["sweep", OK, *options]


ROWS: list[tuple[list[str], str]] = [
    # ---- the targets
    (["sweep"], "no targets: name config files"),
    (["sweep", "missing.json"], "missing.json: no such config file"),
    (["sweep", "a_dir"], "a_dir: a directory without *.json config files"),
    (["sweep", "rope_ok.py"], "neither a *.json config nor MODULE:FUNCTION"),
    (["sweep", "Not a target"], "'Not a target' is not a target"),
    (["sweep", ""], "a target must not be empty"),
    (["sweep", "missing.py:rope"], "cannot import missing.py: no such file"),
    (["sweep", "rope_ok.py:1rope"], "'1rope' is not a Python name"),
    (["sweep", "config.json", "rope-ok:rope"], "not a dotted module name"),
    (["sweep", "@"], "@FILE needs a file name after @"),
    (["sweep", "@missing.txt"], "@missing.txt: cannot read missing.txt"),
    (["sweep", "@a_dir"], "@a_dir: a directory, not a list of targets"),
    (["sweep", "@latin1.json"], "@latin1.json: not UTF-8 text"),
    (["sweep", "@bad.json"], "@bad.json: '{not json' is not a target"),
    # ---- audit options no target reads, and their values (the audit's own checks)
    (["sweep", "config.json", "--width", "16"], "--width: no target reads it"),
    (["sweep", "config.json", "--call", "q,k,cos,sin@bhsd"], "--call: no target reads it"),
    (_sweep("--layer-type", "full_attention"), "--layer-type: no target reads it"),
    (_sweep("--scheme", "alibi", "--dtype", "float16"), "--dtype: no target reads it"),
    (_sweep("--scheme", "sinusoid"), "--scheme must be one of rope, alibi, t5, got 'sinusoid'"),
    (_sweep("--width", "7"), "--width must be an even integer in [2, 1024], got 7"),
    (_sweep("--width", "\uff16\uff14"), "--width must be an integer in [2, 1024]"),
    (_sweep("--rotary-dim", "3"), "--rotary-dim must be an even integer in [2, 1024], got 3"),
    (_sweep("--base", "1"), "--base must be a real number in (1, 1e+12], got 1"),
    (_sweep("--base", "nan"), "--base must be a real number in (1, 1e+12], got nan"),
    (_sweep("--max-position", "3"), "--max-position must be an integer in [4, 1099511627776], got 3"),
    (_sweep("--tolerance", "0"), "--tolerance must be a real number in (0, 1], got 0"),
    (_sweep("--layout", "diagonal"), "--layout must be auto, interleaved or half, got 'diagonal'"),
    (_sweep("--dtype", "float8"), "--dtype must be bfloat16 or float16, got 'float8'"),
    (_sweep("--call", "nonsense"), "--call: call arguments must be names from"),
    (_sweep("--scaling", "{not json"), "--scaling is not valid JSON"),
    (_sweep("--scaling", "[1, 2]"), "--scaling must be a JSON object (a rope_scaling mapping), got list"),
    (_sweep("--scaling", "@missing.json"), "--scaling @missing.json: cannot read 'missing.json'"),
    (_sweep("--scaling", "@list.json"), "--scaling @list.json must be a JSON object"),
    # ---- running and output
    (_sweep("--timeout", "0"), "--timeout must be a number of seconds in (0, 86400], got 0"),
    (_sweep("--timeout", "inf"), "--timeout must be a number of seconds in (0, 86400], got inf"),
    (_sweep("--timeout", "1e6"), "--timeout must be a number of seconds in (0, 86400], got 1e6"),
    (_sweep("--jobs", "0"), "--jobs must be an integer in [1, 4096], got 0"),
    (_sweep("--jobs", "two"), "--jobs must be an integer in [1, 4096], got 'two'"),
    (_sweep("--scheduler", "tcp://127.0.0.1:8786", "--jobs", "2"), "--jobs runs local processes"),
    (_sweep("--scheduler", ""), "--scheduler must be a scheduler address such as tcp://host:8786, got ''"),
    (_sweep("--scheduler", " tcp://h:1"), "--scheduler must be a scheduler address"),
    (_sweep("--resume"), "--resume needs --out FILE"),
    (_sweep("--out", "a_dir"), "--out must be a file, got the directory 'a_dir'"),
    (_sweep("--out", "not_a_dir/results.jsonl"), "--out: cannot create not_a_dir/results.jsonl"),
    (_sweep("--junit", "report.txt"), "--junit must end in .xml, got 'report.txt'"),
    (_sweep("--format", "xml"), "--format must be one of text, json, got 'xml'"),
]
