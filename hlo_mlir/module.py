"""HloModule: XLA's module structure API (spec 004, "XLA Structure") over an MLIR module.

An ``HloModule`` owns an ``ir.Module`` (its own deep copy) and reads XLA's structure
off it; every mutation is made on the MLIR module itself, so what ``to_text()``
prints, ``hlo_mlir.compile`` compiles and the passes rewrite is always the same IR.

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

Every instruction has a module-wide unique name, as in XLA. A new ``HloModule``
names the instructions that have none (from their ``NameLoc`` where they carry
one, ``loc("jit(f)/add")`` -> ``add``, else from the op kind), with XLA's
``NameUniquer`` style: ``add``, ``add.1``, ``add.2``. Instructions created later
(by a pass, say) are unnamed until :meth:`HloModule.uniquify_names` runs.
Names survive bytecode round trips, and text round trips except in one place:
StableHLO's compact form of a reduce (``applies stablehlo.add``) does not print its
reducer op's attributes, so that op is renamed when the text is parsed again.
"""

from __future__ import annotations

import collections
import re
from typing import Iterable, Iterator, Mapping, Sequence

from iree.compiler import ir

from hlo_mlir.builder import XlaComputation
from hlo_mlir.compiler import as_module
from hlo_mlir.errors import InvalidArgumentError, ParseError
from hlo_mlir.shape import ProgramShape, Shape

__all__ = ["HloModule", "HloComputation", "HloInstruction"]

NAME_ATTR = "hlo.name"
SCHEDULE_ATTR = "hlo.schedule"


# --- IR traversal ----------------------------------------------------------------------
def _block_instructions(block: ir.Block) -> list[ir.Operation]:
    """The instructions of ``block``: its operations but the terminator (the last one)."""
    return [op.operation for op in block.operations][:-1]


def _region_instructions(region: ir.Region) -> list[ir.Operation]:
    return [op for block in region.blocks for op in _block_instructions(block)]


def _nested_instructions(op: ir.Operation) -> Iterator[ir.Operation]:
    """Instructions inside ``op``'s regions, at any depth, in pre-order."""
    for region in op.regions:
        for inner in _region_instructions(region):
            yield inner
            yield from _nested_instructions(inner)


def _symbol_refs(attr: ir.Attribute) -> Iterator[str]:
    """Names of the symbols ``attr`` refers to (through arrays and dictionaries)."""
    if isinstance(attr, ir.FlatSymbolRefAttr):
        yield attr.value
    elif isinstance(attr, ir.SymbolRefAttr):
        yield attr.value[0]  # @root::@nested refers into function @root's symbol table
    elif isinstance(attr, ir.ArrayAttr):
        for element in attr:
            yield from _symbol_refs(element)
    elif isinstance(attr, ir.DictAttr):
        for i in range(len(attr)):
            yield from _symbol_refs(attr[i].attr)


def _referenced_symbols(op: ir.Operation) -> Iterator[str]:
    attrs = op.attributes
    for i in range(len(attrs)):
        yield from _symbol_refs(attrs[i].attr)


def _func_name(func) -> str:
    return ir.StringAttr(func.attributes["sym_name"]).value


def _is_public(func) -> bool:
    return "sym_visibility" not in func.attributes or \
        ir.StringAttr(func.attributes["sym_visibility"]).value == "public"


def _functions(module: ir.Module) -> list[ir.Operation]:
    return [op.operation for op in module.body.operations if op.operation.name == "func.func"]


def _entry_function(module: ir.Module) -> ir.Operation | None:
    """The public ``@main``, else the only public function, else None."""
    public = [f for f in _functions(module) if _is_public(f)]
    for f in public:
        if _func_name(f) == "main":
            return f
    return public[0] if len(public) == 1 else None


def _callees(region: ir.Region, known: Iterable[str]) -> list[str]:
    """Names in ``known`` that instructions of ``region`` (at any depth) refer to, in order."""
    known = set(known)
    found: dict[str, None] = {}
    for op in _region_instructions(region):
        for inner in (op, *_nested_instructions(op)):
            found.update(dict.fromkeys(n for n in _referenced_symbols(inner) if n in known))
    return list(found)


