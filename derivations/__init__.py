r"""Runnable derivations (``python -m posproof.derivations.<topic>`` prints that topic as LaTeX) and the CLI."""

if __name__ != "posproof.derivations":  # one import identity: never a second copy
    raise ImportError(f"import posproof.derivations, not {__name__} (the folder installs as posproof.derivations)")
