"""canonicalize: MLIR's canonicalizer, run through MLIR's pass manager.

Op folders and canonicalization patterns of every loaded dialect; it does little to
StableHLO, whose rich simplifier is our ``algsimp``.
"""

from __future__ import annotations

from pipelines.pass_base import UpstreamPass
from pipelines.registry import register

__all__ = ["Canonicalize"]


@register
class Canonicalize(UpstreamPass):
    """MLIR's canonicalizer: upstream folders and canonicalization patterns."""

    name = "canonicalize"
    pipeline = "canonicalize"
