r"""Bad ``posproof check`` command lines: each is refused in one line naming the option as typed, before any claim
is verified (the rows naming catalogue ids build the catalogue to know its ids; nothing is verified)."""

from posproof.symbolic import registry

CATALOGUE = "posproof.symbolic.alibi"  # a catalogue module as --claims: its claims load in a fraction of a second

# The rows naming catalogue ids need the catalogue's ids, which only building every module's claims gives (seconds,
# once per process: no refusal can be faster than that the first time). Built here, when the table is collected, so
# that the bound of each row measures the refusal itself.
registry.all()

ROWS: list[tuple[list[str], str]] = [
    # ids
    (["check", "nope"], "unknown identity id 'nope'"),
    (["check", "sinusoidal-nrom"], "did you mean sinusoidal-norm"),
    (["check", "sinusoidal-norm", "nope-2"], "unknown identity id 'nope-2'"),
    (["check", ""], "unknown identity id ''"),
    (["check", "nope", "--claims", CATALOGUE], "--claims: the module has no claim 'nope'"),
    # --dps: not an integer, out of range, not written in ASCII digits
    (["check", "--dps", "many"], "--dps must be an integer in [20, 1000], got 'many'"),
    (["check", "--dps", "5"], "--dps must be an integer in [20, 1000], got 5"),
    (["check", "--dps", "19"], "--dps must be an integer in [20, 1000], got 19"),
    (["check", "--dps", "1001"], "--dps must be an integer in [20, 1000], got 1001"),
    (["check", "--dps", "100000000000"], "--dps must be an integer in [20, 1000], got 100000000000"),
    (["check", "--dps", "9" * 5000], "--dps must be an integer in [20, 1000], got '9999"),
    (["check", "--dps", "0"], "--dps must be an integer in [20, 1000], got 0"),
    (["check", "--dps", "-50"], "--dps must be an integer in [20, 1000], got -50"),
    (["check", "--dps", "50.0"], "--dps must be an integer in [20, 1000], got '50.0'"),
    (["check", "--dps", "5e1"], "--dps must be an integer in [20, 1000], got '5e1'"),
    (["check", "--dps", "nan"], "--dps must be an integer in [20, 1000], got 'nan'"),
    (["check", "--dps", "inf"], "--dps must be an integer in [20, 1000], got 'inf'"),
    (["check", "--dps=-inf"], "--dps must be an integer in [20, 1000], got '-inf'"),
    (["check", "--dps", "-inf"], "argument --dps: expected one argument"),
    (["check", "--dps", ""], "--dps must be an integer in [20, 1000], got ''"),
    (["check", "--dps", "５０"], "--dps must be an integer in [20, 1000], got '５０'"),
    (["check", "--dps", "٥٠"], "--dps must be an integer in [20, 1000], got '٥٠'"),
    (["check", "--dps", " 50"], "--dps must be an integer in [20, 1000], got ' 50'"),
    (["check", "--dps", "5_0"], "--dps must be an integer in [20, 1000], got '5_0'"),
    (["check", "--dps", "0x32"], "--dps must be an integer in [20, 1000], got '0x32'"),
    (["check", "--dps"], "argument --dps: expected one argument"),
    # --jobs
    (["check", "--jobs", "0"], "--jobs must be an integer in [1, 4096], got 0"),
    (["check", "--jobs", "-1"], "--jobs must be an integer in [1, 4096], got -1"),
    (["check", "--jobs", "1e9"], "--jobs must be an integer in [1, 4096], got '1e9'"),
    (["check", "--jobs", "99999999"], "--jobs must be an integer in [1, 4096], got 99999999"),
    (["check", "--jobs", "4097"], "--jobs must be an integer in [1, 4096], got 4097"),
    (["check", "--jobs", "many"], "--jobs must be an integer in [1, 4096], got 'many'"),
    (["check", "--jobs", "AUTO"], "--jobs must be an integer in [1, 4096], got 'AUTO'"),
    (["check", "--jobs", "２"], "--jobs must be an integer in [1, 4096], got '２'"),
    (["check", "--jobs", ""], "--jobs must be an integer in [1, 4096], got ''"),
    (["check", "--jobs", "1.5"], "--jobs must be an integer in [1, 4096], got '1.5'"),
    (["check", "--jobs"], "argument --jobs: expected one argument"),
    # --topic
    (["check", "--topic", "ropee"], "--topic must be one of order, sinusoidal"),
    (["check", "--topic", ""], "got ''"),
    (["check", "--topic", "ROPE"], "--topic must be one of"),
    (["check", "--topic", "rope", "--topic", "nope"], "got 'nope'"),
    (["check", "--topic", "mine"], "--topic must be one of"),
    (["check", "--topic", "mine", "--claims", CATALOGUE], "got 'mine'"),
    (["check", "--topic"], "argument --topic: expected one argument"),
    # -k, and selections of nothing
    (["check", "-k", "zzzz-no-such-claim"], "no claim matches -k 'zzzz-no-such-claim'"),
    (["check", "-k", "nothing-*"], "no claim matches -k 'nothing-*'"),
    (["check", "-k", "zzz", "-k", "yyy"], "no claim matches -k 'zzz' or -k 'yyy'"),
    (["check", "-k", "zzz", "--claims", CATALOGUE], "no claim matches -k 'zzz'"),
    (["check", "-k", ""], "-k must be a non-empty pattern, got ''"),
    (["check", "-k", " "], "-k must be a non-empty pattern, got ' '"),
    (["check", "-k"], "argument -k: expected one argument"),
    (["check", "--topic", "order", "-k", "alibi"], "no claim matches --topic order and -k 'alibi'"),
    (["check", "sinusoidal-norm", "--topic", "rope"], "no claim matches the ids given and --topic rope"),
    # --format
    (["check", "--format", "yaml"], "--format must be one of text, json, got 'yaml'"),
    (["check", "--format", "latex"], "--format must be one of text, json, got 'latex'"),
    (["check", "--format", ""], "--format must be one of text, json, got ''"),
    (["check", "--format", "JSON"], "--format must be one of text, json, got 'JSON'"),
    (["check", "--json", "--format", "yaml"], "--format must be one of text, json, got 'yaml'"),
    (["check", "--json=yes"], "argument --json: ignored explicit argument 'yes'"),
    # --junit
    (["check", "--junit", "not_a_dir/out.xml"], "--junit: cannot create not_a_dir/out.xml"),
    (["check", "--junit", "not_a_dir/deeper/out.xml"], "--junit: cannot create not_a_dir/deeper/out.xml"),
    (["check", "--junit", "a_dir"], "--junit must end in .xml, got 'a_dir'"),
    (["check", "--junit", "not_a_dir"], "--junit must end in .xml, got 'not_a_dir'"),
    (["check", "--junit", "out.txt"], "--junit must end in .xml, got 'out.txt'"),
    (["check", "--junit", "out"], "--junit must end in .xml, got 'out'"),
    (["check", "--junit", ""], "--junit must name a file, got ''"),
    (["check", "--junit", "/proc/1/posproof.xml"], "--junit: cannot write to /proc/1/posproof.xml"),
    (["check", "--junit"], "argument --junit: expected one argument"),
    # --claims
    (["check", "--claims", "missing.py"], "--claims: cannot import missing.py: no such file"),
    (["check", "--claims", "syntax_error.py"], "--claims: cannot import syntax_error.py: syntax error"),
    (["check", "--claims", "raises.py"], "--claims: importing raises.py raised RuntimeError: at import"),
    (["check", "--claims", "noclaims.py"], "--claims: module noclaims.py defines no claims() function"),
    (["check", "--claims", "rope_ok.py"], "--claims: module rope_ok.py defines no claims() function"),
    (["check", "--claims", ""], "--claims must name a module or a .py file, got ''"),
    (["check", "--claims", "posproof_no_such_claims_module"], "--claims: cannot import posproof_no_such_claims"),
    (["check", "--claims", "a_dir"], "--claims: module a_dir defines no claims() function"),
    (["check", "--claims"], "argument --claims: expected one argument"),
    # unknown options
    (["check", "--bogus"], "unrecognized arguments: --bogus"),
    (["check", "--dsp", "30"], "unrecognized arguments: --dsp"),
    (["check", "-j", "2"], "unrecognized arguments: -j"),
    (["check", "--exitfirst=1"], "argument -x/--exitfirst: ignored explicit argument '1'"),
    (["check", "--quiet", "--verbose"], "unrecognized arguments: --verbose"),
    # the first mistake is named alone, and no note of --jobs comes before it
    (["check", "nope", "--dps", "5"], "--dps must be an integer in [20, 1000], got 5"),
    (["check", "--jobs", "4096", "--dps", "x"], "--dps must be an integer in [20, 1000], got 'x'"),
    (["check", "--jobs", "4096", "nope"], "unknown identity id 'nope'"),
    (["check", "--junit", "out.xml", "nope"], "unknown identity id 'nope'"),
    (["check", "-x", "--junit", "out.xml", "-k", "zzz"], "no claim matches -k 'zzz'"),
]
