r"""The subcommands of ``posproof``, one module each: ``add_parser(sub)`` declares it, ``run(args)`` runs it.

:data:`SUBCOMMANDS` lists them in the order ``posproof --help`` shows them; :mod:`posproof.derivations.cli` builds
the parser from it. No subcommand imports ``cli``.
"""

#: The subcommand modules, in the order of ``posproof --help``.
SUBCOMMANDS = (
    "list",
    "derive",
    "check",
    "export",
    "plot",
    "precision",
    "t5_buckets",
    "extend",
    "audit",
    "sweep",
    "vectors",
    "properties",
    "annotate",
)
