"""Tuple simplification (spec 004: Tuple simplifier; XLA ``tuple_simplifier.cc``).

Two rules, applied until neither matches:

- ``get_tuple_element(tuple(x0, ..., xn), i) -> xi`` (algsimp's ``tuple-element-of-tuple``;
  a chain of ``get_tuple_element`` over nested tuples unwinds one level per step);
- ``tuple(get_tuple_element(t, 0), ..., get_tuple_element(t, n-1)) -> t`` when ``t`` has
  the tuple's type (XLA's RemoveWholeTuple)::

    %a = stablehlo.get_tuple_element %t[0] : (tuple<A, B>) -> A
    %b = stablehlo.get_tuple_element %t[1] : (tuple<A, B>) -> B
    %u = stablehlo.tuple %a, %b : tuple<A, B>      // -> %t

XLA's ``exclude_entry_computation`` option keeps the entry's tuples for its ABI; our
entry's tuple results are passed as they are, so the entry is simplified too. The greedy
driver erases the tuples and elements left unused.
"""

from __future__ import annotations

from hlo_mlir.ir_access import int_attr
from pipelines.matchers import producer
from pipelines.pass_base import PatternPass, pattern
from pipelines.registry import register
from pipelines.simplifiers.algsimp import tuple_element_of_tuple

__all__ = ["TupleSimplifier", "whole_tuple"]


@pattern("stablehlo.tuple")
def whole_tuple(op):
    """tuple(get_tuple_element(t, 0), ..., get_tuple_element(t, n-1)) -> t (t of the tuple's type)."""
    source = None
    for i, element in enumerate(op.operands):
        gte = producer(element, "stablehlo.get_tuple_element")
        if gte is None or int_attr(gte, "index") != i:
            return None
        if source is None:
            source = gte.operands[0]
        elif gte.operands[0] != source:
            return None
    if source is None or source.type != op.results[0].type:
        return None
    return [source]


@register
class TupleSimplifier(PatternPass):
    """Fold get_tuple_element of tuple, and tuples of a tuple's elements in order into it."""

    name = "tuple-simplifier"
    patterns = (tuple_element_of_tuple, whole_tuple)
