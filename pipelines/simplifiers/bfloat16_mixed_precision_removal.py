"""BFloat16 mixed precision removal (spec 004: BFloat16MixedPrecisionRemoval; XLA's
``FloatNormalization`` with a float support that accepts no bf16, as the despecializer
runs it).

Every bf16 op and value becomes f32: :class:`HloElementTypeConverter` with
``from-type=bf16 to-type=f32`` (see it for the rewrite, the ops that keep bf16 with
converts around them, and the statistics). The function signatures stay; arguments are
converted in and results converted back.

NOT semantics-preserving: values between ops are no longer rounded to bf16 (that is the
point: the despecializer's program computes in f32). Run ``algsimp`` and ``cse`` after it.
"""

from __future__ import annotations

import dataclasses

from pipelines.registry import register
from pipelines.simplifiers.hlo_element_type_converter import HloElementTypeConverter

__all__ = ["BFloat16MixedPrecisionRemoval"]


@register
@dataclasses.dataclass
class BFloat16MixedPrecisionRemoval(HloElementTypeConverter):
    """Make every bf16 op and value f32 (hlo-element-type-converter from bf16 to f32)."""

    name = "bfloat16-mixed-precision-removal"
    from_type: str = dataclasses.field(default="bf16", init=False, repr=False)
    to_type: str = dataclasses.field(default="f32", init=False, repr=False)
