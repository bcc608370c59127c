r"""``python -m posproof.derivations.lemmas``: the lemmas (proved once, for every size, and cited) as LaTeX."""

import sys

from posproof.derivations._topic import main

if __name__ == "__main__":
    sys.exit(main("lemmas"))
