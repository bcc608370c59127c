r"""``python -m posproof.derivations.relative``: the relative derivations as LaTeX."""

import sys

from posproof.derivations._topic import main

if __name__ == "__main__":
    sys.exit(main("relative"))
