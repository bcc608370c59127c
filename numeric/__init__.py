r"""Vectorised NumPy implementations of positional-encoding schemes and mpmath references of the same."""
from .sinusoid import inverse_frequencies, inverse_frequencies_mp, sinusoidal, sinusoidal_mp

__all__ = ["sinusoidal", "sinusoidal_mp", "inverse_frequencies", "inverse_frequencies_mp"]
