r"""MaxText, ``MaxText/layers/embeddings.py`` (``RotaryEmbedding.__call__``), in JAX.

What matters. ``fraction = 2 * arange(0, embedding_dims // 2) / embedding_dims``, ``timescale = min_timescale *
(max_timescale / min_timescale)**fraction`` (1 and 10000); ``inputs`` ``(batch, seq, heads, head_dim)`` with
explicit ``position`` ``(batch, seq)``; ``sinusoid_inp = position / timescale`` (float32 angles), ``sin`` and ``cos``
cast to the **inputs' dtype** (a bfloat16 table with bfloat16 activations); halves ``first_half``, ``second_half``
(half layout) turned as ``first cos - second sin``, ``second cos + first sin``."""

import jax.numpy as jnp

from . import port


def rotary_embedding(inputs, position, min_timescale=1, max_timescale=10_000):
    embedding_dims = inputs.shape[-1]
    half_embedding_dim = embedding_dims // 2
    fraction = 2 * jnp.arange(0, half_embedding_dim) / embedding_dims
    timescale = min_timescale * (max_timescale / min_timescale) ** fraction
    position = position[:, :, jnp.newaxis, jnp.newaxis]
    sinusoid_inp = position / timescale
    sin = jnp.sin(sinusoid_inp).astype(inputs.dtype)
    cos = jnp.cos(sinusoid_inp).astype(inputs.dtype)
    first_half, second_half = jnp.split(inputs, 2, axis=-1)
    first_part = first_half * cos - second_half * sin
    second_part = second_half * cos + first_half * sin
    return jnp.concatenate((first_part, second_part), axis=-1)


def rotary(vectors, positions):
    return rotary_embedding(vectors[None, :, None, :], positions[None, :])[0, :, 0, :]


def rotary_bfloat16_inputs(vectors, positions):
    # the same layer, audited with bfloat16 activations (its cos/sin cast to them)
    return rotary(vectors, positions)


PORTS = [
    port(
        rotary,
        project="MaxText",
        source="MaxText/layers/embeddings.py: RotaryEmbedding.__call__ (JAX)",
        cli="--call vectors,positions --layout half",
        call="vectors,positions",
        layout="half",
    ),
    port(
        rotary_bfloat16_inputs,
        project="MaxText",
        source="MaxText/layers/embeddings.py: RotaryEmbedding.__call__ (JAX, bfloat16 "
        "inputs: a bfloat16 cos/sin table)",
        cli="--call vectors,positions --layout half --dtype bfloat16",
        call="vectors,positions",
        layout="half",
        dtype="bfloat16",
    ),
]
