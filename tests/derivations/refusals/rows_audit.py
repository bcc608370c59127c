r"""Bad ``posproof audit`` command lines: each exits 2 with one line naming what is wrong, before any audit.

The files named are :data:`tests.derivations.refusals.FILES` (``rope_ok.py``, the JSON files). A function that raises
on a plain call is refused too, but only after posproof has tried it with torch tensors (an import of torch: seconds),
so it is tested in ``tests/numeric/audit/test_audit.py``, not here.
Rows about a ``model_type`` transformers does not know are added only where transformers is installed (it is
imported to know the model types); every other ``--transformers`` row is refused the same way without it.
"""

from __future__ import annotations

import importlib.util

OK = "rope_ok.py:rope"
ROPE = [OK, "--scheme", "rope"]


def _rope(*options: str) -> list[str]:
    return ["audit", *ROPE, *options]


ROWS: list[tuple[list[str], str]] = [
    # ---- what to audit
    (["audit"], "give the function to audit as MODULE:FUNCTION"),
    (["audit", "rope_ok.py", "--scheme", "rope"], "give the function as MODULE:FUNCTION"),
    (["audit", ":rope", "--scheme", "rope"], "give the function as MODULE:FUNCTION"),
    (["audit", "rope_ok.py:", "--scheme", "rope"], "give the function as MODULE:FUNCTION"),
    (["audit", "missing.py:rope", "--scheme", "rope"], "cannot import missing.py: no such file"),
    (["audit", "a_dir/rope.py:rope", "--scheme", "rope"], "cannot import a_dir/rope.py: no such file"),
    (["audit", "no_such_module:rope", "--scheme", "rope"], "cannot import no_such_module"),
    (["audit", "rope-ok:rope", "--scheme", "rope"], "not a dotted module name"),
    (["audit", "rope_ok.py:1rope", "--scheme", "rope"], "'1rope' is not a Python name"),
    (["audit", "syntax_error.py:f", "--scheme", "rope"], "cannot import syntax_error.py: syntax error"),
    (["audit", "syntax_error:f", "--scheme", "alibi"], "cannot import syntax_error: syntax error"),
    (["audit", "raises.py:rope", "--scheme", "rope"], "importing raises.py raised RuntimeError: at import"),
    (["audit", "raises:slopes", "--scheme", "alibi"], "importing raises raised RuntimeError"),
    (["audit", "exits_at_import.py:rope", "--scheme", "rope"], "importing exits_at_import.py called os._exit(0)"),
    (["audit", "sys_exit_at_import.py:rope", "--scheme", "t5"], "importing sys_exit_at_import.py raised SystemExit(3)"),
    (["audit", "rope_ok.py:rop", "--scheme", "rope"], "has no function 'rop' (did you mean rope?)"),
    (["audit", "rope_ok:rope.inner", "--scheme", "rope"], "has no function 'rope.inner'"),
    (["audit", "a_dir:rope", "--scheme", "rope"], "module a_dir has no function 'rope'"),
    (["audit", "noclaims.py:x", "--scheme", "rope"], "noclaims.py:x is not callable (it is a int)"),
    # ---- the scheme, and options of another scheme
    (["audit", OK], "--scheme is required with MODULE:FUNCTION"),
    (["audit", OK, "--scheme", "sinusoid"], "--scheme must be one of rope, alibi, t5, got 'sinusoid'"),
    (["audit", OK, "--scheme", "ROPE"], "--scheme must be one of rope, alibi, t5, got 'ROPE'"),
    (["audit", OK, "--scheme", ""], "--scheme must be one of rope, alibi, t5, got ''"),
    (["audit", OK, "--scheme", "alibi", "--width", "8"], "--width only apply to --scheme rope"),
    (["audit", OK, "--scheme", "t5", "--axial"], "--axial only apply to --scheme rope"),
    (["audit", OK, "--scheme", "alibi", "--scaling", "{}"], "--scaling only apply to --scheme rope"),
    (["audit", OK, "--scheme", "rope", "--layer-type", "full_attention"], "--layer-type only applies with"),
    # ---- numeric options: wrong types, too small, too large, NaN, inf, empty, other scripts' digits
    (_rope("--width", "7"), "--width must be an even integer in [2, 1024], got 7"),
    (_rope("--width", "0"), "--width must be an integer in [2, 1024], got 0"),
    (_rope("--width", "-2"), "--width must be an integer in [2, 1024], got -2"),
    (_rope("--width", "100000000"), "--width must be an integer in [2, 1024], got 100000000"),
    (_rope("--width", "64.0"), "--width must be an integer in [2, 1024], got '64.0'"),
    (_rope("--width", "nan"), "--width must be an integer in [2, 1024], got 'nan'"),
    (_rope("--width", ""), "--width must be an integer in [2, 1024], got ''"),
    (_rope("--width", "\uff16\uff14"), "--width must be an integer in [2, 1024], got"),
    (_rope("--rotary-dim", "3"), "--rotary-dim must be an even integer in [2, 1024], got 3"),
    (_rope("--rotary-dim", "inf"), "--rotary-dim must be an integer in [2, 1024], got 'inf'"),
    (_rope("--width", "16", "--rotary-dim", "32"), "--rotary-dim must be at most --width = 16, got 32"),
    (_rope("--max-position", "3"), "--max-position must be an integer in [4, 1099511627776], got 3"),
    (_rope("--max-position", "99999999999999999999"), "--max-position must be an integer in [4, 1099511627776]"),
    (_rope("--max-position", "1e6"), "--max-position must be an integer in [4, 1099511627776], got '1e6'"),
    (_rope("--max-position", "-1"), "--max-position must be an integer in [4, 1099511627776], got -1"),
    (_rope("--base", "1"), "--base must be a real number in (1, 1e+12], got 1"),
    (_rope("--base", "0.5"), "--base must be a real number in (1, 1e+12], got 0.5"),
    (_rope("--base", "nan"), "--base must be a real number in (1, 1e+12], got nan"),
    (_rope("--base", "inf"), "--base must be a real number in (1, 1e+12], got inf"),
    (_rope("--base", "1e13"), "--base must be a real number in (1, 1e+12], got 1e13"),
    (_rope("--base", "ten"), "--base must be a real number in (1, 1e+12], got 'ten'"),
    (_rope("--base", "0x10"), "--base must be a real number in (1, 1e+12], got '0x10'"),
    (_rope("--base", ""), "--base must be a real number in (1, 1e+12], got ''"),
    (_rope("--base", "\u0661\u0660\u0660"), "--base must be a real number in (1, 1e+12]"),
    (_rope("--tolerance", "0"), "--tolerance must be a real number in (0, 1], got 0"),
    (_rope("--tolerance=-1e-3"), "--tolerance must be a real number in (0, 1], got -1e-3"),
    (_rope("--tolerance", "2"), "--tolerance must be a real number in (0, 1], got 2"),
    (_rope("--tolerance", "nan"), "--tolerance must be a real number in (0, 1], got nan"),
    (_rope("--tolerance", "1e-3x"), "--tolerance must be a real number in (0, 1], got '1e-3x'"),
    (_rope("--timeout", "0"), "--timeout must be a number of seconds in (0, 86400], got 0"),
    (_rope("--timeout", "-5"), "--timeout must be a number of seconds in (0, 86400], got -5"),
    (_rope("--timeout", "1e9"), "--timeout must be a number of seconds in (0, 86400], got 1e9"),
    (_rope("--timeout", "inf"), "--timeout must be a number of seconds in (0, 86400], got inf"),
    (_rope("--timeout", "nan"), "--timeout must be a number of seconds in (0, 86400], got nan"),
    (_rope("--timeout", "soon"), "--timeout must be a number of seconds in (0, 86400], got 'soon'"),
    (["audit", OK, "--scheme", "alibi", "--timeout", ""], "--timeout must be a number of seconds in (0, 86400]"),
    # ---- other RoPE options
    (_rope("--layout", "diagonal"), "--layout must be auto, interleaved or half, got 'diagonal'"),
    (_rope("--dtype", "float8"), "--dtype must be bfloat16 or float16, got 'float8'"),
    (_rope("--call", "q,positions"), "--call: call arguments need either vectors, or both q and k"),
    (_rope("--call", "vectors,positions@xyz"), "--call: call axes must be one of"),
    (_rope("--call", ""), "--call: call must be a text like"),
    (_rope("--call", "vectors,vectors,positions"), "--call: call arguments must not repeat"),
    # ---- --scaling: malformed and adversarial JSON, wrong types of known keys, bad files
    (_rope("--scaling", "[1]"), "--scaling must be a JSON object (a rope_scaling mapping), got list"),
    (_rope("--scaling", '"yarn"'), "--scaling must be a JSON object (a rope_scaling mapping), got str"),
    (_rope("--scaling", "{not json"), "--scaling is not valid JSON"),
    (_rope("--scaling", ""), "--scaling is not valid JSON"),
    (_rope("--scaling", "[" * 5000), "--scaling is nested too deeply"),
    (_rope("--scaling", '{"factor": 1' + "0" * 5000 + "}"), "--scaling holds a number too large to read"),
    (_rope("--scaling", '{"rope_type": "linear", "factor": 1e999}'), "--scaling: factor must be a finite real"),
    (_rope("--scaling", '{"rope_type": "linear", "factor": NaN}'), "--scaling: factor must be a finite real"),
    (_rope("--scaling", '{"rope_type": "linear", "factor": "2"}'), "--scaling: factor must be a finite real"),
    (_rope("--scaling", '{"rope_type": "linear", "factor": [2]}'), "--scaling: factor must be a finite real"),
    (_rope("--scaling", '{"rope_type": 3}'), "--scaling: rope_type must be one of"),
    (_rope("--scaling", '{"rope_type": "magic"}'), "--scaling: rope_type must be one of"),
    (_rope("--scaling", '{"bogus": 1}'), "unknown key 'bogus' in --scaling"),
    (_rope("--scaling", '{"partial_rotary_factor": 0}'), "--scaling: partial_rotary_factor must be"),
    (_rope("--scaling", '{"partial_rotary_factor": {"a": 1}}'), "--scaling: partial_rotary_factor must be"),
    (_rope("--scaling", '{"rope_type": "yarn", "factor": 4}'), "add max_position_embeddings to --scaling"),
    (
        _rope(
            "--scaling",
            '{"rope_type": "longrope", "short_factor": [1], "long_factor": [1], '
            '"original_max_position_embeddings": 4096}',
        ),  # fmt: skip
        "--scaling: short_factor must be a list of 32",
    ),
    (
        _rope("--scaling", '{"rope_type": "dynamic", "factor": 2, "max_position_embeddings": "x"}'),
        "--scaling: max_position_embeddings must be an integer",
    ),
    (_rope("--scaling", '{"mrope_section": "2,3,3"}'), "--scaling: mrope_section must be a list of integers"),
    (_rope("--scaling", '{"mrope_section": [1, 1]}'), "--scaling: mrope_section must add up to width/2 = 32"),
    (_rope("--scaling", '{"mrope_section": [32], "mrope_interleaved": "yes"}'), "mrope_interleaved must be"),
    (_rope("--scaling", '{"rope_type": "axial", "factor": 2}'), "--scaling: rope_type 'axial'"),
    (_rope("--scaling", "@missing.json"), "--scaling @missing.json: cannot read missing.json"),
    (_rope("--scaling", "@a_dir"), "--scaling @a_dir: a directory, not a JSON file"),
    (_rope("--scaling", "@latin1.json"), "--scaling @latin1.json: not UTF-8 text"),
    (_rope("--scaling", "@list.json"), "--scaling @list.json must be a JSON object"),
    (_rope("--scaling", "@bad.json"), "--scaling @bad.json is not valid JSON"),
    (_rope("--scaling", "@empty.json"), "--scaling @empty.json is not valid JSON"),
    (_rope("--scaling", "@deep.json"), "--scaling @deep.json is nested too deeply"),
    (_rope("--scaling", "@"), "--scaling @FILE needs a file name after @"),
    # ---- multi-axis RoPE
    (_rope("--width", "16", "--mrope-section", "2,3"), "--mrope-section must add up to --width/2 = 8"),
    (_rope("--mrope-section", "x"), "--mrope-section must be 1 to 8 comma-separated integers >= 0"),
    (_rope("--mrope-section", ""), "--mrope-section must be 1 to 8 comma-separated integers >= 0"),
    (_rope("--mrope-section", "1,1,1,1,1,1,1,1,24"), "--mrope-section must be 1 to 8 comma-separated integers"),
    (_rope("--mrope-section", "16,8,8.0"), "--mrope-section must be 1 to 8 comma-separated integers >= 0"),
    (_rope("--mrope-interleaved"), "--mrope-interleaved needs --mrope-section"),
    (_rope("--axial", "--mrope-section", "16,8,8"), "--axial and --mrope-section/--mrope-interleaved exclude"),
    (_rope("--axial", "--width", "6"), "--axial needs --width a multiple of 4 (d/4 pairs per axis), got 6"),
    (_rope("--mrope-section", "16,8,8", "--call", "q,k,cos,sin"), "--call: not read by a multi-axis audit"),
    (_rope("--mrope-section", "16,8,8", "--dtype", "float16"), "--dtype: not read by a multi-axis audit"),
    (_rope("--axial", "--rotary-dim", "32"), "--rotary-dim: axial 2-D RoPE rotates every pair"),
    (_rope("--mrope-section", "16,8,8", "--scaling", '{"mrope_section": [16, 8, 8]}'), "--scaling already gives"),
    # ---- --inv-freq FILE, --axes FILE, the new --call forms
    (_rope("--inv-freq", "missing.json"), "--inv-freq: cannot read missing.json"),
    (_rope("--inv-freq", "a_dir"), "--inv-freq a_dir: a directory, not a JSON or .npy file"),
    (_rope("--inv-freq", ""), "--inv-freq must name a file"),
    (_rope("--inv-freq", "bad.json"), "--inv-freq bad.json is not valid JSON"),
    (_rope("--inv-freq", "empty.json"), "--inv-freq empty.json is not valid JSON"),
    (_rope("--inv-freq", "latin1.json"), "--inv-freq latin1.json: not UTF-8 text"),
    (_rope("--inv-freq", "deep.json"), "--inv-freq deep.json is nested too deeply"),
    (_rope("--inv-freq", "config.json"), "--inv-freq config.json must hold a non-empty list of numbers, got dict"),
    (
        _rope("--inv-freq", "list.json", "--scaling", '{"partial_rotary_factor": 0.5}'),
        "--inv-freq must have one entry per rotated pair (16 for the rotary width 32), got 3",
    ),
    (_rope("--inv-freq", "list.json", "--rotary-dim", "8"), "--inv-freq must have --rotary-dim/2 = 4 entries, got 3"),
    (_rope("--width", "4", "--inv-freq", "list.json"), "--inv-freq must be a list of 1 to width/2 = 2 frequencies"),
    (_rope("--axes", "missing.json"), "--axes: cannot read missing.json"),
    (_rope("--axes", "bad.json"), "--axes bad.json is not valid JSON"),
    (_rope("--axes", "config.json"), "--axes config.json must hold a non-empty list of integers >= 0, got dict"),
    (_rope("--axes", "list.json", "--axial"), "--axes and --mrope-section/--axial exclude each other"),
    (_rope("--axes", "list.json", "--dtype", "float16"), "--dtype: not read by a multi-axis audit (--axes)"),
    (_rope("--axes", "list.json", "--call", "vectors,offset"), "--call: not read by a multi-axis audit (--axes)"),
    (_rope("--axes", "list.json", "--rotary-dim", "8"), "--axes must give one axis per rotated pair: 4, got 3"),
    (_rope("--call", "vectors,positions,offset"), "--call: call arguments: offset (the position of row 0) excludes"),
    (_rope("--call", "q,k,cos,sin,offset"), "--call: call arguments: offset (the position of row 0) excludes"),
    (_rope("--scaling", '{"rope_type": "axial"}', "--call", "vectors"), "--call: not read by a multi-axis audit"),
    (_rope("--scaling", '{"rope_type": "xpos"}', "--dtype", "float16"), "--dtype: not read by an xPos audit"),
    (_rope("--scaling", '{"rope_type": "xpos"}', "--inv-freq", "list.json"), "--inv-freq: not read by an xPos"),
    (_rope("--scaling", '{"rope_type": "xpos", "gamma": -1}'), "--scaling['gamma'] must be a finite real number > 0"),
    (["audit", OK, "--scheme", "alibi", "--inv-freq", "list.json"], "--inv-freq only apply to --scheme rope"),
    (["audit", "--transformers", "config.json", "--axes", "list.json"], "--axes: --transformers takes them from"),
    # ---- output
    (_rope("--format", "yaml"), "--format must be one of text, json, got 'yaml'"),
    (_rope("--junit", "a_dir"), "--junit must end in .xml, got 'a_dir'"),
    (_rope("--junit", "out.txt"), "--junit must end in .xml, got 'out.txt'"),
    (_rope("--junit", ""), "--junit must name a file, got ''"),
    (_rope("--junit", "not_a_dir/out.xml"), "--junit: cannot create not_a_dir/out.xml"),
    (["audit", "exits_at_import.py:rope", "--scheme", "rope", "--junit", "x.txt"], "--junit must end in .xml"),
    # ---- --transformers
    (["audit", "--transformers", "missing.json"], "--transformers missing.json: cannot read missing.json"),
    (["audit", "--transformers", "a_dir"], "--transformers a_dir: a_dir is a directory"),
    (["audit", "--transformers", "list.json"], "--transformers list.json: list.json must hold a JSON object"),
    (["audit", "--transformers", "bad.json"], "--transformers bad.json: bad.json is not valid JSON"),
    (["audit", "--transformers", "empty.json"], "--transformers empty.json: empty.json is not valid JSON"),
    (["audit", "--transformers", "latin1.json"], "--transformers latin1.json: latin1.json is not UTF-8 text"),
    (["audit", "--transformers", "deep.json"], "--transformers deep.json: deep.json is nested too deeply"),
    (["audit", "--transformers", "a/b"], "--transformers a/b: 'a/b' is neither a config.json file nor a model_type"),
    (["audit", "--transformers", "config.json", OK], "give either MODULE:FUNCTION or --transformers, not both"),
    (["audit", "--transformers", "config.json", "--width", "8"], "--width: --transformers takes them from"),
    (["audit", "--transformers", "config.json", "--scaling", "{}"], "--scaling: --transformers takes them from"),
    (["audit", "--transformers", "config.json", "--scheme", "alibi"], "--scheme must be rope or absent"),
    (["audit", "--transformers", "config.json", "--max-position", "2"], "--max-position must be an integer in [4"),
    (["audit", "--transformers", "config.json", "--timeout", "0"], "--timeout must be a number of seconds"),
    (["audit", "--transformers", "config.json", "--format", "yaml"], "--format must be one of text, json"),
    (["audit", "--transformers", "config.json", "--layer-type", "full"], "--layer-type: config.json gives every"),
    (["audit", "--transformers", "wide.json"], "--transformers wide.json"),
    (["audit", "--transformers", "no_model_type.json"], "--transformers no_model_type.json: the config has no"),
]

if importlib.util.find_spec("transformers") is not None:
    # Knowing the model types is importing transformers (seconds, once per process): imported here, so that these
    # rows time posproof's refusal, as every other row does, and an import cut short by the time limit cannot
    # leave torch half-imported for the rows after them.
    importlib.import_module("transformers.models.auto.configuration_auto")
    ROWS += [
        (["audit", "--transformers", "typo.json"], "model_type 'lamma' is not one transformers"),
        (["audit", "--transformers", "lamma"], "did you mean llama"),
    ]
