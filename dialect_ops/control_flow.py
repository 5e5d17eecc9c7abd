"""Control flow: Call, While, Conditional and Map (spec: Call, While, Conditional, Map).

The callee of ``Call`` is imported into the caller's module as a private ``func.func``
(once per computation and builder; its own callees come along) and invoked with
``func.call``. The computations of ``While``, ``Conditional`` and ``Map`` are built with
their own builders, as in XLA, and inlined into the regions of ``stablehlo.while``,
``stablehlo.if`` / ``stablehlo.case`` and ``stablehlo.map``.

StableHLO's ``while``, ``if`` and ``case`` carry arrays and tokens, never tuples (their
verifier rejects a tuple operand or result), while an XLA loop state or branch value is
often a tuple. So a tuple is carried as its leaves
(depth first): the region rebuilds the computation's parameter from them, the inlined
computation's ``get_tuple_element`` of that parameter are folded to the leaves, its
tuple result is returned leaf by leaf, and the op's results are packed into a tuple
again. For example ``While(cond, body, Tuple(b, [i, acc]))`` emits::

    %r:2 = stablehlo.while(%a = %i, %b = %acc) : tensor<i32>, tensor<3xf32>
      cond { ...uses %a... stablehlo.return %p : tensor<i1> }
      do { ...uses %a, %b... stablehlo.return %a1, %b1 : tensor<i32>, tensor<3xf32> }
    %t = stablehlo.tuple %r#0, %r#1

A region is filled by a ``Filler``: ``fill(block)`` inlines one computation into
``block`` with its parameters bound to the block's leading arguments and ends it with
``stablehlo.return`` of the computation's (XLA-shaped) result; the emit functions
reshape the block to what the StableHLO op needs.

The pinned IREE compiles all four ops as emitted, and its ``stablehlo.case`` runs the last
branch for an index < 0 or >= N, as XLA does (tests/e2e/test_control_flow.py checks both
against XLA CPU), so no expander is needed.
"""

from __future__ import annotations

from typing import Callable, Sequence

from iree.compiler import ir

from dialect_ops._args import bind_form, int_list
from dialect_ops.shape_ops import broadcast_in_dim
from dialect_ops.tuple_ops import get_tuple_element, tuple_
from hlo_mlir import _emit
from hlo_mlir.builder import XlaBuilder, XlaComputation, XlaOp, builder_of
from hlo_mlir.errors import DTypeError, InvalidArgumentError, ShapeError
from hlo_mlir.ir_access import int_attr
from hlo_mlir.shape import ProgramShape, Shape
from hlo_mlir.types import PrimitiveType

__all__ = ["Call", "call_rule", "call",
           "While", "while_rule", "while_",
           "Conditional", "conditional_rule", "conditional",
           "Map", "map_rule", "map_"]

Filler = Callable[[ir.Block], None]
_PRED = Shape.scalar_shape(PrimitiveType.PRED)
_S32 = Shape.scalar_shape(PrimitiveType.S32)


def _check_builder(op_name: str, builder: XlaBuilder, operands: Sequence[XlaOp]) -> None:
    if not isinstance(builder, XlaBuilder):
        raise InvalidArgumentError(f"{op_name} requires an XlaBuilder; got {type(builder).__name__}.")
    if operands and builder_of(op_name, *operands) is not builder:
        raise InvalidArgumentError(f"{op_name} requires operands of the builder it is given "
                                   f"({builder.name!r}); got operands of {operands[0].builder.name!r}.")


def _check_computations(op_name: str, what: str, computations: Sequence) -> None:
    for c in computations:
        if not isinstance(c, XlaComputation):
            raise InvalidArgumentError(f"{op_name} requires an XlaComputation{' ' + what if what else ''}; "
                                       f"got {type(c).__name__}.")


def _inliner(b: XlaBuilder, computation: XlaComputation) -> Filler:
    return lambda block: b.inline_computation(computation, block)


