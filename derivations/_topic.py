r"""``python -m derivations.<topic>``: print every verified derivation of one topic as LaTeX."""

from __future__ import annotations

import sys


def main(topic: str) -> int:
    from symbolic import registry

    from .render import topic_latex

    sys.stdout.write(topic_latex(registry.topic(topic)))
    return 0
