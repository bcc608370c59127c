r"""Position remapping at inference time (context extension without retraining): Self-Extend's grouped positions
(Jin et al. 2024, arXiv 2401.01325) and ReRoPE's clamped relative position (Su 2023)."""


def claims() -> list:
    return []
