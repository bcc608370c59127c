r"""A port is imported only where its array library is installed (pytest's doctest collection imports every
module under tests/)."""

from tests.audit_corpus.third_party import MODULES, installed

collect_ignore = [f"{name}.py" for name, backend in MODULES.items() if not installed(backend)]
