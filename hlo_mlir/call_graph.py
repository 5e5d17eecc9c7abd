"""The functions of a module as a call graph: their instructions, what they call, and
copying functions (with everything they call) from one module into another.

HloModule (hlo_mlir/module.py) reads its computations through these, and XlaBuilder
(hlo_mlir/builder.py) imports and inlines sub-computations with them. An instruction is
an operation of a block but its terminator; a function calls the symbols its
instructions (at any depth) refer to.
"""

from __future__ import annotations

from typing import Iterable, Iterator, Mapping

from iree.compiler import ir

from hlo_mlir import ir_access
from hlo_mlir.shape import ProgramShape, Shape

__all__ = ["block_instructions", "region_instructions", "nested_instructions", "referenced_symbols",
           "callees", "reachable", "program_shape", "fresh_symbol", "adopt_functions", "import_computation"]


def block_instructions(block: ir.Block) -> list[ir.Operation]:
    """The instructions of ``block``: its operations but the terminator (the last one)."""
    return [op.operation for op in block.operations][:-1]


def region_instructions(region: ir.Region) -> list[ir.Operation]:
    return [op for block in region.blocks for op in block_instructions(block)]


def nested_instructions(op: ir.Operation) -> Iterator[ir.Operation]:
    """Instructions inside ``op``'s regions, at any depth, in pre-order."""
    for region in op.regions:
        for inner in region_instructions(region):
            yield inner
            yield from nested_instructions(inner)


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


def referenced_symbols(op: ir.Operation) -> Iterator[str]:
    """Names of the symbols ``op``'s attributes refer to."""
    if op.name == "stablehlo.constant":
        # A constant's only attribute is its value, which names no symbol; and wrapping a
        # complex elements attribute aborts the pinned bindings (tests/fuzz finding).
        return
    attrs = op.attributes
    for i in range(len(attrs)):
        yield from _symbol_refs(attrs[i].attr)


def callees(region: ir.Region, known: Iterable[str]) -> list[str]:
    """Names in ``known`` that instructions of ``region`` (at any depth) refer to, in order."""
    known = set(known)
    found: dict[str, None] = {}
    for op in region_instructions(region):
        for inner in (op, *nested_instructions(op)):
            found.update(dict.fromkeys(n for n in referenced_symbols(inner) if n in known))
    return list(found)


def reachable(functions: Mapping[str, ir.Operation], root: str) -> list[str]:
    """``root`` and every function it calls, directly or not (depth-first order)."""
    seen: dict[str, None] = {}
    stack = [root]
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen[name] = None
        stack.extend(reversed(callees(functions[name].regions[0], functions)))
    return list(seen)


def program_shape(region: ir.Region) -> ProgramShape:
    """Parameter shapes from the entry block's arguments, the result from its terminator."""
    block = region.blocks[0]
    results = [Shape.from_mlir_type(v.type) for v in list(block.operations)[-1].operands]
    result = results[0] if len(results) == 1 else Shape.tuple_shape(results)
    return ProgramShape([Shape.from_mlir_type(a.type) for a in block.arguments], result)


def _symbol_base(name: str) -> str:
    """``name`` as a bare symbol: other characters become ``_``."""
    return "".join(c if c.isalnum() or c == "_" else "_" for c in name) or "computation"


def fresh_symbol(base: str, taken: set[str]) -> str:
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
    functions = {ir_access.symbol_name(f.operation): f.operation
                 for f in clone.regions[0].blocks[0].operations if f.operation.name == "func.func"}
    keep = reachable(functions, root)
    own = {ir_access.symbol_name(f) for f in ir_access.functions(target)}
    taken = own | set(functions)
    for name in keep:
        wanted = _symbol_base(base) if name == root and base else name
        new = wanted if wanted == name and name not in own else fresh_symbol(wanted, taken)
        taken.add(new)
        if new != name:
            ir.SymbolTable.replace_all_symbol_uses(name, new, clone)
            ir.SymbolTable.set_symbol_name(functions[name], new)
    for name in reversed(keep if include_root else keep[1:]):  # callees first, the root last
        func = functions[name]
        func.attributes["sym_visibility"] = ir.StringAttr.get("private")
        target.body.append(func)
    return functions[root]


def import_computation(target: ir.Module, computation, imported: dict) -> str:
    """Copies ``computation`` (an XlaComputation) and what it calls into ``target`` as
    private functions, once per ``imported`` (a dict the caller keeps: ``id ->
    (computation, name)``, which also keeps the computation alive so its id cannot be
    reused); returns the copy's name."""
    key = id(computation)
    if key not in imported:
        with target.context, ir.Location.unknown():
            clone = computation.module.operation.clone()
            try:
                func = adopt_functions(target, clone, "main", computation.name)
            finally:
                clone.erase()
        imported[key] = (computation, ir_access.symbol_name(func))
    return imported[key][1]
