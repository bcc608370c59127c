r"""The table of bad command lines: every one exits 2 with one line on stderr, nothing on stdout, no traceback,
no file written, within :data:`SECONDS`.

Each ``rows_*.py`` module of this package holds ``ROWS``: ``(argv, expected)`` pairs, where ``expected`` is a
substring of the one-line message (the option as the user typed it, e.g. ``"--width"``). The harness,
``test_refusals.py``, runs them all in-process (and a sample through ``python -m posproof``); files named in
``argv`` live under the test's working directory, made by the fixtures of :data:`FILES`.
"""

#: A refusal must come within this many seconds (it is checked before any work).
SECONDS = 5

#: Files the rows may name, made in the working directory of each row: name -> contents (``None``: a directory;
#: ``b""``-like bytes are written as they are).
FILES: dict[str, str | bytes | None] = {
    "empty.json": "",
    "list.json": "[1, 2, 3]",
    "bad.json": "{not json",
    "latin1.json": b"\xff\xfe{}",
    "config.json": '{"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4, "rope_theta": 10000}',
    "huge.json": '{"model_type": "llama", "hidden_size": 100000000, "num_attention_heads": 1}',
    "a_dir": None,
    "not_a_dir": "a file",
    "syntax_error.py": "def f(:\n",
    "raises.py": "raise RuntimeError('at import')\n",
    "noclaims.py": "x = 1\n",
    "rope_ok.py": "import posproof\ndef rope(x, pos, base=10000.0):\n    return posproof.rope(x, pos, base=base)\n",
    # audit (rows_audit.py): functions and configurations that fail before any audit
    "exits_at_import.py": "import os\nos._exit(0)\n",
    "sys_exit_at_import.py": "import sys\nsys.exit(3)\n",
    "deep.json": "[" * 5000,
    "typo.json": '{"model_type": "lamma", "hidden_size": 64, "num_attention_heads": 4, "rope_theta": 10000}',
    "wide.json": '{"model_type": "llama", "hidden_size": 100000000, "num_attention_heads": 1, "rope_theta": 10000}',
    "no_model_type.json": '{"hidden_size": 64, "num_attention_heads": 4, "rope_theta": 10000}',
    "a_dir.png": None,
    "full_dir": None,
    "full_dir/notes.txt": "not an export's",
    # posproof extend --config (rows_numeric): adversarial model configurations, none naming a model_type (whose
    # defaults would import transformers: seconds)
    "cfg_wide.json": '{"hidden_size": 100000000, "num_attention_heads": 1, "rope_theta": 10000}',
    "cfg_negative.json": '{"head_dim": -64, "rope_theta": 10000, "max_position_embeddings": 4096}',
    "cfg_strings.json": '{"head_dim": "128", "rope_theta": 10000, "max_position_embeddings": 4096}',
    "cfg_theta_string.json": '{"head_dim": 128, "rope_theta": "10000", "max_position_embeddings": 4096}',
    "cfg_theta_nan.json": '{"head_dim": 128, "rope_theta": NaN, "max_position_embeddings": 4096}',
    "cfg_theta_huge.json": '{"head_dim": 128, "rope_theta": 1e300, "max_position_embeddings": 4096}',
    "cfg_factor_huge.json": '{"head_dim": 128, "rope_theta": 10000, "max_position_embeddings": 4096, '
    '"rope_scaling": {"rope_type": "linear", "factor": 1e6}}',
    "cfg_long.json": '{"head_dim": 128, "rope_theta": 10000, "max_position_embeddings": 1073741824}',
    "cfg_no_length.json": '{"head_dim": 128, "rope_theta": 10000}',
    "cfg_deep.json": "[" * 100000 + "]" * 100000,
    "cfg_bigint.json": '{"head_dim": ' + "9" * 5000 + "}",
    "cfg_scaling_list.json": '{"head_dim": 128, "rope_theta": 10000, "rope_scaling": [1, 2]}',
}
