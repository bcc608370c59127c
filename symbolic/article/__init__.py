r"""The article: claims behind statements of 'Positional Encoding 101' and the RoPE note (:mod:`.statements`).

``posproof.symbolic.article`` was one module; its names are now :mod:`.statements`'s (reading them here still works,
with a :class:`DeprecationWarning`).
"""


def __getattr__(name: str):
    from posproof._moved import forward

    return forward(__name__, "posproof.symbolic.article.statements", name)
