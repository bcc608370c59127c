r"""modded-nanogpt, ``train_gpt.py`` (``Rotary``).

What matters. A **truncated ladder**: ``angular_freq = (1/1024) ** linspace(0, 1, dim // 4)`` (float32), then
``dim // 4`` zeros: half of the pairs do not turn (their channels carry no position); float32 positions
``arange(max_seq_len)``, ``cos``/``sin`` float32 tables. ``forward(x_BTHD)``: the first ``T`` rows (the row index is
the position), ``x.float()`` in halves (half layout), ``y1 = x1 cos + x2 sin``, ``y2 = -x1 sin + x2 cos`` (clockwise,
as nanochat), ``type_as(x)``. Declared with a free frequency table (``inv_freq=``, ``--inv-freq FILE``: the ladder
itself, :func:`ladder`), the audit checks the layout, the sign and the precision, not a base."""

import numpy as np
import torch

from . import port

_TABLES: dict = {}


class Rotary:
    def __init__(self, dim, max_seq_len):
        angular_freq = (1 / 1024) ** torch.linspace(0, 1, steps=dim // 4, dtype=torch.float32)
        angular_freq = torch.cat([angular_freq, angular_freq.new_zeros(dim // 4)])
        t = torch.arange(max_seq_len, dtype=torch.float32)
        theta = torch.einsum("i,j -> ij", t, angular_freq)
        self.cos, self.sin = theta.cos(), theta.sin()

    def __call__(self, x_BTHD):
        assert self.cos.size(0) >= x_BTHD.size(-3)
        cos, sin = self.cos[None, : x_BTHD.size(-3), None, :], self.sin[None, : x_BTHD.size(-3), None, :]
        x1, x2 = x_BTHD.to(dtype=torch.float32).chunk(2, dim=-1)
        y1 = x1 * cos + x2 * sin
        y2 = x1 * (-sin) + x2 * cos
        return torch.cat((y1, y2), 3).type_as(x_BTHD)


def ladder(width):
    r"""The module's frequency table for a head of ``width`` channels, in float64 (``(width/2,)``)."""
    f = (1 / 1024) ** np.linspace(0, 1, width // 4)
    return np.concatenate([f, np.zeros(width // 4)])


def rotary(x_BTHD):
    d = x_BTHD.shape[-1]
    if d not in _TABLES:
        _TABLES[d] = Rotary(d, 8192)  # max_seq_len: a construction argument
    return _TABLES[d](x_BTHD)


def confirm_clockwise():
    r"""Independent NumPy: pair 0 (frequency 1) turns e_0 at position 1 to (cos 1, -sin 1) under the module's
    formula (RoPE's is (cos 1, sin 1)); a zero-frequency pair leaves its channels alone at every position."""
    d = 8
    f = ladder(d)
    assert f[0] == 1.0 and (f[d // 4 :] == 0).all()
    x = np.zeros((1, d))
    x[0, 0] = 1.0
    got = rotary(torch.tensor(np.stack([np.zeros(d), x[0]]))[None, :, None, :]).numpy()[0, 1, 0]
    assert np.allclose([got[0], got[d // 2]], [np.cos(1.0), -np.sin(1.0)], atol=1e-6)
    x = np.zeros((1, d))
    x[0, d // 2 - 1] = 1.0  # the last pair: frequency 0
    big = np.zeros((8000, d))
    big[-1] = x[0]
    assert np.allclose(rotary(torch.tensor(big)[None, :, None, :]).numpy()[0, -1, 0], x[0], atol=1e-7)


PORTS = [
    port(
        rotary,
        {"rotation-sign"},
        project="modded-nanogpt",
        source="train_gpt.py: Rotary (truncated ladder)",
        cli="--call vectors@bshd --layout half --width 128 --inv-freq ladder.json --max-position 8191",
        call="vectors@bshd",
        layout="half",
        width=128,
        inv_freq=ladder(128),
        max_position=8191,
        confirm=confirm_clockwise,
    ),
]
