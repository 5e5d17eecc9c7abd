"""widen-sub-byte-integers: s2/s4/u2/u4 tensors computed in 8-bit integers.

The pinned IREE cannot compile sub-byte integers: a tensor whose bits are not a whole
number of bytes fails ("'tensor<5xi4>' does not have integral number of total bytes"),
element-wise ops on them fail to legalize ("failed to emulate bit width"), and its
runtime cannot map ``int4``/``uint4`` arrays. The pass retypes every ``i2``/``i4``/``ui2``/
``ui4`` tensor of the module (values, block arguments, function signatures, tuples, constants)
as ``i8``/``ui8`` holding the same number: sign-extended for s2/s4, zero-extended for
u2/u4. Ops whose 8-bit result can leave the narrow range are followed by a re-wrap to
the narrow width (what XLA computes, modulo 2^W)::

    %r = stablehlo.add %a, %b : tensor<5xi4>
  ->
    %s = stablehlo.add %a, %b : tensor<5xi8>
    %r = shift_right_arithmetic(shift_left(%s, 4), 4)      ; u4: and(%s, 15)

Re-wrapped: add, subtract, multiply, negate, abs, divide, power, iota, dot_general,
convolution, not (unsigned), converts from integers and bitcast_converts between the
narrow types. Rewritten with XLA's semantics at the narrow width W:

- shift_left and shift_right_logical give 0 for an amount >= W (read unsigned);
  shift_right_arithmetic shifts by min(amount, W - 1) the sign-extended W-bit pattern;
- count_leading_zeros is clz8 of the W-bit pattern minus 8 - W; popcnt counts the W-bit
  pattern;
- convert from a float goes through s32 and is clamped to the narrow range (XLA
  saturates; NaN gives 0 through ``float-to-int-saturation``, which must run after);
- bitcast_convert between a B-bit type and B/W narrow elements (XLA's packing: a new
  minor dimension, element k holding bits [k W, (k + 1) W)) shifts and masks the pieces
  out of the unsigned B-bit value, or ORs them in with a reduce.

Ops that cannot leave the range (compare, select, max/min, clamp, and/or/xor, sign,
remainder, data movement, reductions whose bodies are re-wrapped) keep their 8-bit form.

The entry functions then take and return 8-bit tensors; the pass records each public
function's XLA program shape with the narrow types (``hlo_mlir.program_shape``), which
``hlo_mlir.compile`` stores in the vmfb's reflection and ``hlo_mlir.runtime`` reads to
convert ml_dtypes int2/int4/uint2/uint4 arrays on the way in and out.

Run it after ``token-elimination`` (the program shape it records is the one the runtime
sees) and before ``float-to-int-saturation``.
"""

from __future__ import annotations

import numpy as np
from iree.compiler import ir

from dialect_ops.elementwise import binary
from dialect_ops.reduction import reduce
from dialect_ops.shape_ops import broadcast_in_dim, iota
from hlo_mlir import _emit
from hlo_mlir.ir_access import function_type, functions, is_public, sub_byte_constant_values
from hlo_mlir.shape import Shape
from hlo_mlir.types import from_dtype
from pipelines.pass_base import Pass
from pipelines.registry import register
from pipelines.values import Expr, scalar, where

__all__ = ["WidenSubByteIntegers", "PROGRAM_SHAPE_ATTR"]

# The func attribute holding a public function's XLA program shape before widening
# (``hlo_mlir.compiler._record_reflection`` prefers it to the widened signature's).
PROGRAM_SHAPE_ATTR = "hlo_mlir.program_shape"

# Results of these ops are re-wrapped to the narrow width (they can leave its range).
_REWRAP = frozenset({
    "stablehlo.add", "stablehlo.subtract", "stablehlo.multiply", "stablehlo.negate", "stablehlo.abs",
    "stablehlo.divide", "stablehlo.power", "stablehlo.iota", "stablehlo.dot_general", "stablehlo.dot",
    "stablehlo.convolution", "stablehlo.not", "stablehlo.bitcast_convert",
})
_REWRITE = frozenset({
    "stablehlo.shift_left", "stablehlo.shift_right_logical", "stablehlo.shift_right_arithmetic",
    "stablehlo.count_leading_zeros", "stablehlo.popcnt", "stablehlo.convert",
})


def _narrow(t: ir.Type) -> tuple[int, bool] | None:
    """(width, signed) of a sub-byte integer element type (i2, i4, ui2, ui4), else None."""
    if isinstance(t, ir.IntegerType) and t.width in (2, 4):
        return t.width, not t.is_unsigned
    return None


def _tensor_narrow(t: ir.Type) -> tuple[int, bool] | None:
    return _narrow(t.element_type) if isinstance(t, ir.RankedTensorType) else None


def _widened(t: ir.Type) -> ir.Type:
    """``t`` with 8-bit integers for sub-byte ones (tuples too); ``t`` itself without any."""
    if isinstance(t, ir.TupleType):
        elements = [t.get_type(i) for i in range(t.num_types)]
        new = [_widened(e) for e in elements]
        return ir.TupleType.get_tuple(new) if new != elements else t
    narrow = _tensor_narrow(t)
    if narrow is None:
        return t
    element = ir.IntegerType.get_signless(8) if narrow[1] else ir.IntegerType.get_unsigned(8)
    return ir.RankedTensorType.get(list(t.shape), element, t.encoding)


