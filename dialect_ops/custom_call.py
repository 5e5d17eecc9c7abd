"""CustomCall (spec: CustomCall) and the registry that says what a call target computes.

XLA hands a custom call to a user-provided C function of the backend. IREE has no
such functions, so a target runs here only once it is registered with an expansion:

    register_custom_call_target("my_softplus", lambda b, operands, opaque: Log1p(Exp(operands[0])))

An expansion is an XlaComputation (parameters: the call's operands; result: the call's
shape) or a Python function ``(builder, operands, opaque) -> XlaOp`` that builds the
result from Parameters of the call's operand shapes (the function is called once per
distinct call signature). The ``custom-call-expander`` pass replaces each registered
call with a call of its expansion before IREE; an unregistered target fails to compile
with a CompileError naming it and the registered targets (pass ``iree-unsupported-ops``).

As in XLA's builder, a tuple ``shape`` gives one StableHLO result per element, re-tupled.
"""

from __future__ import annotations

import enum
import threading
from typing import Callable, Sequence, Union

from iree.compiler import ir

from dialect_ops.tuple_ops import tuple_
from hlo_mlir import _emit
from hlo_mlir.builder import Parameter, XlaBuilder, XlaComputation, XlaOp, builder_of
from hlo_mlir.errors import InvalidArgumentError, ShapeError
from hlo_mlir.host import HostFunction, set_host_function
from hlo_mlir.shape import Shape

__all__ = ["CustomCallApiVersion", "CustomCall", "custom_call", "custom_call_rule",
           "register_custom_call_target", "unregister_custom_call_target", "registered_custom_call_targets",
           "custom_call_expansion", "Expansion", "HostFunction", "is_host_function_target"]

# An XlaComputation or a builder function is expanded in the program; a HostFunction runs
# on the host at run time (pass host-calls, hlo_mlir/host.py).
Expansion = Union[XlaComputation, Callable[[XlaBuilder, list, str], XlaOp], HostFunction]


class CustomCallApiVersion(enum.IntEnum):
    """xla_data.proto ``CustomCallApiVersion`` (StableHLO's ``api_version``)."""

    API_VERSION_UNSPECIFIED = 0
    API_VERSION_ORIGINAL = 1
    API_VERSION_STATUS_RETURNING = 2
    API_VERSION_STATUS_RETURNING_UNIFIED = 3
    API_VERSION_TYPED_FFI = 4


# --- CustomCall ---------------------------------------------------------------------------------
def CustomCall(builder: XlaBuilder, call_target_name: str, operands: Sequence[XlaOp], shape: Shape,
               opaque: str = "", has_side_effect: bool = False,
               api_version: CustomCallApiVersion = CustomCallApiVersion.API_VERSION_ORIGINAL,
               operand_shapes_with_layout: Sequence[Shape] | None = None) -> XlaOp:
    """A call of the backend function ``call_target_name`` on ``operands`` giving
    ``shape`` (spec: CustomCall). ``opaque`` is passed to the target as is (StableHLO's
    ``backend_config``; an MLIR dictionary text with the typed-FFI API). With
    ``operand_shapes_with_layout`` the call also fixes operand and result layouts
    (XLA's CustomCallWithLayout; our shapes are major-to-minor)."""
    if not isinstance(builder, XlaBuilder):
        raise InvalidArgumentError(f"CustomCall requires an XlaBuilder; got {type(builder).__name__}.")
    operands = list(operands)

    def emit():
        if operands and builder_of("CustomCall", *operands) is not builder:
            raise InvalidArgumentError(f"CustomCall requires operands of the builder it is given "
                                       f"({builder.name!r}); got operands of {operands[0].builder.name!r}.")
        results = custom_call(call_target_name, [x.value for x in operands], shape, opaque, has_side_effect,
                              api_version, operand_shapes_with_layout)
        return tuple_(results) if shape.is_tuple else results[0]

    return builder.emit("CustomCall", emit)


