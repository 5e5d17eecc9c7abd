"""The schedule of an HloModule: per function computation, the order its instructions run.

It lives in the module's ``hlo.schedule`` attribute, ``{computation = ["instruction",
...], ...}``, so it survives text and bytecode round trips. Instructions of nested regions
run inside their instruction and are not listed.
"""

from __future__ import annotations

import collections
from typing import TYPE_CHECKING, Mapping, Sequence, cast

from iree.compiler import ir

from hlo_mlir import ir_access
from hlo_mlir.call_graph import region_instructions
from hlo_mlir.errors import InvalidArgumentError
from hlo_mlir.names import assign_names, name_of, name_problems
from hlo_mlir.views import HloComputation, HloInstruction

__all__ = ["SCHEDULE_ATTR", "ScheduleMixin", "read_schedule", "store_schedule", "check_schedule",
           "program_order", "store_program_order"]

SCHEDULE_ATTR = "hlo.schedule"


class ScheduleMixin:
    """HloModule's schedule methods (spec 004: the schedule of an HloModule). HloModule
    provides ``_module``, ``name``, ``_function_map()`` and ``verify_unique_names()``."""

    _module: ir.Module
    name: str
    if TYPE_CHECKING:
        def _function_map(self) -> dict[str, ir.Operation]: ...
        def verify_unique_names(self) -> None: ...

    def set_schedule(self, schedule: Mapping["str | HloComputation",
                                             Sequence["str | HloInstruction"]]) -> None:
        """Sets the schedule: for every function computation, the sequence in which its
        instructions run (instructions of nested regions run inside their instruction and
        are not listed). Validated, then stored in the module's ``hlo.schedule``
        attribute, so it survives text and bytecode round trips and ``clone``."""
        sequences: dict[str, list[str]] = {}
        for comp, seq in schedule.items():
            name = comp.name if isinstance(comp, HloComputation) else comp
            if isinstance(seq, (str, bytes)):
                raise InvalidArgumentError(
                    "set_schedule requires a sequence of instructions per computation; got "
                    f"{seq!r} for {name!r}.")
            # (an unnamed instruction fails verify_unique_names in _check_schedule)
            sequences[name] = [cast(str, i.name) if isinstance(i, HloInstruction) else i for i in seq]
        self._check_schedule("set_schedule", sequences)
        store_schedule(self._module, sequences)

    def has_schedule(self) -> bool:
        return read_schedule(self._module) is not None

    def schedule(self) -> dict[str, list[str]]:
        """The schedule: computation name -> instruction names in execution order."""
        sequences = read_schedule(self._module)
        if sequences is None:
            raise InvalidArgumentError(
                f"schedule requires a module with a schedule; module {self.name!r} has none.")
        return sequences

    def clear_schedule(self) -> None:
        if self.has_schedule():
            del self._module.operation.attributes[SCHEDULE_ATTR]

    def verify_schedule(self) -> None:
        """Checks that the stored schedule still matches the module (after mutations)."""
        self._check_schedule("verify_schedule", self.schedule())

    def _check_schedule(self, op_name: str, sequences: dict[str, list[str]]) -> None:
        self.verify_unique_names()
        check_schedule(op_name, self.name, self._function_map(), sequences)

    def _drop_from_schedule(self, removed: Sequence[str]) -> None:
        sequences = read_schedule(self._module)
        if sequences is not None and removed:
            store_schedule(self._module, {c: s for c, s in sequences.items() if c not in removed})

    def _rename_in_schedule(self, renames: Mapping[str, str]) -> None:
        sequences = read_schedule(self._module)
        if sequences is not None:
            store_schedule(self._module, {renames.get(c, c): s for c, s in sequences.items()})


def read_schedule(module: ir.Module) -> dict[str, list[str]] | None:
    """computation name -> instruction names in execution order; None without a schedule."""
    if SCHEDULE_ATTR not in module.operation.attributes:
        return None
    attr = ir.DictAttr(module.operation.attributes[SCHEDULE_ATTR])
    return {attr[i].name: [ir.StringAttr(s).value for s in ir.ArrayAttr(attr[i].attr)]
            for i in range(len(attr))}


