r"""``python -m posproof.derivations.multiaxis``: the multi-axis RoPE derivations as LaTeX."""

import sys

from ._topic import main

if __name__ == "__main__":
    sys.exit(main("multiaxis"))
