r"""keras-hub, ``keras_hub/src/layers/modeling/rotary_embedding.py`` (``RotaryEmbedding``: ``call``,
``_compute_cos_sin_embedding``, ``_get_inverse_freq``, ``_apply_rotary_pos_emb``), written in ``keras.ops``; the
port uses NumPy for the ops (what ``keras.ops`` computes on the NumPy backend).

What matters. ``_get_inverse_freq(rotary_dim)``: ``1 / max_wavelength**(arange(0, rotary_dim, 2, float32) /
rotary_dim)``; ``call(inputs, start_index=0, positions=None)``: ``positions`` cast to float32 (or ``arange(seq) +
start_index``), divided by ``scaling_factor`` (linear scaling), ``einsum(positions, inverse_freq)``, ``stack((freq,
freq), axis=-2)`` reshaped: the angles ``[freq, freq]`` (half layout); cos and sin in the layer's compute dtype.
``_apply_rotary_pos_emb``: ``split`` in halves, ``stack((-x2, x1), axis=-2)`` reshaped (``rotate_half``), ``x cos +
rotate_half(x) sin``."""

import numpy as np

from . import port


class RotaryEmbedding:
    def __init__(self, max_wavelength=10000, scaling_factor=1.0, compute_dtype="float32"):
        self.max_wavelength, self.scaling_factor, self.compute_dtype = max_wavelength, scaling_factor, compute_dtype

    def __call__(self, inputs, start_index=0, positions=None):
        cos_emb, sin_emb = self._compute_cos_sin_embedding(inputs, start_index, positions)
        return self._apply_rotary_pos_emb(inputs, cos_emb, sin_emb)

    def _apply_rotary_pos_emb(self, tensor, cos_emb, sin_emb):
        x1, x2 = np.split(tensor, 2, axis=-1)
        half_rot_tensor = np.stack((-x2, x1), axis=-2).reshape(tensor.shape)
        return (tensor * cos_emb) + (half_rot_tensor * sin_emb)

    def _compute_cos_sin_embedding(self, inputs, start_index=0, positions=None):
        rotary_dim = inputs.shape[-1]
        inverse_freq = self._get_inverse_freq(rotary_dim)
        if positions is None:
            positions = np.arange(inputs.shape[1], dtype="float32") + start_index
        else:
            positions = np.asarray(positions).astype("float32")
        positions = positions / np.float32(self.scaling_factor)
        freq = np.einsum("i,j->ij", positions, inverse_freq)
        embedding = np.stack((freq, freq), axis=-2).reshape(*freq.shape[:-1], freq.shape[-1] * 2)
        embedding = embedding[None]  # (1, seq, dim): broadcast over the batch (the feature axis last)
        return np.cos(embedding).astype(self.compute_dtype), np.sin(embedding).astype(self.compute_dtype)

    def _get_inverse_freq(self, rotary_dim):
        freq_range = np.arange(0, rotary_dim, 2, dtype="float32") / np.float32(rotary_dim)
        return (1.0 / (np.float32(self.max_wavelength) ** freq_range)).astype("float32")


def rotary(vectors, positions):
    return RotaryEmbedding()(vectors[None], positions=positions)[0].astype(vectors.dtype)


def rotary_scaled(vectors, positions):
    return RotaryEmbedding(scaling_factor=4.0)(vectors[None], positions=positions)[0].astype(vectors.dtype)


SRC = "keras_hub/src/layers/modeling/rotary_embedding.py: RotaryEmbedding"
PORTS = [
    port(
        rotary,
        project="keras-hub",
        source=f"{SRC}.call(inputs, positions=...)",
        cli="--call vectors,positions --layout half",
        call="vectors,positions",
        layout="half",
    ),
    port(
        rotary_scaled,
        project="keras-hub",
        source=f"{SRC}(scaling_factor=4)",
        cli='--call vectors,positions --layout half --scaling \'{"rope_type": "linear", "factor": 4}\'',
        call="vectors,positions",
        layout="half",
        scaling={"rope_type": "linear", "factor": 4.0},
    ),
]
