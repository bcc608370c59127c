r"""numeric.audit.xpos: the checked plan, the public implementations passing (ports in tests/numeric/xpos_ports.py),
and one plausible bug per finding, each finding's example confirmed by calling the buggy function directly and
computing what it should give with NumPy here (no posproof code)."""

import numpy as np
import pytest
from posproof.numeric.audit.report import AuditCallError, format_report
from posproof.numeric.audit.xpos import XPOS_FINDINGS, audit_xpos_plan, xpos_plan

from tests.numeric import xpos_ports

WIDTH = 16


def _plan(layout="half", **scaling):
    return xpos_plan({"rope_type": "xpos", **scaling}, width=WIDTH, base=10000.0, layout=layout, call=None)


def _zeta(d, gamma=0.4):
    return (np.arange(0, d, 2) + gamma * d) / ((1 + gamma) * d)


def xpos_numpy(
    layout="half", base=10000.0, s=512.0, gamma=0.4, key="reciprocal", sign=1, query_power=1, dtype=np.float32
):
    r"""xPos in NumPy with flash-attn's origin (``seq_len // 2``), and the bugs the tests need as options: ``key``
    ``"same"`` (scaled like the query) or ``"none"``; ``sign`` -1 (clockwise); ``query_power`` 0 (no scale) or -1
    (inverted); float32 results, like the sources."""

    def fn(q, k, positions):
        q, k = np.asarray(q, dtype=np.float64), np.asarray(k, dtype=np.float64)
        pos = np.asarray(positions, dtype=np.float64)
        d = q.shape[-1]
        angle = sign * pos[:, None] * base ** (-np.arange(0, d, 2) / d)[None, :]
        origin = (int(pos.max()) + 1) // 2
        scale = _zeta(d, gamma)[None, :] ** (query_power * (pos[:, None] - origin) / s)
        key_scale = {"reciprocal": 1 / scale, "same": scale, "none": np.ones_like(scale)}[key]

        def apply(x, sc):
            c, sn = np.cos(angle) * sc, np.sin(angle) * sc
            out = np.empty_like(x)
            if layout == "half":
                a, b = x[:, : d // 2], x[:, d // 2 :]
                out[:, : d // 2], out[:, d // 2 :] = a * c - b * sn, a * sn + b * c
            else:
                a, b = x[:, 0::2], x[:, 1::2]
                out[:, 0::2], out[:, 1::2] = a * c - b * sn, a * sn + b * c
            return out.astype(dtype)

        return apply(q, scale), apply(k, key_scale)

    return fn


def _unit(channel, d=WIDTH):
    e = np.zeros((1, d))
    e[0, channel] = 1.0
    return e


def _length_ratio(fn, example, output):
    r"""The length of pair ``i``'s image at the example's second position over its length at the first, both rows of
    one call (the origin cancels), computed from the function's own outputs."""
    i, (p0, p1) = example["pair"], example["positions"]
    x = np.concatenate([_unit(i), _unit(i)])  # half layout: pair i is channels (i, i + d/2)
    out = fn(x, x.copy(), np.array([p0, p1]))[0 if output == "q" else 1]
    lengths = np.hypot(out[:, i], out[:, i + WIDTH // 2])
    return lengths[1] / lengths[0]


def _ids(report):
    return report.ids


# ---- correct code passes --------------------------------------------------------------------------------------


@pytest.mark.parametrize("layout", ["half", "interleaved"])
def test_a_correct_xpos_conforms_in_either_layout(layout):
    assert _ids(audit_xpos_plan(_plan(layout), xpos_numpy(layout))) == ()
    assert _ids(audit_xpos_plan(_plan("auto"), xpos_numpy(layout))) == ()


def test_float64_and_other_settings_conform():
    fn = xpos_numpy(s=2048.0, gamma=0.25, base=500000.0, dtype=np.float64)
    plan = xpos_plan(
        {"rope_type": "xpos", "scale_base": 2048, "gamma": 0.25}, width=32, base=500000.0, layout="neox", call=None
    )
    assert _ids(audit_xpos_plan(plan, fn)) == ()


@pytest.mark.parametrize(
    "port, layout",
    [
        (lambda: xpos_ports.flash_attn("half"), "half"),
        (lambda: xpos_ports.flash_attn("interleaved"), "interleaved"),
        (xpos_ports.x_transformers, "interleaved"),
        (xpos_ports.torchscale, "interleaved"),
    ],
    ids=["flash-attn", "flash-attn-interleaved", "x-transformers", "torchscale"],
)
def test_the_public_implementations_conform(port, layout):
    pytest.importorskip("torch", reason="the ports of the public implementations run on torch")
    plan = xpos_plan({"rope_type": "xpos"}, width=WIDTH, base=10000.0, layout=layout, call=None, max_position=1024)
    report = audit_xpos_plan(plan, port(), name="port")
    assert report.ok, format_report(report)
    assert report.scheme == "xpos" and report.function == "port"


def test_a_call_with_the_base_passes_it():
    seen = []

    def fn(q, k, positions, base):
        seen.append(base)
        return xpos_numpy(base=base)(q, k, positions)

    plan = xpos_plan({"rope_type": "xpos"}, width=WIDTH, base=20000.0, layout="half", call="q,k,positions,base")
    assert audit_xpos_plan(plan, fn).ok and set(seen) == {20000.0}


# ---- one bug per finding --------------------------------------------------------------------------------------


def test_layout():
    report = audit_xpos_plan(_plan("half"), xpos_numpy("interleaved"))
    assert _ids(report) == ("xpos-layout",)
    ex = report.findings[0].example
    out, _ = xpos_numpy("interleaved")(_unit(0), _unit(0), np.array([1]))
    assert abs(out[0, ex["got partner channel"]]) > 0.5 and ex["expected partner channel"] == WIDTH // 2
    assert out[0, WIDTH // 2] == 0


def test_wrong_base():
    fn = xpos_numpy(base=500000.0)
    report = audit_xpos_plan(_plan(), fn)
    assert _ids(report) == ("xpos-wrong-base",)
    f = report.findings[0]
    assert float(f.example["fitted base"]) == pytest.approx(500000.0, rel=1e-3)
    i = f.example["pair"]
    out, _ = fn(_unit(i), _unit(i), np.array([1]))
    angle = np.arctan2(out[0, i + WIDTH // 2], out[0, i])
    assert angle == pytest.approx(500000.0 ** (-2 * i / WIDTH), rel=1e-5)
    assert float(f.example["got angle"]) == pytest.approx(angle, rel=1e-5)


def test_rotation_sign():
    fn = xpos_numpy(sign=-1)
    report = audit_xpos_plan(_plan(), fn)
    assert _ids(report) == ("xpos-rotation-sign",)
    i = report.findings[0].example["pair"]
    out, _ = fn(_unit(i), _unit(i), np.array([1]))
    assert np.arctan2(out[0, i + WIDTH // 2], out[0, i]) == pytest.approx(-(10000.0 ** (-2 * i / WIDTH)), rel=1e-5)


def test_wrong_rotation_angle_offset():
    def offset(q, k, positions):  # angles (m + 1) theta_i: the pairs have turned at position 0
        return xpos_numpy()(q, k, np.asarray(positions) + 1)

    report = audit_xpos_plan(_plan(), offset)
    assert "xpos-wrong-rotation" in _ids(report)
    assert "position 0" in report.findings[0].message


def test_wrong_rotation_pairs_mixed():
    def mixed(q, k, positions):  # the rotated channels land one channel over: pairs mixed
        a, b = xpos_numpy()(q, k, positions)
        return np.roll(a, 1, axis=1), np.roll(b, 1, axis=1)

    assert _ids(audit_xpos_plan(_plan("half"), mixed)) == ("xpos-wrong-rotation",)


def test_scale_base():
    fn = xpos_numpy(s=256.0)
    report = audit_xpos_plan(_plan(), fn)
    assert _ids(report) == ("xpos-wrong-scale-base",)
    ex = report.findings[0].example
    assert float(ex["fitted scale base"]) == pytest.approx(256.0, rel=1e-3)
    ratio = _length_ratio(fn, ex, "q")
    m = ex["positions"][1]
    assert ratio == pytest.approx(_zeta(WIDTH)[ex["pair"]] ** (m / 256.0), rel=1e-5)
    assert float(ex["got length ratio"]) == pytest.approx(ratio, rel=1e-5)
    assert float(ex["expected length ratio"]) == pytest.approx(_zeta(WIDTH)[ex["pair"]] ** (m / 512.0), rel=1e-5)


def test_gamma():
    fn = xpos_numpy(gamma=0.5)
    report = audit_xpos_plan(_plan(), fn)
    assert _ids(report) == ("xpos-wrong-gamma",)
    ex = report.findings[0].example
    assert float(ex["fitted gamma"]) == pytest.approx(0.5, rel=1e-2)
    assert float(ex["fitted scale base"]) == pytest.approx(512.0, rel=1e-2)
    m = ex["positions"][1]
    assert _length_ratio(fn, ex, "q") == pytest.approx(_zeta(WIDTH, 0.5)[ex["pair"]] ** (m / 512.0), rel=1e-5)


@pytest.mark.parametrize("key, how", [("same", "scaled like the query"), ("none", "not scaled")])
def test_key_scaled_the_wrong_way_is_not_relative(key, how):
    fn = xpos_numpy(key=key)
    report = audit_xpos_plan(_plan(), fn)
    assert _ids(report) == ("xpos-key-scale-direction", "xpos-not-relative")
    direction, relative = report.findings
    assert how in direction.message and direction.output == "k"
    m = direction.example["positions"][1]
    want = _zeta(WIDTH)[direction.example["pair"]] ** (m / 512.0) if key == "same" else 1.0
    assert _length_ratio(fn, direction.example, "k") == pytest.approx(want, rel=1e-5)
    # the smallest shift: the score of one query and key moves when both positions shift by it
    ex = relative.example
    rng = np.random.default_rng(0)
    qv, kv = rng.standard_normal((1, WIDTH)), rng.standard_normal((1, WIDTH))

    def score(m_, n_):
        a, _ = fn(np.concatenate([qv, qv]), np.concatenate([kv, kv]), np.array([m_, n_]))
        _, b = fn(np.concatenate([qv, qv]), np.concatenate([kv, kv]), np.array([m_, n_]))
        return float(a[0] @ b[1])

    (m0, n0), t = ex["positions"], ex["shift"]
    h = WIDTH // 2
    size = np.sum(_zeta(WIDTH) ** ((m0 - n0) / 512.0) * np.hypot(qv[0, :h], qv[0, h:]) * np.hypot(kv[0, :h], kv[0, h:]))
    assert abs(score(m0 + t, n0 + t) - score(m0, n0)) > 1e-4 * size  # AUDIT_XPOS_SCORE_RTOL of the largest score
    assert t <= 16  # small: a few positions show it


def test_no_scale_is_plain_rope():
    fn = xpos_numpy(key="none", query_power=0)
    report = audit_xpos_plan(_plan(), fn)
    assert _ids(report) == ("xpos-no-scale",)
    assert _length_ratio(fn, report.findings[0].example, "q") == pytest.approx(1.0, abs=1e-6)


def test_inverted_scale():
    fn = xpos_numpy(query_power=-1)
    report = audit_xpos_plan(_plan(), fn)
    assert _ids(report) == ("xpos-scale-inverted",)
    ex = report.findings[0].example
    assert _length_ratio(fn, ex, "q") > 1 > float(ex["expected length ratio"])


def test_wrong_scale():
    def shuffled(q, k, positions):  # the pairs' decay bases in reverse order: no gamma and s give them
        d = q.shape[-1]
        pos = np.asarray(positions, dtype=np.float64)
        rq, rk = xpos_numpy(key="none", query_power=0, dtype=np.float64)(q, k, positions)
        sc = _zeta(d)[::-1][None, :] ** ((pos[:, None] - (int(pos.max()) + 1) // 2) / 512.0)
        sc = np.concatenate([sc, sc], axis=1)
        return rq * sc, rk / sc

    assert _ids(audit_xpos_plan(_plan(), shuffled)) == ("xpos-wrong-scale",)


def test_cross_wired_outputs():
    def swapped(q, k, positions):
        a, b = xpos_numpy()(q, k, positions)
        return b, a

    report = audit_xpos_plan(_plan(), swapped)
    assert _ids(report) == ("xpos-qk-cross-wired",)
    x = _unit(0)
    assert np.max(np.abs(swapped(x, np.zeros_like(x), np.array([0]))[0])) == 0  # the query's output is the key's


def test_shape():
    def short(q, k, positions):
        a, b = xpos_numpy()(q, k, positions)
        return a[:, :-1], b

    report = audit_xpos_plan(_plan(), short)
    assert _ids(report) == ("xpos-shape",) and report.findings[0].example["output"] == "q"


def test_disagrees_with_reference():
    def normalised(
        q, k, positions
    ):  # rows scaled to unit length first (RMS-norm-like, eps 1e-6): unit vectors cannot tell
        q = q / np.sqrt(np.sum(q * q, axis=1, keepdims=True) + 1e-6)
        k = k / np.sqrt(np.sum(k * k, axis=1, keepdims=True) + 1e-6)
        return xpos_numpy()(q, k, positions)

    report = audit_xpos_plan(_plan(), normalised)
    assert _ids(report) == ("xpos-disagrees-with-reference",)


def test_a_raising_function_is_a_call_error():
    def broken(q, k, positions):
        raise RuntimeError("no")

    with pytest.raises(AuditCallError, match="raised"):
        audit_xpos_plan(_plan(), broken)


def test_every_finding_id_is_documented():
    assert all(fid.startswith("xpos-") and XPOS_FINDINGS[fid] for fid in XPOS_FINDINGS)


def test_the_report_prints():
    text = format_report(audit_xpos_plan(_plan(), xpos_numpy(s=256.0), name="mine"))
    assert "mine: does NOT conform" in text and "FAIL xpos-wrong-scale-base [q]" in text


def test_progress_is_told_each_stage():
    said = []
    audit_xpos_plan(_plan(), xpos_numpy(), progress=said.append)
    assert said == ["xPos: unit vectors", "xPos: rotation and scales", "xPos: scores"]


# ---- the plan ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "scaling, kwargs, match",
    [
        ({"rope_type": "linear"}, {}, r"scaling\['rope_type'\] must be 'xpos'"),
        ({"rope_type": "xpos", "scale_base": 0}, {}, r"scaling\['scale_base'\] must be a finite real number > 0"),
        ({"rope_type": "xpos", "gamma": -0.4}, {}, r"scaling\['gamma'\] must be a finite real number > 0"),
        ({"rope_type": "xpos", "factor": 2}, {}, "keys xPos does not read: 'factor'"),
        ({"rope_type": "xpos"}, {"width": 7}, "width must be a positive even integer"),
        ({"rope_type": "xpos"}, {"base": 1}, "base must be a finite real number > 1"),
        ({"rope_type": "xpos"}, {"layout": "spiral"}, "layout must be one of"),
        ({"rope_type": "xpos"}, {"call": "vectors,positions"}, "call must take q, k and positions"),
        ({"rope_type": "xpos"}, {"call": "q,k,cos,sin"}, "call must take q, k and positions"),
        ({"rope_type": "xpos"}, {"max_position": 8}, "max_position must be an integer >= 16"),
    ],
)
def test_the_plan_names_a_bad_argument(scaling, kwargs, match):
    args = {"width": WIDTH, "base": 10000.0, "layout": "half", "call": None} | kwargs
    with pytest.raises(ValueError, match=match):
        xpos_plan(scaling, **args)


def test_the_plan_reads_the_scaling_keys():
    plan = xpos_plan(
        {"rope_type": "xpos", "scale_base": 1024, "gamma": 0.3},
        width=8,
        base=1e6,
        layout="gptj",
        call="q,k,positions@bhsd",
    )
    assert (plan.scale_base, plan.gamma, plan.layout, str(plan.call)) == (
        1024.0,
        0.3,
        "interleaved",
        "q,k,positions@bhsd",
    )
    assert plan.as_dict()["call"] == "q,k,positions@bhsd"


# ---- real code: rotary-embedding-torch's xPos before 0.8.0 (ports in tests/numeric/xpos_ports.py) ----------------


def test_rotary_embedding_torch_before_0_8_laid_the_scale_out_in_the_other_layout():
    torch = pytest.importorskip("torch", reason="the ports of the public implementations run on torch")
    plan = xpos_plan({"rope_type": "xpos"}, width=WIDTH, base=10000.0, layout="interleaved", call=None)
    fn = xpos_ports.rotary_embedding_torch("0.7.0")
    report = audit_xpos_plan(plan, fn)
    assert _ids(report) == ("xpos-scale-layout", "xpos-not-relative")
    assert {f.output for f in report.findings[:2]} == {"q", "k"}
    ex = report.findings[0].example
    # independently: output channels 2i and 2i + 1 of the query are scaled by zeta_(2i mod d/2) and
    # zeta_(2i+1 mod d/2) (cat((scale, scale))), not both by zeta_i: each channel's scale is the length of its row
    # in the map (the images of e_2i and e_2i+1), at positions 0 and m of one call
    i, (_, m) = ex["pair"], ex["positions"]
    x = torch.zeros(4, WIDTH, dtype=torch.float64)
    x[0, 2 * i] = x[2, 2 * i] = 1.0
    x[1, 2 * i + 1] = x[3, 2 * i + 1] = 1.0
    out, _ = fn(x, x.clone(), torch.tensor([0, 0, m, m]))
    out = out.double().numpy()
    zeta = _zeta(WIDTH)
    for c, got in zip((2 * i, 2 * i + 1), ex["got length ratios"], strict=True):
        ratio = np.hypot(out[2, c], out[3, c]) / np.hypot(out[0, c], out[1, c])
        assert ratio == pytest.approx(zeta[c % (WIDTH // 2)] ** (m / 512.0), rel=1e-5)
        assert float(got) == pytest.approx(ratio, rel=1e-5)
    assert zeta[(2 * i) % (WIDTH // 2)] != zeta[(2 * i + 1) % (WIDTH // 2)]
    # the smallest example of the scores moving: a short distance and a shift of one, confirmed on the port
    rel = report.findings[-1].example
    (m0, n0), t = rel["positions"], rel["shift"]
    assert abs(m0 - n0) <= 16 and t == 1
    rng = np.random.default_rng(3)
    qv, kv = (torch.from_numpy(np.tile(rng.standard_normal((1, WIDTH)), (2, 1))) for _ in range(2))

    def score(a, b):
        oq, ok = fn(qv, kv, torch.tensor([a, b]))
        return float(oq[0].double() @ ok[1].double())

    # far above the port's float32 rounding of a score (~1e-7 |q| |k|): the scores really moved
    assert abs(score(m0 + t, n0 + t) - score(m0, n0)) > 1e-5 * float(qv[0].norm() * kv[0].norm())
    assert audit_xpos_plan(plan, xpos_ports.rotary_embedding_torch("0.8.0")).ok


def test_scale_layout_over_half_pairs():
    def repeated(q, k, positions):  # rotate-half pairs, the scale repeated per channel (d r): the reverse mix-up
        d = q.shape[-1]
        pos = np.asarray(positions, dtype=np.float64)
        rq, rk = xpos_numpy(key="none", query_power=0, dtype=np.float64)(q, k, positions)
        sc = np.repeat(_zeta(d)[None, :] ** ((pos[:, None] - (int(pos.max()) + 1) // 2) / 512.0), 2, axis=1)
        return rq * sc, rk / sc

    report = audit_xpos_plan(_plan("half"), repeated)
    assert _ids(report) == ("xpos-scale-layout", "xpos-not-relative")
    assert "repeated per channel" in report.findings[0].message


def test_a_torch_function_of_bhsd_tensors():
    torch = pytest.importorskip("torch", reason="the call form hands torch tensors to a function that needs them")
    shapes = []

    def fn(q, k, positions):  # (1, 1, tokens, width) tensors and (1, tokens) positions, as Hugging Face passes them
        shapes.append((tuple(q.shape), tuple(positions.shape)))
        a, b = xpos_numpy()(q[0, 0].numpy(), k[0, 0].numpy(), positions[0].numpy())
        return torch.from_numpy(a)[None, None], torch.from_numpy(b)[None, None]

    plan = xpos_plan({"rope_type": "xpos"}, width=WIDTH, base=10000.0, layout="half", call="q,k,positions@bhsd")
    assert audit_xpos_plan(plan, fn).ok
    assert all(len(q) == 4 and q[:2] == (1, 1) and len(p) == 2 for q, p in shapes)


def test_positions_stay_at_or_below_max_position():
    # a shift of 37 once reached past a small max_position (a function with a cache of max_position rows raised)
    seen = []

    def watched(fn):
        def call(q, k, positions):
            seen.append(int(np.max(positions)))
            return fn(q, k, positions)

        return call

    plan = xpos_plan({"rope_type": "xpos"}, width=4, base=10000.0, layout="half", call=None, max_position=16)
    assert audit_xpos_plan(plan, watched(xpos_numpy())).ok  # every shift tried
    assert "xpos-not-relative" in audit_xpos_plan(plan, watched(xpos_numpy(key="same"))).ids  # and the search
    assert max(seen) <= 16
