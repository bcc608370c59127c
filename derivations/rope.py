r"""``python -m posproof.derivations.rope``: the rope derivations as LaTeX."""

import sys

from posproof.derivations._topic import main

if __name__ == "__main__":
    sys.exit(main("rope"))
