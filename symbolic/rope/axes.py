r"""Vision and diffusion RoPE: per-axis frequency ladders, shared- and split-frequency axial 2-D RoPE, continuous
coordinates with a phase at the origin, and explicit per-pair axis maps."""


def claims() -> list:
    return []
