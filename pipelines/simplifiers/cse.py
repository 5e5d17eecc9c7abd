"""Common-subexpression elimination (spec 004: HLO cse).

Identical constants and identical side-effect-free ops with the same operands and
attributes are commoned; MLIR's ``cse`` walks in dominance order, so arbitrarily
large common expressions are found in one linear pass. Run ``dce`` after it if
nothing else cleans up.
"""

from __future__ import annotations

from pipelines.pass_base import UpstreamPass
from pipelines.registry import register

__all__ = ["CSE"]


@register
class CSE(UpstreamPass):
    """Common-subexpression elimination: merge identical side-effect-free ops."""

    name = "cse"
    aliases = ("hlo-cse",)  # spec 004
    pipeline = "cse"
