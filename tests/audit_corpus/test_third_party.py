r"""The audit on ports of real projects' RoPE code (``tests/audit_corpus/third_party``): every correct port conforms
(no false alarm, no crash, no "cannot declare"), every real finding is the expected one and is confirmed by an
independent NumPy computation. A port whose declaration needs a posproof feature not there yet is an expected
failure naming it (``xfail``, not strict: it passes once the feature lands)."""

import importlib
import json
import shlex

import numpy as np
import pytest
from posproof.derivations.cli import build_parser
from posproof.numeric.audit import DEFAULT_BASE, DEFAULT_MAX_POSITION, DEFAULT_WIDTH, audit_rope, format_report

from tests.audit_corpus.third_party import MISSING, MODULES, all_ports, installed

PORTS = all_ports()
_REPORTS: dict = {}


def _report(p):
    r"""The report of a port (computed once per session: audits are deterministic)."""
    if p.name not in _REPORTS:
        with np.errstate(all="ignore"):
            _REPORTS[p.name] = audit_rope(p.case.fn, **p.case.kwargs)
    return _REPORTS[p.name]


def _params(ports):
    out = []
    for p in ports:
        marks = [pytest.mark.xfail(strict=False, reason=f"needs {p.needs}")] if p.needs else []
        out.append(pytest.param(p, id=p.name + ("" if p.case.correct else "-finding"), marks=marks))
    for module, backend in MISSING.items():
        out.append(pytest.param(None, id=f"{module}-not-installed",
                                marks=pytest.mark.skip(reason=f"the {module} ports need {backend}")))  # fmt: skip
    return out


@pytest.mark.parametrize("p", _params(PORTS))
def test_port_gets_exactly_its_findings(p):
    report = _report(p)
    assert set(report.ids) == set(p.case.expected), format_report(report)
    assert report.ok is p.case.correct


@pytest.mark.parametrize("p", [p for p in PORTS if not p.case.correct], ids=lambda p: p.name)
def test_each_real_finding_is_confirmed_by_numpy(p):
    assert p.confirm is not None, f"{p.name}: a finding without an independent confirmation"
    p.confirm()


def test_the_corpus_is_large_and_covers_what_it_must():
    if MISSING:
        pytest.skip(f"the whole corpus needs {', '.join(sorted(set(MISSING.values())))}")
    names = {p.name for p in PORTS}
    assert len(names) == len(PORTS) >= 30  # distinct functions
    assert len({p.project for p in PORTS}) >= 12
    assert "flux.embed_nd" in names  # FLUX's EmbedND
    assert any(p.case.kwargs.get("scaling", {}).get("axial_frequencies") == "shared" for p in PORTS)
    assert any(p.project == "DINOv3" for p in PORTS)
    assert any(p.case.kwargs.get("scaling", {}).get("rope_type") == "xpos" for p in PORTS)
    assert "gpt_neox.float16_table" in names  # a float16 cos/sin table
    qk = [p for p in PORTS if "q" in str(p.case.kwargs.get("call", "")).split("@")[0].split(",")]
    assert {p.case.kwargs.get("dtype") for p in qk} >= {"float16", "bfloat16"}
    assert any(p.backend == "jax" for p in PORTS)


def test_every_port_names_its_project_file_and_function():
    for name in MODULES:
        if not installed(MODULES[name]):
            continue
        mod = importlib.import_module(f"tests.audit_corpus.third_party.{name}")
        assert "What matters." in mod.__doc__, name
        for p in mod.PORTS:
            assert p.project and ": " in p.source and p.cli, p.name


@pytest.mark.parametrize("p", PORTS, ids=lambda p: p.name)
def test_the_command_line_declares_what_the_python_call_does(p):
    argv = ["audit", f"{p.case.fn.__module__}:{p.case.fn.__name__}", "--scheme", "rope", *shlex.split(p.cli)]
    args = build_parser().parse_args(argv)
    kw = p.case.kwargs
    assert args.layout == kw.get("layout", "auto")
    assert args.base == kw.get("base", DEFAULT_BASE)
    assert args.width == kw.get("width", DEFAULT_WIDTH)
    assert args.rotary_dim == kw.get("rotary_dim")
    assert args.max_position == kw.get("max_position", DEFAULT_MAX_POSITION)
    assert args.dtype == kw.get("dtype")
    assert (args.inv_freq is not None) == ("inv_freq" in kw)  # --inv-freq FILE: the table written to a file
    if "scaling" in kw and not (args.axial or args.mrope_section):
        assert args.scaling is not None
        if not args.scaling.startswith("@"):  # @FILE: the mapping written to a file
            assert json.loads(args.scaling) == kw["scaling"]
    multiaxis = "scaling" in kw and (
        "axes_dim" in kw["scaling"] or kw["scaling"].get("rope_type") in ("axial", "dinov3")
    )
    if not multiaxis:
        assert args.call == kw.get("call", args.call)
