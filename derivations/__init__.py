r"""Runnable derivations (``python -m posproof.derivations.<topic>`` prints that topic as LaTeX) and the CLI."""
