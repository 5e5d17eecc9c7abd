"""End to end: tokens (CreateToken, AfterAll), Infeed, Outfeed, Send, Recv, OptimizationBarrier.

Token plumbing that orders no effects (``token-elimination`` removes it before IREE),
and OptimizationBarrier, are compared with numpy and XLA CPU, except where the entry
takes or returns a token: PjRt cannot pass tokens across the call, so those compare with
numpy only. Infeed, Outfeed, Send and Recv run through the host module (pass
``host-calls``, hlo_mlir/host.py) and compare with numpy only: without a host feeding
the queue, XLA's infeed waits forever (tests/e2e/test_host_calls.py has more).
"""

import numpy as np
import pytest

import hlo_mlir as hm
from hlo_mlir import (
    AfterAll,
    ChannelHandle,
    ChannelType,
    CompileError,
    CreateToken,
    GetTupleElement,
    Infeed,
    InfeedWithToken,
    InvalidArgumentError,
    OptimizationBarrier,
    Outfeed,
    OutfeedWithToken,
    Parameter,
    Recv,
    RecvFromHost,
    RecvWithToken,
    Send,
    SendToHost,
    SendWithToken,
    Shape,
    ShapeError,
    Tuple,
    While,
    XlaBuilder,
)
from tests.oracle import assert_close, check, run_iree

X = np.array([1.5, -2.0, 0.25], np.float32)
NO_TOKEN = np.zeros(0, np.bool_)  # what a token parameter becomes after token-elimination


def _param(b, i, text):
    return Parameter(b, i, Shape.parse(text))


# --- build and verify -------------------------------------------------------------------------
def test_shapes_of_token_and_effect_ops():
    b = XlaBuilder("shapes")
    x = _param(b, 0, "f32[3]")
    token = AfterAll(b, [CreateToken(b), CreateToken(b)])
    fed = InfeedWithToken(token, Shape.parse("(f32[2], s32[])"))
    out = OutfeedWithToken(x, GetTupleElement(fed, 1), Shape.parse("f32[3]"), "config")
    sent = SendWithToken(x, out, ChannelHandle(1))
    received = RecvWithToken(sent, Shape.parse("s32[2,2]"), ChannelHandle(2))
    host = SendToHost(x, token, Shape.parse("f32[3]"), ChannelHandle(3, ChannelType.DEVICE_TO_HOST))
    from_host = RecvFromHost(host, Shape.parse("u8[4]"), ChannelHandle(4, ChannelType.HOST_TO_DEVICE))
    assert str(token.shape) == "token[]"
    assert str(fed.shape) == "((f32[2], s32[]), token[])"
    assert str(out.shape) == str(sent.shape) == str(host.shape) == "token[]"
    assert str(received.shape) == "(s32[2,2], token[])"
    assert str(from_host.shape) == "(u8[4], token[])"
    assert str(Infeed(b, Shape.parse("f32[5]")).shape) == "f32[5]"
    assert str(Infeed(b, Shape.parse("()")).shape) == "()"  # the spec: an empty tuple reads nothing
    assert str(Outfeed(x, Shape.parse("f32[3]"), "")).startswith("XlaOp(()")  # XLA's nil result
    assert str(Send(x, ChannelHandle(5)).shape) == "token[]"
    assert str(Recv(b, Shape.parse("f32[2]"), ChannelHandle(6)).shape) == "f32[2]"
    comp = b.build(Tuple(b, [received, from_host]))
    text = str(comp)
    assert '"stablehlo.infeed"' in text and 'infeed_config = ""' in text
    assert 'outfeed_config = "config"' in text
    assert "#stablehlo.channel_handle<handle = 3, type = 2>, is_host_transfer = true" in text
    assert "#stablehlo.channel_handle<handle = 2, type = 1>, is_host_transfer = false" in text


def test_optimization_barrier_shapes():
    b = XlaBuilder("barrier")
    x, n = _param(b, 0, "f32[3]"), _param(b, 1, "s32[]")
    single = OptimizationBarrier(x)
    both = OptimizationBarrier(Tuple(b, [x, n, CreateToken(b)]))
    assert str(single.shape) == "f32[3]"
    assert str(both.shape) == "(f32[3], s32[], token[])"
    assert "stablehlo.optimization_barrier %arg0, %arg1, %" in str(b.build(Tuple(b, [single, both])))


