r"""One calling convention for every kernel: data by position, options by keyword, one name per quantity.

The signatures are read with :mod:`inspect` (every kernel of ``numeric.KERNELS`` and the public functions of
``numeric.scaling`` and ``numeric.multiaxis``); the old spellings (options by position, ``d_model``, ``d``,
``head_dim``, ``rope_theta``) still work for one release and warn; the T5 functions refuse a positional option.
"""

from __future__ import annotations

import importlib
import inspect
import warnings

import numpy as np
import pytest
from posproof.numeric import multiaxis, scaling
from posproof.numeric._deprecated import old_arguments

from posproof import numeric

#: Names a kernel may not use: the width is ``width``, the base ``base``.
OTHER_WIDTH_NAMES = {"d", "d_model", "dim", "head_dim", "hidden_size", "n_embd"}
OTHER_BASE_NAMES = {"theta", "rope_theta", "rotary_emb_base", "base_freq"}
#: Parameters that are data (an array or a value the kernel is evaluated at, or the one size a kernel of sizes
#: takes): the only ones that may be passed by position.
DATA = {
    "positions", "vectors", "relative_position", "query_positions", "key_positions", "table", "distances",
    "x", "q", "k", "W_kR", "u", "v", "Qc", "Kc", "Qr", "Kr", "weight", "config", "mrope_section", "position_ids",
    "n_heads", "width", "qlen", "scaling", "axes", "axes_dim", "grid", "query_position", "key_position", "position",
    "num_layers", "values", "outputs", "tokens",
}  # fmt: skip
#: Kernels whose only inputs are sizes: the size is their data (``inverse_frequencies(64)``).
SIZE_KERNELS = {
    "alibi_slope_exponents", "alibi_slopes", "alibi_slopes_mp", "inverse_frequencies", "inverse_frequencies_mp",
    "layout_permutation", "axial_axes", "axial_inv_freq", "axial_inv_freq_mp", "rope_inv_freq", "rope_inv_freq_mp",
    "proportional_inv_freq", "causal_mask", "RopeScaling", "dinov3_periods", "dinov3_inv_freq", "dinov3_inv_freq_mp",
    "xpos_zeta", "p_rope_frequencies", "p_rope_frequencies_mp", "bos_values",
}  # fmt: skip
#: References that compute in exact integers: no working precision to take.
EXACT_REFERENCES = {"self_extend_relative_mp", "rerope_relative_mp", "dual_chunk_relative_mp"}
#: Records a kernel returns rather than kernels: RopeTable (built by rope_table), MultiaxisFrequencies (a tuple).
RECORDS = {"RopeTable", "MultiaxisFrequencies", "MultiaxisRope"}


def _kernels() -> dict[str, object]:
    out = {}
    for module, names in numeric.KERNELS.items():
        mod = importlib.import_module(f"posproof.numeric.{module}")
        out.update({name: getattr(mod, name) for name in names})
    for mod in (scaling, multiaxis):
        out.update({name: getattr(mod, name) for name in mod.__all__ if callable(getattr(mod, name))})
    return {name: f for name, f in out.items() if name not in RECORDS}


KERNELS = _kernels()