# --- Call ----------------------------------------------------------------------------------------
def Call(builder: XlaBuilder, computation: XlaComputation, operands: Sequence[XlaOp] = ()) -> XlaOp:
    """Invokes ``computation`` with ``operands``, whose arity and shapes must match its
    parameters; there may be none (spec: Call)."""
    operands = list(operands)
    _check_builder("Call", builder, operands)

    def emit():
        _check_computations("Call", "", [computation])
        values = [x.value for x in operands]
        program_shape = computation.program_shape()
        call_rule(_emit.shapes_of(values), program_shape, computation.name)
        return call(builder.import_computation(computation), values, program_shape)

    return builder.emit("Call", emit)


def call_rule(operands: Sequence[Shape], program_shape: ProgramShape, callee: str = "computation") -> Shape:
    """The result shape of calling a computation of ``program_shape`` with ``operands``."""
    params = program_shape.parameters
    if len(operands) != len(params):
        raise InvalidArgumentError(
            f"Call requires {len(params)} operand(s) for computation {callee!r} {program_shape}; "
            f"got {len(operands)}: {', '.join(str(s) for s in operands) or 'none'}.")
    for i, (operand, param) in enumerate(zip(operands, params, strict=True)):
        if not operand.compatible(param):
            raise ShapeError(
                f"Call requires operand {i} of shape {param} for computation {callee!r} {program_shape}; "
                f"got {operand}.")
    return program_shape.result


def call(callee: str, operands: Sequence[ir.Value], program_shape: ProgramShape) -> ir.Value:
    """Emits ``func.call @callee`` returning the program shape's result."""
    return _emit.call(callee, operands, [_emit.type_of(program_shape.result)])[0]


# --- tuples carried as leaves ----------------------------------------------------------------------
def _is_tuple_op(value: ir.Value) -> bool:
    owner = value.owner
    return isinstance(owner, (ir.Operation, ir.OpView)) and owner.operation.name == "stablehlo.tuple"


def _leaves(value: ir.Value) -> list[ir.Value]:
    """The arrays and tokens of ``value`` depth first: a tuple op's operands are taken as
    they are, other tuples are read with ``get_tuple_element`` at the insertion point."""
    shape = _emit.shape_of(value)
    if not shape.is_tuple:
        return [value]
    if _is_tuple_op(value):
        elements = list(value.owner.operands)
    else:
        elements = [get_tuple_element(value, i) for i in range(len(shape.tuple_shapes))]
    return [leaf for e in elements for leaf in _leaves(e)]


def _pack(leaves, shape: Shape, created: list[ir.Value] | None = None) -> ir.Value:
    """The value of ``shape`` made of the next leaves of the iterator ``leaves``; the tuples it
    builds are appended to ``created`` (inner ones first)."""
    if not shape.is_tuple:
        return next(leaves)
    value = tuple_([_pack(leaves, s, created) for s in shape.tuple_shapes])
    if created is not None:
        created.append(value)
    return value


def _erase_dead_tuples(values: Sequence[ir.Value]) -> None:
    """Erases the unused tuple ops among ``values`` and the tuples they are made of."""
    candidates: list[ir.Value] = []

    def collect(value: ir.Value) -> None:
        if _is_tuple_op(value) and not any(value == c for c in candidates):
            candidates.append(value)
            for element in value.owner.operands:
                collect(element)

    for value in values:
        collect(value)
    alive = [True] * len(candidates)
    while dead := [i for i, v in enumerate(candidates) if alive[i] and not list(v.uses)]:
        for i in dead:
            candidates[i].owner.erase()
            alive[i] = False


def _finish_region(block: ir.Block, leaves: Sequence[ir.Value], parameter: Shape) -> None:
    """Makes a filled ``block`` carry leaves: its argument 0 (the computation's parameter, of
    shape ``parameter``) is rebuilt from ``leaves`` and erased, and a tuple it returns is
    returned leaf by leaf."""
    packed: list[ir.Value] = []
    with ir.InsertionPoint.at_block_begin(block):
        value = _pack(iter(leaves), parameter, packed)
    block.arguments[0].replace_all_uses_with(value)
    block.erase_argument(0)
    # get_tuple_element(tuple(x_0, ..., x_n), i) -> x_i, outer tuples first so that reads of an
    # inner tuple through an outer one fold too.
    for t in reversed(packed):
        elements = list(t.owner.operands)
        for use in list(t.uses):
            user = use.owner
            if user.operation.name == "stablehlo.get_tuple_element":
                user.results[0].replace_all_uses_with(elements[int_attr(user, "index")])
                user.operation.erase()
    ret = list(block.operations)[-1]
    (root,) = ret.operands
    if isinstance(root.type, ir.TupleType):
        with ir.InsertionPoint(ret), ret.location:
            _emit.region_return(_leaves(root))
        ret.erase()
    _erase_dead_tuples([root] + packed)


