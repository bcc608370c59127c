r"""llm-foundry, ``llmfoundry/models/layers/layer_builders.py``/``attention.py`` (``gen_rotary_embedding`` and the
attention's ``rotary_emb(qkv, seqlen_offset=...)`` call with ``rope_impl="dail"``).

What matters. ``gen_rotary_embedding(rope_head_dim, rope_impl="dail", rope_theta, rope_dail_config)`` builds
flash-attn's ``RotaryEmbedding(dim, base=rope_theta, interleaved=False, scale_base=xpos_scale_base if type ==
"xpos" else None, pos_idx_in_fp32=rope_dail_config["pos_idx_in_fp32"])`` (defaults: ``type "original"``,
``pos_idx_in_fp32=True``, ``xpos_scale_base=512``): the half layout, float32 positions; MPT configs often set
``rope_theta = 500000``. The port reuses the flash-attn port (llm-foundry imports flash-attn's module)."""

from . import port
from .flash_attn import rotary_qk

ROPE_DAIL_CONFIG = {"type": "original", "pos_idx_in_fp32": True, "xpos_scale_base": 512}


def gen_rotary_embedding_kwargs(rope_theta, rope_dail_config):
    return {
        "base": rope_theta,
        "interleaved": False,
        "scale_base": rope_dail_config["xpos_scale_base"] if rope_dail_config["type"] == "xpos" else None,
        "pos_idx_in_fp32": rope_dail_config["pos_idx_in_fp32"],
    }


def dail_rope(q, k, positions):
    return rotary_qk(q, k, positions, **gen_rotary_embedding_kwargs(500000, ROPE_DAIL_CONFIG))


def dail_xpos(q, k, positions):
    return rotary_qk(q, k, positions, **gen_rotary_embedding_kwargs(10000, dict(ROPE_DAIL_CONFIG, type="xpos")))


PORTS = [
    port(
        dail_rope,
        project="llm-foundry",
        source="llmfoundry/models/layers/layer_builders.py: gen_rotary_embedding(rope_impl='dail', rope_theta=500000)",
        cli="--call q,k,positions --layout half --base 500000 --max-position 65535",
        call="q,k,positions",
        layout="half",
        base=500000.0,
        max_position=65535,
    ),
    port(
        dail_xpos,
        project="llm-foundry",
        source="llmfoundry/models/layers/layer_builders.py: gen_rotary_embedding(rope_dail_config type 'xpos')",
        cli='--call q,k,positions --layout half --scaling \'{"rope_type": '
        '"xpos", "scale_base": 512}\' --max-position 2047',
        call="q,k,positions",
        layout="half",
        scaling={"rope_type": "xpos", "scale_base": 512},
        max_position=2047,
    ),
]
