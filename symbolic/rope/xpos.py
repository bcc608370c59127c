r"""xPos (Sun et al. 2022): RoPE with an exponential scale per pair, queries scaled up and keys down, so that only
the scores are relative."""


def claims() -> list:
    return []
