"""Bit-level float helpers for the Vulkan legalizations: integer ops on a float's bits are
exact on every device, where Mesa's shader compiler may rewrite float arithmetic.

- ``sign_bits(x)``: x's bits with only the sign bit kept, as the signless integer type.
- ``copysign(magnitude, sign)``: ``magnitude`` with the sign bit of ``sign``.
"""

from __future__ import annotations

from pipelines.values import Expr

__all__ = ["int_type", "sign_bits", "copysign", "from_bits"]


def int_type(x: Expr) -> str:
    """The signed integer type as wide as ``x``'s float type (``s32`` for f32)."""
    return f"s{x.shape.element_type.bit_width}"


def _sign_mask(x: Expr) -> int:
    return -(1 << (x.shape.element_type.bit_width - 1))  # the sign bit alone, as a signed integer


def sign_bits(x: Expr) -> Expr:
    """``bits(x) & SIGN``: 0 or the sign bit."""
    return x.convert_bits(int_type(x)) & _sign_mask(x)


def from_bits(bits: Expr, like: Expr) -> Expr:
    """``bits`` read as ``like``'s float type."""
    return bits.convert_bits(like.shape.element_type)


def copysign(magnitude: Expr, sign: Expr) -> Expr:
    """``(bits(magnitude) & ~SIGN) | (bits(sign) & SIGN)``."""
    magnitude_bits = magnitude.convert_bits(int_type(magnitude)) & ~_sign_mask(magnitude)
    return from_bits(magnitude_bits | sign_bits(sign), magnitude)
