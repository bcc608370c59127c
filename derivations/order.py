r"""``python -m posproof.derivations.order``: the order derivations as LaTeX."""

import sys

from posproof.derivations._topic import main

if __name__ == "__main__":
    sys.exit(main("order"))
