"""HLO rematerialization (spec 004: HLO rematerialization; XLA ``hlo_rematerialization.cc``).

Recomputes cheap values close to their later uses instead of keeping them live, until the
peak live bytes of every function fit the ``memory-limit-bytes`` budget (the memory model
of ``hlo-memory-scheduler``: each op result a buffer, live from its op to its last reader;
parameters count)::

    %c = stablehlo.constant dense<...> : tensor<1024xf32>    // live across %big
    %u = stablehlo.add %x, %c
    %big = ...                                               // the peak
    %v = stablehlo.multiply %big, %c
  ->
    %c = stablehlo.constant dense<...>
    %u = stablehlo.add %x, %c
    %big = ...                                               // %c is dead here
    %c.remat = stablehlo.constant dense<...>
    %v = stablehlo.multiply %big, %c.remat

Walking each function body in its op order, at the first op where more bytes than the
budget are live, it picks among the values live across that op but not read by it one
that a cheap, side-effect-free op defines (element-wise ops, ``broadcast_in_dim``,
``iota``, constants) and whose recomputation frees the most bytes: the value's size, less
the bytes of its operands that must now stay live up to the copy (parameters and values
live anyway cost nothing). A copy is taken only when it frees bytes at that op and keeps
every other op at or under the budget and no higher than before; the copy goes right
before the first later reader, and the later readers read it. It repeats until the budget
holds or no copy helps (statistic ``ops-over-budget``: the ops left over the budget). A
value's original op is erased when no reader is left. Copies are exact: the numbers do not
change. The search is bounded: at most 16 candidates are weighed per op over budget and
at most 32 rounds of copies run per function.

Statistics: ``peak-bytes-before``, ``peak-bytes-after`` (the module's peak) and
``ops-rematerialized``. A stored schedule (``hlo.schedule``) is updated to the new order,
the copies named ``<name>.remat``. As in XLA, ``cse`` would undo the copies: run this pass
late. Each copy recomputes the function's memory profile (linear), so the cost grows
with the number of copies times the function's size.
"""

from __future__ import annotations

import dataclasses

from iree.compiler import ir

from dialect_ops.op_facts import ELEMENTWISE_OPS
from hlo_mlir import ir_access
from hlo_mlir.names import NAME_ATTR, NameUniquer, all_instructions, name_of
from hlo_mlir.schedule import read_schedule, store_program_order
from pipelines.matchers import has_side_effects
from pipelines.pass_base import Pass
from pipelines.registry import register
from pipelines.simplifiers.hlo_memory_scheduler import (
    BlockGraph,
    PeakWalker,
    block_graph,
    functions_callees_first,
    memory_profile,
    module_peak,
)

__all__ = ["HloRematerialization", "CHEAP_OPS"]

CHEAP_OPS = ELEMENTWISE_OPS | {"stablehlo.broadcast_in_dim", "stablehlo.iota", "stablehlo.constant"}


def _cheap(op: ir.Operation) -> bool:
    return (op.name in CHEAP_OPS and len(op.results) == 1 and not op.regions
            and not has_side_effects([op]))


@dataclasses.dataclass(frozen=True)
class _Copy:
    value: int  # the value recomputed
    over: int  # the op over budget it helps
    at: int  # the first reader after that op: the copy goes right before it
    saved: int  # bytes freed at the op over budget


def _ends(g: BlockGraph) -> list[int]:
    """The last op reading each value (the terminator is ``len(g.ops)``), else its producer."""
    return [max(users, default=g.producer[v]) for v, users in enumerate(g.users)]


class _RangeMax:
    """Maximum of ``values[lo..hi]`` in O(1) after an n log n table (a sparse table)."""

    def __init__(self, values: list[int]):
        self.levels = [values]
        width = 1
        while 2 * width <= len(values):
            prev = self.levels[-1]
            self.levels.append([max(prev[i], prev[i + width]) for i in range(len(prev) - width)])
            width *= 2

    def __call__(self, lo: int, hi: int) -> int:
        level = (hi - lo + 1).bit_length() - 1
        row = self.levels[level]
        return max(row[lo], row[hi - (1 << level) + 1])


