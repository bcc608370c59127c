r"""Claims of the rope topic (filled in by its issue)."""


def claims() -> list:
    return []
