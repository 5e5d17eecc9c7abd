"""Module-wide dead-code elimination (spec 004: HLO module dce; XLA ``hlo_module_dce.cc``).

XLA's HloModuleDCE removes what is dead across computation boundaries: while-loop tuple
elements no one reads, then (through HloDCE) dead instructions and computations. Here,
until nothing changes:

- dead loop-carried values of ``stablehlo.while`` (a result no one reads, which the
  condition does not read and the body needs only for itself) leave the loop, as in
  ``while-loop-simplifier`` (the same rewrite, :func:`remove_dead_carried_values`);
- results of a private function that no ``func.call`` of it reads leave the function's
  type, its ``return`` and every call; parameters its body does not read leave the
  function and every call::

    func.func private @f(%a, %b) -> (T, T) { ...; return %u, %v }   // %b unread
    %r:2 = call @f(%x, %y)                                           // %r#1 unread
      ->
    func.func private @f(%a) -> T { ...; return %u }
    %r = call @f(%x)

- a ``func.call`` none of whose results is read, of a function that (with everything it
  calls) has no side effects, is erased (XLA's HloDCE removes such kCall instructions);
- then ``dce``: dead side-effect-free ops and private functions nothing refers to.

Public functions (the module's interface) keep their signature, and so does a private
function that an op other than ``func.call`` refers to (its type is part of that use).
Statistics: ``dead-carried-values``, ``unused-results``, ``unused-parameters``,
``dead-calls``, ``functions-removed``, ``ops-removed``.
"""

from __future__ import annotations

from iree.compiler import ir

from hlo_mlir import _emit, ir_access
from hlo_mlir.call_graph import referenced_symbols
from pipelines.matchers import has_side_effects, has_uses, ops_where
from pipelines.pass_base import Pass, count_ops
from pipelines.registry import register
from pipelines.simplifiers.dce import DCE
from pipelines.simplifiers.flatten_call_graph import call_sites, callee_of
from pipelines.simplifiers.while_loop_simplifier import remove_dead_carried_values
from pipelines.simplifiers.while_loop_unroller import while_ops

__all__ = ["HloModuleDCE"]

# Sweeps until nothing changes: a parameter dropped from one function can leave its
# caller's parameter unread, for the next sweep.
_MAX_SWEEPS = 16
# Ops whose own execution has no side effect (only what their regions hold can have one).
_STRUCTURAL = frozenset(f"stablehlo.{name}" for name in (
    "while", "if", "case", "map", "reduce", "reduce_window", "sort", "scatter", "select_and_scatter"))


@register
class HloModuleDCE(Pass):
    """Remove dead loop-carried values, unused results and parameters of private functions, and dead code."""

    name = "hlo-module-dce"

    def run(self, module: ir.Module) -> bool:
        sweeps = 0
        while sweeps < _MAX_SWEEPS and self._sweep(module):
            sweeps += 1
        return sweeps > 0

    def _sweep(self, module: ir.Module) -> bool:
        changed = False
        with module.context:
            for loop in while_ops(module):
                removed = remove_dead_carried_values(loop)
                if removed:
                    self.record("dead-carried-values", removed)
                    changed = True
            changed |= self._trim_functions(module)
            changed |= self._erase_dead_calls(module)
        functions = len(ir_access.functions(module))
        before = count_ops(module)
        if DCE().run(module):
            changed = True
            gone = functions - len(ir_access.functions(module))
            if gone:
                self.record("functions-removed", gone)
            self.record("ops-removed", before - count_ops(module))
        return changed

    def _trim_functions(self, module: ir.Module) -> bool:
        """Drops the unread results and parameters of every private function that only
        ``func.call`` ops refer to; returns whether any changed."""
        sites = call_sites(module)
        other = _referenced_by_other_ops(module)
        changed = False
        for func in ir_access.functions(module):
            name = ir_access.symbol_name(func)
            if ir_access.is_public(func) or name in other or not len(func.regions[0].blocks):
                continue
            calls = sites.get(name, [])
            if not calls:
                continue  # dce removes it
            block = func.regions[0].blocks[0]
            results = [i for i in range(len(ir_access.function_type(func).results))
                       if any(has_uses(call.results[i]) for call in calls)]
            params = [i for i, arg in enumerate(block.arguments) if has_uses(arg)]
            dropped_results = len(ir_access.function_type(func).results) - len(results)
            dropped_params = len(block.arguments) - len(params)
            if not dropped_results and not dropped_params:
                continue
            _keep_signature(func, params, results)
            for call in calls:
                _rebuild_call(call, name, params, results)
            if dropped_results:
                self.record("unused-results", dropped_results)
            if dropped_params:
                self.record("unused-parameters", dropped_params)
            changed = True
        return changed

    def _erase_dead_calls(self, module: ir.Module) -> bool:
        """Erases the ``func.call`` ops no one reads whose callee has no side effects."""
        functions = {ir_access.symbol_name(f): f for f in ir_access.functions(module)}
        free = _effect_free(functions)
        dead = [call for calls in call_sites(module).values() for call in calls
                if callee_of(call) in free and not any(has_uses(r) for r in call.results)]
        for call in dead:
            call.erase()
        if dead:
            self.record("dead-calls", len(dead))
        return bool(dead)