def _has_narrow(t: ir.Type) -> bool:
    return _widened(t) != t


def _wrap(x: Expr, width: int, signed: bool) -> Expr:
    """The 8-bit ``x`` reduced modulo 2^width into the narrow type's range."""
    if signed:
        return (x << (8 - width)) >> (8 - width)  # arithmetic: sign-extends bit width-1
    return x & ((1 << width) - 1)


def _pattern(x: Expr, width: int) -> Expr:
    """The W-bit pattern of ``x`` as ui8 (0 .. 2^W - 1)."""
    if x.shape.element_type.is_signed_integer:
        x = x.convert_bits("u8")
    return x & ((1 << width) - 1)


def _as(x: Expr, signed: bool) -> Expr:
    """``x``'s 8 bits as s8 or u8."""
    kind = "s8" if signed else "u8"
    return x if str(x.shape.element_type) == kind else x.convert_bits(kind)


def _too_far(amount: Expr, width: int) -> Expr:
    """Shift amounts XLA treats as >= the width: amount read unsigned >= W."""
    return _as(amount, False).compare("GE", width)


@register
class WidenSubByteIntegers(Pass):
    """Computes s2/s4/u2/u4 in 8-bit integers with XLA's wrap-around (IREE cannot compile sub-byte types)."""

    name = "widen-sub-byte-integers"
    legalizes_for_iree = True

    def run(self, module: ir.Module) -> bool:
        with module.context, ir.Location.unknown():
            touched, values = [], []

            def visit(op):
                types = [v.type for v in op.results] + [v.type for v in op.operands]
                for region in op.regions:
                    for block in region.blocks:
                        values.extend(block.arguments)
                values.extend(op.results)
                if any(_has_narrow(t) for t in types):
                    touched.append(op)
                return ir.WalkResult.ADVANCE

            module.operation.walk(visit)
            funcs = [f for f in functions(module)
                     if any(_has_narrow(t) for t in [*function_type(f).inputs, *function_type(f).results])]
            if not touched and not funcs:
                return False
            # The XLA signature the runtime must see, before the types change.
            for func in filter(is_public, funcs):
                self._record_program_shape(func)
            plans = [(op, [v.type for v in op.operands], [v.type for v in op.results]) for op in touched]
            for value in values:
                new = _widened(value.type)
                if new != value.type:
                    value.set_type(new)
            for func in funcs:
                ftype = function_type(func)
                func.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(
                    [_widened(t) for t in ftype.inputs], [_widened(t) for t in ftype.results]))
                self.record("signature-widened")
            for op, operand_types, result_types in plans:
                self._fix(op, operand_types, result_types)
        return True

    def _record_program_shape(self, func) -> None:
        ftype = function_type(func)
        try:
            params = [str(Shape.from_mlir_type(t)) for t in ftype.inputs]
            results = [str(Shape.from_mlir_type(t)) for t in ftype.results]
        except Exception:  # noqa: BLE001 - types XLA has no shape for: no program shape
            return
        shape = f"({', '.join(params)}) -> ({', '.join(results)})"
        func.attributes[PROGRAM_SHAPE_ATTR] = ir.StringAttr.get(shape)

    def _fix(self, op, operand_types: list[ir.Type], result_types: list[ir.Type]) -> None:
        name = op.operation.name
        narrow = _tensor_narrow(result_types[0]) if len(result_types) == 1 else None
        if name == "stablehlo.constant" and narrow is not None:
            self._widen_constant(op, *narrow)
        elif _packing_bitcast(op, operand_types, result_types):
            self._repack(op, operand_types[0], result_types[0])
        elif name in _REWRITE and narrow is not None:
            self._rewrite(op, name, narrow, operand_types)
        elif name in _REWRAP and narrow is not None:
            if name == "stablehlo.not" and narrow[1]:
                return  # not of a sign-extended value is sign-extended
            self._rewrap(op, narrow)

    def _widen_constant(self, op, width: int, signed: bool) -> None:
        t = op.results[0].type
        array = sub_byte_constant_values(ir.DenseElementsAttr(op.attributes["value"]), list(t.shape), width,
                                                 signed)
        op.attributes["value"] = ir.DenseElementsAttr.get(np.ascontiguousarray(array), type=t)
        self.record("constant-widened")

    def _repack(self, op, source: ir.Type, target: ir.Type) -> None:
        """XLA's bitcast between an element of B bits and B/W narrow ones (a new minor
        dimension of size B/W, the narrow element k holding bits [k W, (k + 1) W))::

            bitcast_convert(x s32[n]) -> s4[n, 8]  =  wrap((broadcast(x as u32) >> 4 iota) & 15)
            bitcast_convert(y s4[n, 8]) -> s32[n]  =  reduce_or((pattern(y) as u32) << 4 iota) as s32
        """
        with ir.InsertionPoint(op), op.location:
            narrow = _tensor_narrow(target)
            if narrow is not None:  # unpack: wide -> narrow
                width, signed = narrow
                bits = _element_bits(source)
                x = Expr(op.operands[0])
                u = x if _is_unsigned(source) else x.convert_bits(f"u{bits}")
                out = _emit.shape_of(op.results[0])
                wide = Shape.array_shape(from_dtype(f"u{bits}"), out.dimensions)
                spread = Expr(broadcast_in_dim(u.value, out.dimensions, list(range(len(out.dimensions) - 1))))
                shifts = Expr(iota(wide, len(out.dimensions) - 1)) * width
                piece = ((spread >> shifts) & ((1 << width) - 1)).convert("u8")
                new = _wrap(_as(piece, signed), width, signed)
            else:  # pack: narrow -> wide
                width, _ = _tensor_narrow(source) or (0, False)
                bits = _element_bits(target)
                unsigned = f"u{bits}"
                y = Expr(op.operands[0])
                pattern = _pattern(y, width).convert(unsigned)
                minor = len(pattern.shape.dimensions) - 1
                placed = pattern << Expr(iota(pattern.shape, minor)) * width
                combined = Expr(reduce([placed.value], [scalar(0, unsigned)], [minor], _or_body)[0])
                new = combined if _is_unsigned(target) else combined.convert_bits(_element_name(target))
        op.results[0].replace_all_uses_with(new.value)
        op.erase()
        self.record("bitcast-repacked")

    def _rewrap(self, op, narrow: tuple[int, bool]) -> None:
        """Re-wraps the op's 8-bit result to its narrow width, for every user."""
        result = op.results[0]
        readers = [_operation(use.owner) for use in result.uses]  # all but the wrap's first op
        with ir.InsertionPoint.after(op), op.location:
            wrapped = _wrap(Expr(result), *narrow).value
        chain = [_operation(u.owner) for u in result.uses if _operation(u.owner) not in readers]
        result.replace_all_uses_except(wrapped, chain)
        self.record("rewrapped")

    def _rewrite(self, op, name: str, narrow: tuple[int, bool], operand_types: list[ir.Type]) -> None:
        width, signed = narrow
        with ir.InsertionPoint(op), op.location:
            x = Expr(op.operands[0])
            if name == "stablehlo.shift_left":
                amount = Expr(op.operands[1])
                new = where(_too_far(amount, width), 0, _wrap(x << amount, width, signed))
            elif name == "stablehlo.shift_right_logical":
                amount = Expr(op.operands[1])
                shifted = _pattern(x, width) >> _as(amount, False)  # u8: logical
                new = where(_too_far(amount, width), 0, _wrap(_as(shifted, signed), width, signed))
            elif name == "stablehlo.shift_right_arithmetic":
                amount = Expr(op.operands[1])
                amount = where(_too_far(amount, width), width - 1, amount)
                extended = _wrap(_as(x, True), width, True)  # s8 holding the sign-extended pattern
                new = _as(_wrap(extended >> _as(amount, True), width, signed), signed)
            elif name == "stablehlo.count_leading_zeros":
                new = _wrap(_as(_pattern(x, width).unary("Clz") - (8 - width), signed), width, signed)
            elif name == "stablehlo.popcnt":
                new = _wrap(_as(_pattern(x, width).unary("PopulationCount"), signed), width, signed)
            else:  # convert to a narrow type
                new = self._convert(x, _element_of(operand_types[0]), width, signed)
        op.results[0].replace_all_uses_with(new.value)
        op.erase()
        self.record(name.removeprefix("stablehlo."))

    def _convert(self, x: Expr, source: ir.Type, width: int, signed: bool) -> Expr:
        kind = "s8" if signed else "u8"
        if isinstance(source, ir.FloatType):
            lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
            wide = x.convert("s32")  # saturating and NaN -> 0 after float-to-int-saturation
            return where(wide.lt(lo), lo, where(wide.gt(hi), hi, wide)).convert(kind)
        return _wrap(x.convert(kind), width, signed)


def _packing_bitcast(op, operand_types: list[ir.Type], result_types: list[ir.Type]) -> bool:
    """Whether ``op`` is a bitcast_convert between a sub-byte integer and a wider type."""
    return op.operation.name == "stablehlo.bitcast_convert" and \
        (_tensor_narrow(operand_types[0]) is None) != (_tensor_narrow(result_types[0]) is None)


def _element_bits(t: ir.Type) -> int:
    return Shape.from_mlir_type(t).element_type.bit_width


def _element_name(t: ir.Type) -> str:
    return str(Shape.from_mlir_type(t).element_type)


def _is_unsigned(t: ir.Type) -> bool:
    return Shape.from_mlir_type(t).element_type.is_unsigned_integer


def _or_body(block: ir.Block) -> None:
    """A reducer region: ``or`` of its two arguments."""
    with ir.InsertionPoint(block):
        _emit.region_return([binary("Or", block.arguments[0], block.arguments[1])])


def _operation(owner) -> ir.Operation:
    return owner.operation if isinstance(owner, ir.OpView) else owner


def _element_of(t: ir.Type) -> ir.Type:
    return ir.RankedTensorType(t).element_type
