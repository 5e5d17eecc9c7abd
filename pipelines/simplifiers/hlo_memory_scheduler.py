"""HLO memory scheduler (spec 004: HLO memory scheduler; XLA ``hlo_memory_scheduler.cc``).

Orders the ops of every block so that fewer bytes are live at once, moves them in the IR
to that order, and stores the order of each function's own ops as the module's schedule
(``hlo.schedule``, read back by ``HloModule.schedule()``; hlo_mlir/schedule.py).

The memory model (XLA's, simplified): every op result is a buffer of its type's size,
live from the op that defines it to the last op of its block that reads it (a read inside
a nested region counts at the op holding the region; a value the terminator returns lives
to the end). An op with regions (a loop, a conditional, a reducer) or a ``func.call``
adds the peak of its regions (of its callee) while it runs. Block arguments of a function
(its parameters) are live throughout and count; those of nested regions alias operands
and do not. The peak of a module is the largest peak of its functions.

Two list-scheduling heuristics run on each block, as in XLA's DefaultMemoryScheduler,
and the order with the lowest peak wins (the current order when nothing is lower, so a
block never gets worse):

- ``list``: XLA's ListMemoryScheduler. Among the ops whose operands are ready, take the
  one that frees the most bytes net of the bytes it defines (an operand is freed when this
  op is its last unscheduled reader); ties go to the op with more users, then the earlier::

      %a = big(%x)   %b = big(%x)   %s = reduce(%a)   %t = reduce(%b)
      -> %a, %s, %b, %t   (one big buffer live at a time instead of two)

- ``dfs``: XLA's DFSMemoryScheduler. A post-order walk from the returned values that visits
  the operands with more extra users first, then those with larger subtrees.

Order constraints: operands (also those read inside nested regions) come first, and ops
with side effects (``while_loop_unroller.has_side_effects``: collectives, infeed, send,
side-effecting custom calls, calls, ...) keep their relative order. Tokens are operands.
Both heuristics and the peak are linear in the block's ops and uses (a heap makes the list
scheduler n log n). Statistics: ``peak-bytes-before``, ``peak-bytes-after`` (the module's
peak, in bytes) and ``blocks-reordered``.

Passes that add or move ops afterwards leave the stored schedule stale
(``hlo-verifier`` says so); run this pass, or ``hlo-trivial-scheduler``, last.
"""

from __future__ import annotations

import dataclasses
import heapq
import math
from typing import Callable

from iree.compiler import ir

from hlo_mlir import ir_access
from hlo_mlir.call_graph import callees
from hlo_mlir.schedule import store_program_order
from pipelines.matchers import has_side_effects
from pipelines.pass_base import Pass
from pipelines.registry import register

__all__ = ["HloMemoryScheduler", "BlockGraph", "block_graph", "value_bytes", "memory_profile",
           "list_schedule", "dfs_schedule", "module_peak", "functions_callees_first", "callee_name",
           "PeakWalker"]

_CAP = 1 << 62  # the DFS heuristic's sums count shared subtrees once per path: keep them bounded


def value_bytes(t: ir.Type) -> int:
    """Bytes of a buffer of type ``t``: elements times element bytes (a pred or a sub-byte
    integer takes a byte, as in XLA), a tuple the sum of its elements, a token nothing. A
    dynamic dimension counts as 1."""
    if isinstance(t, ir.TupleType):
        return sum(value_bytes(t.get_type(i)) for i in range(t.num_types))
    if not isinstance(t, ir.RankedTensorType):
        return 0
    elements = math.prod(d if d >= 0 else 1 for d in t.shape)
    return elements * _element_bytes(t.element_type)