# --- While ---------------------------------------------------------------------------------------
def While(condition: XlaComputation, body: XlaComputation, init: XlaOp) -> XlaOp:
    """Runs ``body`` on the loop state, starting from ``init``, while ``condition`` of the state
    holds; returns the last state (spec: While). ``condition``: T -> pred[], ``body``: T -> T,
    T the shape of ``init`` (often a tuple); the condition is checked before each iteration,
    so a loop may run zero times."""
    b = builder_of("While", init)

    def emit():
        _check_computations("While", "condition and body", [condition, body])
        return while_(init.value, _inliner(b, condition), _inliner(b, body),
                      condition.program_shape(), body.program_shape())

    return b.emit("While", emit)


def while_rule(condition: ProgramShape, body: ProgramShape, init: Shape) -> Shape:
    """The result shape of While: ``init``'s, which must be the condition's parameter and the
    body's parameter and result (XLA's ShapeInference::InferWhileShape)."""
    for what, computation in (("condition", condition), ("body", body)):
        if len(computation.parameters) != 1:
            raise InvalidArgumentError(
                f"While requires a {what} computation of 1 parameter; got {computation}.")
    if not condition.result.compatible(_PRED):
        raise ShapeError(f"While requires a condition computation returning pred[]; got {condition}.")
    for what, shape in (("a condition computation taking", condition.parameters[0]),
                        ("a body computation taking", body.parameters[0]),
                        ("a body computation returning", body.result)):
        if not shape.compatible(init):
            raise ShapeError(f"While requires {what} init's shape {init}; got condition {condition}, "
                             f"body {body}.")
    return init


def while_(init: ir.Value, condition: Filler, body: Filler, condition_shape: ProgramShape,
           body_shape: ProgramShape) -> ir.Value:
    """Emits ``stablehlo.while`` over the leaves of ``init``; ``condition`` and ``body`` fill its
    regions (see ``Filler``). Returns the final state, a tuple again if ``init`` is one."""
    shape = while_rule(condition_shape, body_shape, _emit.shape_of(init))
    leaf_types = [_emit.type_of(s) for s in shape.leaves()]
    op, blocks = _emit.create_with_region("stablehlo.while", _leaves(init), leaf_types, None,
                                          [[_emit.type_of(shape)] + leaf_types] * 2)
    for block, fill in zip(blocks, (condition, body), strict=True):
        fill(block)
        _finish_region(block, list(block.arguments)[1:], shape)
    return _pack(iter(op.results), shape)


# --- Conditional ------------------------------------------------------------------------------
def _predicated_conditional(predicate: XlaOp, true_operand: XlaOp, true_computation: XlaComputation,
                            false_operand: XlaOp, false_computation: XlaComputation) -> XlaOp:
    b = builder_of("Conditional", predicate, true_operand, false_operand)
    return _conditional(b, (predicate, _PRED, "a pred[] predicate"), [true_computation, false_computation],
                        [true_operand, false_operand])


def _indexed_conditional(branch_index: XlaOp, branch_computations: Sequence[XlaComputation],
                         branch_operands: Sequence[XlaOp]) -> XlaOp:
    branch_operands = list(branch_operands)
    b = builder_of("Conditional", branch_index, *branch_operands)
    return _conditional(b, (branch_index, _S32, "an s32[] branch_index"), list(branch_computations),
                        branch_operands)