def custom_call_rule(call_target_name: str, operands: Sequence[Shape], shape: Shape,
                     operand_shapes_with_layout: Sequence[Shape] | None = None) -> list[Shape]:
    """The StableHLO result shapes of a custom call: ``shape``, or its tuple elements."""
    if not isinstance(call_target_name, str) or not call_target_name:
        raise InvalidArgumentError(
            f"CustomCall requires a non-empty call_target_name; got {call_target_name!r}.")
    if not isinstance(shape, Shape):
        raise InvalidArgumentError(f"CustomCall requires a Shape for shape; got {type(shape).__name__}.")
    if operand_shapes_with_layout is not None:
        layouts = list(operand_shapes_with_layout)
        if len(layouts) != len(operands):
            raise InvalidArgumentError(f"CustomCall requires one operand shape with layout per operand; got "
                                       f"{len(layouts)} for {len(operands)} operands.")
        for i, (given, actual) in enumerate(zip(layouts, operands, strict=True)):
            if not isinstance(given, Shape) or not given.is_array or not given.compatible(actual):
                raise ShapeError(f"CustomCall requires operand_shapes_with_layout[{i}] to match operand {i}; "
                                 f"got {given} for {actual}.")
    results = list(shape.tuple_shapes) if shape.is_tuple else [shape]
    for s in results:
        if s.is_tuple:
            raise ShapeError(
                f"CustomCall requires an array, a token or a tuple of them for shape; got {shape}.")
    return results


def custom_call(call_target_name: str, operands: Sequence[ir.Value], shape: Shape, opaque: str = "",
                has_side_effect: bool = False,
                api_version: CustomCallApiVersion = CustomCallApiVersion.API_VERSION_ORIGINAL,
                operand_shapes_with_layout: Sequence[Shape] | None = None) -> list[ir.Value]:
    """``stablehlo.custom_call @call_target_name``; returns its results (one per element of
    a tuple ``shape``)."""
    operand_shapes = _emit.shapes_of(operands)
    results = custom_call_rule(call_target_name, operand_shapes, shape, operand_shapes_with_layout)
    try:
        version = CustomCallApiVersion(api_version)
    except ValueError:
        valid = [v.name for v in CustomCallApiVersion]
        raise InvalidArgumentError(
            f"CustomCall requires an api_version in {valid}; got {api_version!r}.") from None
    if not isinstance(opaque, str):
        raise InvalidArgumentError(f"CustomCall requires a string opaque; got {type(opaque).__name__}.")
    attributes = {
        "call_target_name": _emit.str_attr(call_target_name),
        "has_side_effect": _emit.i1_attr(has_side_effect),
        "api_version": _emit.parse_attr(f"{int(version)} : i32"),
        "backend_config": _backend_config(version, opaque),
    }
    if operand_shapes_with_layout is not None:
        attributes["operand_layouts"] = _layouts(operand_shapes)
        attributes["result_layouts"] = _layouts(results)
    return list(_emit.create("stablehlo.custom_call", operands, [_emit.type_of(s) for s in results],
                             attributes).results)


def _backend_config(version: CustomCallApiVersion, opaque: str) -> ir.Attribute | None:
    if version is not CustomCallApiVersion.API_VERSION_TYPED_FFI:
        return _emit.str_attr(opaque)
    if not opaque:
        return None
    try:  # the typed FFI takes a dictionary of attributes
        attr = _emit.parse_attr(opaque)
    except ir.MLIRError:
        attr = None
    if not isinstance(attr, ir.DictAttr):
        raise InvalidArgumentError(f"CustomCall with API_VERSION_TYPED_FFI requires opaque to be an MLIR "
                                   f"dictionary like '{{key = 1 : i32}}'; got {opaque!r}.")
    return attr


def _layouts(shapes: Sequence[Shape]) -> ir.Attribute:
    """Major-to-minor layouts as ``[dense<[minor_to_major]> : tensor<Nxindex>, ...]``."""
    def one(s: Shape) -> str:
        dims = list(reversed(range(s.rank)))
        return f"dense<{dims}> : tensor<{len(dims)}xindex>"

    return _emit.parse_attr("[" + ", ".join(one(s) for s in shapes) + "]")


# --- the registry of call targets ------------------------------------------------------------------
_lock = threading.Lock()
_TARGETS: dict[str, Expansion] = {}
# (target, operand shapes, result shape, opaque) -> the computation a function expansion built
_BUILT: dict[tuple, XlaComputation] = {}


