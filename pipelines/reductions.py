"""What the reduce passes share: reading a ``stablehlo.reduce``'s reducer and deciding
whether a rewrite that changes how its elements are combined keeps the numbers.

A reduce's reducer is *simple* when its body is one element-wise op of its two block
arguments (``add``, ``maximum``, ...) returned as is. Two properties of a simple reducer
decide what a pass may do:

- :func:`reassociation_exact`: combining the same elements in another order or grouping
  gives the same bits. True for integer and PRED ``add``/``multiply``/``and``/``or``/
  ``xor`` (modular arithmetic) and for ``maximum``/``minimum`` of every type (IREE's
  ``arith.maximumf``/``minimumf`` order ``-0.0 < +0.0`` and propagate NaN: associative and
  commutative bit for bit). A float or complex ``add``/``multiply`` rounds differently
  when regrouped: exact only when the caller allows reassociation;
- :func:`init_repeats_safely`: applying the init value once per partial result (a reduce
  split in two) gives the same answer.
"""

from __future__ import annotations

import numpy as np

from dialect_ops import op_facts
from hlo_mlir.ir_access import int_array
from pipelines.matchers import element_dtype, same_bits, splat_of, static_dims, xla_arrays

__all__ = ["rewritable_reduce", "reduced_dimensions", "simple_reducer", "reassociation_exact",
           "init_repeats_safely", "init_is_identity"]

# Reducers whose combination order never changes the answer, per element-type class.
_EXACT_FOR_ALL = frozenset({"stablehlo.maximum", "stablehlo.minimum"})
_EXACT_FOR_INTEGERS = frozenset({"stablehlo.add", "stablehlo.multiply", "stablehlo.and",
                                 "stablehlo.or", "stablehlo.xor"})
# Float/complex reducers that are exact only up to rounding (allowed by a reassociate option).
_ROUNDING = frozenset({"stablehlo.add", "stablehlo.multiply"})


def rewritable_reduce(op) -> bool:
    """Whether ``op`` is a ``stablehlo.reduce`` the reduce passes can rebuild: arrays of XLA
    element types and static shapes, each input of its init value's element type (our
    shape rule's; StableHLO's promotable reduces are left alone)."""
    if op.operation.name != "stablehlo.reduce":
        return False
    values = [*op.operands, *op.results]
    if not xla_arrays(values) or any(static_dims(v) is None for v in values):
        return False
    n = len(op.results)
    inputs, inits = list(op.operands)[:n], list(op.operands)[n:]
    return all(element_dtype(x) == element_dtype(i) for x, i in zip(inputs, inits, strict=True))


def reduced_dimensions(op) -> list[int]:
    """Reduce ``op``'s reduced dimensions, ascending."""
    return sorted(int_array(op, "dimensions"))


def simple_reducer(op) -> str | None:
    """The name of the one element-wise op that reduce ``op``'s single-operand reducer
    applies to its two arguments (``"stablehlo.add"``), or None for any other reducer."""
    if len(op.operands) != 2:
        return None
    block = op.regions[0].blocks[0]
    ops = list(block.operations)
    if len(ops) != 2 or len(list(ops[-1].operands)) != 1 or ops[-1].operands[0] != ops[0].results[0]:
        return None
    combine = ops[0]
    operands = list(combine.operands)
    if len(operands) != 2 or set(operands) != set(block.arguments):
        return None
    name = combine.operation.name
    return name if op_facts.facts_of(name) is not None else None


def reassociation_exact(op, allow_rounding: bool = False) -> bool:
    """Whether reduce ``op`` gives the same bits with its elements combined in any order
    and grouping: a simple reducer of the classes in the module docstring; float and
    complex add/multiply only with ``allow_rounding``."""
    name, dtype = simple_reducer(op), element_dtype(op.operands[0])
    if name is None or dtype is None:
        return False
    if name in _EXACT_FOR_ALL:
        return True
    if op_facts.type_class(dtype) in (op_facts.PRED, op_facts.INT):
        return name in _EXACT_FOR_INTEGERS
    return allow_rounding and name in _ROUNDING


def init_is_identity(op) -> bool:
    """Whether reduce ``op`` has a simple reducer and its init value is that op's identity
    (``-0.0`` for a float add): combining with it changes no element."""
    name, init, dtype = simple_reducer(op), splat_of(op.operands[1]), element_dtype(op.operands[1])
    if name is None or init is None or dtype is None:
        return False
    identity = op_facts.identity_of(name, dtype)
    return identity is not None and same_bits(init, identity)


def init_repeats_safely(op) -> bool:
    """Whether applying reduce ``op``'s init value once per partial result gives the same
    answer: the reducer is simple and associative, and the init is its identity, +0.0 for
    a float add (``(x + 0.0) + 0.0 == x + 0.0``), or anything for an idempotent op."""
    name, init, dtype = simple_reducer(op), splat_of(op.operands[1]), element_dtype(op.operands[1])
    if name is None or init is None or dtype is None:
        return False
    facts = op_facts.FACTS[name]  # simple_reducer names ops with a facts row
    if not facts.associative:
        return False
    if facts.idempotent or init_is_identity(op):
        return True
    return (name == "stablehlo.add" and op_facts.type_class(dtype) == op_facts.FLOAT
            and same_bits(init, np.zeros((), dtype)))

