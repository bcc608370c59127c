r"""RoPE: the rotary identities in one dimension (:mod:`.rotary`) and with position vectors (:mod:`.multiaxis`).

``posproof.symbolic.rope`` was one module; its names are now :mod:`.rotary`'s (reading them here still works, with
a :class:`DeprecationWarning`).
"""


def __getattr__(name: str):
    from posproof._moved import forward

    return forward(__name__, "posproof.symbolic.rope.rotary", name)
