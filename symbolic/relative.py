r"""Claims of the relative topic (filled in by its issue)."""


def claims() -> list:
    return []
