"""HLO verifier (spec 004: HLO verifier; XLA ``hlo_verifier.cc``): XLA's invariants that
MLIR's and StableHLO's verifiers do not check.

Every pipeline already runs MLIR's verifier after each pass, and StableHLO's op verifiers
check what XLA's ShapeVerifier checks (shapes, dimension numbers, reducer and comparator
signatures, while-carried types, duplicate replica ids in one op, tuple indices); a func
is isolated from above, so no op reads another function's value. What stays, each a rule
of this pass (``hlo-opt --verify-each`` runs it after every pass):

- ``unique-names``: stored instruction names (``hlo.name``) are unique in the module
  (XLA: CheckUniqueNamesAndIdsForComputationsAndInstructions);
- ``schedule``: a stored schedule (``hlo.schedule``) names every instruction of every
  function once, each after its operands (XLA: HloSchedule::Verify); a pass that adds or
  moves ops after scheduling makes it stale;
- ``acyclic-calls``: no function calls itself, directly or not (an HLO call graph is a DAG;
  MLIR accepts recursive ``func.call``);
- ``closed-computations``: the regions of ``reduce``, ``reduce_window``, ``scatter``,
  ``select_and_scatter``, ``sort``, ``map``, ``all_reduce`` and ``reduce_scatter`` read only
  their own arguments and values they define (XLA's to_apply/comparator computations have
  no captures; StableHLO accepts one);
- ``channels``: ops sharing a channel handle are one kind of op (sends and receives, or one
  collective; XLA VerifyChannels), and the sends and receives of a channel move the same
  types, all host transfers or none;
- ``replica-groups``: with ``mhlo.num_replicas`` (and ``mhlo.num_partitions``) on the
  module, a collective's replica groups partition the replica (partition, device) ids it
  works over, ids in range, each in one group (XLA CheckReplicaGroups; StableHLO checks
  duplicates only);
- ``collective-shapes``: an ``all_gather`` result is the operand times the group size along
  ``all_gather_dim``, a ``reduce_scatter`` operand the result times it along
  ``scatter_dimension`` (XLA's shape inference; StableHLO accepts other sizes).

The pass changes nothing and runs on request (``-p hlo-verifier``, ``hlo-opt
--verify-each``, ``run_pipeline(verify_hlo=True)``); it raises :class:`HloVerifierError`
(a PassError and a VerificationError: ``hlo-opt`` exits with 4) whose diagnostics name
the op, its location and the broken invariant.
"""

from __future__ import annotations

import collections
import re

from iree.compiler import ir

from dialect_ops.replica_groups import source_target_pairs_rule
from hlo_mlir import ir_access
from hlo_mlir.call_graph import callees, region_instructions
from hlo_mlir.errors import InvalidArgumentError, VerificationError
from hlo_mlir.names import all_instructions, name_of
from hlo_mlir.schedule import check_schedule, read_schedule
from pipelines.matchers import ops_where
from pipelines.pass_base import Pass, PassError
from pipelines.process_groups import (
    CROSS_PARTITION,
    grid_of,
    group_sizes,
    process_groups,
    strategy_of,
)
from pipelines.registry import register

__all__ = ["HloVerifier", "HloVerifierError", "hlo_problems", "CLOSED_REGION_OPS"]

# Ops whose regions are XLA computations called with their own parameters only.
CLOSED_REGION_OPS = frozenset(f"stablehlo.{name}" for name in (
    "reduce", "reduce_window", "scatter", "select_and_scatter", "sort", "map", "all_reduce",
    "reduce_scatter"))
_GROUPED = ("stablehlo.all_reduce", "stablehlo.all_gather", "stablehlo.reduce_scatter",
            "stablehlo.all_to_all", "stablehlo.collective_broadcast")
_CHANNEL_IO = frozenset({"stablehlo.send", "stablehlo.recv"})
_FILE_LOC = re.compile(r'"((?:[^"\\]|\\.)*)":(\d+):(\d+)')


