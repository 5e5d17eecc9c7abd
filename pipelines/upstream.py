"""Upstream MLIR passes exposed under our registry (run through MLIR's pass manager).

``canonicalize`` runs MLIR's canonicalizer (op folders and canonicalization patterns
of every loaded dialect; it does little to StableHLO, whose rich simplifier is our
``algsimp``); ``inline`` inlines ``func.call``s of private functions (XLA's
CallInliner); run ``dce`` after it to drop the callees.
"""

from __future__ import annotations

from pipelines.pass_base import UpstreamPass
from pipelines.registry import register

__all__ = ["Canonicalize", "Inline"]


@register
class Canonicalize(UpstreamPass):
    """MLIR's canonicalizer: upstream folders and canonicalization patterns."""

    name = "canonicalize"
    pipeline = "canonicalize"


@register
class Inline(UpstreamPass):
    """Inline func.call of private functions into their callers (XLA CallInliner)."""

    name = "inline"
    # No nested canonicalizer run (the default): cleanups are algsimp's and dce's job.
    pipeline = "inline{default-pipeline=}"
