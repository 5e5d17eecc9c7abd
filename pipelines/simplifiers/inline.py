"""inline: MLIR's inliner for ``func.call`` of private functions (XLA's CallInliner).

Every call of a private function is replaced by a copy of its body; run ``dce`` after it
to drop the callees that are no longer called. Nothing else runs with it (MLIR's default
nested canonicalizer is off): cleanups are algsimp's and dce's job.
"""

from __future__ import annotations

from pipelines.pass_base import UpstreamPass
from pipelines.registry import register

__all__ = ["Inline"]


@register
class Inline(UpstreamPass):
    """Inline func.call of private functions into their callers (XLA CallInliner)."""

    name = "inline"
    acts_on = frozenset({"func.call"})
    aliases = ("call-inliner",)  # spec 004
    # No nested canonicalizer run (the default): cleanups are algsimp's and dce's job.
    pipeline = "inline{default-pipeline=}"