def _reachable(functions: Mapping[str, ir.Operation], root: str) -> list[str]:
    """``root`` and every function it calls, directly or not (depth-first order)."""
    seen: dict[str, None] = {}
    stack = [root]
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen[name] = None
        stack.extend(reversed(_callees(functions[name].regions[0], functions)))
    return list(seen)


def _program_shape(region: ir.Region) -> ProgramShape:
    """Parameter shapes from the entry block's arguments, the result from its terminator."""
    block = region.blocks[0]
    results = [Shape.from_mlir_type(v.type) for v in list(block.operations)[-1].operands]
    result = results[0] if len(results) == 1 else Shape.tuple_shape(results)
    return ProgramShape([Shape.from_mlir_type(a.type) for a in block.arguments], result)


def _symbol_base(name: str) -> str:
    """``name`` as a bare symbol: other characters become ``_``."""
    return "".join(c if c.isalnum() or c == "_" else "_" for c in name) or "computation"


def _fresh_symbol(base: str, taken: set[str]) -> str:
    """``base`` if free, else the first free ``base_1``, ``base_2``, ..."""
    name, n = base, 0
    while name in taken:
        n += 1
        name = f"{base}_{n}"
    return name


def adopt_functions(target: ir.Module, clone: ir.Operation, root: str, base: str = "",
                    include_root: bool = True) -> ir.Operation:
    """Moves function ``root`` of the cloned module ``clone`` and everything it calls to
    the end of ``target``, private and renamed away from ``target``'s names (and from
    each other's); calls inside ``clone`` follow the renames. ``root`` is renamed after
    ``base`` when given. With ``include_root=False`` only the callees move (the caller
    inlines ``root``'s body itself). Returns ``root``'s function op."""
    functions = {_func_name(f.operation): f.operation for f in clone.regions[0].blocks[0].operations
                 if f.operation.name == "func.func"}
    keep = _reachable(functions, root)
    own = {_func_name(f) for f in _functions(target)}
    taken = own | set(functions)
    for name in keep:
        wanted = _symbol_base(base) if name == root and base else name
        new = wanted if wanted == name and name not in own else _fresh_symbol(wanted, taken)
        taken.add(new)
        if new != name:
            ir.SymbolTable.replace_all_symbol_uses(name, new, clone)
            ir.SymbolTable.set_symbol_name(functions[name], new)
    for name in reversed(keep if include_root else keep[1:]):  # callees first, the root last
        func = functions[name]
        func.attributes["sym_visibility"] = ir.StringAttr.get("private")
        target.body.append(func)
    return functions[root]


def import_computation(target: ir.Module, computation: XlaComputation, imported: dict) -> str:
    """Copies ``computation`` (and what it calls) into ``target`` as private functions,
    once per ``imported`` (a dict the caller keeps: ``id -> (computation, name)``, which
    also keeps the computation alive so its id cannot be reused); returns the copy's name."""
    key = id(computation)
    if key not in imported:
        with target.context, ir.Location.unknown():
            clone = computation.module.operation.clone()
            try:
                func = adopt_functions(target, clone, "main", computation.name)
            finally:
                clone.erase()
        imported[key] = (computation, _func_name(func))
    return imported[key][1]


# --- names --------------------------------------------------------------------------------
_SUFFIX = re.compile(r"^(.*)\.(\d+)$")


class _NameUniquer:
    """XLA's NameUniquer with separator ".": ``add``, ``add.1``, ``add.2``, ..."""

    def __init__(self, used: Iterable[str] = ()):
        self._used = set(used)
        self._next: dict[str, int] = {}

    def get_unique_name(self, base: str) -> str:
        if base not in self._used:
            self._used.add(base)
            return base
        m = _SUFFIX.match(base)
        root = m.group(1) if m else base
        n = self._next.get(root, 1)
        while f"{root}.{n}" in self._used:
            n += 1
        self._next[root] = n + 1
        name = f"{root}.{n}"
        self._used.add(name)
        return name


def _name_of(op: ir.Operation) -> str | None:
    return ir.StringAttr(op.attributes[NAME_ATTR]).value if NAME_ATTR in op.attributes else None