def _referenced_by_other_ops(module: ir.Module) -> set[str]:
    """Symbols that an op other than ``func.call`` refers to."""
    found: set[str] = set()
    for op in ops_where(module, lambda op: op.name not in ("func.call", "func.func", "builtin.module")):
        found.update(referenced_symbols(op))
    return found


def _keep_signature(func: ir.Operation, params: list[int], results: list[int]) -> None:
    """Narrows function ``func`` to its parameters ``params`` and results ``results``: its
    type, its argument/result attributes, its entry block and its ``return``."""
    ftype = ir_access.function_type(func)
    block = func.regions[0].blocks[0]
    for ret in ops_where(func, lambda op: op.name == "func.return"):
        with ir.InsertionPoint(ret), ret.location:
            _emit.func_return([ret.operands[i] for i in results])
        ret.erase()
    for i in reversed(range(len(block.arguments))):
        if i not in params:
            block.erase_argument(i)
    inputs, outputs = list(ftype.inputs), list(ftype.results)
    func.attributes["function_type"] = ir.TypeAttr.get(
        ir.FunctionType.get([inputs[i] for i in params], [outputs[i] for i in results]))
    for attr, keep in (("arg_attrs", params), ("res_attrs", results)):
        if attr in func.attributes:
            old = ir.ArrayAttr(func.attributes[attr])
            func.attributes[attr] = ir.ArrayAttr.get([old[i] for i in keep])


def _rebuild_call(call, name: str, params: list[int], results: list[int]) -> None:
    """Replaces ``func.call`` op ``call`` by one passing only operands ``params`` and
    giving only results ``results`` (the others are unread)."""
    with ir.InsertionPoint(call), call.location:
        values = _emit.call(name, [call.operands[i] for i in params], [call.results[i].type for i in results])
    for j, i in enumerate(results):
        call.results[i].replace_all_uses_with(values[j])
    call.erase()


def _effect_free(functions: dict[str, ir.Operation]) -> set[str]:
    """Names of the functions with a body that, with everything they call, have no side effects."""
    calls: dict[str, set[str]] = {}
    free: set[str] = set()
    for name, func in functions.items():
        if not len(func.regions[0].blocks):
            continue  # a declaration: its effects are unknown
        if ops_where(func, lambda op: op.name not in _STRUCTURAL
                     and op.name not in ("func.call", "func.func") and has_side_effects([op])):
            continue
        calls[name] = set(call_sites(func))
        free.add(name)
    changed = True
    while changed:  # a function calling one with effects has effects
        changed = False
        for name in list(free):
            if not calls[name] <= free:
                free.discard(name)
                changed = True
    return free