def Conditional(*args, **kwargs) -> XlaOp:
    """Runs one computation on its own operand and returns its result (spec: Conditional).

    ``Conditional(predicate, true_operand, true_computation, false_operand, false_computation)``
    runs ``true_computation(true_operand)`` if the pred[] ``predicate`` holds, else
    ``false_computation(false_operand)``. ``Conditional(branch_index, branch_computations,
    branch_operands)`` runs ``branch_computations[i](branch_operands[i])`` for the s32[]
    ``branch_index`` i; an index < 0 or >= N runs the last branch. Every branch takes one
    parameter of its operand's shape and all return one shape; only the chosen one runs.
    """
    indexed = "branch_computations" in kwargs or (len(args) > 1 and isinstance(args[1], (list, tuple)))
    form = _indexed_conditional if indexed else _predicated_conditional
    return bind_form("Conditional", form, args, kwargs,
                     "(predicate, true_operand, true_computation, false_operand, false_computation) or "
                     "(branch_index, branch_computations, branch_operands)")


def _conditional(b: XlaBuilder, index_form: tuple[XlaOp, Shape, str], computations: list,
                 operands: list[XlaOp]) -> XlaOp:
    index, form_shape, form_text = index_form

    def emit():
        # XLA's builder ties each form to one index type; conditional_rule accepts both.
        if not index.shape.compatible(form_shape):
            raise ShapeError(f"Conditional requires {form_text}; got {index.shape}.")
        _check_computations("Conditional", "per branch", computations)
        return conditional(index.value, [x.value for x in operands], [_inliner(b, c) for c in computations],
                           [c.program_shape() for c in computations])

    return b.emit("Conditional", emit)


def _branch_names(index: Shape, n: int) -> list[str]:
    return ["true_computation", "false_computation"] if index.compatible(_PRED) else \
        [f"branch computation {i}" for i in range(n)]


def conditional_rule(branch_index: Shape, branch_operands: Sequence[Shape],
                     branch_computations: Sequence[ProgramShape]) -> Shape:
    """The result shape of Conditional: the branches' common result. ``branch_index`` is pred[]
    (two branches: true, false) or s32[] (N >= 1 branches); branch i takes one parameter of
    ``branch_operands[i]``'s shape (XLA's ShapeInference::InferConditionalShape)."""
    n = len(branch_computations)
    if not (branch_index.compatible(_PRED) or branch_index.compatible(_S32)):
        raise ShapeError(f"Conditional requires a pred[] or s32[] branch index; got {branch_index}.")
    if branch_index.compatible(_PRED) and n != 2:
        raise InvalidArgumentError(f"Conditional requires 2 branch computations for a pred[] predicate; "
                                   f"got {n}.")
    if n == 0:
        raise InvalidArgumentError("Conditional requires at least one branch computation; got none.")
    if len(branch_operands) != n:
        raise InvalidArgumentError(f"Conditional requires one branch operand per branch computation; got {n} "
                                   f"computations and {len(branch_operands)} operands.")
    names = _branch_names(branch_index, n)
    for name, operand, computation in zip(names, branch_operands, branch_computations, strict=True):
        if len(computation.parameters) != 1:
            raise InvalidArgumentError(f"Conditional requires {name} to take 1 parameter; got {computation}.")
        if not computation.parameters[0].compatible(operand):
            raise ShapeError(f"Conditional requires the operand of {name} {computation} to be of shape "
                             f"{computation.parameters[0]}; got {operand}.")
    result = branch_computations[0].result
    for name, computation in zip(names[1:], branch_computations[1:], strict=True):
        if not computation.result.compatible(result):
            raise ShapeError(f"Conditional requires every branch computation to return one shape; got "
                             f"{result} from {names[0]} and {computation.result} from {name}.")
    return result


def conditional(branch_index: ir.Value, branch_operands: Sequence[ir.Value], branches: Sequence[Filler],
                branch_computations: Sequence[ProgramShape]) -> ir.Value:
    """Emits ``stablehlo.if`` (a pred[] index: branches true, false) or ``stablehlo.case`` (an
    s32[] index) whose region i computes branch i on ``branch_operands[i]``, captured from
    above; ``branches`` fill the regions (see ``Filler``)."""
    index = _emit.shape_of(branch_index)
    result = conditional_rule(index, _emit.shapes_of(branch_operands), branch_computations)
    if len(branches) != len(branch_computations):
        raise InvalidArgumentError(f"Conditional requires one region filler per branch computation; got "
                                   f"{len(branches)} and {len(branch_computations)}.")
    leaves = [_leaves(v) for v in branch_operands]
    parameters = [c.parameters[0] for c in branch_computations]
    name = "stablehlo.if" if index.compatible(_PRED) else "stablehlo.case"
    op, blocks = _emit.create_with_region(name, [branch_index], [_emit.type_of(s) for s in result.leaves()],
                                          None, [[_emit.type_of(p)] for p in parameters])
    for block, fill, operand_leaves, parameter in zip(blocks, branches, leaves, parameters, strict=True):
        fill(block)
        _finish_region(block, operand_leaves, parameter)
    return _pack(iter(op.results), result)


