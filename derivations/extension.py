r"""``python -m posproof.derivations.extension``: the context-extension derivations as LaTeX."""

import sys

from posproof.derivations._topic import main

if __name__ == "__main__":
    sys.exit(main("extension"))
