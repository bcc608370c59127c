r"""Hypothesis strategies for every numeric scheme, in one module (one section per scheme)."""
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
import numpy as np

# ---- shared ---------------------------------------------------------------------------------------------------
#: Even widths, small enough to keep examples fast.
even_widths = st.integers(min_value=1, max_value=64).map(lambda h: 2 * h)
#: Frequency bases > 1 as used in practice (10^4 for the paper, 5*10^5 for Llama 3) and odd ones.
bases = st.one_of(st.just(10000.0), st.just(500000.0), st.floats(min_value=1.5, max_value=1e6))
#: Positions as real numbers (integer token indices and interpolated fractional positions).
position = st.floats(min_value=-4096, max_value=4096, allow_nan=False, allow_infinity=False)
positions = hnp.arrays(np.float64, st.integers(1, 16), elements=position)
#: A relative shift applied to every position.
shift = st.integers(min_value=-2048, max_value=2048)

# ---- sinusoidal ----------------------------------------------------------------------------------------------
sinusoidal_layouts = st.sampled_from(["interleaved", "half"])