def _element_bytes(t: ir.Type) -> int:
    if isinstance(t, ir.ComplexType):
        return 2 * _element_bytes(t.element_type)
    width = getattr(t, "width", 32)
    return max(1, (width + 7) // 8)


def callee_name(op: ir.Operation) -> str | None:
    """The function a ``func.call`` calls, else None."""
    if op.name != "func.call":
        return None
    return ir.FlatSymbolRefAttr(op.attributes["callee"]).value


@dataclasses.dataclass
class BlockGraph:
    """The ops of one block (its terminator aside) as a dependence graph with buffer sizes.
    Ops are numbered by their position; the terminator is number ``len(ops)``."""

    ops: list[ir.Operation]
    sizes: list[int]  # value -> bytes
    producer: list[int]  # value -> the op defining it
    defined: list[list[int]]  # op -> its result values
    used: list[list[int]]  # op -> distinct block-local values it (or its regions) reads
    users: list[list[int]]  # value -> distinct ops reading it (the terminator too)
    deps: list[list[int]]  # op -> ops that must run before it (producers, previous side effect)
    nested: list[int]  # op -> peak bytes of its regions or callee while it runs
    base: int  # bytes live throughout (a function's parameters)
    returned: list[int]  # the ops whose results the terminator reads


def block_graph(block: ir.Block, nested_peak: Callable[[ir.Operation], int], count_args: bool) -> BlockGraph:
    """The graph of ``block``; ``nested_peak(op)`` gives the peak inside an op's regions or
    callee; ``count_args``: the block's arguments are live throughout (a function's)."""
    every = [op.operation for op in block.operations]
    ops, terminator = every[:-1], every[-1]
    value_of: dict[ir.Value, int] = {}
    sizes: list[int] = []
    producer: list[int] = []
    defined: list[list[int]] = []
    for i, op in enumerate(ops):
        ids = []
        for result in op.results:
            value_of[result] = len(sizes)
            ids.append(len(sizes))
            sizes.append(value_bytes(result.type))
            producer.append(i)
        defined.append(ids)
    users: list[list[int]] = [[] for _ in sizes]
    used: list[list[int]] = []
    deps: list[list[int]] = []
    nested: list[int] = []
    last_effect: int | None = None
    returned: list[int] = []
    for i, op in enumerate(every):
        reads = dict.fromkeys(v for v in (value_of.get(x) for x in _read_values(op)) if v is not None)
        for v in reads:
            users[v].append(i)
        if op is terminator:
            returned = list(dict.fromkeys(producer[v] for v in reads))
            break
        used.append(list(reads))
        before = dict.fromkeys(producer[v] for v in reads)
        if has_side_effects([op]):
            if last_effect is not None:
                before[last_effect] = None
            last_effect = i
        deps.append(list(before))
        nested.append(nested_peak(op) if op.regions or op.name == "func.call" else 0)
    base = sum(value_bytes(a.type) for a in block.arguments) if count_args else 0
    return BlockGraph(ops, sizes, producer, defined, used, users, deps, nested, base, returned)


def _read_values(op: ir.Operation) -> list[ir.Value]:
    """The operands of ``op`` and of every op nested in its regions."""
    if not op.regions:
        return list(op.operands)
    values: list[ir.Value] = []

    def visit(inner):
        values.extend(inner.operands)
        return ir.WalkResult.ADVANCE

    op.walk(visit)
    return values


def memory_profile(g: BlockGraph, order: list[int] | None = None) -> list[int]:
    """Bytes live while each op of ``order`` (default: the current order) runs, then at the
    terminator: the values defined and not yet dead, the op's results, its nested peak and
    the block's base."""
    n = len(g.ops)
    order = list(range(n)) if order is None else order
    position = [0] * n
    for k, i in enumerate(order):
        position[i] = k
    delta = [0] * (n + 2)
    for v, size in enumerate(g.sizes):
        if size:
            start = position[g.producer[v]]
            end = max((position[u] if u < n else n for u in g.users[v]), default=start)
            delta[start] += size
            delta[end + 1] -= size
    profile, live = [], g.base
    for k in range(n + 1):
        live += delta[k]
        profile.append(live + (g.nested[order[k]] if k < n else 0))
    return profile


def list_schedule(g: BlockGraph) -> list[int]:
    """XLA's ListMemoryScheduler over ``g`` (see the module docstring)."""
    n = len(g.ops)
    remaining = [len(u) for u in g.users]  # unscheduled readers per value
    last_reader = [0] * len(g.users)  # xor of the unscheduled readers: the last one when one is left
    for v, readers in enumerate(g.users):
        for u in readers:
            last_reader[v] ^= u
    waiting = [len(d) for d in g.deps]
    successors: list[list[int]] = [[] for _ in range(n)]
    for i, before in enumerate(g.deps):
        for p in before:
            successors[p].append(i)
    user_count = [sum(len(g.users[v]) for v in g.defined[i]) for i in range(n)]
    defined_bytes = [sum(g.sizes[v] for v in g.defined[i]) for i in range(n)]
    done = [False] * n
    key: list[tuple[int, int, int] | None] = [None] * n

    def priority(i: int) -> tuple[int, int, int]:
        freed = sum(g.sizes[v] for v in g.used[i] if remaining[v] == 1)
        return (defined_bytes[i] - freed, -user_count[i], i)

    heap: list[tuple[tuple[int, int, int], int]] = []

    def push(i: int) -> None:
        key[i] = k = priority(i)
        heapq.heappush(heap, (k, i))

    for i in range(n):
        if not waiting[i]:
            push(i)
    order = []
    while heap:
        k, i = heapq.heappop(heap)
        if done[i] or key[i] != k:
            continue  # a stale entry: the op was rescored since
        done[i] = True
        order.append(i)
        for v in g.used[i]:
            remaining[v] -= 1
            last_reader[v] ^= i
            j = last_reader[v]
            if remaining[v] == 1 and j < n and not done[j] and not waiting[j]:
                push(j)  # its operand v is freed by it now
        for j in successors[i]:
            waiting[j] -= 1
            if not waiting[j]:
                push(j)
    return order


def dfs_schedule(g: BlockGraph) -> list[int]:
    """XLA's DFSMemoryScheduler over ``g``: post-order from the returned values, operands with
    more extra users first, then those with larger subtrees; unreachable ops last."""
    n = len(g.ops)
    extra, total = [0] * n, [0] * n
    for i in range(n):  # the current order is topological
        extra[i] = min(_CAP, sum(max(0, len(g.users[v]) - 1) for v in g.defined[i])
                       + sum(extra[p] for p in g.deps[i]))
        total[i] = min(_CAP, sum(g.sizes[v] for v in g.defined[i]) + sum(total[p] for p in g.deps[i]))

    def ranked(ops: list[int]) -> list[int]:
        return sorted(ops, key=lambda p: (-extra[p], -total[p], p))

    seen = [False] * n
    order: list[int] = []

    def visit(root: int) -> None:
        if seen[root]:
            return
        seen[root] = True
        stack = [(root, iter(ranked(g.deps[root])))]
        while stack:
            op, pending = stack[-1]
            for p in pending:
                if not seen[p]:
                    seen[p] = True
                    stack.append((p, iter(ranked(g.deps[p]))))
                    break
            else:
                stack.pop()
                order.append(op)

    for root in ranked(g.returned):
        visit(root)
    for i in range(n):
        visit(i)
    return order


def best_order(g: BlockGraph) -> tuple[list[int], int, int]:
    """(order, peak of the current order, peak of the order): the lowest-peak order among the
    current one, the list scheduler's and the DFS scheduler's (the current on ties)."""
    current = list(range(len(g.ops)))
    before = max(memory_profile(g))
    best, peak = current, before
    for order in (list_schedule(g), dfs_schedule(g)):
        candidate = max(memory_profile(g, order))
        if candidate < peak:
            best, peak = order, candidate
    return best, before, peak


def functions_callees_first(module: ir.Module) -> list[ir.Operation]:
    """The module's functions, every function after the functions it calls (a call cycle,
    which the HLO verifier refuses, is cut where it closes)."""
    functions = {ir_access.symbol_name(f): f for f in ir_access.functions(module)}
    order: dict[str, None] = {}
    active: set[str] = set()

    def visit(name: str) -> None:
        if name in order or name in active:
            return
        active.add(name)
        for callee in callees(functions[name].regions[0], functions):
            visit(callee)
        active.discard(name)
        order[name] = None

    for name in functions:
        visit(name)
    return [functions[name] for name in order]


class PeakWalker:
    """Visits every block, inner blocks first, with the peaks of callees at hand; with
    ``reorder`` it also moves each block's ops to their best order."""

    def __init__(self, reorder: bool):
        self.reorder = reorder
        self.callee_peaks: dict[str, int] = {}
        self.reordered = 0

    def nested_peak(self, op: ir.Operation) -> int:
        peak = self.callee_peaks.get(callee_name(op) or "", 0)
        for region in op.regions:
            for block in region.blocks:
                peak = max(peak, self.block(block, count_args=False))
        return peak

    def block(self, block: ir.Block, count_args: bool) -> int:
        g = block_graph(block, self.nested_peak, count_args)
        if not self.reorder:
            return max(memory_profile(g))
        order, before, after = best_order(g)
        if after < before:
            terminator = block.operations[len(block.operations) - 1].operation
            for i in order:
                g.ops[i].move_before(terminator)
            self.reordered += 1
        return after

    def module(self, module: ir.Module) -> int:
        """The module's peak (the largest of its functions'), after reordering if asked."""
        peak = 0
        for func in functions_callees_first(module):
            block = func.regions[0].blocks[0]
            inner = self.block(block, count_args=False)
            self.callee_peaks[ir_access.symbol_name(func)] = inner
            peak = max(peak, inner + sum(value_bytes(a.type) for a in block.arguments))
        return peak


def module_peak(module: ir.Module) -> int:
    """The peak live bytes of ``module`` in its current op order (see the module docstring)."""
    return PeakWalker(reorder=False).module(module)


@register
class HloMemoryScheduler(Pass):
    """Reorder ops to lower peak live bytes (list and DFS heuristics) and store the schedule."""

    name = "hlo-memory-scheduler"

    def run(self, module: ir.Module) -> bool:
        before = module_peak(module)
        walker = PeakWalker(reorder=True)
        after = walker.module(module)
        self.record("peak-bytes-before", before)
        self.record("peak-bytes-after", after)
        self.record("blocks-reordered", walker.reordered)
        stored = store_program_order(module)
        return bool(walker.reordered) or stored