def store_schedule(module: ir.Module, sequences: Mapping[str, list[str]]) -> None:
    with module.context:
        module.operation.attributes[SCHEDULE_ATTR] = ir.DictAttr.get(
            {comp: ir.ArrayAttr.get([ir.StringAttr.get(n) for n in seq]) for comp, seq in sequences.items()})


def program_order(module: ir.Module) -> dict[str, list[str]]:
    """Each function's own instructions by name, in the order they stand in the IR."""
    return {ir_access.symbol_name(f): [cast(str, name_of(op)) for op in region_instructions(f.regions[0])]
            for f in ir_access.functions(module)}


def store_program_order(module: ir.Module) -> bool:
    """Stores the IR's op order as the schedule (spec 004: HLO trivial scheduler), after naming
    the unnamed instructions and renaming duplicates (``HloModule.uniquify_names``); returns
    whether the module changed."""
    renamed = bool(name_problems(module))
    if renamed:
        assign_names(module, rename_duplicates=True)
    order = program_order(module)
    if read_schedule(module) == order:
        return renamed
    store_schedule(module, order)
    return True


def check_schedule(op_name: str, module_name: str, functions: Mapping[str, ir.Operation],
                   sequences: Mapping[str, list[str]]) -> None:
    """Checks that ``sequences`` has one valid sequence for each of ``functions`` (the
    module's, by name); raises InvalidArgumentError naming ``op_name``."""
    unknown = [n for n in sequences if n not in functions]
    if unknown:
        raise InvalidArgumentError(
            f"{op_name} requires sequences for computations of module {module_name!r}; got unknown "
            f"computation(s) {', '.join(map(repr, unknown))} (computations: {', '.join(functions)}).")
    missing = [n for n in functions if n not in sequences]
    if missing:
        raise InvalidArgumentError(
            f"{op_name} requires a sequence for every computation; got none for "
            f"{', '.join(map(repr, missing))}.")
    for comp, seq in sequences.items():
        _check_sequence(op_name, comp, functions[comp].regions[0], seq)


def _check_sequence(op_name: str, comp: str, region: ir.Region, sequence: list[str]) -> None:
    """Checks that ``sequence`` lists each instruction of ``region`` once, every
    instruction after the instructions whose results it (or its regions) uses."""
    instructions = {name_of(op): op for op in region_instructions(region)}
    for name, count in collections.Counter(sequence).items():
        if count > 1:
            raise InvalidArgumentError(
                f"{op_name} requires each instruction once per sequence; got {name!r} {count} times "
                f"in {comp!r}.")
    foreign = [n for n in sequence if n not in instructions]
    if foreign:
        raise InvalidArgumentError(
            f"{op_name} requires instructions of computation {comp!r} (not of nested regions); got "
            f"{', '.join(map(repr, foreign))}.")
    absent = [n for n in instructions if n not in sequence]
    if absent:
        raise InvalidArgumentError(
            f"{op_name} requires every instruction of {comp!r} in its sequence; got "
            f"{', '.join(map(repr, absent))} missing.")
    position = {n: k for k, n in enumerate(sequence)}
    for name in sequence:
        for dep in _dependencies(instructions[name]):
            dep_name = cast(str, name_of(dep))  # verify_unique_names ran: all are named
            if position[dep_name] > position[name]:
                raise InvalidArgumentError(
                    f"{op_name} requires a dependency-respecting order; got {name!r} before its "
                    f"operand {dep_name!r} in {comp!r}.")


def _dependencies(op: ir.Operation) -> list[ir.Operation]:
    """Instructions of ``op``'s own block whose results ``op`` or its regions use
    (terminators of the regions included: a region may return an outer value)."""
    block = op.block
    deps: dict[ir.Operation, None] = {}

    def visit(user: ir.Operation) -> ir.WalkResult:
        for value in user.operands:
            if isinstance(value, ir.OpResult):
                producer = value.owner.operation
                while producer is not None and producer.block != block:
                    producer = producer.parent
                if producer is not None and producer != op:
                    deps[producer] = None
        return ir.WalkResult.ADVANCE

    op.walk(visit)
    return list(deps)