def _parameters(f) -> list[inspect.Parameter]:
    return [p for p in inspect.signature(f).parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def _positional(f) -> list[str]:
    return [p.name for p in _parameters(f) if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def test_the_walk_sees_every_kernel():
    assert {"rope", "rope_mp", "sinusoidal", "t5_bias", "t5_relative_bucket", "RopeScaling", "rope_inv_freq"} <= set(
        KERNELS
    )
    assert {"rope_multiaxis_mp", "mrope_axes", "rope_axes_from_config", "T5BucketConfig"} <= set(KERNELS)
    assert len(KERNELS) >= 50


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_options_are_keyword_only(name):
    positional = _positional(KERNELS[name])
    with_default = [p.name for p in _parameters(KERNELS[name]) if p.name in positional and p.default is not p.empty]
    assert not with_default, f"{name}: options {with_default} can be passed by position (put them after a *)"
    sizes = ("width", "n_heads", "qlen", "tokens")
    options = [p for p in positional if p not in DATA or (p in sizes and name not in SIZE_KERNELS)]
    assert not options, f"{name}: {options} can be passed by position; only data may be (put the rest after a *)"


@pytest.mark.parametrize("name", sorted(n for n in KERNELS if n.endswith("_mp") and n not in EXACT_REFERENCES))
def test_dps_is_keyword_only_in_every_mpmath_reference(name):
    dps = inspect.signature(KERNELS[name]).parameters["dps"]
    assert dps.kind == dps.KEYWORD_ONLY


@pytest.mark.parametrize("method", ["inv_freq_mp", "from_mapping", "yarn_correction_range"])
def test_options_of_the_scaling_methods_are_keyword_only(method):
    params = inspect.signature(getattr(scaling.RopeScaling, method)).parameters.values()
    assert all(p.kind == p.KEYWORD_ONLY for p in params if p.name in ("dps", "base", "scaling", "mp"))


def test_one_name_for_the_width_and_one_for_the_base():
    names = {p.name for f in KERNELS.values() for p in _parameters(f)}
    assert not names & OTHER_WIDTH_NAMES, f"width under other names: {sorted(names & OTHER_WIDTH_NAMES)}"
    assert not names & OTHER_BASE_NAMES, f"base under other names: {sorted(names & OTHER_BASE_NAMES)}"
    assert {"width", "base"} <= names


@pytest.mark.parametrize("name", sorted(n for n, f in KERNELS.items() if "layout" in inspect.signature(f).parameters))
def test_the_layout_default_is_in_the_signature(name):
    default = inspect.signature(KERNELS[name]).parameters["layout"].default
    assert default in ("interleaved", "half"), f"{name}: layout default {default!r} (state it, never None)"


# ---- the old spellings -----------------------------------------------------------------------------------------------

X = np.random.default_rng(0).standard_normal((3, 8))
POS = [1, 2, 3]
#: (old call, new call, the warning's words): each old call warns once and gives the new call's result.
OLD_CALLS = [
    (lambda: numeric.sinusoidal(POS, 8), lambda: numeric.sinusoidal(POS, width=8), "pass width by keyword"),
    (lambda: numeric.sinusoidal(POS, d_model=8), lambda: numeric.sinusoidal(POS, width=8), "d_model= is deprecated"),
    (
        lambda: numeric.sinusoidal_mp([1], 4, 100, "half", 20),
        lambda: numeric.sinusoidal_mp([1], width=4, base=100, layout="half", dps=20),
        "pass width, base, layout, dps by keyword",
    ),
    (lambda: numeric.inverse_frequencies(8, 100.0), lambda: numeric.inverse_frequencies(8, base=100.0), "base"),
    (lambda: numeric.inverse_frequencies(d=8), lambda: numeric.inverse_frequencies(8), "d= is deprecated"),
    (
        lambda: numeric.inverse_frequencies_mp(4, 100, 20),
        lambda: numeric.inverse_frequencies_mp(4, base=100, dps=20),
        "pass base, dps by keyword",
    ),
    (lambda: numeric.rope(X, POS, 500.0, "half"), lambda: numeric.rope(X, POS, base=500.0, layout="half"), "base"),
    (lambda: numeric.rope(X, POS, rope_theta=500.0), lambda: numeric.rope(X, POS, base=500.0), "rope_theta="),
    (
        lambda: numeric.rope_mp(X[:1], [1], 500, "half", 20),
        lambda: numeric.rope_mp(X[:1], [1], base=500, layout="half", dps=20),
        "pass base, layout, dps by keyword",
    ),
    (
        lambda: numeric.rope_mp(X[:1], [1], rope_theta=500, dps=20),
        lambda: numeric.rope_mp(X[:1], [1], base=500, dps=20),
        "rope_theta= is deprecated, use base=",
    ),
    (lambda: numeric.rope_table(POS, 8).cos, lambda: numeric.rope_table(POS, width=8).cos, "pass width by keyword"),
    (lambda: numeric.rope_table(POS, head_dim=8).cos, lambda: numeric.rope_table(POS, width=8).cos, "head_dim="),
    (
        lambda: numeric.rope_table(POS, width=8).apply(X, None, False),
        lambda: numeric.rope_table(POS, width=8).apply(X, check_finite=False),
        "pass out, check_finite by keyword",
    ),
    (lambda: numeric.rope_decay_curve(8, [1, 5]), lambda: numeric.rope_decay_curve([1, 5], width=8), "width"),
    (lambda: numeric.rope_decay_curve(d=8, distances=[1]), lambda: numeric.rope_decay_curve([1], width=8), "d="),
    (
        lambda: numeric.rope_decay_curve_mp(8, 5, 10000, 20),
        lambda: numeric.rope_decay_curve_mp(5, width=8, dps=20),
        "pass width, base, dps by keyword",
    ),
    (
        lambda: numeric.interleaved_to_half_rows(X.T, head_dim=4),
        lambda: numeric.interleaved_to_half_rows(X.T, width=4),
        "head_dim= is deprecated, use width=",
    ),
    (lambda: numeric.alibi_bias([3], [0, 1], 4), lambda: numeric.alibi_bias([3], [0, 1], n_heads=4), "n_heads"),
    (lambda: numeric.alibi_bias(4, [3], [0, 1]), lambda: numeric.alibi_bias([3], [0, 1], n_heads=4), "n_heads"),
    (lambda: numeric.alibi_slopes_mp(4, 20), lambda: numeric.alibi_slopes_mp(4, dps=20), "pass dps by keyword"),
    (lambda: numeric.deberta_delta([-5, 5], 3), lambda: numeric.deberta_delta([-5, 5], k=3), "pass k by keyword"),
    (
        lambda: numeric.deberta_log_bucket([300], 8, 32),
        lambda: numeric.deberta_log_bucket([300], bucket_size=8, max_position=32),
        "bucket_size, max_position",
    ),
    (
        lambda: numeric.deberta_relative_index([9], 4, 8, 32),
        lambda: numeric.deberta_relative_index([9], k=4, bucket_size=8, max_position=32),
        "pass k, bucket_size, max_position by keyword",
    ),
    (lambda: numeric.causal_mask(2, 1), lambda: numeric.causal_mask(2, mlen=1), "pass mlen by keyword"),
    (lambda: numeric.txl_relative_embeddings([1], 4), lambda: numeric.txl_relative_embeddings([1], width=4), "width"),
    (
        lambda: numeric.txl_relative_embeddings([1], d_model=4),
        lambda: numeric.txl_relative_embeddings([1], width=4),
        "d_model= is deprecated",
    ),
    (
        lambda: numeric.rope_inv_freq(8, 100.0, {"rope_type": "linear", "factor": 2.0})[0],
        lambda: numeric.rope_inv_freq(8, base=100.0, scaling={"rope_type": "linear", "factor": 2.0})[0],
        "pass base, scaling by keyword",
    ),
    (
        lambda: numeric.RopeScaling(8, 100.0, "linear", 2.0).inv_freq()[0],
        lambda: numeric.RopeScaling(8, base=100.0, rope_type="linear", factor=2.0).inv_freq()[0],
        r"RopeScaling\(\): pass base, rope_type, factor",
    ),
    (
        lambda: numeric.RopeScaling(8).inv_freq_mp(None, 20)[0],
        lambda: numeric.RopeScaling(8).inv_freq_mp(dps=20)[0],
        r"RopeScaling.inv_freq_mp\(\): pass dps by keyword",
    ),
    (lambda: multiaxis.mrope_axes([2, 1, 1], True), lambda: multiaxis.mrope_axes([2, 1, 1], interleaved=True), "inter"),
    (lambda: multiaxis.axial_inv_freq(8, 100.0), lambda: multiaxis.axial_inv_freq(8, base=100.0), "pass base by"),
]


def _same(a, b) -> bool:
    a, b = np.asarray(a, dtype=object), np.asarray(b, dtype=object)
    return a.shape == b.shape and all(x == y for x, y in zip(a.flat, b.flat, strict=True))


@pytest.mark.parametrize("old, new, words", OLD_CALLS, ids=[w for _, _, w in OLD_CALLS])
def test_an_old_call_warns_and_gives_the_same_result(old, new, words):
    with pytest.warns(DeprecationWarning, match=words) as caught:
        got = old()
    assert len([w for w in caught if w.category is DeprecationWarning]) == 1
    assert caught[0].filename == __file__  # the warning points at the caller
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        assert _same(got, new())


def test_a_new_call_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        numeric.rope(X, POS, base=500.0, layout="half")
        numeric.sinusoidal_mp([1], width=4, dps=20)
        numeric.rope_table(POS, width=8).apply(X, out=np.empty_like(X))


def test_both_spellings_of_one_parameter_are_refused():
    with pytest.raises(ValueError, match="give only one of width, d_model"), pytest.warns(DeprecationWarning):
        numeric.sinusoidal(POS, width=8, d_model=8)
    with pytest.raises(ValueError, match="give only one of base, rope_theta"), pytest.warns(DeprecationWarning):
        numeric.rope(X, POS, base=10.0, rope_theta=10.0)
    with pytest.raises(TypeError, match="multiple values for argument 'width'"):
        numeric.sinusoidal(POS, 8, width=8)


def test_more_positional_arguments_than_the_old_signature_took_are_refused():
    with pytest.raises(TypeError):
        numeric.deberta_delta([1], 3, 4)
    with pytest.raises(TypeError):
        numeric.interleaved_to_half_rows(X, 4)  # heads or head width? never guessed


# ---- T5: options by keyword only, no positional shim -----------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: numeric.t5_relative_bucket([-3, 3], True, 32, 128),
        lambda: numeric.t5_relative_bucket([-3, 3], False),
        lambda: numeric.t5_relative_bucket_mp(-3, True, 32, 128),
        lambda: numeric.t5_bias([0, 1], [0, 1], np.zeros((32, 2)), True, 128, 32),
        lambda: numeric.t5_bias([0, 1], [0, 1], np.zeros((32, 2)), True),
        lambda: numeric.t5_bucket_table(True, 8, 16),
        lambda: numeric.t5_bucket_boundaries(True, 8, 16),
        lambda: numeric.T5BucketConfig(True, 8, 16),
    ],
)
def test_t5_refuses_positional_options(call):
    # t5_bias took (bidirectional, max_distance, num_buckets), the others (bidirectional, num_buckets, max_distance):
    # a positional call swapped them silently, so none is accepted
    with pytest.raises(TypeError):
        call()


def test_t5_bias_and_buckets_agree_by_keyword():
    table = np.arange(16 * 2, dtype=float).reshape(16, 2)
    q, k = np.arange(5), np.arange(40)
    bias = numeric.t5_bias(q, k, table, bidirectional=False, num_buckets=16, max_distance=20)
    buckets = numeric.t5_relative_bucket(k[None, :] - q[:, None], bidirectional=False, num_buckets=16, max_distance=20)
    np.testing.assert_array_equal(bias, np.moveaxis(table[buckets], -1, 0))


# ---- the decorator itself --------------------------------------------------------------------------------------------


def test_the_wrapped_kernel_keeps_its_signature_and_docstring():
    assert str(inspect.signature(numeric.sinusoidal)).startswith("(positions, *, width")
    assert numeric.sinusoidal.__doc__ and "sinusoidal encodings" in numeric.sinusoidal.__doc__
    assert numeric.sinusoidal.__module__ == "posproof.numeric.sinusoid"  # doctests are found in their module


def test_an_old_order_that_does_not_hold_the_new_one_is_a_mistake():
    with pytest.raises(ValueError, match="must hold"):

        @old_arguments(positional=("width", "base"))
        def kernel(positions, *, width, base=1.0):  # positions is not in the old order
            return positions
