"""hlo-mlir: XLA's builder API and HLO passes over StableHLO, compiled by IREE.

``from hlo_mlir import *`` gives XLA's names: the builder (``XlaBuilder``, ``Parameter``,
...), the op functions (``Add``, ``Reduce``, ...; they live in the ``dialect_ops`` family
modules), ``Shape``, ``HloModule``, ``compile``, ``runtime``, ``from_jax`` and ``jit`` (JAX
functions compiled by hlo-mlir: hlo_mlir/jax_interop.py) and the error types.

Names load on first use (PEP 562 ``__getattr__``), so ``import hlo_mlir.runtime`` and the
command-line tools start without the MLIR compiler bindings, and a deployment with only
``iree-base-runtime`` can load and run compiled programs (docs/deployment.md). Submodules
(``hlo_mlir.compiler``, ``hlo_mlir.artifacts``, ...) load on first attribute access too.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from hlo_mlir.errors import *  # noqa: F403 - the error types import nothing
from hlo_mlir.errors import __all__ as _ERRORS

# Public names defined by hlo_mlir's own modules; the op functions come from the families
# listed in dialect_ops.FAMILIES (each module's __all__).
_DEFINED_IN = {
    "PrimitiveType": "hlo_mlir.types",
    "Shape": "hlo_mlir.shape",
    "ProgramShape": "hlo_mlir.shape",
    "XlaBuilder": "hlo_mlir.builder",
    "XlaOp": "hlo_mlir.builder",
    "XlaComputation": "hlo_mlir.builder",
    "Parameter": "hlo_mlir.builder",
    "HloModule": "hlo_mlir.module",
    "compile": "hlo_mlir.compiler",
    "from_jax": "hlo_mlir.jax_interop",
    "jit": "hlo_mlir.jax_interop",
}


def _op_families() -> list:
    """The dialect_ops family modules (importing dialect_ops gives XlaOp its operators)."""
    import dialect_ops  # the op layer sits above hlo_mlir's core; only this facade reaches up

    return [importlib.import_module(f"dialect_ops.{name}") for name in dialect_ops.FAMILIES]


def _public_names() -> list[str]:
    return [*_ERRORS, *_DEFINED_IN, "runtime", *(n for m in _op_families() for n in m.__all__)]


def __getattr__(name: str) -> Any:
    if name == "__all__":
        value: Any = _public_names()
    elif name.startswith("_"):
        raise AttributeError(f"module 'hlo_mlir' has no attribute {name!r}")
    elif name in _DEFINED_IN:
        if _DEFINED_IN[name] == "hlo_mlir.builder":
            _op_families()  # a builder without its ops would have no operators
        value = getattr(importlib.import_module(_DEFINED_IN[name]), name)
    elif importlib.util.find_spec(f"hlo_mlir.{name}") is not None:
        value = importlib.import_module(f"hlo_mlir.{name}")
    else:
        family = next((m for m in _op_families() if name in m.__all__), None)
        if family is None:
            raise AttributeError(f"module 'hlo_mlir' has no attribute {name!r}")
        value = getattr(family, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_public_names()))
