r"""``python -m posproof.derivations.sinusoidal``: the sinusoidal derivations as LaTeX."""

import sys

from posproof.derivations._topic import main

if __name__ == "__main__":
    sys.exit(main("sinusoidal"))
