"""One small, representative sample per spec op, for the coverage table.

Each family module here defines ``SAMPLES: dict[str, Callable[[], Sample]]`` keyed by
the spec op name (``"Add"``, ``"DynamicSlice"``). A sample builds a computation with
the builder and gives inputs and a reference result computed by numpy/scipy (never by
hlo-mlir). ``scripts/coverage.py`` runs every sample through build -> verify ->
compile -> run -> compare on each target (llvm-cpu, vulkan-spirv; cuda is compiled) and
writes ``docs/coverage.md``.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass
class Sample:
    """A built computation, its arguments and the expected (reference) result."""

    computation: Any
    args: tuple = ()
    expected: Any = None
    rtol: float = 1e-5
    atol: float = 1e-6
    # Why a known gap exists (shown in the table) when the sample is expected not to run.
    known_gap: str = ""
    # Why XLA CPU cannot run the sample (e.g. a custom-call target only hlo-mlir knows).
    no_xla: str = ""
    # Extra compile flags or run settings, when an op needs them.
    run_kwargs: dict = field(default_factory=dict)
    # Called with the loaded module before the run (fills an infeed or a channel queue).
    prepare: Callable[[Any], None] | None = None


def all_samples() -> dict[str, Callable[[], Sample]]:
    """Every sample of every family module, by spec op name."""
    out: dict[str, Callable[[], Sample]] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for name, fn in getattr(module, "SAMPLES", {}).items():
            if name in out:
                raise ValueError(f"duplicate sample for {name} in {info.name}")
            out[name] = fn
    return out
