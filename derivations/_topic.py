r"""``python -m posproof.derivations.<topic>``: print every verified derivation of one topic as LaTeX."""

from __future__ import annotations

import sys


def main(topic: str) -> int:
    from posproof.symbolic import registry

    from posproof.printing.latex import topic_latex

    sys.stdout.write(topic_latex(registry.topic(topic)))
    return 0
