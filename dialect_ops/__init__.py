"""StableHLO op emission for hlo-mlir: one module per op family.

Each family module holds, per op, the public builder function (spec name, XlaOp in
and out), its shape rule (``Shape`` in and out, raising our errors) and its emit
step (``ir.Value`` in and out, used by the builder and by passes alike), written
through ``hlo_mlir._emit``, the only module that creates MLIR operations.

This package is the layer above the builder core (``hlo_mlir.builder``): importing it
gives ``XlaOp`` its operators (``x + 1`` is ``Add(x, Constant(1))``).
"""

from dialect_ops import constant, elementwise
from hlo_mlir.builder import register_ops

__all__ = ["FAMILIES"]

# The op family modules whose ``__all__`` the ``hlo_mlir`` package re-exports.
FAMILIES = ("constant", "elementwise", "shape_ops", "slicing", "tuple_ops", "linalg", "reduction",
            "control_flow", "convolution", "windows", "indexing", "gather_scatter", "sorting", "rng",
            "linalg_math", "fft", "batchnorm", "collectives", "side_effects", "custom_call", "dynamic")

register_ops(Constant=constant.Constant, **{name: getattr(elementwise, name) for name in (
    "Add", "Sub", "Mul", "Div", "Rem", "Pow", "And", "Or", "Xor", "ShiftLeft", "ShiftRightLogical",
    "ShiftRightArithmetic", "Lt", "Le", "Gt", "Ge", "Neg", "Not")})
