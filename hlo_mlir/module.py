"""XlaComputation and HloModule: a built module, and XLA's module structure API over one
(spec 004, "XLA Structure").

An ``XlaComputation`` is what ``XlaBuilder.build`` returns; ``get_hlo_module()`` gives an
``HloModule``, which owns an ``ir.Module`` (its own deep copy) and reads XLA's structure
off it; every mutation is made on the MLIR module itself, so what ``to_text()`` prints,
``hlo_mlir.compile`` compiles and the passes rewrite is always the same IR.

How XLA's structure maps onto MLIR is in hlo_mlir/views.py (computations and
instructions), hlo_mlir/names.py (instruction names) and hlo_mlir/schedule.py.
"""

from __future__ import annotations

from typing import Mapping

from iree.compiler import ir

from hlo_mlir import call_graph, ir_access, names
from hlo_mlir import context as _context
from hlo_mlir.context import as_module
from hlo_mlir.errors import InvalidArgumentError, ParseError
from hlo_mlir.graph import GraphMixin
from hlo_mlir.schedule import ScheduleMixin
from hlo_mlir.shape import ProgramShape, Shape
from hlo_mlir.views import HloComputation, HloInstruction

__all__ = ["XlaComputation", "HloModule", "HloComputation", "HloInstruction"]


# --- the built computation --------------------------------------------------------------------
class XlaComputation(GraphMixin):
    """A built, verified computation: an MLIR module whose public ``@main`` is the entry.

    Use ``str(c)`` or :meth:`as_text` for StableHLO text, :meth:`as_bytecode` for
    MLIR bytecode, :meth:`get_hlo_module` for the module structure API and
    :meth:`to_svg` (or ``to_dot``, ``to_html``, ``write_graph``) for a picture.
    """

    def __init__(self, module: ir.Module, program_shape: ProgramShape | None = None):
        self._module = module
        self._program_shape = program_shape

    @property
    def name(self) -> str:
        return ir_access.optional_string_attr(self._module.operation, "sym_name") or "main"

    @property
    def module(self) -> ir.Module:
        """The underlying MLIR module (shared, not a copy)."""
        return self._module

    def program_shape(self) -> ProgramShape:
        if self._program_shape is None:
            entry = self.entry_function()
            ftype = ir_access.function_type(entry)
            results = [Shape.from_mlir_type(t) for t in ftype.results]
            result = results[0] if len(results) == 1 else Shape.tuple_shape(results)
            self._program_shape = ProgramShape([Shape.from_mlir_type(t) for t in ftype.inputs], result)
        return self._program_shape

    def entry_function(self) -> ir.Operation:
        entry = ir_access.entry_function(self._module)
        if entry is None:
            raise InvalidArgumentError(f"computation {self.name!r} has no public @main function.")
        return entry

    def verify(self) -> None:
        """Runs the MLIR verifier; raises VerificationError with its diagnostics."""
        _context.verify_module(self._module, f"module {self.name!r} failed verification")

    def as_text(self, debug_info: bool = False) -> str:
        return self._module.operation.get_asm(enable_debug_info=debug_info)

    def as_bytecode(self) -> bytes:
        return _context.bytecode(self._module)

    def get_hlo_module(self) -> "HloModule":
        """An HloModule view over a deep copy of this computation's module."""
        return HloModule.from_computation(self)

    def __str__(self) -> str:
        return self.as_text()

    def __repr__(self) -> str:
        return f"XlaComputation({self.name!r}, {self.program_shape()})"


