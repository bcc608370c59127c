r"""Audit a user's RoPE, ALiBi or T5 implementation: what is wrong, why, and the smallest input that shows it.

:func:`audit_rope` calls a function like the RoPE note's ``rope(vectors, positions, base)`` (NumPy arrays in and
out; torch tensors when the function needs them and torch is installed; other signatures through a
:class:`RopeCall` or an adapter) and reports a :class:`RopeReport`:

* **findings** (failures of the mathematics), each with a stable id, one sentence and a minimal reproducing example
  (the smallest width and positions that show it);
* what it **matched**: the layout (``"interleaved"`` pairs ``(2i, 2i+1)``, ``"half"`` pairs ``(i, i + r/2)``),
  the frequencies (base, scaling rule), the rotary width, and the precision of its angles;
* a **precision profile** (:mod:`numeric.precision_profile`): reported, never a failure by itself. Angles computed in
  float32 (Hugging Face's float32 cos/sin cache) pass; angles, positions or frequencies in bfloat16/float16 fail with
  ``low-precision-angles``. The precision of the cos/sin table is another thing (``matched.table_precision``): a
  16-bit table over exact angles (GPT-NeoX's float16 cache, a bfloat16 serving model) errs by a bounded amount at
  every position and is ``low-precision-table`` only where the profile exceeds its tolerance at small positions.

How. The function is probed with unit vectors: one call with the ``width x width`` identity at each of the
positions ``0, 1, 2, 3, 4, 8, ..., 2**K <= max_position`` gives the matrix ``A_m`` it applies at ``m``. Which
channels ``A_m`` couples gives the layout and the rotary width; each ``2 x 2`` block must be ``rho R(phi)``; the
angles ``phi_i(m)`` (unwrapped over the doubling positions) give the sign, the offset at ``m = 0`` and the
frequencies, which are matched against the configured rule and against named alternatives (other bases, exponents,
scaling rules, the rotary width). Rows of a call do not interact in a correct function; every probing call also
holds a row at the largest probed position, so that rules depending on the current length (dynamic NTK,
LongRoPE) see the same length in every call. Behavioural checks follow on random vectors: norms, scores that
depend on ``n - m`` only (random shifts up to ``max_position``), and agreement with the 50-digit reference.

Multi-axis RoPE (``axes=`` or a ``scaling`` that declares one: :mod:`numeric.multiaxis`) goes to
:func:`audit_multiaxis`, xPos (``scaling={"rope_type": "xpos", ...}``) to :mod:`numeric.audit.xpos`.

:func:`audit_alibi` checks ``slopes(n_heads)`` for ``n_heads = 1 .. 64``; :func:`audit_t5` checks
``bucket(relative_position, bidirectional, num_buckets, max_distance)`` (relative position **key - query**) over
several configurations. :func:`assert_rope_conforms` is the helper for users' own test suites;
:func:`check_rope_arguments` checks the arguments of :func:`audit_rope` without calling anything.
:mod:`numeric.audit.isolate` runs an audit in a child process (``posproof audit`` does): what the audited code
does to its process (an exit, a crash, a hang) becomes a :class:`ProcessReport`.
"""

from __future__ import annotations

from posproof.numeric.audit.alibi import audit_alibi
from posproof.numeric.audit.cache_shift import CACHE_SHIFT_FINDINGS, audit_cache_shift
from posproof.numeric.audit.call import AXES as AXES
from posproof.numeric.audit.call import CALL_ARGS as CALL_ARGS
from posproof.numeric.audit.call import RopeCall
from posproof.numeric.audit.model import rope_exact_float as rope_exact_float
from posproof.numeric.audit.multiaxis import MULTIAXIS_FINDINGS, audit_multiaxis
from posproof.numeric.audit.remap import SELF_EXTEND_FINDINGS, audit_self_extend
from posproof.numeric.audit.report import (
    ALIBI_FINDINGS,
    PROCESS_FINDINGS,
    ROPE_FINDINGS,
    T5_FINDINGS,
    AuditCallError,
    Finding,
    ProcessReport,
    RopeConformanceError,
    RopeMatch,
    RopeReport,
    SchemeReport,
    format_report,
)
from posproof.numeric.audit.rope import DEFAULT_BASE as DEFAULT_BASE
from posproof.numeric.audit.rope import DEFAULT_LAYOUT as DEFAULT_LAYOUT
from posproof.numeric.audit.rope import DEFAULT_MAX_POSITION as DEFAULT_MAX_POSITION
from posproof.numeric.audit.rope import DEFAULT_WIDTH as DEFAULT_WIDTH
from posproof.numeric.audit.rope import assert_rope_conforms, audit_rope, check_rope_arguments
from posproof.numeric.audit.t5 import T5_SETTINGS as T5_SETTINGS
from posproof.numeric.audit.t5 import audit_t5
from posproof.numeric.audit.temperature import TEMPERATURE_FINDINGS, audit_llama4_temperature
from posproof.numeric.audit.xpos import XPOS_FINDINGS, audit_xpos_plan, xpos_plan

__all__ = [
    "Finding",
    "RopeCall",
    "RopeMatch",
    "RopeReport",
    "SchemeReport",
    "ProcessReport",
    "AuditCallError",
    "RopeConformanceError",
    "audit_rope",
    "audit_alibi",
    "audit_t5",
    "audit_multiaxis",
    "audit_cache_shift",
    "audit_self_extend",
    "audit_llama4_temperature",
    "xpos_plan",
    "audit_xpos_plan",
    "assert_rope_conforms",
    "check_rope_arguments",
    "format_report",
    "ROPE_FINDINGS",
    "ALIBI_FINDINGS",
    "T5_FINDINGS",
    "MULTIAXIS_FINDINGS",
    "XPOS_FINDINGS",
    "CACHE_SHIFT_FINDINGS",
    "SELF_EXTEND_FINDINGS",
    "TEMPERATURE_FINDINGS",
    "PROCESS_FINDINGS",
]