@pytest.mark.parametrize("build, error, message", [
    (lambda b, x: AfterAll(b, [CreateToken(b), x]), ShapeError,
     r"AfterAll requires a token for operand 1; got f32\[3\]\."),
    (lambda b, x: AfterAll(b, []), InvalidArgumentError, r"AfterAll requires at least one token"),
    (lambda b, x: Infeed(b, Shape.parse("(f32[2], (s32[]))")), ShapeError,
     r"Infeed requires shape to be an array or a tuple of arrays; got \(f32\[2\], \(s32\[\]\)\)\."),
    (lambda b, x: InfeedWithToken(x, Shape.parse("f32[2]")), ShapeError,
     r"Infeed requires a token for token; got f32\[3\]\."),
    (lambda b, x: Outfeed(x, Shape.parse("f32[4]"), ""), ShapeError,
     r"Outfeed requires shape_with_layout compatible with the operand; got f32\[4\] for operand f32\[3\]\."),
    (lambda b, x: OutfeedWithToken(x, x, Shape.parse("f32[3]"), ""), ShapeError,
     r"Outfeed requires a token for token; got f32\[3\]\."),
    (lambda b, x: Send(x, ChannelHandle(1, ChannelType.DEVICE_TO_HOST)), InvalidArgumentError,
     r"Send requires a DEVICE_TO_DEVICE channel; got DEVICE_TO_HOST \(handle 1\)\."),
    (lambda b, x: Send(x, 7), InvalidArgumentError, r"Send requires a ChannelHandle; got int\."),
    (lambda b, x: Send(CreateToken(b), ChannelHandle(1)), ShapeError,
     r"Send requires the operand to be an array or a tuple of arrays; got \(token\[\]\)\."),
    (lambda b, x: RecvWithToken(CreateToken(b), Shape.parse("f32[2]"),
                                ChannelHandle(1, ChannelType.HOST_TO_DEVICE)),
     InvalidArgumentError, r"RecvWithToken requires a DEVICE_TO_DEVICE channel; got HOST_TO_DEVICE"),
    (lambda b, x: RecvFromHost(CreateToken(b), Shape.parse("f32[2]"), ChannelHandle(1)),
     InvalidArgumentError, r"RecvFromHost requires a HOST_TO_DEVICE channel; got DEVICE_TO_DEVICE"),
    (lambda b, x: SendToHost(x, CreateToken(b), Shape.parse("f32[2]"),
                             ChannelHandle(1, ChannelType.DEVICE_TO_HOST)),
     ShapeError,
     r"SendToHost requires shape_with_layout compatible with the operand; got f32\[2\] for operand f32\[3\]"),
    (lambda b, x: OptimizationBarrier(Tuple(b, [x, Tuple(b, [x])])), ShapeError,
     r"OptimizationBarrier requires arrays, tokens or a tuple of them; got an element \(f32\[3\]\)\."),
])
def test_errors_name_the_op_and_shapes(build, error, message):
    b = XlaBuilder("errors")
    x = _param(b, 0, "f32[3]")
    with pytest.raises(error, match=message) as info:
        build(b, x)
    assert "test_side_effects.py" in str(info.value)  # raised at the user's line


def test_channel_handle_checks_its_fields():
    with pytest.raises(InvalidArgumentError,
                       match=r"ChannelHandle requires a type in \['CHANNEL_TYPE_INVALID'"):
        ChannelHandle(1, 9)
    with pytest.raises(InvalidArgumentError, match=r"ChannelHandle requires integer handle; got \['a'\]"):
        ChannelHandle("a")
    assert ChannelHandle(3, 2).type is ChannelType.DEVICE_TO_HOST


# --- tokens that order nothing run -------------------------------------------------------------------
def test_token_plumbing_inside_the_computation_runs():
    b = XlaBuilder("plumbing")
    x = _param(b, 0, "f32[3]")
    t = AfterAll(b, [CreateToken(b), AfterAll(b, [CreateToken(b)])])
    pair = OptimizationBarrier(Tuple(b, [x * 2.0, t]))
    comp = b.build(GetTupleElement(pair, 0) + 1.0)
    check(comp, [X], X * 2 + 1, rtol=0, atol=0)


