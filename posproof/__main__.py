r"""``python -m posproof ...``: the same as ``posproof ...``."""

import sys

from posproof.derivations.cli import main

if __name__ == "__main__":
    sys.exit(main())