# --- Map -------------------------------------------------------------------------------------------
def Map(builder: XlaBuilder, operands: Sequence[XlaOp], computation: XlaComputation,
        dimensions: Sequence[int], static_operands: Sequence[XlaOp] = ()) -> XlaOp:
    """Applies the scalar ``computation`` element-wise: result[i] = computation(operands[0][i],
    ..., operands[N-1][i]) (spec: Map). Operands share their dimensions (a scalar operand is
    broadcast, as in XLA's builder); ``dimensions`` must be all of them in order. XLA
    implements no ``static_operands``; neither do we."""
    operands, static_operands = list(operands), list(static_operands)
    _check_builder("Map", builder, operands)

    def emit():
        if static_operands:
            raise InvalidArgumentError(f"Map requires no static_operands (XLA does not support them); "
                                       f"got {len(static_operands)}.")
        _check_computations("Map", "", [computation])
        return map_([x.value for x in operands], _inliner(builder, computation), computation.program_shape(),
                    dimensions)

    return builder.emit("Map", emit)


def map_rule(operands: Sequence[Shape], computation: ProgramShape, dimensions: Sequence[int]) -> Shape:
    """The result shape of Map: the operands' dimensions of the computation's result type
    (XLA's ShapeInference::InferMapShape)."""
    if not operands:
        raise InvalidArgumentError("Map requires at least one operand; got none.")
    for i, s in enumerate(operands):
        if not s.is_array:
            raise ShapeError(f"Map requires array operands; got {s} for operand {i}.")
    ranked = [s for s in operands if not s.is_scalar] or operands
    if any(s.dimensions != ranked[0].dimensions for s in ranked):
        raise ShapeError(f"Map requires operands of one shape (or scalars); got "
                         f"{', '.join(str(s) for s in operands)}.")
    rank = ranked[0].rank
    # XLA maps over every dimension only ("a subset of dimensions currently not supported").
    if int_list("Map", "dimensions", dimensions) != list(range(rank)):
        raise InvalidArgumentError(f"Map requires dimensions {list(range(rank))} (all of the operands', "
                                   f"in order); got {list(dimensions)}.")
    if len(computation.parameters) != len(operands):
        raise InvalidArgumentError(f"Map requires a computation of {len(operands)} parameter(s), one per "
                                   f"operand; got {computation}.")
    if not computation.result.is_scalar:
        raise ShapeError(f"Map requires a computation returning a scalar; got {computation}.")
    for i, (param, operand) in enumerate(zip(computation.parameters, operands, strict=True)):
        want = Shape.scalar_shape(operand.element_type)
        if not param.compatible(want):
            raise DTypeError(f"Map requires computation parameter {i} to be {want}, operand {i}'s element "
                             f"type; got {computation} for operand {operand}.")
    return Shape.array_shape(computation.result.element_type, ranked[0].dimensions)


def map_(operands: Sequence[ir.Value], body: Filler, computation: ProgramShape,
         dimensions: Sequence[int]) -> ir.Value:
    """Emits ``stablehlo.map`` (scalar operands broadcast first); ``body`` fills its region, whose
    arguments are one scalar per operand (see ``Filler``)."""
    shapes = _emit.shapes_of(operands)
    result = map_rule(shapes, computation, dimensions)
    operands = [broadcast_in_dim(v, result.dimensions, [], "Map") if s.rank != result.rank else v
                for v, s in zip(operands, shapes, strict=True)]
    op, (block,) = _emit.create_with_region(
        "stablehlo.map", operands, [_emit.type_of(result)], {"dimensions": _emit.i64_array(dimensions)},
        [[_emit.type_of(Shape.scalar_shape(s.element_type)) for s in shapes]])
    body(block)
    return op.results[0]
