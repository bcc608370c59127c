r"""Layers without positions and length-dependent temperature: Llama 4's iRoPE (NoPE layers, and the query
temperature of ``attn_temperature_tuning``, following arXiv 2501.19399) and log-n attention scaling."""


def claims() -> list:
    return []
