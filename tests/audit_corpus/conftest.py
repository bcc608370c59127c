r"""The torch half of the corpus is imported only where torch is installed (pytest's doctest collection imports
every module under tests/)."""

import importlib.util

collect_ignore = [] if importlib.util.find_spec("torch") else ["torch_impls.py"]
