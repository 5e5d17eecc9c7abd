"""Call graph flattening (spec 004: Flatten call graph; XLA ``flatten_call_graph.cc``).

XLA's FlattenCallGraph gives every call site of a computation in a sequential context
(kCall, kWhile, kConditional) a computation of its own, so that the call graph is a tree.
StableHLO's loops and conditionals hold their bodies as regions, which are already one
per op; what is left to flatten are ``func.call`` sites. Every private function called
from more than one ``func.call`` keeps its first call site (in module order, callers
before callees) and gets one copy per other site, named ``<name>_N``::

    func.func private @f(...)            func.func private @f(...)
    %a = call @f(%x)                     %a = call @f(%x)
    %b = call @f(%y)          ->         %b = call @f_1(%y)
                                         func.func private @f_1(...)   // a copy of @f

Callers are flattened before their callees, so the calls inside a copy are call sites of
their own and the callees they reach are copied in turn. Public functions are never
copied (they are the module's interface), nor is anything in a module whose calls are
recursive (XLA rejects recursion; a copy per site would never end). References to a
function by other ops than ``func.call`` keep the original.

Statistic: ``functions-cloned``. Run ``hlo-subcomputation-unification`` to undo it.
"""

from __future__ import annotations

from iree.compiler import ir

from hlo_mlir import ir_access
from hlo_mlir.call_graph import fresh_symbol
from pipelines.matchers import ops_where
from pipelines.pass_base import Pass
from pipelines.registry import register

__all__ = ["FlattenCallGraph", "call_sites", "callee_of", "callers_first"]


def callee_of(call) -> str:
    """The name of the function ``func.call`` op ``call`` calls."""
    return ir.FlatSymbolRefAttr(call.attributes["callee"]).value


def call_sites(root) -> dict[str, list]:
    """``func.call`` ops under ``root`` (a module or an op) by the function they call, each
    list in module order."""
    sites: dict[str, list] = {}
    for call in ops_where(root, lambda op: op.name == "func.call"):
        sites.setdefault(callee_of(call), []).append(call)
    for calls in sites.values():
        calls.sort(key=_position(root))
    return sites


def _position(root):
    """A sort key putting ops in module (pre-)order."""
    order: dict = {}

    def visit(op):
        order[op] = len(order)
        return ir.WalkResult.ADVANCE

    root.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    return lambda op: order[op]


def callers_first(functions: dict[str, ir.Operation]) -> list[str] | None:
    """The names of ``functions``, each before every function it calls through ``func.call``;
    None when the calls are recursive."""
    calls = {name: list(call_sites(func)) for name, func in functions.items()}
    done: dict[str, None] = {}
    active: set[str] = set()

    def visit(name: str) -> bool:
        if name in done:
            return True
        if name in active:
            return False
        active.add(name)
        if not all(visit(c) for c in calls[name] if c in functions):
            return False
        active.discard(name)
        done[name] = None
        return True

    if not all(visit(name) for name in functions):
        return None
    return list(reversed(done))


@register
class FlattenCallGraph(Pass):
    """Give every private function one copy per func.call site, so the call graph is a tree."""

    name = "flatten-call-graph"
    acts_on = frozenset({"func.call"})

    def run(self, module: ir.Module) -> bool:
        functions = {ir_access.symbol_name(f): f for f in ir_access.functions(module)}
        order = callers_first(functions)
        if order is None:
            self.record("recursive-call-graph")
            return False
        sites = call_sites(module)
        taken = set(functions)
        cloned = 0
        with module.context:
            for name in order:
                func = functions[name]
                if ir_access.is_public(func):
                    continue
                for call in sites.get(name, [])[1:]:
                    copy = func.clone(ip=ir.InsertionPoint(module.body))
                    new = fresh_symbol(name, taken)
                    taken.add(new)
                    ir.SymbolTable.set_symbol_name(copy, new)
                    call.attributes["callee"] = ir.FlatSymbolRefAttr.get(new)
                    for callee, calls in call_sites(copy).items():
                        sites.setdefault(callee, []).extend(calls)
                    cloned += 1
        if cloned:
            self.record("functions-cloned", cloned)
        return bool(cloned)