class HloVerifierError(PassError, VerificationError):
    """The module breaks XLA invariants; ``diagnostics`` has one located message each."""

    def __init__(self, message: str, diagnostics: list[str], pass_name: str = "hlo-verifier"):
        VerificationError.__init__(self, message, diagnostics)
        self.pass_name = pass_name


def _at(op: ir.Operation, message: str) -> str:
    """``file:line:col: 'op' op message`` (the first file location of ``op``)."""
    m = _FILE_LOC.search(str(op.location))
    where = f"{m.group(1)}:{m.group(2)}:{m.group(3)}" if m else str(op.location)
    return f"{where}: '{op.name}' op {message}"


# --- the rules ------------------------------------------------------------------------------
def _unique_names(module: ir.Module) -> list[str]:
    seen: dict[str, int] = collections.Counter()
    problems = []
    for comp, op in all_instructions(module):
        name = name_of(op)
        if name is None:
            continue
        seen[name] += 1
        if seen[name] == 2:
            problems.append(_at(op, f"requires a unique instruction name (unique-names); got {name!r} "
                                    f"again in {comp!r}."))
    return problems


def _schedule(module: ir.Module) -> list[str]:
    sequences = read_schedule(module)
    if sequences is None:
        return []
    functions = {ir_access.symbol_name(f): f for f in ir_access.functions(module)}
    for comp, func in functions.items():
        op = next((o for o in region_instructions(func.regions[0]) if name_of(o) is None), None)
        if op is not None and comp in sequences:
            return [_at(op, f"requires a name to be in the stored schedule (schedule); got an unnamed "
                            f"instruction in {comp!r}: the schedule is stale (rerun hlo-trivial-scheduler "
                            "or hlo-memory-scheduler after the passes that add ops, or hlo-descheduler).")]
    try:
        check_schedule("the stored schedule (schedule)", "module", functions, sequences)
    except InvalidArgumentError as e:
        return [_at(module.operation, str(e))]
    return []


def _acyclic_calls(module: ir.Module) -> list[str]:
    functions = {ir_access.symbol_name(f): f for f in ir_access.functions(module)}
    calls = {name: callees(f.regions[0], functions) for name, f in functions.items()}
    done: set[str] = set()
    problems = []

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            cycle = " -> ".join(f"@{n}" for n in path[path.index(name):] + [name])
            problems.append(_at(functions[name], f"requires an acyclic call graph (acyclic-calls); got the "
                                                 f"cycle {cycle}."))
            return
        if name in done:
            return
        for callee in calls[name]:
            visit(callee, path + [name])
        done.add(name)

    for name in functions:
        visit(name, [])
    return problems


def _inside(value: ir.Value, op: ir.Operation) -> bool:
    """Whether ``value`` is defined inside ``op``'s regions."""
    if isinstance(value, ir.OpResult):
        where = value.owner.operation.parent
    else:
        where = ir.BlockArgument(value).owner.owner
    while where is not None:
        if where == op:
            return True
        where = where.parent
    return False


def _closed_computations(module: ir.Module) -> list[str]:
    problems = []
    for op in ops_where(module, lambda o: o.name in CLOSED_REGION_OPS):
        outside: list[ir.Operation] = []

        def visit(inner, op=op, outside=outside):
            if inner != op and any(not _inside(v, op) for v in inner.operands):
                outside.append(inner)
            return ir.WalkResult.ADVANCE

        op.walk(visit)
        if outside:
            problems.append(_at(op, f"requires its regions to read only their own arguments and values "
                                    f"(closed-computations); got {outside[0].name} reading a value "
                                    f"defined outside the region."))
    return problems


def _data_types(op: ir.Operation) -> list[str]:
    """The non-token types a send moves (its operands) or a receive produces (its results)."""
    values = op.operands if op.name == "stablehlo.send" else op.results
    return [str(v.type) for v in values if not ir_access.is_token(v.type)]