def register_custom_call_target(name: str, expansion: Expansion, *, replace: bool = False) -> None:
    """Says what custom-call target ``name`` computes: ``expansion`` is an XlaComputation
    or a function ``(builder, operands, opaque) -> XlaOp`` (expanded into the program), or
    a ``HostFunction(fn)`` (``fn`` runs on numpy arrays on the host at run time).
    Re-registering a name needs ``replace=True``."""
    if not isinstance(name, str) or not name:
        raise InvalidArgumentError(f"register_custom_call_target requires a non-empty name; got {name!r}.")
    if not isinstance(expansion, (XlaComputation, HostFunction)) and not callable(expansion):
        raise InvalidArgumentError(f"register_custom_call_target requires an XlaComputation, a function "
                                   f"(builder, operands, opaque) -> XlaOp or a HostFunction; got "
                                   f"{type(expansion).__name__}.")
    with _lock:
        if name in _TARGETS and not replace:
            raise InvalidArgumentError(f"register_custom_call_target: target {name!r} is already registered "
                                       f"(pass replace=True to replace it).")
        _TARGETS[name] = expansion
        set_host_function(name, expansion if isinstance(expansion, HostFunction) else None)
        for key in [k for k in _BUILT if k[0] == name]:
            del _BUILT[key]


def unregister_custom_call_target(name: str) -> None:
    """Forgets target ``name`` (no error when it is not registered)."""
    with _lock:
        _TARGETS.pop(name, None)
        set_host_function(name, None)
        for key in [k for k in _BUILT if k[0] == name]:
            del _BUILT[key]


def registered_custom_call_targets() -> list[str]:
    """The registered target names, sorted."""
    with _lock:
        return sorted(_TARGETS)


def is_host_function_target(name: str) -> bool:
    """Whether target ``name`` is registered as a HostFunction (run on the host, not expanded)."""
    with _lock:
        return isinstance(_TARGETS.get(name), HostFunction)


def custom_call_expansion(name: str, operands: Sequence[Shape], shape: Shape,
                          opaque: str = "") -> XlaComputation:
    """The computation that replaces a call of target ``name`` on ``operands`` giving
    ``shape``; raises InvalidArgumentError for an unregistered target and ShapeError when
    the expansion's signature does not match the call's."""
    with _lock:
        expansion = _TARGETS.get(name)
    if expansion is None:
        known = ", ".join(registered_custom_call_targets()) or "none"
        raise InvalidArgumentError(
            f"CustomCall target {name!r} is not registered; registered targets: {known}.")
    if isinstance(expansion, HostFunction):
        raise InvalidArgumentError(f"CustomCall target {name!r} is a HostFunction: it runs on the host "
                                   f"(pass host-calls), it has no expansion.")
    if isinstance(expansion, XlaComputation):
        computation = expansion
    else:
        key = (name, tuple(operands), shape, opaque)
        with _lock:
            built = _BUILT.get(key)
        if built is None:
            built = _build(name, expansion, operands, opaque)
            with _lock:
                _BUILT[key] = built
        computation = built
    _check_signature(name, computation, operands, shape)
    return computation


def _build(name: str, fn: Callable, operands: Sequence[Shape], opaque: str) -> XlaComputation:
    b = XlaBuilder(f"custom_call_{name}")
    params = [Parameter(b, i, s) for i, s in enumerate(operands)]
    root = fn(b, params, opaque)
    if not isinstance(root, XlaOp):
        raise InvalidArgumentError(f"the expansion of CustomCall target {name!r} must return an XlaOp; "
                                   f"got {type(root).__name__}.")
    return b.build(root)


def _check_signature(name: str, computation: XlaComputation, operands: Sequence[Shape], shape: Shape) -> None:
    program = computation.program_shape()
    params = list(program.parameters)
    if len(params) != len(operands) or any(
            not p.compatible(o) for p, o in zip(params, operands, strict=True)):
        wanted, got = ", ".join(map(str, operands)), ", ".join(map(str, params))
        raise ShapeError(f"CustomCall target {name!r} requires an expansion taking the call's operands "
                         f"({wanted}); got one taking ({got}).")
    if not program.result.compatible(shape):
        raise ShapeError(f"CustomCall target {name!r} requires an expansion returning the call's shape "
                         f"{shape}; got one returning {program.result}.")


# JAX and XLA's SPMD partitioner mark sharding constraints with this target; on one
# device it is the identity.
register_custom_call_target("Sharding", lambda builder, operands, opaque: operands[0])
