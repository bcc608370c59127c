r"""SymPy models of positional-encoding schemes and the registry of verified identities."""

from . import registry
from .core import Domain, Fact, Identity, Step, VerifyResult

__all__ = ["registry", "Identity", "Fact", "Step", "Domain", "VerifyResult"]
