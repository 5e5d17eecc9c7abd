"""complex-source-barriers: the real values an op turns into complex ones are read through
optimization barriers where the pinned IREE cannot put them beside complex values.

An op with a complex result and a real (or integer, or boolean) operand -- ``complex``,
``convert`` to a complex type, a ``select`` whose predicate is real -- is where real values
become complex. Two IREE defects sit at that boundary; each is fixed by a barrier on the
real operand, so that what computes it and what makes complex values from it never share
a dispatch or a hoisted constant:

1. **contraction**: a complex element-wise consumer of a ``dot_general`` or
   ``convolution`` result (``convert(dot(a, b))`` to c64, also through element-wise and
   layout ops in between) is fused into the data-tiled matmul dispatch, whose
   vectorization then fails on llvm-cpu ("'vector.transfer_read' op requires valid padding
   vector elemental type"). Behind a barrier the matmul keeps its real epilogue and the
   complex ops get a dispatch of their own::

       %d = stablehlo.dot_general %a, %b ...           : tensor<8x2xf32>
       %c = stablehlo.convert %d : (tensor<8x2xf32>) -> tensor<8x2xcomplex<f32>>
     ->
       %d = stablehlo.dot_general %a, %b ...
       %f = stablehlo.optimization_barrier %d
       %c = stablehlo.convert %f : (tensor<8x2xf32>) -> tensor<8x2xcomplex<f32>>

2. **constant**: a complex value computed from constants only (a complex constant after
   ``complex-constant-parts``, ``convert`` of a constant) is hoisted by IREE into a global
   that its compile-time constant evaluator cannot hold (it has no complex attributes), so
   every hoisted expression that reads that global fails, on every target ("jit global
   source initialization order invalid: global ... has no value";
   ``log(sqrt(complex constant))``). Behind a barrier no complex value is a constant
   expression: the real constants are still folded and hoisted, the complex arithmetic
   runs with the program. A complex ``iota`` (no operand to fence) is fenced itself.

A barrier changes no value (XLA semantics are kept exactly). Conditions: region-free ops
with a complex tensor result, in the function or a while/if/case region (not in the
scalar body of a map, reduce, sort or scatter, where IREE cannot bufferize a barrier);
an operand is fenced when it is a real array of static shape that (1) a
``dot_general``/``convolution`` computes through region-free ops, not through a barrier,
or (2) no block argument reaches; values already behind a barrier are left alone, so the
pass is idempotent. Run it after the passes that create complex ops from real ones
(``complex-constant-parts``, ``complex-bitcast-expander``, ``fft-expander``).
"""

from __future__ import annotations

from typing import Callable

from iree.compiler import ir

from dialect_ops.side_effects import optimization_barrier
from hlo_mlir.ir_access import element_type_name
from pipelines.matchers import defining_op, op_name, ops_where, static_dims, xla_arrays
from pipelines.pass_base import Pass
from pipelines.registry import register

__all__ = ["ComplexSourceBarriers"]

_BARRIER = "stablehlo.optimization_barrier"
_CONTRACTIONS = frozenset({"stablehlo.dot_general", "stablehlo.dot", "stablehlo.convolution"})


def _is_complex(value: ir.Value) -> bool:
    return isinstance(value.type, ir.RankedTensorType) and element_type_name(value).startswith("complex<")


def _is_real_array(value: ir.Value) -> bool:
    """A real array of static shape (IREE cannot resolve a barrier's dynamic dimensions)."""
    return xla_arrays([value]) and static_dims(value) is not None and not _is_complex(value)


def _reaches(value: ir.Value, memo: dict[ir.Value, bool], hit: Callable[[object], bool],
             through: Callable[[object], bool]) -> bool:
    """Whether ``value``'s backward slice holds a hit: ``hit(op)`` for a defining op (None
    for a block argument), walking through the operands of the ops where ``through(op)``.
    Iterative (programs have long chains) and memoized over one pass run."""
    stack: list[tuple[ir.Value, bool]] = [(value, False)]
    while stack:
        v, expanded = stack.pop()
        if v in memo:
            continue
        op = defining_op(v)
        if expanded:
            memo[v] = any(memo[o] for o in op.operands)
            continue
        if hit(op):
            memo[v] = True
        elif op is None or not through(op):
            memo[v] = False
        else:
            stack.append((v, True))
            stack.extend((o, False) for o in op.operands if o not in memo)
    return memo[value]


def _from_contraction(op) -> bool:
    return op is not None and op.operation.name in _CONTRACTIONS


def _fusible(op) -> bool:
    """Ops IREE may fuse between a contraction and its consumer: region-free, no barrier."""
    return op.operation.name != _BARRIER and not len(op.operation.regions)


def _argument(op) -> bool:
    return op is None


def _any_op(_op) -> bool:
    return True


# Regions whose ops run as the program's own (a barrier there is a dispatch boundary); the
# bodies of map, reduce, sort, scatter... are scalar computations, where IREE cannot
# bufferize a barrier ("op was not bufferized": a map returning convert(barrier(c)) to
# c64; fuzzer seed 20261125 program 1700).
_PROGRAM_REGIONS = frozenset({"func.func", "stablehlo.while", "stablehlo.if", "stablehlo.case"})


def _in_program_body(op) -> bool:
    """Whether every op enclosing ``op`` up to its function is control flow."""
    parent = op.operation.parent
    while parent is not None and parent.name != "func.func":
        if parent.name not in _PROGRAM_REGIONS:
            return False
        parent = parent.parent
    return True


@register
class ComplexSourceBarriers(Pass):
    """Fences real operands of complex-making ops that IREE would fuse with a matmul or fold as constants."""

    name = "complex-source-barriers"
    legalizes_for_iree = True

    def run(self, module: ir.Module) -> bool:
        sources = ops_where(module, lambda op: (
            not len(op.regions) and op.name not in (_BARRIER, "stablehlo.constant")
            and any(_is_complex(r) for r in op.results) and _in_program_body(op)))
        fired_before = sum(self.statistics.values())
        contraction_memo: dict[ir.Value, bool] = {}
        argument_memo: dict[ir.Value, bool] = {}
        with module.context:
            for op in sources:
                if not len(op.operands) and op.name == "stablehlo.iota":
                    self._fence_result(op)
                    continue
                for k, value in enumerate(list(op.operands)):
                    if not _is_real_array(value) or op_name(value) == _BARRIER:
                        continue
                    if _reaches(value, contraction_memo, _from_contraction, _fusible):
                        self._fence_operand(op, k, "contraction")
                    elif not _reaches(value, argument_memo, _argument, _any_op):
                        self._fence_operand(op, k, "constant")
        return sum(self.statistics.values()) > fired_before

    def _fence_operand(self, op, k: int, rule: str) -> None:
        """op(..., x, ...) -> op(..., optimization_barrier(x), ...)."""
        with ir.InsertionPoint(op), op.location:
            (fenced,) = optimization_barrier([op.operands[k]])
        op.operands[k] = fenced
        self.record(rule)

    def _fence_result(self, op) -> None:
        """iota -> optimization_barrier(iota) (a complex iota is a constant expression)."""
        result = op.results[0]
        if all(use.owner.name == _BARRIER for use in result.uses):
            return
        with ir.InsertionPoint.after(op), op.location:
            (fenced,) = optimization_barrier([result])
        result.replace_all_uses_except(fenced, fenced.owner.operation)
        self.record("constant")
