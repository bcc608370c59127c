r"""Relative bias kernels: FIRE (Li et al. 2023, arXiv 2310.04418), Sandwich (Chi et al. 2023, arXiv 2212.10356)
and KERPLE (Chi et al. 2022, arXiv 2205.09921)."""


def claims() -> list:
    return []