def _base_name(op: ir.Operation) -> str:
    """A name for an unnamed instruction: its NameLoc's last path part, else its op kind."""
    loc = op.location
    if isinstance(loc, ir.NameLoc):
        text = re.sub(r"[^A-Za-z0-9_.\-]", "_", loc.name_str.rsplit("/", 1)[-1]).strip("._")
        if text:
            return text
    return op.name.rsplit(".", 1)[-1]


# --- views ----------------------------------------------------------------------------------
class HloInstruction:
    """One instruction (an MLIR operation) of an HloModule."""

    __slots__ = ("_module", "operation")

    def __init__(self, module: "HloModule", operation: ir.Operation):
        self._module = module
        self.operation = operation.operation

    @property
    def name(self) -> str | None:
        """The module-unique instruction name (``hlo.name``); None until named."""
        return _name_of(self.operation)

    @property
    def opcode(self) -> str:
        """The MLIR op name, e.g. ``stablehlo.add``."""
        return self.operation.name

    @property
    def shape(self) -> Shape:
        """The result shape (a tuple shape for several results or none)."""
        shapes = [Shape.from_mlir_type(r.type) for r in self.operation.results]
        return shapes[0] if len(shapes) == 1 else Shape.tuple_shape(shapes)

    def called_computations(self) -> list["HloComputation"]:
        """The module's functions this instruction refers to (e.g. the callee of a call)."""
        functions = self._module._function_map()
        names = dict.fromkeys(n for n in _referenced_symbols(self.operation) if n in functions)
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
        return _func_name(self._op)

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
        return [HloInstruction(self._module, op) for op in _region_instructions(self._region)]

    def instruction_count(self) -> int:
        return len(_region_instructions(self._region))

    def root_instruction(self) -> HloInstruction | None:
        """The instruction producing the single result; None for several results or a
        parameter returned as is."""
        operands = list(list(self._region.blocks[-1].operations)[-1].operands)
        if len(operands) == 1 and isinstance(operands[0], ir.OpResult):
            return HloInstruction(self._module, operands[0].owner)
        return None

    def program_shape(self) -> ProgramShape:
        return _program_shape(self._region)

    def called_computations(self) -> list["HloComputation"]:
        """Functions called from this computation, at any nesting depth, in order."""
        functions = self._module._function_map()
        return [HloComputation(self._module, functions[n]) for n in _callees(self._region, functions)]

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


