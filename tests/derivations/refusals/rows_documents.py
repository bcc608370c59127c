r"""Bad command lines of the commands that print or write documents (``list``, ``derive``, ``export``, ``plot``,
``vectors``, ``properties``, ``annotate``) and of ``posproof`` itself: each is refused in one line naming the option
as typed, before any work (no claim rendered, no figure drawn, no vector computed, no directory made).

Only rows that hold on every platform are here: an output path under a file, a file given as a directory and a
directory as a file, an empty path; unwritable system directories (``/proc`` on Linux) are tested with the
commands, where a test can be skipped."""

from posproof.symbolic import registry

CATALOGUE = "posproof.symbolic.alibi"  # a catalogue module as --claims: its claims load in a fraction of a second

# The rows naming catalogue ids need the catalogue's ids (seconds, once per process): built when the table is
# collected, so that the bound of each row measures the refusal itself.
registry.all()

ROWS: list[tuple[list[str], str]] = [
    # posproof itself
    (["--version", "extra"], "--version takes no other arguments, got 'extra'"),
    (["--version", "list"], "--version takes no other arguments, got 'list'"),
    ([], "the following arguments are required: command"),
    (["--bogus", "list"], "unrecognized arguments: --bogus"),
    (["-x", "list"], "unrecognized arguments: -x"),
    ([""], "invalid choice: ''"),
    (["lst"], "invalid choice: 'lst'"),
    (["LIST"], "invalid choice: 'LIST'"),
    (["lïst"], "invalid choice: 'lïst'"),
    (["list", "--", "derive"], "unrecognized arguments: -- derive"),
    # list
    (["list", "extra"], "unrecognized arguments: extra"),
    (["list", ""], "unrecognized arguments: "),
    (["list", "--format", "md"], "--format must be one of text, json, got 'md'"),
    (["list", "--format", "JSON"], "--format must be one of text, json, got 'JSON'"),
    (["list", "--format", ""], "--format must be one of text, json, got ''"),
    (["list", "--json", "--format", "yaml"], "--format must be one of text, json, got 'yaml'"),
    (["list", "--format"], "argument --format: expected one argument"),
    (["list", "--json=1"], "argument --json: ignored explicit argument '1'"),
    (["list", "--jsn"], "unrecognized arguments: --jsn"),
    (["list", "--claims", CATALOGUE], "unrecognized arguments: --claims"),
    # derive
    (["derive"], "the following arguments are required: ID"),
    (["derive", "nope"], "unknown claim id 'nope'"),
    (["derive", "sinusoidal-nrom"], "did you mean sinusoidal-norm"),
    (["derive", ""], "unknown claim id ''"),
    (["derive", "sinusoïdal-norm"], "unknown claim id 'sinusoïdal-norm'"),
    (["derive", "sinusoidal-norm", "rope-complex-relative"], "unrecognized arguments: rope-complex-relative"),
    (["derive", "sinusoidal-norm", "--format", "pdf"], "--format must be one of latex, markdown, text, json, html"),
    (["derive", "sinusoidal-norm", "--format", ""], "--format must be one of latex, markdown, text, json, html"),
    (["derive", "sinusoidal-norm", "--format", "LaTeX"], "got 'LaTeX'"),
    (["derive", "sinusoidal-norm", "--format"], "argument --format: expected one argument"),
    (["derive", "sinusoidal-norm", "--dps", "30"], "unrecognized arguments: --dps"),
    (["derive", "nope", "--claims", CATALOGUE], "--claims: the module has no claim 'nope'"),
    (["derive", "alibi-slopes", "--claims", "missing.py"], "--claims: cannot import missing.py: no such file"),
    (["derive", "x", "--claims", "syntax_error.py"], "--claims: cannot import syntax_error.py: syntax error"),
    (["derive", "x", "--claims", "raises.py"], "--claims: importing raises.py raised RuntimeError: at import"),
    (["derive", "x", "--claims", "noclaims.py"], "--claims: module noclaims.py defines no claims() function"),
    (["derive", "x", "--claims", "not_a_dir"], "--claims: cannot import not_a_dir"),
    (["derive", "x", "--claims"], "argument --claims: expected one argument"),
    # export
    (["export"], "the following arguments are required: --format, --out"),
    (["export", "--format", "md"], "the following arguments are required: --out"),
    (["export", "--out", "new_dir"], "the following arguments are required: --format"),
    (["export", "--format", "pdf", "--out", "new_dir"], "--format must be one of latex, markdown, text, json, html"),
    (["export", "--format", "", "--out", "new_dir"], "got ''"),
    (["export", "--format", "MD", "--out", "new_dir"], "got 'MD'"),
    (["export", "--format", "docx", "--out", "new_dir"], "got 'docx'"),
    (["export", "--json", "--format", "md", "--out", "new_dir"], "unrecognized arguments: --json"),
    (["export", "--format", "md", "--out", ""], "--out must name a directory, got ''"),
    (["export", "--format", "md", "--out", "not_a_dir"], "--out must be a directory, got the file 'not_a_dir'"),
    (["export", "--format", "md", "--out", "not_a_dir/sub"], "--out: cannot create not_a_dir/sub"),
    (["export", "--format", "json", "--out", "not_a_dir/a/b/c"], "--out: cannot create not_a_dir/a/b/c"),
    (["export", "--format", "md", "--out", "not_a_dir/ü"], "--out: cannot create not_a_dir/ü"),
    (["export", "--format", "md", "--out", "full_dir"], "--out 'full_dir' is not empty and was not written by"),
    (["export", "--format", "md", "--out"], "argument --out: expected one argument"),
    (["export", "--format", "md", "--out", "new_dir", "extra"], "unrecognized arguments: extra"),
    (["export", "--format", "md", "--out", "new_dir", "--figures"], "unrecognized arguments: --figures"),
    (["export", "--format", "md", "--out", "new_dir", "--claims", "missing.py"], "--claims: cannot import missing"),
    (["export", "--format", "text", "--out", "new_dir", "--claims", "raises.py"], "--claims: importing raises.py"),
    (["export", "--format", "text", "--out", "new_dir", "--claims", "noclaims.py"], "defines no claims() function"),
    (["export", "--format", "pdf", "--out", "not_a_dir/sub"], "--format must be one of"),  # the first one named
    (["export", "--format", "md", "--out", "not_a_dir", "--claims", "missing.py"], "--out must be a directory"),
    # plot
    (["plot"], "the following arguments are required: NAME, --out"),
    (["plot", "rope-decay"], "the following arguments are required: --out"),
    (["plot", "rope-decy", "--out", "x.png"], "got 'rope-decy'; did you mean rope-decay"),
    (["plot", "", "--out", "x.png"], "NAME must be one of sinusoidal-heatmap"),
    (["plot", "RoPE-decay", "--out", "x.png"], "got 'RoPE-decay'"),
    (["plot", "zzzz", "--out", "x.png"], "NAME must be one of"),
    (["plot", "rope-decay", "--out", "x.gif"], "--out must end in .png, .svg, .pdf, got 'x.gif'"),
    (["plot", "rope-decay", "--out", "x"], "--out must end in .png, .svg, .pdf, got 'x'"),
    (["plot", "rope-decay", "--out", ""], "--out must name a file, got ''"),
    (["plot", "rope-decay", "--out", "a_dir"], "--out must end in .png, .svg, .pdf, got 'a_dir'"),
    (["plot", "rope-decay", "--out", "a_dir.png"], "--out must be a file, got the directory 'a_dir.png'"),
    (["plot", "rope-decay", "--out", "not_a_dir/x.svg"], "--out: cannot create not_a_dir/x.svg"),
    (["plot", "rope-decay", "--out", "not_a_dir/sub/x.pdf"], "--out: cannot create not_a_dir/sub/x.pdf"),
    (["plot", "rope-decay", "--out", "x.png", "t5-buckets"], "unrecognized arguments: t5-buckets"),
    (["plot", "rope-decay", "--out", "x.png", "--dpi", "300"], "unrecognized arguments: --dpi"),
    (["plot", "rope-decay", "--out"], "argument --out: expected one argument"),
    # vectors
    (["vectors"], "the following arguments are required: --out"),
    (["vectors", "--out", ""], "--out must name a directory, got ''"),
    (["vectors", "--out", "not_a_dir"], "--out must be a directory, got the file 'not_a_dir'"),
    (["vectors", "--out", "not_a_dir/v"], "--out: cannot create not_a_dir/v"),
    (["vectors", "--out", "not_a_dir/v/ẞ"], "--out: cannot create not_a_dir/v/ẞ"),
    (["vectors", "--out", "new_dir", "--dps", "30"], "unrecognized arguments: --dps"),
    (["vectors", "--out", "new_dir", "extra"], "unrecognized arguments: extra"),
    (["vectors", "--out"], "argument --out: expected one argument"),
    (["vectors", "--format", "json", "--out", "new_dir"], "unrecognized arguments: --format"),
    # properties
    (["properties", "--format", "pdf"], "--format must be one of text, markdown, latex, json, got 'pdf'"),
    (["properties", "--format", "html"], "got 'html'"),
    (["properties", "--format", ""], "got ''"),
    (["properties", "--json", "--format", "csv"], "got 'csv'"),
    (["properties", "--trained", "1000"], "--trained and --target go together"),
    (["properties", "--target", "2000"], "--trained and --target go together"),
    (["properties", "--trained", "x", "--target", "2000"], "--trained must be an integer in [2, 9007199254740992]"),
    (["properties", "--trained", "nan", "--target", "2000"], "--trained must be an integer in [2, 9007199254740992]"),
    (["properties", "--trained", "inf", "--target", "2000"], "got 'inf'"),
    (["properties", "--trained", "1e3", "--target", "2000"], "got '1e3'"),
    (["properties", "--trained", "1000.0", "--target", "2000"], "got '1000.0'"),
    (["properties", "--trained", "", "--target", "2000"], "--trained must be an integer in [2, 9007199254740992]"),
    (
        ["properties", "--trained", "1", "--target", "2000"],
        "--trained must be an integer in [2, 9007199254740992], got 1",
    ),
    (
        ["properties", "--trained", "-5", "--target", "2000"],
        "--trained must be an integer in [2, 9007199254740992], got -5",
    ),
    (["properties", "--trained=-1e400", "--target", "2000"], "got '-1e400'"),
    (["properties", "--trained", "1000", "--target", "nan"], "--target must be an integer in [2, 9007199254740992]"),
    (
        ["properties", "--trained", "1000", "--target", "9" * 400],
        "--target must be an integer in [2, 9007199254740992]",
    ),
    (["properties", "--trained", "1000", "--target", "9007199254740993"], "got 9007199254740993"),
    (["properties", "--trained", "1000", "--target", "1000"], "--target must exceed --trained"),
    (["properties", "--trained", "2000", "--target", "1000"], "--target must exceed --trained"),
    (["properties", "--trained", "1000", "--target"], "argument --target: expected one argument"),
    (["properties", "--trained", "1000", "--target", "2000", "extra"], "unrecognized arguments: extra"),
    (["properties", "--length", "2000"], "unrecognized arguments: --length"),
    # annotate
    (["annotate", "--format", "json"], "--format must be one of text, markdown, got 'json'"),
    (["annotate", "--format", "latex"], "--format must be one of text, markdown, got 'latex'"),
    (["annotate", "--format", ""], "got ''"),
    (["annotate", "--json"], "unrecognized arguments: --json"),
    (["annotate", "article"], "unrecognized arguments: article"),
    (["annotate", "--format"], "argument --format: expected one argument"),
]
