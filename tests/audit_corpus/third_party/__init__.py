r"""Ports of the RoPE code of real projects (serving and training stacks, vision, diffusion, JAX), each with the
declaration a user of the project would give the audit and the outcome the audit must give: no finding for correct
code, or the real finding with its cause.

One module per project. Every function ports one function (or one module's ``forward`` and its apply function) of
that project, in the array library the project writes it in (NumPy, torch or JAX), faithful in what the audit
sees: the pair layout, the frequency formula, the dtype of positions, angles and cos/sin tables, and the calling
form. Each module's docstring names the project, the file and the functions ported and what they do that matters.
Written for posproof from a reading of each project's code (no code copied); the project's own tests are not
reproduced. :func:`all_ports` collects the ports (a module whose library is not installed is left out and named
in :data:`MISSING`)."""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass

from .. import Case, case

#: The modules and the array library each needs (``numpy``: nothing more).
MODULES = {
    "vllm": "torch",
    "torchtune": "torch",
    "llama_models": "torch",
    "mistral_inference": "torch",
    "megatron_core": "torch",
    "transformer_engine": "torch",
    "flash_attn": "torch",
    "liger_kernel": "torch",
    "gpt_neox": "torch",
    "llm_foundry": "torch",
    "flaxformer": "jax",
    "maxtext": "jax",
    "nanochat": "torch",
    "modded_nanogpt": "torch",
    "x_transformers": "torch",
    "xformers": "torch",
    "esm": "torch",
    "flux": "torch",
    "diffusers": "torch",
    "timm": "torch",
    "sam2": "torch",
    "dinov3": "torch",
    "qwen2_5_vl": "torch",
    "gemma_pytorch": "torch",
    "keras_hub": "numpy",
}


@dataclass(frozen=True)
class Port:
    r"""A corpus :class:`~tests.audit_corpus.Case` with where it comes from.

    ``project``, ``source`` (``file: function``); ``cli``: the ``posproof audit`` options that declare it (the
    ``audit_rope`` keywords are ``case.kwargs``); ``needs``: the posproof feature it waits for (``None``: none);
    ``confirm``: for a finding, an independent NumPy computation that shows it (raises ``AssertionError`` if the
    finding were wrong)."""

    case: Case
    project: str
    source: str
    cli: str = ""
    needs: str | None = None
    confirm: Callable[[], None] | None = None
    backend: str = "numpy"

    @property
    def name(self) -> str:
        return self.case.name


def port(fn, expected=(), *, project, source, cli="", needs=None, confirm=None, **kwargs) -> Port:
    r"""A :class:`Port` of ``fn``; ``kwargs`` are :func:`~posproof.numeric.audit.audit_rope`'s."""
    backend = MODULES.get(fn.__module__.rsplit(".", 1)[-1], "numpy")
    return Port(case(fn, expected, **kwargs), project, source, cli, needs, confirm, backend)


#: The modules left out by :func:`all_ports`, each with the library it needs.
MISSING: dict[str, str] = {}


def installed(backend: str) -> bool:
    r"""Whether ``backend`` (``numpy``, ``torch``, ``jax``) can be imported."""
    return backend == "numpy" or importlib.util.find_spec(backend) is not None


def all_ports() -> list[Port]:
    r"""Every port whose library is installed, module by module."""
    out = []
    for name, backend in MODULES.items():
        if not installed(backend):
            MISSING[name] = backend
            continue
        out.extend(importlib.import_module(f"{__name__}.{name}").PORTS)
    return out
