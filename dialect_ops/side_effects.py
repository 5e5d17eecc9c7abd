"""Ordering and side effects: tokens (CreateToken, AfterAll), the device's infeed and
outfeed queues (Infeed, Outfeed), channels (Send, Recv) and OptimizationBarrier (spec:
AfterAll, Infeed, Send, Recv, OptimizationBarrier; Outfeed and the ``*WithToken`` forms
follow XlaBuilder).

Tokens carry no data: they order side-effecting ops. ``CreateToken`` starts a chain,
``AfterAll`` joins several, and each ``*WithToken`` op takes a token and returns a new
one. The token-less forms are XlaBuilder's conveniences and return what XLA's do:
``Infeed`` and ``Recv`` the data, ``Send`` its token, ``Outfeed`` the empty tuple.
``Infeed``/``InfeedWithToken``/``RecvWithToken`` read a (non-nested) tuple shape as one
result per element, as StableHLO's variadic ops do; the builder re-tuples them.

Running: the IREE runtime has no infeed/outfeed queues and no channels, so programs
with Infeed, Outfeed, Send or Recv build and verify but fail to compile with a
CompileError naming the op (pass ``iree-unsupported-ops``). Tokens that only order ops
without effects are removed before IREE (pass ``token-elimination``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Sequence

from iree.compiler import ir

from dialect_ops._args import int_arg
from dialect_ops.tuple_ops import get_tuple_element, tuple_
from hlo_mlir import _emit, ir_access
from hlo_mlir.builder import XlaBuilder, XlaOp, builder_of
from hlo_mlir.errors import InvalidArgumentError, ShapeError
from hlo_mlir.shape import Shape

__all__ = [
    "ChannelType", "ChannelHandle",
    "CreateToken", "create_token",
    "AfterAll", "after_all", "after_all_rule",
    "Infeed", "InfeedWithToken", "infeed", "infeed_rule",
    "Outfeed", "OutfeedWithToken", "outfeed", "outfeed_rule",
    "Send", "SendWithToken", "SendToHost", "send", "send_rule",
    "Recv", "RecvWithToken", "RecvFromHost", "recv", "recv_rule",
    "OptimizationBarrier", "optimization_barrier",
]


class ChannelType(enum.IntEnum):
    """xla_data.proto ``ChannelHandle.ChannelType`` (its number is StableHLO's ``type``)."""

    CHANNEL_TYPE_INVALID = 0
    DEVICE_TO_DEVICE = 1
    DEVICE_TO_HOST = 2
    HOST_TO_DEVICE = 3


@dataclass(frozen=True)
class ChannelHandle:
    """A channel: a unique ``handle`` per Send/Recv pair, and its direction."""

    handle: int
    type: ChannelType = ChannelType.DEVICE_TO_DEVICE

    def __post_init__(self):
        object.__setattr__(self, "handle", int_arg("ChannelHandle", "handle", self.handle))
        try:
            object.__setattr__(self, "type", ChannelType(self.type))
        except ValueError:
            valid = [t.name for t in ChannelType]
            raise InvalidArgumentError(
                f"ChannelHandle requires a type in {valid}; got {self.type!r}.") from None

    def attribute(self) -> ir.Attribute:
        return _emit.parse_attr(f"#stablehlo.channel_handle<handle = {self.handle}, type = {int(self.type)}>")


# --- shared checks --------------------------------------------------------------------------
def _require_token(op_name: str, shape: Shape, what: str = "token") -> None:
    if not shape.is_token:
        raise ShapeError(f"{op_name} requires a token for {what}; got {shape}.")


def _data_leaves(op_name: str, shape: Shape, what: str) -> list[Shape]:
    """The arrays an op moves for ``shape``: itself, or the elements of a non-nested tuple."""
    if not isinstance(shape, Shape):
        raise InvalidArgumentError(f"{op_name} requires a Shape for {what}; got {type(shape).__name__}.")
    leaves = list(shape.tuple_shapes) if shape.is_tuple else [shape]
    for leaf in leaves:
        if not leaf.is_array:
            # The spec: "Nested tuple shapes are not supported"; tokens are not data.
            raise ShapeError(f"{op_name} requires {what} to be an array or a tuple of arrays; got {shape}.")
    return leaves


def _default_layouts(shapes: Sequence[Shape]) -> ir.Attribute:
    """XLA's default (major-to-minor) layouts, as ``[[minor_to_major], ...]``."""
    return _emit.parse_attr("[" + ", ".join(
        "[" + ", ".join(str(d) for d in reversed(range(s.rank))) + "]" for s in shapes) + "]")


def _check_channel(op_name: str, handle, expected: ChannelType) -> ChannelHandle:
    if not isinstance(handle, ChannelHandle):
        raise InvalidArgumentError(f"{op_name} requires a ChannelHandle; got {type(handle).__name__}.")
    if handle.type is not expected:
        raise InvalidArgumentError(
            f"{op_name} requires a {expected.name} channel; got {handle.type.name} (handle {handle.handle}).")
    return handle


def _as_data(shape: Shape, values: list[ir.Value]) -> ir.Value:
    """The data value of ``shape`` from its leaf values (a tuple shape is re-tupled)."""
    return tuple_(values) if shape.is_tuple else values[0]


def _leaf_values(value: ir.Value) -> list[ir.Value]:
    """``value``, or the elements of a tuple ``value`` (its operands when built by ``tuple``)."""
    shape = _emit.shape_of(value)
    if not shape.is_tuple:
        return [value]
    owner = value.owner
    if isinstance(owner, (ir.Operation, ir.OpView)) and owner.operation.name == "stablehlo.tuple":
        return list(owner.operands)
    return [get_tuple_element(value, i) for i in range(len(shape.tuple_shapes))]


def _require_builder(op_name: str, builder) -> XlaBuilder:
    if not isinstance(builder, XlaBuilder):
        raise InvalidArgumentError(f"{op_name} requires an XlaBuilder; got {type(builder).__name__}.")
    return builder


# --- CreateToken, AfterAll --------------------------------------------------------------------
def CreateToken(builder: XlaBuilder) -> XlaOp:
    """A new token, ordered after nothing (XlaBuilder::CreateToken)."""
    return _require_builder("CreateToken", builder).emit("CreateToken", create_token)


def create_token() -> ir.Value:
    """``stablehlo.create_token``."""
    return _emit.create("stablehlo.create_token", [], [_emit.type_of(Shape.token_shape())]).result


def AfterAll(builder: XlaBuilder, tokens: Sequence[XlaOp]) -> XlaOp:
    """A token ordered after every one of ``tokens`` (spec: AfterAll)."""
    tokens = list(tokens)

    def emit():
        if tokens and builder_of("AfterAll", *tokens) is not builder:
            raise InvalidArgumentError(f"AfterAll requires tokens of the builder it is given "
                                       f"({builder.name!r}); got tokens of {tokens[0].builder.name!r}.")
        return after_all([t.value for t in tokens])

    return _require_builder("AfterAll", builder).emit("AfterAll", emit)


def after_all_rule(tokens: Sequence[Shape]) -> Shape:
    if not tokens:
        # XlaBuilder::AfterAll: "AfterAll requires at least one operand"; use CreateToken.
        raise InvalidArgumentError(
            "AfterAll requires at least one token (use CreateToken for none); got none.")
    for i, s in enumerate(tokens):
        _require_token("AfterAll", s, f"operand {i}")
    return Shape.token_shape()


def after_all(tokens: Sequence[ir.Value]) -> ir.Value:
    """``stablehlo.after_all`` of ``tokens``."""
    result = after_all_rule(_emit.shapes_of(tokens))
    return _emit.create("stablehlo.after_all", tokens, [_emit.type_of(result)]).result


# --- Infeed -------------------------------------------------------------------------------------
def Infeed(builder: XlaBuilder, shape: Shape, config: str = "") -> XlaOp:
    """Reads one item of ``shape`` from the device's infeed queue; returns the data
    (spec: Infeed). An empty tuple shape reads nothing."""
    def emit():
        values = infeed(create_token(), shape, config)
        return _as_data(shape, values[:-1])

    return _require_builder("Infeed", builder).emit("Infeed", emit)


def InfeedWithToken(token: XlaOp, shape: Shape, config: str = "") -> XlaOp:
    """Infeed ordered after ``token``; returns the tuple ``(data, token)``."""
    def emit():
        values = infeed(token.value, shape, config)
        return tuple_([_as_data(shape, values[:-1]), values[-1]])

    return builder_of("InfeedWithToken", token).emit("InfeedWithToken", emit)


def infeed_rule(token: Shape, shape: Shape, config: str = "") -> list[Shape]:
    """The result shapes of ``stablehlo.infeed``: the data arrays, then a token."""
    _require_token("Infeed", token)
    if not isinstance(config, str):
        raise InvalidArgumentError(f"Infeed requires a string config; got {type(config).__name__}.")
    return _data_leaves("Infeed", shape, "shape") + [Shape.token_shape()]


def infeed(token: ir.Value, shape: Shape, config: str = "") -> list[ir.Value]:
    """``stablehlo.infeed``: the data arrays of ``shape`` and the new token."""
    results = infeed_rule(_emit.shape_of(token), shape, config)
    op = _emit.create("stablehlo.infeed", [token], [_emit.type_of(s) for s in results],
                      {"infeed_config": _emit.str_attr(config), "layout": _default_layouts(results[:-1])})
    return list(op.results)


# --- Outfeed ------------------------------------------------------------------------------------
def Outfeed(operand: XlaOp, shape_with_layout: Shape, outfeed_config: str = "") -> XlaOp:
    """Writes ``operand`` to the device's outfeed queue (XlaBuilder::Outfeed); returns the
    empty tuple, as XLA's builder does."""
    def emit():
        outfeed(_leaf_values(operand.value), create_token(), shape_with_layout, outfeed_config)
        return tuple_([])

    return builder_of("Outfeed", operand).emit("Outfeed", emit)


def OutfeedWithToken(operand: XlaOp, token: XlaOp, shape_with_layout: Shape,
                     outfeed_config: str = "") -> XlaOp:
    """Outfeed ordered after ``token``; returns the new token."""
    b = builder_of("OutfeedWithToken", operand, token)
    return b.emit("OutfeedWithToken", lambda: outfeed(_leaf_values(operand.value), token.value,
                                                      shape_with_layout, outfeed_config))


def outfeed_rule(operands: Sequence[Shape], token: Shape, shape_with_layout: Shape | None = None,
                 config: str = "") -> Shape:
    _require_token("Outfeed", token)
    if not isinstance(config, str):
        raise InvalidArgumentError(f"Outfeed requires a string outfeed_config; got {type(config).__name__}.")
    operand = Shape.tuple_shape(operands) if len(operands) != 1 else operands[0]
    _data_leaves("Outfeed", operand, "the operand")
    if shape_with_layout is not None:
        _data_leaves("Outfeed", shape_with_layout, "shape_with_layout")
        if not shape_with_layout.compatible(operand):
            raise ShapeError(f"Outfeed requires shape_with_layout compatible with the operand; got "
                             f"{shape_with_layout} for operand {operand}.")
    return Shape.token_shape()


def outfeed(values: Sequence[ir.Value], token: ir.Value, shape_with_layout: Shape | None = None,
            config: str = "") -> ir.Value:
    """``stablehlo.outfeed`` of ``values`` after ``token``; returns the new token."""
    result = outfeed_rule(_emit.shapes_of(values), _emit.shape_of(token), shape_with_layout, config)
    return _emit.create("stablehlo.outfeed", [*values, token], [_emit.type_of(result)],
                        {"outfeed_config": _emit.str_attr(config)}).result


# --- Send, Recv ---------------------------------------------------------------------------------
def Send(operand: XlaOp, channel_handle: ChannelHandle) -> XlaOp:
    """Sends ``operand`` to the Recv with the same device-to-device channel (spec: Send);
    returns the token of the completed send."""
    return builder_of("Send", operand).emit("Send", lambda: send(
        _leaf_values(operand.value), create_token(),
        _check_channel("Send", channel_handle, ChannelType.DEVICE_TO_DEVICE)))


def SendWithToken(operand: XlaOp, token: XlaOp, channel_handle: ChannelHandle) -> XlaOp:
    """Send ordered after ``token``; returns the new token."""
    return builder_of("SendWithToken", operand, token).emit("SendWithToken", lambda: send(
        _leaf_values(operand.value), token.value,
        _check_channel("SendWithToken", channel_handle, ChannelType.DEVICE_TO_DEVICE)))


def SendToHost(operand: XlaOp, token: XlaOp, shape_with_layout: Shape,
               channel_handle: ChannelHandle) -> XlaOp:
    """Sends ``operand`` to the host over a device-to-host channel; returns the new token."""
    def emit():
        handle = _check_channel("SendToHost", channel_handle, ChannelType.DEVICE_TO_HOST)
        operand_shape = _emit.shape_of(operand.value)
        if not isinstance(shape_with_layout, Shape) or not shape_with_layout.compatible(operand_shape):
            raise ShapeError(f"SendToHost requires shape_with_layout compatible with the operand; got "
                             f"{shape_with_layout} for operand {operand_shape}.")
        return send(_leaf_values(operand.value), token.value, handle, is_host_transfer=True)

    return builder_of("SendToHost", operand, token).emit("SendToHost", emit)


def send_rule(operands: Sequence[Shape], token: Shape, handle: ChannelHandle) -> Shape:
    _require_token("Send", token)
    _data_leaves("Send", Shape.tuple_shape(operands), "the operand")
    if not isinstance(handle, ChannelHandle):
        raise InvalidArgumentError(f"Send requires a ChannelHandle; got {type(handle).__name__}.")
    return Shape.token_shape()


def send(values: Sequence[ir.Value], token: ir.Value, handle: ChannelHandle,
         is_host_transfer: bool = False) -> ir.Value:
    """``stablehlo.send`` of ``values`` after ``token``; returns the new token."""
    result = send_rule(_emit.shapes_of(values), _emit.shape_of(token), handle)
    return _emit.create("stablehlo.send", [*values, token], [_emit.type_of(result)],
                        {"channel_handle": handle.attribute(),
                         "is_host_transfer": _emit.i1_attr(is_host_transfer)}).result


def Recv(builder: XlaBuilder, shape: Shape, channel_handle: ChannelHandle) -> XlaOp:
    """Receives data of ``shape`` from the Send with the same device-to-device channel
    (spec: Recv); returns the data."""
    def emit():
        handle = _check_channel("Recv", channel_handle, ChannelType.DEVICE_TO_DEVICE)
        return _as_data(shape, recv(create_token(), shape, handle)[:-1])

    return _require_builder("Recv", builder).emit("Recv", emit)


def RecvWithToken(token: XlaOp, shape: Shape, channel_handle: ChannelHandle) -> XlaOp:
    """Recv ordered after ``token``; returns the tuple ``(data, token)``."""
    return builder_of("RecvWithToken", token).emit("RecvWithToken", lambda: _recv_tuple(
        token, shape, _check_channel("RecvWithToken", channel_handle, ChannelType.DEVICE_TO_DEVICE)))


def RecvFromHost(token: XlaOp, shape: Shape, channel_handle: ChannelHandle) -> XlaOp:
    """Receives data of ``shape`` from the host over a host-to-device channel; returns
    the tuple ``(data, token)``."""
    return builder_of("RecvFromHost", token).emit("RecvFromHost", lambda: _recv_tuple(
        token, shape, _check_channel("RecvFromHost", channel_handle, ChannelType.HOST_TO_DEVICE),
        is_host_transfer=True))


def _recv_tuple(token: XlaOp, shape: Shape, handle: ChannelHandle,
                is_host_transfer: bool = False) -> ir.Value:
    values = recv(token.value, shape, handle, is_host_transfer)
    return tuple_([_as_data(shape, values[:-1]), values[-1]])


def recv_rule(token: Shape, shape: Shape) -> list[Shape]:
    """The result shapes of ``stablehlo.recv``: the data arrays, then a token."""
    _require_token("Recv", token)
    return _data_leaves("Recv", shape, "shape") + [Shape.token_shape()]


def recv(token: ir.Value, shape: Shape, handle: ChannelHandle,
         is_host_transfer: bool = False) -> list[ir.Value]:
    """``stablehlo.recv``: the data arrays of ``shape`` and the new token."""
    results = recv_rule(_emit.shape_of(token), shape)
    op = _emit.create("stablehlo.recv", [token], [_emit.type_of(s) for s in results],
                      {"channel_handle": handle.attribute(),
                       "is_host_transfer": _emit.i1_attr(is_host_transfer)})
    return list(op.results)


# --- OptimizationBarrier ---------------------------------------------------------------------------
def OptimizationBarrier(operand: XlaOp) -> XlaOp:
    """``operand`` unchanged, but no optimization moves computation across it: everything
    it depends on is evaluated before anything that uses the result (spec:
    OptimizationBarrier). A tuple operand passes each element through one barrier."""
    def emit():
        shape = _emit.shape_of(operand.value)
        if not shape.is_tuple:
            return optimization_barrier([operand.value])[0]
        return tuple_(optimization_barrier(_leaf_values(operand.value)))

    return builder_of("OptimizationBarrier", operand).emit("OptimizationBarrier", emit)


def optimization_barrier(values: Sequence[ir.Value]) -> list[ir.Value]:
    """``stablehlo.optimization_barrier``: the same values, opaque to rewrites (any tensor
    type, quantized ones included)."""
    for v in values:
        if ir_access.is_tuple(v.type):
            # StableHLO's barrier takes tensors and tokens; a nested tuple has no flat form.
            raise ShapeError(f"OptimizationBarrier requires arrays, tokens or a tuple of them; "
                             f"got an element {_emit.shape_of(v)}.")
    return list(_emit.create("stablehlo.optimization_barrier", values, [v.type for v in values]).results)
