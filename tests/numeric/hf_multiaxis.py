r"""Transformers' own multi-axis rotaries, run in float64 on seeded inputs: the live cross-check of
tests/numeric/test_multiaxis.py, and (``python -m tests.numeric.hf_multiaxis``, with torch and transformers
installed) the writer of its golden file ``tests/numeric/data/multiaxis_hf.json``.

Each case builds the model's rotary module from a small config, takes its inverse frequencies, lays out float64
angles with the module's own ``recomposition_frequencies`` and rotates with the model's ``apply_rotary_pos_emb``
(rotate-half; GLM-4V's pairs ``(2i, 2i + 1)``; GLM-4V and GLM-4V-MoE rotate the first half of the head only,
``partial_rotary_factor: 0.5``): the layout code is transformers', the arithmetic float64, so posproof must agree to
~1e-15.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

GOLDEN = Path(__file__).resolve().parent / "data" / "multiaxis_hf.json"
TOKENS, WIDTH = 5, 16

#: name -> (transformers module, config class, rotary class, rope parameters, axes of a position vector)
CASES = {
    "qwen2_vl": ("qwen2_vl", "Qwen2VLTextConfig", "Qwen2VLRotaryEmbedding",
                 {"rope_type": "default", "rope_theta": 1000000.0, "mrope_section": [2, 3, 3]}, 3),
    "qwen3_vl": ("qwen3_vl", "Qwen3VLTextConfig", "Qwen3VLTextRotaryEmbedding",
                 {"rope_type": "default", "rope_theta": 5000000.0, "mrope_section": [3, 3, 2],
                  "mrope_interleaved": True}, 3),
    "pixtral": ("pixtral", "PixtralVisionConfig", "PixtralVisionRotaryEmbedding",
                {"rope_type": "axial", "rope_theta": 10000.0}, 2),
    "glm4v": ("glm4v", "Glm4vTextConfig", "Glm4vTextRotaryEmbedding",
              {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0.5,
               "mrope_section": [2, 1, 1]}, 3),
    "glm4v_moe": ("glm4v_moe", "Glm4vMoeTextConfig", "Glm4vMoeTextRotaryEmbedding",
                  {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0.5,
                   "mrope_section": [2, 1, 1]}, 3),
}  # fmt: skip
#: name -> (pair layout, rotary width) of each module's rotation (rotate-half over the whole head unless said)
ROTATION = {"glm4v": ("interleaved", WIDTH // 2), "glm4v_moe": ("half", WIDTH // 2)}
#: The seed of each case's inputs (fixed, so that a new case leaves the others' golden values as they were).
SEEDS = {"pixtral": 0, "qwen2_vl": 1, "qwen3_vl": 2, "glm4v": 3, "glm4v_moe": 4}


def inputs(name: str) -> tuple[np.ndarray, np.ndarray]:
    r"""Seeded vectors ``(tokens, width)`` and integer position vectors ``(tokens, A)`` of one case."""
    rng = np.random.default_rng(SEEDS[name])
    x = rng.standard_normal((TOKENS, WIDTH))
    pos = rng.integers(0, 2000, (TOKENS, CASES[name][4]))
    return x, pos


def transformers_rotation(name: str, x=None, pos=None) -> tuple[np.ndarray, np.ndarray]:
    r"""``(inv_freq, rotated)``: the module's inverse frequencies (``(rotary_dim/2,)``) and transformers' rotation of
    :func:`inputs` (or of vectors ``x`` ``(tokens, 16)`` at position vectors ``pos`` ``(tokens, A)``: the audit's
    calls)."""
    import importlib

    import torch

    module_name, config_cls, rotary_cls, rope, _ = CASES[name]
    mod = importlib.import_module(f"transformers.models.{module_name}.modeling_{module_name}")
    config = getattr(mod, config_cls)(
        hidden_size=WIDTH * 2, num_attention_heads=2, head_dim=WIDTH, rope_parameters=rope
    )
    rotary = getattr(mod, rotary_cls)(config)
    inv = rotary.inv_freq.double()  # (d/2,)
    if x is None or pos is None:
        x, pos = inputs(name)
    p = torch.tensor(np.asarray(pos), dtype=torch.float64)
    if name == "pixtral":  # positions (N, 2) -> freqs (N, 2, d/2)
        freqs = p[..., None] * inv
    else:  # position_ids (3, batch, N) -> freqs (3, batch, N, d/2)
        freqs = p.T[:, None, :, None] * inv
    cos, sin = rotary.recomposition_frequencies(freqs.cos()), rotary.recomposition_frequencies(freqs.sin())
    q = torch.tensor(x, dtype=torch.float64)[None, None]  # (batch, heads, N, d)
    if name == "pixtral":
        cos, sin = cos[None], sin[None]
    out, _ = mod.apply_rotary_pos_emb(q, q, cos, sin)
    return inv.numpy(), out[0, 0].numpy()


def main() -> int:
    doc = {}
    for name in CASES:
        inv, out = transformers_rotation(name)
        doc[name] = {"inv_freq": [repr(float(v)) for v in inv], "rotated": [[repr(float(v)) for v in r] for r in out]}
    import transformers

    doc["transformers"] = transformers.__version__
    GOLDEN.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