def test_token_threaded_through_a_while_loop():
    """The loop state (i, x, token) carries a token, as JAX's ordered effects do."""
    state = Shape.parse("(s32[], f32[3], token[])")
    cb = XlaBuilder("cond")
    p = Parameter(cb, 0, state)
    cond = cb.build(GetTupleElement(p, 0) < 4)
    bb = XlaBuilder("body")
    p = Parameter(bb, 0, state)
    i, x, t = (GetTupleElement(p, k) for k in range(3))
    body = bb.build(Tuple(bb, [i + 1, x * 1.5, AfterAll(bb, [t, CreateToken(bb)])]))
    b = XlaBuilder("loop")
    x0 = _param(b, 0, "f32[3]")
    out = While(cond, body, Tuple(b, [hm.ConstantR0(b, np.int32(0)), x0, CreateToken(b)]))
    comp = b.build(GetTupleElement(out, 1))
    check(comp, [X], X * np.float32(1.5) ** 4, rtol=1e-6)


def test_token_parameter_and_result_of_the_entry():
    """A token at the entry becomes pred[0]: pass an empty array, get one back. numpy only:
    PjRt cannot pass a token into or out of XLA's entry computation."""
    b = XlaBuilder("entry_tokens")
    x = _param(b, 0, "f32[3]")
    t = Parameter(b, 1, Shape.token_shape())
    comp = b.build(Tuple(b, [x - 1.0, AfterAll(b, [t])]))
    assert str(comp.program_shape()) == "(p0: f32[3], p1: token[]) -> (f32[3], token[])"
    out = run_iree(comp, X, NO_TOKEN)
    assert_close(out, (X - 1, NO_TOKEN), 0, 0, "hlo-mlir vs numpy")


def test_optimization_barrier_keeps_values():
    b = XlaBuilder("barrier_values")
    x, n = _param(b, 0, "f32[3]"), _param(b, 1, "s32[2]")
    both = OptimizationBarrier(Tuple(b, [x * x, n + 1]))
    comp = b.build(Tuple(b, [GetTupleElement(both, 0) - x, GetTupleElement(both, 1) * 3]))
    n0 = np.array([4, -9], np.int32)
    check(comp, [X, n0], (X * X - X, (n0 + 1) * 3), rtol=0, atol=0)


# --- effects IREE cannot run -------------------------------------------------------------------------
def _infeed():
    b = XlaBuilder("infeed")
    return b.build(Infeed(b, Shape.parse("f32[3]")) * 2.0), ()


def _outfeed():
    b = XlaBuilder("outfeed")
    x = _param(b, 0, "f32[3]")
    Outfeed(x, Shape.parse("f32[3]"), "")
    return b.build(x + 1.0), (X,)


def _send():
    b = XlaBuilder("send")
    x = _param(b, 0, "f32[3]")
    Send(x, ChannelHandle(1))
    return b.build(x + 1.0), (X,)


def _recv():
    b = XlaBuilder("recv")
    return b.build(Recv(b, Shape.parse("f32[3]"), ChannelHandle(1)) * 2.0), ()


def _feed(module):
    module.infeed.put(X)


# op -> (build, put what the program reads, get what it wrote, expected result, expected written)
EFFECTS = {
    "Infeed": (_infeed, _feed, None, X * 2, None),
    "Outfeed": (_outfeed, None, lambda module: module.outfeed.get(), X + 1, X),
    "Send": (_send, None, lambda module: module.channel(1).get(), X + 1, X),
    "Recv": (_recv, lambda module: module.channel(1).put(X), None, X * 2, None),
}


@pytest.mark.parametrize("op", sorted(EFFECTS))
def test_effect_runs_through_the_host_module(op):
    """host-calls makes each effect a call into the loaded module's queues: infeed and
    outfeed, and channel 1 for a Send or Recv without its partner in the program."""
    build, put, get, expected, written = EFFECTS[op]
    comp, args = build()
    module = hm.runtime.load(hm.compile(comp))
    if put:
        put(module)
    assert_close(module.main(*args), expected, 0, 0, op)
    if get:
        assert_close(get(module), written, 0, 0, f"{op} wrote")


def test_effect_without_host_calls_fails_to_compile_naming_the_op():
    """Without host-calls (a pipeline that leaves it out) the check names the op."""
    comp, _ = _infeed()
    comp.verify()
    with pytest.raises(CompileError, match=r"Infeed is not supported by the IREE runtime: it has no infeed "
                                           r"queue to read from; run pass host-calls") as info:
        hm.compile(comp, passes="iree-unsupported-ops", legalize=False)
    assert "test_side_effects.py:" in str(info.value)  # where the op was built
