"""Root instruction sinking (spec 004: Root instruction sinker; XLA ``root_instruction_sinker.cc``).

Given a scheduled module, makes the root of every function computation the last
instruction of its schedule. The schedule is the module's ``hlo.schedule`` (see
hlo_mlir/schedule.py: per function, its instructions in execution order; the
``func.return`` terminator is not listed), and the root is the instruction producing the
function's single result (``HloComputation.root_instruction``). When another instruction
runs after the root (a side effect, say), a new root that only forwards the old one is
added at the end, as XLA does, instead of moving the old root (which could break its
dependencies)::

    %r = stablehlo.add %x, %y {hlo.name = "add"}
    stablehlo.custom_call @effect(%x) {has_side_effect = true, hlo.name = "effect"}
    return %r                                  // schedule: ["add", "effect"]

becomes ::

    %r = stablehlo.add %x, %y {hlo.name = "add"}
    stablehlo.custom_call @effect(%x) {has_side_effect = true, hlo.name = "effect"}
    %0 = stablehlo.bitcast_convert %r {hlo.name = "bitcast"}
    return %0                                  // schedule: ["add", "effect", "bitcast"]

- an array root: ``new_root = bitcast_convert(old_root)`` to its own type (XLA's bitcast);
- a tuple root: ``new_root = tuple(get_tuple_element(old_root, 0), ...)`` (XLA
  ``TupleUtil::Duplicate``), the new instructions appended in that order.

The new instructions are named with XLA's ``NameUniquer`` style and appended to the
schedule. Left alone: modules without a schedule (XLA requires one; an unscheduled
function has no order to fix: its ``return`` is last by construction), functions that
return several values (the ``return`` is their tuple, last by construction) or an argument
as it is (no root instruction), and roots of other types (tokens). Run it last, after the
scheduler: ``tuple-simplifier`` folds the tuple copy back.
"""

from __future__ import annotations

from iree.compiler import ir

from dialect_ops.elementwise import bitcast_convert
from dialect_ops.tuple_ops import get_tuple_element, tuple_
from hlo_mlir import ir_access
from hlo_mlir.names import NAME_ATTR, NameUniquer, all_instructions, name_of
from hlo_mlir.schedule import read_schedule, store_schedule
from pipelines.matchers import element_dtype
from pipelines.pass_base import Pass
from pipelines.registry import register

__all__ = ["RootInstructionSinker"]


def _root(func) -> tuple[ir.Value, ir.Operation] | None:
    """(returned value, the return) of a function whose single result an op of its body
    produces; None otherwise."""
    terminator = list(func.regions[0].blocks[0].operations)[-1]
    operands = list(terminator.operands)
    if len(operands) != 1 or not isinstance(operands[0], ir.OpResult):
        return None
    return operands[0], terminator


@register
class RootInstructionSinker(Pass):
    """Make each function's root the last instruction of a scheduled module (a forwarding copy)."""

    name = "root-instruction-sinker"

    def run(self, module: ir.Module) -> bool:
        sequences = read_schedule(module)
        if sequences is None:
            return False
        uniquer = NameUniquer(n for _, op in all_instructions(module) if (n := name_of(op)) is not None)
        changed = False
        for func in ir_access.functions(module):
            sequence = sequences.get(ir_access.symbol_name(func))
            found = _root(func)
            if not sequence or found is None:
                continue
            root, terminator = found
            if name_of(root.owner.operation) == sequence[-1]:
                continue
            with module.context, ir.InsertionPoint(terminator), terminator.location:
                added = self._sink(root, uniquer)
            if added is None:
                continue
            new_root, names = added
            terminator.operands[0] = new_root
            sequence += names
            changed = True
        if changed:
            store_schedule(module, sequences)
        return changed

    def _sink(self, root: ir.Value, uniquer: NameUniquer) -> tuple[ir.Value, list[str]] | None:
        """The new root forwarding ``root`` and the names given to the ops that make it; None when
        ``root`` is of a type without a forwarding op here."""
        if ir_access.is_tuple(root.type):
            count = ir.TupleType(root.type).num_types
            elements = [get_tuple_element(root, i) for i in range(count)]
            new_root = tuple_(elements)
            ops = [e.owner for e in elements] + [new_root.owner]
            self.record("tuple-roots")
        elif isinstance(root.type, ir.RankedTensorType) and element_dtype(root) is not None:
            new_root = bitcast_convert(root, element_dtype(root))
            ops = [new_root.owner]
            self.record("array-roots")
        else:
            return None
        names = []
        for op in ops:
            base = "bitcast" if op.name == "stablehlo.bitcast_convert" else op.name.rsplit(".", 1)[-1]
            names.append(uniquer.get_unique_name(base))
            op.attributes[NAME_ATTR] = ir.StringAttr.get(names[-1])
        return new_root, names
