"""Small builders the tests (and the builder lit scripts) share."""

from __future__ import annotations

from hlo_mlir import Parameter, Shape, XlaBuilder, XlaComputation

__all__ = ["params", "computation"]


def _shape(spec) -> Shape:
    if isinstance(spec, Shape):
        return spec
    return Shape.parse(spec) if isinstance(spec, str) else Shape.from_numpy(spec)


def params(b: XlaBuilder, *shapes) -> list:
    """Parameters 0, 1, ... of ``b``, one per shape: a ``Shape``, its text (``"f32[4]"``) or
    an array of that shape and type."""
    return [Parameter(b, i, _shape(s)) for i, s in enumerate(shapes)]


def computation(name: str, shapes, fn) -> XlaComputation:
    """The computation ``fn(b, *parameters)`` returns, its parameters of ``shapes``."""
    b = XlaBuilder(name)
    return b.build(fn(b, *params(b, *shapes)))