# --- the module -------------------------------------------------------------------------------
class HloModule:
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
    own instructions and lives in the module's ``hlo.schedule`` attribute.
    """

    def __init__(self, module: ir.Module):
        if _entry_function(module) is None:
            publics = [_func_name(f) for f in _functions(module) if _is_public(f)]
            raise InvalidArgumentError(
                "HloModule requires an entry computation (a public @main or a single public "
                f"function); got public functions {publics}.")
        self._module = module
        self._ctx = module.context
        self._assign_names(rename_duplicates=False)

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
        attrs = self._module.operation.attributes
        return ir.StringAttr(attrs["sym_name"]).value if "sym_name" in attrs else "module"

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
        entry = _entry_function(self._module)
        if entry is None:
            raise InvalidArgumentError(f"module {self.name!r} has no entry computation.")
        return entry

    def _function_map(self) -> dict[str, ir.Operation]:
        return {_func_name(f): f for f in _functions(self._module)}

    @property
    def entry_computation(self) -> HloComputation:
        return HloComputation(self, self._entry_op())

    def has_entry_computation(self) -> bool:
        return _entry_function(self._module) is not None

    def result_shape(self) -> Shape:
        """The result shape of the entry computation."""
        return self.entry_computation.program_shape().result

    def computations(self) -> list[HloComputation]:
        """Every function computation, in module order (nested regions not included)."""
        return [HloComputation(self, f) for f in _functions(self._module)]

    def embedded_computations(self) -> list[HloComputation]:
        """Every function computation but the entry."""
        entry = self._entry_op()
        return [HloComputation(self, f) for f in _functions(self._module) if f != entry]

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
        return len(_functions(self._module))

    def get_computation_with_name(self, name: str) -> HloComputation | None:
        func = self._function_map().get(name)
        return HloComputation(self, func) if func is not None else None

    def instruction_count(self) -> int:
        """Instructions in the whole module, those of nested computations included."""
        return sum(1 + sum(1 for _ in _nested_instructions(op))
                   for f in _functions(self._module) for op in _region_instructions(f.regions[0]))

    def make_computation_post_order(self) -> list[HloComputation]:
        """All function computations, each after every computation it calls."""
        functions = self._function_map()
        order: dict[str, None] = {}

        def visit(name: str, active: set[str]) -> None:
            if name in order or name in active:
                return
            active.add(name)
            for callee in _callees(functions[name].regions[0], functions):
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
        return [_func_name(f) for f in _functions(self._module)
                if _func_name(f) != name and _callees(f.regions[0], [name])]

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
                added = adopt_functions(self._module, clone, root, base)
            finally:
                clone.erase()
        self._assign_names(rename_duplicates=True)
        return HloComputation(self, added)

    def deep_clone_computation(self, computation: HloComputation) -> HloComputation:
        """A deep copy of ``computation`` and its callees in this module (same as
        :meth:`add_embedded_computation`)."""
        return self.add_embedded_computation(computation)

    def _copy_source(self, computation) -> tuple[ir.Module, str, str]:
        """(module to copy from, name of the function to copy, base name for it)."""
        if isinstance(computation, XlaComputation):
            return computation.module, _func_name(computation.entry_function()), computation.name
        if isinstance(computation, HloModule):
            return computation.module, _func_name(computation._entry_op()), computation.name
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
        name = _func_name(func)
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
        reachable = set(_reachable(functions, _func_name(self._entry_op())))
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
        entry_name, new_name = _func_name(old), _func_name(new)
        parked = _fresh_symbol(entry_name, set(self._function_map()))
        with self._ctx:
            self._rename_function(old, parked)
            old.attributes["sym_visibility"] = ir.StringAttr.get("private")
            self._rename_function(new, entry_name)
            if "sym_visibility" in new.attributes:
                del new.attributes["sym_visibility"]
        self._rename_in_schedule({entry_name: parked, new_name: entry_name})

    def _rename_function(self, func: ir.Operation, new: str) -> None:
        old = _func_name(func)
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
        olds = {_func_name(old) for old, _ in pairs}
        for old, new in pairs:
            old_name, new_name = _func_name(old), _func_name(new)
            if new_name in olds:
                raise InvalidArgumentError(
                    f"replace_computations requires replacements that are not replaced themselves; "
                    f"got {new_name!r} as both a key and a value.")
            old_type, new_type = (ir.TypeAttr(f.attributes["function_type"]).value for f in (old, new))
            if str(old_type) != str(new_type):
                raise InvalidArgumentError(
                    f"replace_computations requires a replacement with the same signature; got "
                    f"{old_name!r}: {old_type} and {new_name!r}: {new_type}.")
        entry = self._entry_op()
        with self._ctx:
            for old, new in pairs:
                if old == entry:
                    self.replace_entry_computation(HloComputation(self, new))
                ir.SymbolTable.replace_all_symbol_uses(_func_name(old), _func_name(new),
                                                       self._module.operation)
        removed = [_func_name(old) for old, _ in pairs]
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
    def _all_instructions(self) -> list[tuple[str, ir.Operation]]:
        """(computation name, instruction) for every instruction, in module pre-order."""
        return [(_func_name(f), inner) for f in _functions(self._module)
                for op in _region_instructions(f.regions[0]) for inner in (op, *_nested_instructions(op))]

    def verify_unique_names(self) -> None:
        """Checks that computation names and instruction names are unique and that every
        instruction has a name (spec: CheckUniqueNamesAndIdsForComputationsAndInstructions)."""
        problems = []
        for name, count in collections.Counter(_func_name(f) for f in _functions(self._module)).items():
            if count > 1:
                problems.append(f"computation name {name!r} {count} times")
        instructions = self._all_instructions()
        counts = collections.Counter(_name_of(op) for _, op in instructions)
        for name, count in counts.items():
            if name is not None and count > 1:
                problems.append(f"instruction name {name!r} {count} times")
        unnamed = [(comp, op) for comp, op in instructions if _name_of(op) is None]
        if unnamed:
            comp, op = unnamed[0]
            problems.append(f"{len(unnamed)} unnamed instruction(s) (first: {op.name} in {comp!r}; "
                            "uniquify_names() names them)")
        if problems:
            raise InvalidArgumentError(
                f"verify_unique_names requires unique names in module {self.name!r}; got "
                + ", ".join(problems) + ".")

    def uniquify_names(self) -> None:
        """Names every unnamed instruction and renames every duplicate but the first
        (in module order), so that all instruction names are unique.

        Computation names are symbols: the MLIR verifier already keeps them unique.
        """
        self._assign_names(rename_duplicates=True)

    def _assign_names(self, rename_duplicates: bool) -> None:
        instructions = [op for _, op in self._all_instructions()]
        kept: set[str] = set()
        pending = []
        for op in instructions:
            name = _name_of(op)
            if name is None or (rename_duplicates and name in kept):
                pending.append(op)
            else:
                kept.add(name)
        uniquer = _NameUniquer(kept)
        with self._ctx:
            for op in pending:
                base = _name_of(op) or _base_name(op)  # a duplicate keeps its name as the base
                op.attributes[NAME_ATTR] = ir.StringAttr.get(uniquer.get_unique_name(base))

    # --- schedule -------------------------------------------------------------------------
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
            sequences[name] = [i.name if isinstance(i, HloInstruction) else i for i in seq]
        self._check_schedule("set_schedule", sequences)
        self._store_schedule(sequences)

    def has_schedule(self) -> bool:
        return SCHEDULE_ATTR in self._module.operation.attributes

    def schedule(self) -> dict[str, list[str]]:
        """The schedule: computation name -> instruction names in execution order."""
        if not self.has_schedule():
            raise InvalidArgumentError(
                f"schedule requires a module with a schedule; module {self.name!r} has none.")
        attr = ir.DictAttr(self._module.operation.attributes[SCHEDULE_ATTR])
        return {attr[i].name: [ir.StringAttr(s).value for s in ir.ArrayAttr(attr[i].attr)]
                for i in range(len(attr))}

    def clear_schedule(self) -> None:
        if self.has_schedule():
            del self._module.operation.attributes[SCHEDULE_ATTR]

    def verify_schedule(self) -> None:
        """Checks that the stored schedule still matches the module (after mutations)."""
        self._check_schedule("verify_schedule", self.schedule())

    def _check_schedule(self, op_name: str, sequences: dict[str, list[str]]) -> None:
        self.verify_unique_names()
        functions = self._function_map()
        unknown = [n for n in sequences if n not in functions]
        if unknown:
            raise InvalidArgumentError(
                f"{op_name} requires sequences for computations of module {self.name!r}; got unknown "
                f"computation(s) {', '.join(map(repr, unknown))} (computations: {', '.join(functions)}).")
        missing = [n for n in functions if n not in sequences]
        if missing:
            raise InvalidArgumentError(
                f"{op_name} requires a sequence for every computation; got none for "
                f"{', '.join(map(repr, missing))}.")
        for comp, seq in sequences.items():
            _check_sequence(op_name, comp, functions[comp].regions[0], seq)

    def _drop_from_schedule(self, names: Sequence[str]) -> None:
        if self.has_schedule() and names:
            sequences = {c: s for c, s in self.schedule().items() if c not in names}
            self._store_schedule(sequences)

    def _rename_in_schedule(self, renames: Mapping[str, str]) -> None:
        if self.has_schedule():
            self._store_schedule({renames.get(c, c): s for c, s in self.schedule().items()})

    def _store_schedule(self, sequences: dict[str, list[str]]) -> None:
        with self._ctx:
            self._module.operation.attributes[SCHEDULE_ATTR] = ir.DictAttr.get(
                {comp: ir.ArrayAttr.get([ir.StringAttr.get(n) for n in seq])
                 for comp, seq in sequences.items()})


def _check_sequence(op_name: str, comp: str, region: ir.Region, sequence: list[str]) -> None:
    """Checks that ``sequence`` lists each instruction of ``region`` once, every
    instruction after the instructions whose results it (or its regions) uses."""
    instructions = {_name_of(op): op for op in _region_instructions(region)}
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
            dep_name = _name_of(dep)
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
