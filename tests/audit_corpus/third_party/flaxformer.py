r"""flaxformer (T5X's model library), ``flaxformer/components/embedding.py`` (``generate_fixed_pos_embedding``,
``rotate_half``, ``apply_rotary_embedding``), in JAX.

What matters. ``generate_fixed_pos_embedding(features, length, min_timescale=1, max_timescale=10000)``:
``timescale = min_timescale * (max_timescale / min_timescale)**(arange(0, features, 2, float32) / features)``,
integer positions ``arange(length)`` times ``1 / timescale`` in an einsum at ``Precision.HIGHEST`` ("rounding off to
a bfloat16 is catastrophic"), ``concatenate([inp, inp])``, and it returns **(sin, cos)** in that order.
``apply_rotary_embedding(q, k, cos, sin)``: ``q`` ``(batch, qlen, heads, d)``, the first ``qlen`` rows of the tables
(the row index is the position, outside decoding), ``q * cos + rotate_half(q) * sin`` (half layout)."""

import jax
import jax.numpy as jnp

from . import port


def rotate_half(x):
    x1, x2 = jnp.split(x, 2, axis=-1)
    return jnp.concatenate([-x2, x1], axis=-1)


def apply_rotary_embedding(q, k, cos, sin):
    batch, qlen, qheads, d = q.shape
    kbatch, klen, kheads, kd = k.shape
    assert batch == kbatch and d == kd
    qcos, qsin = jnp.expand_dims(cos[:qlen, :], axis=(0, 2)), jnp.expand_dims(sin[:qlen, :], axis=(0, 2))
    kcos, ksin = jnp.expand_dims(cos[:klen, :], axis=(0, 2)), jnp.expand_dims(sin[:klen, :], axis=(0, 2))
    out_q = (q * qcos) + (rotate_half(q) * qsin)
    out_k = (k * kcos) + (rotate_half(k) * ksin)
    return out_q, out_k


def generate_fixed_pos_embedding(features, length, min_timescale=1.0, max_timescale=10000.0):
    fraction = jnp.arange(0, features, 2, dtype=jnp.float32) / features
    timescale = min_timescale * (max_timescale / min_timescale) ** fraction
    rotational_frequency = 1.0 / timescale
    sinusoid_inp = jnp.einsum("i , j -> i j", jnp.arange(length), rotational_frequency,
                              precision=jax.lax.Precision.HIGHEST)  # fmt: skip
    sinusoid_inp = jnp.concatenate([sinusoid_inp, sinusoid_inp], axis=-1)
    return jnp.sin(sinusoid_inp), jnp.cos(sinusoid_inp)


def rotary(q, k, positions):
    # the tables' rows of the positions (the adapter), then apply_rotary_embedding on (1, tokens, 1, d)
    sin, cos = generate_fixed_pos_embedding(q.shape[-1], int(positions.max()) + 1)
    qo, ko = apply_rotary_embedding(q[None, :, None, :], k[None, :, None, :], cos[positions], sin[positions])
    return qo[0, :, 0, :], ko[0, :, 0, :]


PORTS = [
    port(
        rotary,
        project="flaxformer",
        source="flaxformer/components/embedding.py: generate_fixed_pos_embedding + apply_rotary_embedding (JAX)",
        cli="--call q,k,positions --layout half --max-position 65535",
        call="q,k,positions",
        layout="half",
        max_position=65535,
    ),
]