# --- the module -------------------------------------------------------------------------------
class HloModule(ScheduleMixin, GraphMixin):
    """A whole program (spec: HloModule): an entry computation plus embedded ones.

    Build one with :meth:`from_computation` (or ``XlaComputation.get_hlo_module()``)
    or :meth:`parse`; both take a deep copy, so changes here never reach the source.
    ``hlo_mlir.compile(module)`` compiles it.

    Computations are the module's ``func.func`` ops: the entry is the public
    ``@main``, the others are embedded computations. Regions of instructions (a
    reducer, a loop body) are nested computations: listed by
    :meth:`nested_computations`, counted by :meth:`instruction_count`, but not
    separate computations, because MLIR keeps them inside their instruction.
    Instructions are operations, terminators excluded; each has a unique
    ``hlo.name``. The schedule gives, per function computation, the order of its
    own instructions and lives in the module's ``hlo.schedule`` attribute (its
    methods come from ``ScheduleMixin``, hlo_mlir/schedule.py). :meth:`to_svg`,
    ``to_dot``, ``to_html`` and ``write_graph`` draw the module (``GraphMixin``,
    hlo_mlir/graph.py).
    """

    def __init__(self, module: ir.Module):
        if ir_access.entry_function(module) is None:
            functions = ir_access.functions(module)
            publics = [ir_access.symbol_name(f) for f in functions if ir_access.is_public(f)]
            raise InvalidArgumentError(
                "HloModule requires an entry computation (a public @main or a single public "
                f"function); got public functions {publics}.")
        self._module = module
        self._ctx = module.context
        names.assign_names(module, rename_duplicates=False)

    # --- construction ---------------------------------------------------------------
    @classmethod
    def from_computation(cls, computation: XlaComputation) -> "HloModule":
        """A module holding a deep copy of ``computation`` (and its embedded computations)."""
        if not isinstance(computation, XlaComputation):
            raise InvalidArgumentError(
                f"HloModule.from_computation requires an XlaComputation; got {type(computation).__name__}.")
        return cls(as_module(computation))

    @classmethod
    def parse(cls, source: str | bytes) -> "HloModule":
        """A module from MLIR text or bytecode; raises ParseError if it does not parse."""
        if not isinstance(source, (str, bytes, bytearray, memoryview)):
            raise ParseError(f"HloModule.parse requires MLIR text or bytecode; got {type(source).__name__}.")
        return cls(as_module(source))

    @property
    def module(self) -> ir.Module:
        """The underlying MLIR module (shared: changes to it change this HloModule)."""
        return self._module

    def to_computation(self) -> XlaComputation:
        """An XlaComputation over a deep copy of this module (e.g. to ``Call`` it)."""
        return XlaComputation(as_module(self))

    # --- name -----------------------------------------------------------------------
    @property
    def name(self) -> str:
        return ir_access.optional_string_attr(self._module.operation, "sym_name") or "module"

    @name.setter
    def name(self, name: str) -> None:
        if not isinstance(name, str) or not name:
            raise InvalidArgumentError(f"HloModule.name requires a non-empty string; got {name!r}.")
        with self._ctx:
            self._module.operation.attributes["sym_name"] = ir.StringAttr.get(name)

    def set_name(self, name: str) -> None:
        self.name = name

    # --- computations -------------------------------------------------------------------
    def _entry_op(self) -> ir.Operation:
        entry = ir_access.entry_function(self._module)
        if entry is None:
            raise InvalidArgumentError(f"module {self.name!r} has no entry computation.")
        return entry

    def _function_map(self) -> dict[str, ir.Operation]:
        return {ir_access.symbol_name(f): f for f in ir_access.functions(self._module)}

    @property
    def entry_computation(self) -> HloComputation:
        return HloComputation(self, self._entry_op())

    def has_entry_computation(self) -> bool:
        return ir_access.entry_function(self._module) is not None

    def result_shape(self) -> Shape:
        """The result shape of the entry computation."""
        return self.entry_computation.program_shape().result

    def computations(self) -> list[HloComputation]:
        """Every function computation, in module order (nested regions not included)."""
        return [HloComputation(self, f) for f in ir_access.functions(self._module)]

    def embedded_computations(self) -> list[HloComputation]:
        """Every function computation but the entry."""
        entry = self._entry_op()
        return [HloComputation(self, f) for f in ir_access.functions(self._module) if f != entry]

    def nested_computations(self) -> list[HloComputation]:
        """Every region of every instruction of the module, outer regions first."""
        out: list[HloComputation] = []
        pending = self.computations()
        while pending:
            nested = [c for comp in pending for c in comp.nested_computations()]
            out.extend(nested)
            pending = nested
        return out

    def computation_count(self) -> int:
        """The number of function computations (entry + embedded)."""
        return len(ir_access.functions(self._module))

    def get_computation_with_name(self, name: str) -> HloComputation | None:
        func = self._function_map().get(name)
        return HloComputation(self, func) if func is not None else None

    def instruction_count(self) -> int:
        """Instructions in the whole module, those of nested computations included."""
        return sum(1 + sum(1 for _ in call_graph.nested_instructions(op))
                   for f in ir_access.functions(self._module)
                   for op in call_graph.region_instructions(f.regions[0]))

    def make_computation_post_order(self) -> list[HloComputation]:
        """All function computations, each after every computation it calls."""
        functions = self._function_map()
        order: dict[str, None] = {}

        def visit(name: str, active: set[str]) -> None:
            if name in order or name in active:
                return
            active.add(name)
            for callee in call_graph.callees(functions[name].regions[0], functions):
                visit(callee, active)
            order[name] = None

        for name in functions:
            visit(name, set())
        return [HloComputation(self, functions[n]) for n in order]

    def _resolve(self, op_name: str, computation: "str | HloComputation") -> ir.Operation:
        """The function named by ``computation`` (a name or a computation of this module)."""
        if isinstance(computation, HloComputation):
            if computation._module is not self or computation.is_nested:
                where = "a nested computation" if computation.is_nested else "a computation of another module"
                raise InvalidArgumentError(
                    f"{op_name} requires a function computation of module {self.name!r}; "
                    f"got {where} {computation.name!r}.")
            computation = computation.name
        functions = self._function_map()
        if computation not in functions:
            raise InvalidArgumentError(
                f"{op_name} requires a computation of module {self.name!r}; got {computation!r} "
                f"(computations: {', '.join(functions)}).")
        return functions[computation]

    def _callers(self, name: str) -> list[str]:
        """Names of the other functions whose instructions refer to function ``name``."""
        return [ir_access.symbol_name(f) for f in ir_access.functions(self._module)
                if ir_access.symbol_name(f) != name and call_graph.callees(f.regions[0], [name])]

    def add_embedded_computation(self, computation) -> HloComputation:
        """Deep-copies ``computation`` (an XlaComputation, an HloModule's entry or an
        HloComputation of any module) and the functions it calls into this module as
        private functions; returns the copy.

        Names that collide with this module's get a ``_N`` suffix (calls follow), and
        the new instructions get unique names.
        """
        source, root, base = self._copy_source(computation)
        with self._ctx, ir.Location.unknown():
            clone = source.operation.clone()
            try:
                added = call_graph.adopt_functions(self._module, clone, root, base)
            finally:
                clone.erase()
        names.assign_names(self._module, rename_duplicates=True)
        return HloComputation(self, added)

    def deep_clone_computation(self, computation: HloComputation) -> HloComputation:
        """A deep copy of ``computation`` and its callees in this module (same as
        :meth:`add_embedded_computation`)."""
        return self.add_embedded_computation(computation)

    def _copy_source(self, computation) -> tuple[ir.Module, str, str]:
        """(module to copy from, name of the function to copy, base name for it)."""
        if isinstance(computation, XlaComputation):
            return computation.module, ir_access.symbol_name(computation.entry_function()), computation.name
        if isinstance(computation, HloModule):
            return computation.module, ir_access.symbol_name(computation._entry_op()), computation.name
        if isinstance(computation, HloComputation) and not computation.is_nested:
            owner = computation._module
            base = owner.name if computation.is_entry else computation.name
            return owner.module, computation.name, base
        raise InvalidArgumentError(
            "add_embedded_computation requires an XlaComputation, an HloModule or a function "
            f"HloComputation; got {computation!r}.")

    def remove_computation(self, computation: "str | HloComputation") -> None:
        """Removes an embedded computation (spec: RemoveEmbeddedComputation).

        Refuses the entry computation and computations still called.
        """
        func = self._resolve("remove_computation", computation)
        name = ir_access.symbol_name(func)
        if func == self._entry_op():
            raise InvalidArgumentError(
                f"remove_computation requires an embedded computation; got {name!r}, the entry "
                f"computation of module {self.name!r}.")
        callers = self._callers(name)
        if callers:
            raise InvalidArgumentError(
                f"remove_computation requires a computation nothing calls; got {name!r}, still "
                f"called by {', '.join(map(repr, callers))}.")
        func.erase()
        self._drop_from_schedule([name])

    def remove_unused_computations(self) -> list[str]:
        """Removes every computation the entry does not reach; returns their names."""
        functions = self._function_map()
        reachable = set(call_graph.reachable(functions, ir_access.symbol_name(self._entry_op())))
        removed = [name for name in functions if name not in reachable]
        for name in removed:
            functions[name].erase()
        self._drop_from_schedule(removed)
        return removed

    def replace_entry_computation(self, computation: "str | HloComputation") -> None:
        """Makes ``computation`` (already in the module) the entry computation.

        It takes the entry's name and public visibility; the old entry stays as a
        private computation renamed ``<name>_N``. Calls follow both renames.
        """
        new = self._resolve("replace_entry_computation", computation)
        old = self._entry_op()
        if new == old:
            return
        entry_name, new_name = ir_access.symbol_name(old), ir_access.symbol_name(new)
        parked = call_graph.fresh_symbol(entry_name, set(self._function_map()))
        with self._ctx:
            self._rename_function(old, parked)
            old.attributes["sym_visibility"] = ir.StringAttr.get("private")
            self._rename_function(new, entry_name)
            if "sym_visibility" in new.attributes:
                del new.attributes["sym_visibility"]
        self._rename_in_schedule({entry_name: parked, new_name: entry_name})

    def _rename_function(self, func: ir.Operation, new: str) -> None:
        old = ir_access.symbol_name(func)
        ir.SymbolTable.replace_all_symbol_uses(old, new, self._module.operation)
        ir.SymbolTable.set_symbol_name(func, new)

    def replace_computations(self, replacements: Mapping["str | HloComputation", "str | HloComputation"]
                             ) -> None:
        """Redirects every use of each key computation to its value and removes the keys
        (spec: ReplaceComputations). Replacing the entry makes the value the entry.

        Each replacement must have the signature of the computation it replaces.
        """
        pairs = [(self._resolve("replace_computations", old), self._resolve("replace_computations", new))
                 for old, new in replacements.items()]
        olds = {ir_access.symbol_name(old) for old, _ in pairs}
        for old, new in pairs:
            old_name, new_name = ir_access.symbol_name(old), ir_access.symbol_name(new)
            if new_name in olds:
                raise InvalidArgumentError(
                    f"replace_computations requires replacements that are not replaced themselves; "
                    f"got {new_name!r} as both a key and a value.")
            old_type, new_type = (ir_access.function_type(f) for f in (old, new))
            if old_type != new_type:
                raise InvalidArgumentError(
                    f"replace_computations requires a replacement with the same signature; got "
                    f"{old_name!r}: {old_type} and {new_name!r}: {new_type}.")
        entry = self._entry_op()
        with self._ctx:
            for old, new in pairs:
                if old == entry:
                    self.replace_entry_computation(HloComputation(self, new))
                ir.SymbolTable.replace_all_symbol_uses(ir_access.symbol_name(old), ir_access.symbol_name(new),
                                                       self._module.operation)
        removed = [ir_access.symbol_name(old) for old, _ in pairs]
        for old, _ in pairs:
            old.erase()
        self._drop_from_schedule(removed)

    # --- whole-module operations ------------------------------------------------------
    def clone(self, suffix: str = "clone") -> "HloModule":
        """A deep, independent copy named ``<name>-<suffix>`` (just ``<name>`` for an empty
        suffix). Computation and instruction names and the schedule are kept."""
        copy = HloModule(as_module(self))
        if suffix:
            copy.name = f"{self.name}-{suffix}"
        return copy

    def verify(self) -> None:
        """Runs the MLIR verifier; raises VerificationError with its diagnostics."""
        XlaComputation(self._module).verify()

    def to_text(self, debug_info: bool = False) -> str:
        return self._module.operation.get_asm(enable_debug_info=debug_info)

    def to_bytecode(self) -> bytes:
        return XlaComputation(self._module).as_bytecode()

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return (f"HloModule({self.name!r}, {self.computation_count()} computations, "
                f"{self.instruction_count()} instructions)")

    # --- unique names -------------------------------------------------------------------
    def verify_unique_names(self) -> None:
        """Checks that computation names and instruction names are unique and that every
        instruction has a name (spec: CheckUniqueNamesAndIdsForComputationsAndInstructions)."""
        problems = names.name_problems(self._module)
        if problems:
            raise InvalidArgumentError(
                f"verify_unique_names requires unique names in module {self.name!r}; got "
                + ", ".join(problems) + ".")

    def uniquify_names(self) -> None:
        """Names every unnamed instruction and renames every duplicate but the first
        (in module order), so that all instruction names are unique.

        Computation names are symbols: the MLIR verifier already keeps them unique.
        """
        names.assign_names(self._module, rename_duplicates=True)
