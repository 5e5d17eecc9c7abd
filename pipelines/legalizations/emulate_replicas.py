"""emulate-replicas: runs an N-replica, P-partition program on one device, every process side by side.

IREE compiles collectives for every target but only CUDA/HIP with one process per device
runs them (ARCHITECTURE.md, defects). This pass turns a module written for N replicas
into an ordinary single-device module, so collective programs run, and are tested, on
one CPU. It is not part of ``iree-legalize``: it changes the entry's signature.

Calling convention (replica-major, N times as many arguments and results)::

    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32>            // N = 2 replicas
      %s = "stablehlo.all_reduce"(%x) ({add}) {replica_groups = dense<[[0, 1]]>}
      return %s

becomes::

    func.func @main(%x_0: tensor<4xf32>, %x_1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
      %s = stablehlo.add %x_0, %x_1       // one value, shared by both members of the group
      return %s, %s

that is ``main(args of process 0, ..., args of process N*P-1) -> (results of process 0, ...,
results of process N*P-1)``, process ``k`` being replica ``k // P`` of partition ``k % P``
(replica-major; with one partition, process r is replica r); tuples stay tuples. The entry
body is copied once per process, op by op (so copies interleave and every operand is
defined before use), with ``replica_id`` and ``partition_id`` (also inside regions)
replaced by the process's constants; each collective becomes explicit data movement
between the copies, process group by process group. The groups are the spec's
(pipelines/legalizations/_process_groups.py): ``replica_groups`` of replica ids without a
channel handle (per partition), with one spanning every partition (``all_reduce``,
``all_gather``, ``reduce_scatter``), of flattened process ids with
``use_global_device_ids``, of partition ids with a channel (``all_to_all``,
``collective_permute``, ``collective_broadcast``); empty means all ids in order:

- ``all_reduce``: the members' operands folded in group order with the reducer (an
  element-wise op when the reducer is one, ``stablehlo.map`` of the reducer otherwise);
- ``all_gather``: ``concatenate`` of the members' operands in group order;
- ``reduce_scatter``: the reduction, then member i gets block i of ``slice``;
- ``all_to_all``: member k gets the concatenation of block k of every member's operand;
- ``collective_permute``: the target gets the source's operand, a replica that is no
  pair's target gets zeros (spec: CollectivePermute);
- ``collective_broadcast``: every member gets the group's first member's operand.

Conditions: N from the option ``num-replicas`` or the module attribute
``mhlo.num_replicas`` (they must agree), P likewise from ``num-partitions`` or
``mhlo.num_partitions`` (default 1); calls are inlined first, so collectives in called
functions are handled; a collective inside a region (``while``, ``if``, ``case``, ...)
is refused with an error naming it, since its copies would need to exchange data inside
a loop. The module gets ``mhlo.num_replicas = 1`` and ``mhlo.num_partitions = 1``. Run
``O2`` afterwards (``hlo_mlir.compile`` does) to fold the copies' shared work.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.control_flow import map_
from dialect_ops.elementwise import binary
from dialect_ops.replica_groups import source_target_pairs_rule
from dialect_ops.shape_ops import broadcast_in_dim
from dialect_ops.slicing import concatenate, slice_
from hlo_mlir import _emit, ir_access
from hlo_mlir.builder import XlaComputation
from hlo_mlir.context import as_module
from hlo_mlir.errors import InvalidArgumentError
from hlo_mlir.shape import ProgramShape, Shape
from pipelines.pass_base import Pass, UpstreamPass
from pipelines.process_groups import (
    CROSS_PARTITION,
    grid_of,
    process_groups,
    process_pairs,
    strategy_of,
)
from pipelines.regions import copy_of
from pipelines.registry import register

__all__ = ["EmulateReplicas", "emulate_replicas"]

_IDS = ("stablehlo.replica_id", "stablehlo.partition_id")
# Reducers that are one element-wise op on the region's two arguments.
_BINARY = {"stablehlo.add": "Add", "stablehlo.multiply": "Mul", "stablehlo.maximum": "Max",
           "stablehlo.minimum": "Min", "stablehlo.and": "And", "stablehlo.or": "Or", "stablehlo.xor": "Xor"}

Values = list[list[ir.Value]]  # [process][operand or result index]


class _InlineCalls(UpstreamPass):
    """Inlines every call and drops the callees that are left unused (not registered)."""

    name = "emulate-replicas"
    pipeline = "inline{default-pipeline=},symbol-dce"


@register
@dataclasses.dataclass
class EmulateReplicas(Pass):
    """Rewrites an N-replica, P-partition module into one single-device entry that runs all N*P processes."""

    name = "emulate-replicas"
    num_replicas: int = dataclasses.field(
        default=0, metadata={"help": "replica count N (0: the module's mhlo.num_replicas attribute)"})
    num_partitions: int = dataclasses.field(
        default=0, metadata={"help": "partition count P (0: the module's mhlo.num_partitions, else 1)"})

    def run(self, module: ir.Module) -> bool:
        n, p = self._grid(module)
        _InlineCalls().run(module)
        main = _entry(module)
        block = main.regions[0].blocks[0]
        plans = [_plan(op, n, p) for op in _collectives(main)]  # in block order
        with module.context:
            _replicate(main, block, n, p, plans)
            for name in ("mhlo.num_replicas", "mhlo.num_partitions"):
                module.operation.attributes[name] = _emit.parse_attr("1 : i32")
        self.record("replicas", n)
        self.record("partitions", p)
        return True

    def _grid(self, module: ir.Module) -> tuple[int, int]:
        declared_n, declared_p = grid_of(module)
        n = self.num_replicas or declared_n
        if not n or n < 1:
            raise InvalidArgumentError("emulate-replicas requires a replica count: the option num-replicas "
                                       "or the module attribute mhlo.num_replicas; got neither.")
        p = self.num_partitions or declared_p or 1
        for what, count, declared in (("num-replicas", n, declared_n), ("num-partitions", p, declared_p)):
            if count < 1:
                raise InvalidArgumentError(f"emulate-replicas requires {what} >= 1; got {count}.")
            if declared not in (None, count):
                raise InvalidArgumentError(f"emulate-replicas requires {what} equal to the module's "
                                           f"mhlo.{what.replace('-', '_')}; got {count} and {declared}.")
        return n, p


# --- finding and checking the collectives -----------------------------------------------------
def _entry(module: ir.Module):
    entry = ir_access.entry_function(module)
    if entry is None:
        raise InvalidArgumentError("emulate-replicas requires a module with a public @main function.")
    return entry


def _collectives(main) -> list:
    """The collectives of ``main``'s body; raises for one nested in a region."""
    found: list[ir.Operation] = []
    nested: list[ir.Operation] = []

    def visit(op):
        if op.operation.name in _EMULATORS:
            (found if op.operation.parent.operation.name == "func.func" else nested).append(op)
        return ir.WalkResult.ADVANCE

    main.operation.walk(visit)  # (an exception inside the walk's callback would lose its type)
    if nested:
        op = nested[0]
        raise InvalidArgumentError(
            f"emulate-replicas requires collectives at the top level of the entry function; got "
            f"{op.operation.name} inside {op.operation.parent.operation.name} at {op.location} "
            f"(collectives in while/if/case regions are not emulated: unroll the loop or hoist the "
            f"collective).")
    return found


