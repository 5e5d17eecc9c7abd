"""HloInstruction and HloComputation: views of an HloModule's operations, functions and
regions (spec 004).

How XLA's structure maps onto MLIR:

=====================  =====================================================================
XLA                    here
=====================  =====================================================================
HloModule              ``builtin.module @name``
entry computation      the public ``func.func @main`` (or else the only public function)
embedded computation   any other ``func.func`` of the module (private): what ``Call``
                       calls, what :meth:`HloModule.add_embedded_computation` adds
nested computation     a region of an instruction (the reducer of ``stablehlo.reduce``,
                       ``while``'s condition and body, ...), named
                       ``<instruction name>.<region index>``
instruction            an operation in a computation's body; the block terminator
                       (``func.return``, ``stablehlo.return``) only marks the root and is
                       not an instruction; parameters are block arguments, not
                       instructions (XLA counts its ``parameter`` instructions, we do not)
instruction name       the ``hlo.name`` string attribute of the operation
schedule               the ``hlo.schedule`` attribute of the module:
                       ``{computation = ["instruction", ...], ...}``
=====================  =====================================================================

The spec says a nested computation "is attached to an HloInstruction within some
other computation"; in MLIR it stays inline, inside that instruction. So
``computations()`` lists the functions only: they are the units one can add,
remove, replace and schedule. ``nested_computations()`` lists the regions as
read-only views. Counting follows XLA, where a reducer is a computation of its own:
``HloComputation.instruction_count()`` counts the instructions of that computation
only (not those of the regions of its instructions), and
``HloModule.instruction_count()`` counts every instruction of the module, nested
ones included.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from iree.compiler import ir

from hlo_mlir import call_graph, ir_access
from hlo_mlir.names import name_of
from hlo_mlir.shape import ProgramShape, Shape

if TYPE_CHECKING:
    from hlo_mlir.module import HloModule

__all__ = ["HloInstruction", "HloComputation", "KNOWN_TRIP_COUNT_ATTR"]

# Where while-loop-trip-count-annotator stores a loop's trip count (XLA's
# WhileLoopBackendConfig.known_trip_count): a discardable i64 attribute of stablehlo.while.
KNOWN_TRIP_COUNT_ATTR = "hlo_mlir.known_trip_count"


class HloInstruction:
    """One instruction (an MLIR operation) of an HloModule."""

    __slots__ = ("_module", "operation")

    def __init__(self, module: "HloModule", operation: ir.Operation):
        self._module = module
        self.operation = operation.operation

    @property
    def name(self) -> str | None:
        """The module-unique instruction name (``hlo.name``); None until named."""
        return name_of(self.operation)

    @property
    def opcode(self) -> str:
        """The MLIR op name, e.g. ``stablehlo.add``."""
        return self.operation.name

    @property
    def shape(self) -> Shape:
        """The result shape (a tuple shape for several results or none)."""
        shapes = [Shape.from_mlir_type(r.type) for r in self.operation.results]
        return shapes[0] if len(shapes) == 1 else Shape.tuple_shape(shapes)

    @property
    def known_trip_count(self) -> int | None:
        """How many times a ``stablehlo.while`` runs its body, as the
        ``while-loop-trip-count-annotator`` pass found it; None when not annotated."""
        return ir_access.optional_int_attr(self.operation, KNOWN_TRIP_COUNT_ATTR)

    def called_computations(self) -> list["HloComputation"]:
        """The module's functions this instruction refers to (e.g. the callee of a call)."""
        functions = self._module._function_map()
        names = dict.fromkeys(n for n in call_graph.referenced_symbols(self.operation) if n in functions)
        return [HloComputation(self._module, functions[n]) for n in names]

    def nested_computations(self) -> list["HloComputation"]:
        """This instruction's regions, as nested computations."""
        return [HloComputation(self._module, self.operation, owner=self, index=i)
                for i in range(len(self.operation.regions))]

    def __eq__(self, other) -> bool:
        return isinstance(other, HloInstruction) and self.operation == other.operation

    def __hash__(self) -> int:
        return hash(self.operation)

    def __repr__(self) -> str:
        return f"HloInstruction({self.name!r}, {self.opcode}, {self.shape})"


class HloComputation:
    """A computation of an HloModule: a function, or a region of an instruction (nested).

    Its instructions are the operations of its body, the terminator excluded;
    instructions inside their own regions belong to the nested computations.
    """

    __slots__ = ("_module", "_op", "owner", "_index")

    def __init__(self, module: "HloModule", op: ir.Operation, owner: HloInstruction | None = None,
                 index: int = 0):
        self._module = module
        self._op = op.operation  # the func.func, or the owner's operation for a nested one
        self.owner = owner
        self._index = index

    @property
    def name(self) -> str:
        if self.owner is not None:
            return f"{self.owner.name or self.owner.opcode}.{self._index}"
        return ir_access.symbol_name(self._op)

    @property
    def is_nested(self) -> bool:
        return self.owner is not None

    @property
    def is_entry(self) -> bool:
        return self.owner is None and self._op == self._module._entry_op()

    @property
    def func(self) -> ir.Operation:
        """The ``func.func`` operation (for a nested computation: the owner's operation)."""
        return self._op

    @property
    def _region(self) -> ir.Region:
        return self._op.regions[self._index]

    def instructions(self) -> list[HloInstruction]:
        """This computation's instructions in program order (not those of nested regions)."""
        return [HloInstruction(self._module, op) for op in call_graph.region_instructions(self._region)]

    def instruction_count(self) -> int:
        return len(call_graph.region_instructions(self._region))

    def root_instruction(self) -> HloInstruction | None:
        """The instruction producing the single result; None for several results or a
        parameter returned as is."""
        operands = list(list(self._region.blocks[-1].operations)[-1].operands)
        if len(operands) == 1 and isinstance(operands[0], ir.OpResult):
            return HloInstruction(self._module, operands[0].owner)
        return None

    def program_shape(self) -> ProgramShape:
        return call_graph.program_shape(self._region)

    def called_computations(self) -> list["HloComputation"]:
        """Functions called from this computation, at any nesting depth, in order."""
        functions = self._module._function_map()
        return [HloComputation(self._module, functions[n])
                for n in call_graph.callees(self._region, functions)]

    def nested_computations(self) -> list["HloComputation"]:
        """The regions of this computation's instructions (direct ones only)."""
        return [c for i in self.instructions() for c in i.nested_computations()]

    def __eq__(self, other) -> bool:
        return (isinstance(other, HloComputation) and self._op == other._op
                and self._index == other._index and (self.owner is None) == (other.owner is None))

    def __hash__(self) -> int:
        return hash((self._op, self._index, self.owner is None))

    def __repr__(self) -> str:
        kind = "nested" if self.is_nested else "entry" if self.is_entry else "embedded"
        return f"HloComputation({self.name!r}, {kind}, {self.instruction_count()} instructions)"