def _channels(module: ir.Module) -> list[str]:
    by_handle: dict[int, list[ir.Operation]] = collections.defaultdict(list)
    for op in ops_where(module, lambda o: "channel_handle" in o.attributes):
        handle = ir_access.channel_handle(op)
        if handle is not None and handle.handle > 0:
            by_handle[handle.handle].append(op)
    problems = []
    for channel, ops in sorted(by_handle.items()):
        kinds = sorted({op.name for op in ops})
        if len(kinds) > 1 and not set(kinds) <= _CHANNEL_IO:
            problems.append(_at(ops[-1], f"requires ops sharing a channel to be of one kind (channels); got "
                                         f"channel {channel} used by {', '.join(kinds)}."))
            continue
        io = [op for op in ops if op.name in _CHANNEL_IO]
        types = {tuple(_data_types(op)) for op in io}
        if len(types) > 1:
            problems.append(_at(io[-1], f"requires the sends and receives of a channel to move the same "
                                        f"types (channels); got channel {channel} moving "
                                        f"{' and '.join(str(list(t)) for t in sorted(types))}."))
        if len({ir_access.bool_attr(op, "is_host_transfer") for op in io}) > 1:
            problems.append(_at(io[-1], f"requires the sends and receives of a channel to be all host "
                                        f"transfers or none (channels); got both on channel {channel}."))
    return problems


def _replica_groups(module: ir.Module) -> list[str]:
    num_replicas, num_partitions = grid_of(module)
    if num_replicas is None:
        return []
    n, p = num_replicas, num_partitions or 1
    problems = []
    for op in ops_where(module, lambda o: o.name in _GROUPED or o.name == "stablehlo.collective_permute"):
        try:
            if op.name == "stablehlo.collective_permute":
                count = p if strategy_of(op) == CROSS_PARTITION else n
                source_target_pairs_rule(ir_access.source_target_pairs(op), count, op.name)
            else:
                process_groups(op, n, p, equal_sizes=op.name != "stablehlo.all_reduce")
        except InvalidArgumentError as e:
            message = str(e).removeprefix(f"{op.name} ").rstrip(".")
            problems.append(_at(op, f"{message} (replica-groups; mhlo.num_replicas = {n}, "
                                    f"mhlo.num_partitions = {p})."))
    return problems


# op -> (its dimension attribute, whether the result is the operand times the group size)
_SHARDED = {"stablehlo.all_gather": ("all_gather_dim", True),
            "stablehlo.reduce_scatter": ("scatter_dimension", False)}


def _collective_shapes(module: ir.Module) -> list[str]:
    num_replicas, num_partitions = grid_of(module)
    problems = []
    for op in ops_where(module, lambda o: o.name in _SHARDED):
        sizes = group_sizes(op, num_replicas, num_partitions)
        if sizes is None or len(sizes) != 1:
            continue  # the group size depends on a count the module does not give
        size = next(iter(sizes))
        attr, gathers = _SHARDED[op.name]
        dim = ir_access.int_attr(op, attr)
        for operand, result in zip(op.operands, op.results, strict=False):
            shapes = [ir.RankedTensorType(v.type).shape for v in (operand, result)]
            small, big = (shapes[0], shapes[1]) if gathers else (shapes[1], shapes[0])
            if min(small[dim], big[dim]) >= 0 and big[dim] != small[dim] * size:
                larger, smaller = ("result", "operand") if gathers else ("operand", "result")
                problems.append(_at(op, f"requires dimension {dim} of the {larger} to be {size} (the group "
                                        f"size) times that of the {smaller} (collective-shapes); got "
                                        f"{shapes[0]} -> {shapes[1]}."))
    return problems


RULES = (_unique_names, _schedule, _acyclic_calls, _closed_computations, _channels, _replica_groups,
         _collective_shapes)


def hlo_problems(module: ir.Module) -> list[str]:
    """Every broken invariant of ``module``, as ``file:line:col: 'op' op ...`` messages."""
    return [problem for rule in RULES for problem in rule(module)]


@register
class HloVerifier(Pass):
    """Check XLA's invariants beyond MLIR's verifier (names, schedule, calls, channels, collectives)."""

    name = "hlo-verifier"

    def run(self, module: ir.Module) -> bool:
        problems = hlo_problems(module)
        if problems:
            raise HloVerifierError(f"pass '{self.name}' found IR that breaks XLA's invariants:\n  "
                                   + "\n  ".join(problems), problems, self.name)
        return False
