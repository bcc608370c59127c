r"""Runnable derivations (``python -m derivations.<topic>`` prints that topic as LaTeX) and the CLI."""
