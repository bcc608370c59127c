r"""The claims under test, computed once per session (building a topic's SymPy objects takes a moment)."""

from posproof.symbolic import registry

CLAIMS = registry.all()
IDS = [c.id for c in CLAIMS]
BY_ID = {c.id: c for c in CLAIMS}