class _Round:
    """Picks copies for one pass over a block's ops, in op order: one per op over budget
    that a copy helps, the next op considered at or after the previous copy (the ops from
    there on keep their bytes), no value copied or extended twice."""

    def __init__(self, g: BlockGraph, profile: list[int], budget: int):
        self.g, self.profile, self.budget = g, profile, budget
        self.ends = _ends(g)
        self.range_max = _RangeMax(profile)
        self.touched: set[int] = set()

    def copies(self) -> list[_Copy]:
        g, n = self.g, len(self.g.ops)
        arrive: list[list[int]] = [[] for _ in range(n + 1)]
        leave: list[list[int]] = [[] for _ in range(n + 1)]
        for v, size in enumerate(g.sizes):
            start = g.producer[v]
            if size and self.ends[v] > start + 1 and _cheap(g.ops[start]):
                arrive[start + 1].append(v)
                leave[self.ends[v]].append(v)
        live: dict[int, dict[int, None]] = {}  # size -> candidate values live across the op
        found: list[_Copy] = []
        resume = 0
        for k in range(n):
            for v in arrive[k]:
                live.setdefault(g.sizes[v], {})[v] = None
            for v in leave[k]:
                live[g.sizes[v]].pop(v, None)
            if k < resume or self.profile[k] <= self.budget:
                continue
            best = self.best(k, live)
            if best is not None:
                found.append(best)
                self.touched.update([best.value, *g.used[g.producer[best.value]]])
                resume = best.at
        return found

    def best(self, k: int, live: dict[int, dict[int, None]]) -> _Copy | None:
        """The candidate freeing the most bytes at op ``k`` (larger values first: a value
        frees at most its size)."""
        best: _Copy | None = None
        reads = set(self.g.used[k])
        tries = _TRIES_PER_OP
        for size in sorted(live, reverse=True):
            if (best is not None and size <= best.saved) or tries <= 0:
                break
            for v in reversed(live[size]):  # the latest first: their operands are likelier live
                if v in reads or v in self.touched:
                    continue
                tries -= 1
                if tries < 0:
                    break
                copy = self.evaluate(v, k)
                if copy is not None and (best is None or copy.saved > best.saved):
                    best = copy
                    if best.saved == size:
                        break
        return best

    def evaluate(self, v: int, k: int) -> _Copy | None:
        g, ends = self.g, self.ends
        start, size = g.producer[v], g.sizes[v]
        at = min(u for u in g.users[v] if u > k)
        early = max((u for u in g.users[v] if u < k), default=start)  # the original's new end
        operands = [o for o in g.used[start] if ends[o] < at]  # values kept live up to the copy
        if any(o in self.touched for o in operands) or sum(g.sizes[o] for o in operands) >= size:
            return None
        # Between an operand's old end and the original's new end, the operand is extra.
        if any(ends[o] < early and self.range_max(ends[o] + 1, early) + g.sizes[o] > self.budget
               for o in operands):
            return None
        return _Copy(v, k, at, size - sum(g.sizes[o] for o in operands if ends[o] < k))


def _top_ancestor(op: ir.Operation, block: ir.Block) -> ir.Operation:
    while op.block != block:
        op = op.parent
    return op


class _Rematerializer:
    def __init__(self, module: ir.Module, limit: int):
        self.module, self.limit = module, limit
        self.uniquer = NameUniquer(n for _, op in all_instructions(module) if (n := name_of(op)))
        self.copies = 0
        self.unmet = 0  # ops left over budget

    def function(self, block: ir.Block, walker: PeakWalker, budget: int) -> None:
        """Copies values in ``block``, round after round, until its peak fits ``budget`` or a
        round finds no copy that helps."""
        for _ in range(_MAX_ROUNDS):
            g = block_graph(block, walker.nested_peak, count_args=True)
            profile = memory_profile(g)
            if max(profile) <= budget:
                return
            copies = _Round(g, profile, budget).copies()
            if not copies:
                break
            # The readers to redirect, found before any change: an op's hash changes with its
            # operands in these bindings, so a map keyed by op goes stale as copies apply.
            position = {op: i for i, op in enumerate(g.ops)}
            planned = [(copy, _later_uses(g, copy, position, block)) for copy in copies]
            for copy, later in planned:
                self.apply(g, copy, later, block)
        g = block_graph(block, walker.nested_peak, count_args=True)
        self.unmet += sum(live > budget for live in memory_profile(g))

    def apply(self, g: BlockGraph, copy: _Copy, later: list[tuple[ir.Operation, int]],
              block: ir.Block) -> None:
        """Inserts the copy before its first later reader and redirects the ``later`` uses."""
        original = g.ops[g.producer[copy.value]]
        before = g.ops[copy.at] if copy.at < len(g.ops) else block.operations[len(block.operations) - 1]
        clone = original.clone(ir.InsertionPoint(before))
        name = name_of(original)
        if name is not None:
            clone.attributes[NAME_ATTR] = ir.StringAttr.get(self.uniquer.get_unique_name(f"{name}.remat"))
        for owner, number in later:
            owner.operands[number] = clone.results[0]
        if not list(original.results[0].uses):
            original.erase()
        self.copies += 1


def _later_uses(g: BlockGraph, copy: _Copy, position: dict,
                block: ir.Block) -> list[tuple[ir.Operation, int]]:
    """(op, operand number) of each read of the copied value after the op over budget."""
    value = g.ops[g.producer[copy.value]].results[0]
    return [(use.owner.operation, use.operand_number) for use in value.uses
            if position.get(_top_ancestor(use.owner.operation, block), len(g.ops)) > copy.over]


_MAX_ROUNDS = 32
_TRIES_PER_OP = 16  # candidates weighed per op over budget (XLA bounds its search as well)


@register
@dataclasses.dataclass
class HloRematerialization(Pass):
    """Recompute cheap values (element-wise, broadcast, iota, constant) near later uses to fit a budget."""

    name = "hlo-rematerialization"
    memory_limit_bytes: int = dataclasses.field(
        default=0, metadata={"help": "the peak live bytes to reach (0: no budget, nothing changes)"})

    def run(self, module: ir.Module) -> bool:
        before = module_peak(module)
        self.record("peak-bytes-before", before)
        remat = _Rematerializer(module, self.memory_limit_bytes)
        if self.memory_limit_bytes > 0 and before > self.memory_limit_bytes:
            walker = PeakWalker(reorder=False)
            for func in functions_callees_first(module):
                block = func.regions[0].blocks[0]
                remat.function(block, walker, self.memory_limit_bytes)
                walker.callee_peaks[ir_access.symbol_name(func)] = walker.block(block, count_args=False)
        self.record("peak-bytes-after", module_peak(module))
        self.record("ops-rematerialized", remat.copies)
        if remat.unmet:
            self.record("ops-over-budget", remat.unmet)
        if remat.copies and read_schedule(module) is not None:
            store_program_order(module)
        return bool(remat.copies)