def _plan(op, n: int, p: int):
    """What an emulator needs of ``op`` besides its operands (process groups, or process
    pairs for collective_permute), checked before any rewrite."""
    name = op.operation.name
    if name == "stablehlo.collective_permute":
        across = strategy_of(op) == CROSS_PARTITION
        pairs = source_target_pairs_rule(ir_access.source_target_pairs(op), p if across else n,
                                         f"{name} (pairs of partition ids)" if across else name)
        return process_pairs(op, pairs, n, p)
    return process_groups(op, n, p, equal_sizes=name != "stablehlo.all_reduce")


# --- copying the body --------------------------------------------------------------------------
def _replicate(main, block: ir.Block, n: int, p: int, plans: list) -> None:
    old_args = list(block.arguments)
    ops = list(block.operations)
    ret, body = ops[-1], ops[:-1]
    count = n * p
    processes = [(k // p, k % p) for k in range(count)]  # (replica, partition) of process k
    mappings: list[dict] = [{} for _ in range(count)]
    plan = iter(plans)
    for k in range(count):
        for a in old_args:
            mappings[k][a] = block.add_argument(a.type, a.location)
    for op in body:
        with ir.InsertionPoint(ret), op.location:
            name = op.operation.name
            if name in _IDS:
                for k in range(count):
                    mappings[k][op.results[0]] = _id_constant(op, processes[k])
            elif name in _EMULATORS:
                args = [[mappings[k].get(v, v) for v in op.operands] for k in range(count)]
                results = _EMULATORS[name](op, args, next(plan))
                _check_types(op, results, p)
                for k in range(count):
                    mappings[k].update(zip(op.results, results[k], strict=True))
            else:
                for k in range(count):
                    _clone(op, mappings[k], processes[k])
    with ir.InsertionPoint(ret), ret.location:
        _emit.func_return([mappings[k].get(v, v) for k in range(count) for v in ret.operands])
    ret.erase()
    for op in reversed(body):
        op.erase()
    for _ in old_args:
        block.erase_argument(0)
    ftype = ir_access.function_type(main)
    main.attributes["function_type"] = ir.TypeAttr.get(
        ir.FunctionType.get(list(ftype.inputs) * count, list(ftype.results) * count))
    for key in ("arg_attrs", "res_attrs"):
        if key in main.attributes:
            main.attributes[key] = ir.ArrayAttr.get(list(ir.ArrayAttr(main.attributes[key])) * count)


def _check_types(op, results: Values, p: int) -> None:
    """The exchanged values must have the op's result types (a shard or split count that is
    not the group size makes them differ)."""
    want = [str(v.type) for v in op.results]
    for k, values in enumerate(results):
        got = [str(v.type) for v in values]
        if got != want:
            raise InvalidArgumentError(
                f"emulate-replicas requires {op.operation.name} results that match its replica groups; got "
                f"result types {want} but {'replica' if p == 1 else 'process'} {k} of its group receives "
                f"{got} at {op.location}.")


def _id_constant(op, process: tuple[int, int]) -> ir.Value:
    """``replica_id`` or ``partition_id`` of ``process`` = (replica, partition)."""
    shape = _emit.shape_of(op.results[0])
    value = process[0] if op.operation.name == "stablehlo.replica_id" else process[1]
    return _emit.constant(np.asarray(value, shape.dtype), shape)


def _clone(op, mapping: dict, process: tuple[int, int]) -> None:
    """Clones ``op`` at the insertion point for ``process``: operands (also those its regions
    capture) through ``mapping``, ids inside its regions made constants."""
    clone = op.operation.clone()
    ids = []

    def remap(inner):
        for i, operand in enumerate(inner.operands):
            if operand in mapping:
                inner.operands[i] = mapping[operand]
        if inner.name in _IDS:
            ids.append(inner)
        return ir.WalkResult.ADVANCE

    clone.walk(remap)
    for inner in ids:
        with ir.InsertionPoint(inner), inner.location:
            inner.results[0].replace_all_uses_with(_id_constant(inner, process))
        inner.erase()
    mapping.update(zip(op.results, clone.results, strict=True))


# --- the collectives as data movement -----------------------------------------------------------
def _combiner(op) -> Callable[[ir.Value, ir.Value], ir.Value]:
    """``f(a, b)`` element-wise with the reducer region of ``op`` (two scalar arguments)."""
    reducer = op.regions[0].blocks[0]
    ops = list(reducer.operations)
    a, b = reducer.arguments
    if len(ops) == 2 and ops[0].operation.name in _BINARY and list(ops[-1].operands) == [ops[0].results[0]]:
        operands = list(ops[0].operands)
        if operands in ([a, b], [b, a]):  # every op of the table is commutative
            return lambda x, y: binary(_BINARY[ops[0].operation.name], x, y)
    scalar = _emit.shape_of(a)
    shape = ProgramShape([scalar, scalar], _emit.shape_of(ops[-1].operands[0]))

    return lambda x, y: map_([x, y], copy_of(reducer), shape, list(range(_emit.shape_of(x).rank)))


def _reduced(op, args: Values, group: Sequence[int], j: int) -> ir.Value:
    """Operand ``j`` of the group's members folded in group order with the reducer."""
    combine = _combiner(op)
    acc = args[group[0]][j]
    for m in group[1:]:
        acc = combine(acc, args[m][j])
    return acc


def _blocks(value: ir.Value, dimension: int, count: int) -> list[ir.Value]:
    """``value`` cut into ``count`` equal blocks along ``dimension``."""
    dims = _emit.shape_of(value).dimensions
    size = dims[dimension] // count
    out = []
    for i in range(count):
        start, limit = [0] * len(dims), list(dims)
        start[dimension], limit[dimension] = i * size, (i + 1) * size
        out.append(slice_(value, start, limit))
    return out


def _per_member(n: int, arity: int) -> Values:
    return [[None] * arity for _ in range(n)]


def _all_reduce(op, args: Values, groups) -> Values:
    out = _per_member(len(args), len(op.results))
    for group in groups:
        for j in range(len(op.results)):
            value = _reduced(op, args, group, j)
            for m in group:
                out[m][j] = value
    return out


def _all_gather(op, args: Values, groups) -> Values:
    out = _per_member(len(args), len(op.results))
    dim = ir_access.int_attr(op, "all_gather_dim")
    for group in groups:
        for j in range(len(op.results)):
            value = concatenate([args[m][j] for m in group], dim)
            for m in group:
                out[m][j] = value
    return out


def _reduce_scatter(op, args: Values, groups) -> Values:
    out = _per_member(len(args), 1)
    dim = ir_access.int_attr(op, "scatter_dimension")
    for group in groups:
        for m, block in zip(group, _blocks(_reduced(op, args, group, 0), dim, len(group)), strict=True):
            out[m][0] = block
    return out


def _all_to_all(op, args: Values, groups) -> Values:
    out = _per_member(len(args), len(op.results))
    split, concat = ir_access.int_attr(op, "split_dimension"), ir_access.int_attr(op, "concat_dimension")
    for group in groups:
        for j in range(len(op.results)):
            blocks = [_blocks(args[m][j], split, len(group)) for m in group]
            for k, m in enumerate(group):
                out[m][j] = concatenate([blocks[i][k] for i in range(len(group))], concat)
    return out


def _collective_permute(op, args: Values, pairs) -> Values:
    sources = {t: s for s, t in pairs}
    out = []
    for r in range(len(args)):
        if r in sources:
            out.append([args[sources[r]][0]])
            continue
        shape = _emit.shape_of(op.results[0])
        zero = _emit.constant(np.zeros((), shape.dtype), Shape.scalar_shape(shape.element_type))
        out.append([broadcast_in_dim(zero, shape.dimensions, [])])
    return out


def _collective_broadcast(op, args: Values, groups) -> Values:
    out = _per_member(len(args), 1)
    for group in groups:
        for m in group:
            out[m][0] = args[group[0]][0]
    return out


_EMULATORS: dict[str, Callable[[object, Values, object], Values]] = {
    "stablehlo.all_reduce": _all_reduce,
    "stablehlo.all_gather": _all_gather,
    "stablehlo.reduce_scatter": _reduce_scatter,
    "stablehlo.all_to_all": _all_to_all,
    "stablehlo.collective_permute": _collective_permute,
    "stablehlo.collective_broadcast": _collective_broadcast,
}


# --- conveniences ------------------------------------------------------------------------------
def emulate_replicas(source, num_replicas: int | None = None, num_partitions: int | None = None):
    """A copy of ``source`` (XlaComputation, HloModule, ir.Module, MLIR text or bytecode)
    rewritten by ``emulate-replicas`` for ``num_replicas`` and ``num_partitions`` (default:
    the module's counts), as an XlaComputation (``hlo_mlir.replicas.run_replicated`` compiles
    and runs it)."""
    module = as_module(source)
    EmulateReplicas(num_replicas=num_replicas or 0, num_partitions=num_partitions or 0).run(module)
    computation = XlaComputation(module)
    computation.verify()
    return computation
