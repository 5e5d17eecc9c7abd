"""Control flow: Call (spec: Call).

The callee is imported into the caller's module as a private ``func.func`` (once per
computation and builder; its own callees come along) and invoked with ``func.call``.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops import _emit
from hlo_mlir.builder import XlaBuilder, XlaComputation, XlaOp, builder_of
from hlo_mlir.errors import InvalidArgumentError, ShapeError
from hlo_mlir.shape import ProgramShape, Shape

__all__ = ["Call", "call_rule", "call"]

def Call(builder: XlaBuilder, computation: XlaComputation, operands: Sequence[XlaOp] = ()) -> XlaOp:
    """Invokes ``computation`` with ``operands``, whose arity and shapes must match its
    parameters; there may be none (spec: Call)."""
    if not isinstance(builder, XlaBuilder):
        raise InvalidArgumentError(f"Call requires an XlaBuilder; got {type(builder).__name__}.")
    operands = list(operands)
    if operands and builder_of("Call", *operands) is not builder:
        raise InvalidArgumentError(f"Call requires operands of the builder it is given ({builder.name!r}); "
                                   f"got operands of {operands[0].builder.name!r}.")

    def emit():
        if not isinstance(computation, XlaComputation):
            raise InvalidArgumentError(f"Call requires an XlaComputation; got {type(computation).__name__}.")
        values = [x.value for x in operands]
        program_shape = computation.program_shape()
        call_rule(_emit.shapes_of(values), program_shape, computation.name)
        return call(builder.import_computation(computation), values, program_shape)

    return builder.emit("Call", emit)


def call_rule(operands: Sequence[Shape], program_shape: ProgramShape, callee: str = "computation") -> Shape:
    """The result shape of calling a computation of ``program_shape`` with ``operands``."""
    params = program_shape.parameters
    if len(operands) != len(params):
        raise InvalidArgumentError(
            f"Call requires {len(params)} operand(s) for computation {callee!r} {program_shape}; "
            f"got {len(operands)}: {', '.join(str(s) for s in operands) or 'none'}.")
    for i, (operand, param) in enumerate(zip(operands, params)):
        if not operand.compatible(param):
            raise ShapeError(
                f"Call requires operand {i} of shape {param} for computation {callee!r} {program_shape}; "
                f"got {operand}.")
    return program_shape.result


def call(callee: str, operands: Sequence[ir.Value], program_shape: ProgramShape) -> ir.Value:
    """Emits ``func.call @callee`` returning the program shape's result."""
    return _emit.call(callee, operands, [_emit.type_of(program_shape.result)])[0]
