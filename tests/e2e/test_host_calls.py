"""End to end: Infeed, Outfeed, matched Send/Recv and HostFunction custom calls (pass host-calls).

Infeed and Outfeed become calls into a Python VM module the runtime builds
(hlo_mlir/host.py): the program reads ``module.infeed`` and writes ``module.outfeed`` in
program order. Results are compared with numpy: XLA CPU cannot be the reference here
(its infeed waits for a host thread PjRt does not expose, and it has no Python targets).
"""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import hlo_mlir as hm
from hlo_mlir import (
    ChannelHandle,
    ConstantR0,
    CreateToken,
    CustomCall,
    GetTupleElement,
    InfeedWithToken,
    OutfeedWithToken,
    Parameter,
    RecvWithToken,
    RuntimeCallError,
    SendWithToken,
    Shape,
    Tuple,
    While,
    XlaBuilder,
)
from tests.oracle import assert_close

X = np.array([1.5, -2.0, 0.25], np.float32)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def host_targets():
    """Registers HostFunction targets for one test and forgets them after it."""
    names = []

    def register(name, fn):
        hm.register_custom_call_target(name, hm.HostFunction(fn), replace=True)
        names.append(name)

    yield register
    for name in names:
        hm.unregister_custom_call_target(name)


def _load(comp, driver=None):
    return hm.runtime.load(hm.compile(comp, "vulkan-spirv" if driver == "vulkan" else "llvm-cpu"), driver)


def _feed_and_outfeed() -> hm.XlaComputation:
    """Reads (f32[3], s32[]) from the infeed; outfeeds x * fed, then the count + 1."""
    b = XlaBuilder("feeds")
    x = Parameter(b, 0, Shape.parse("f32[3]"))
    fed = InfeedWithToken(CreateToken(b), Shape.parse("(f32[3], s32[])"))
    values, token = GetTupleElement(fed, 0), GetTupleElement(fed, 1)
    v, n = GetTupleElement(values, 0), GetTupleElement(values, 1)
    token = OutfeedWithToken(x * v, token, Shape.parse("f32[3]"), "")
    OutfeedWithToken(n + 1, token, Shape.parse("s32[]"), "")
    return b.build(v - x)


@pytest.mark.parametrize("driver", [None, pytest.param("vulkan", marks=pytest.mark.vulkan)])
def test_values_in_through_infeed_out_through_outfeed_in_order(driver):
    module = _load(_feed_and_outfeed(), driver)
    fed = np.array([4.0, 0.5, -1.0], np.float32)
    for k in range(2):  # two calls, two values each way
        module.infeed.put((fed + k, np.int32(7 + k)))
    for k in range(2):
        assert_close(module.main(X), fed + k - X, 0, 0, "result")
    outs = [module.outfeed.get() for _ in range(4)]
    assert_close(outs[0], X * fed, 0, 0, "outfeed 0")
    assert outs[1] == 8 and outs[1].dtype == np.int32
    assert_close(outs[2], X * (fed + 1), 0, 0, "outfeed 2")
    assert outs[3] == 9
    assert len(module.outfeed) == len(module.infeed) == 0


def test_while_loop_reads_the_infeed_every_trip():
    """A loop of 4 trips adds an infed f32[2] to its state each trip and outfeeds the sum."""
    state = Shape.parse("(s32[], f32[2], token[])")
    cb = XlaBuilder("cond")
    cond = cb.build(GetTupleElement(Parameter(cb, 0, state), 0) < 4)
    bb = XlaBuilder("body")
    p = Parameter(bb, 0, state)
    i, acc, t = (GetTupleElement(p, k) for k in range(3))
    fed = InfeedWithToken(t, Shape.parse("f32[2]"))
    total = acc + GetTupleElement(fed, 0)
    t = OutfeedWithToken(total, GetTupleElement(fed, 1), Shape.parse("f32[2]"), "")
    body = bb.build(Tuple(bb, [i + 1, total, t]))
    b = XlaBuilder("loop")
    x0 = Parameter(b, 0, Shape.parse("f32[2]"))
    out = While(cond, body, Tuple(b, [ConstantR0(b, np.int32(0)), x0, CreateToken(b)]))
    module = _load(b.build(GetTupleElement(out, 1)))
    feeds = [np.array([k, -2.0 * k], np.float32) for k in (1, 2, 3, 4)]
    for f in feeds:
        module.infeed.put(f)
    x0 = np.array([0.5, 0.25], np.float32)
    expected = x0 + np.cumsum(feeds, axis=0)
    assert_close(module.main(x0), expected[-1], 0, 0, "result")
    assert_close(np.stack([module.outfeed.get() for _ in feeds]), expected, 0, 0, "outfeeds")


def test_empty_infeed_is_an_error_not_a_hang():
    module = _load(_feed_and_outfeed())
    with pytest.raises(RuntimeCallError, match=r"Infeed requires a value in module.infeed; got an empty "
                                               r"queue .* reads \(f32\[3\], s32\[\]\)"):
        module.main(X)
    module.infeed.put((np.zeros(2, np.float32), np.int32(0)))
    with pytest.raises(RuntimeCallError,
                       match=r"Infeed requires a value of shape f32\[3\]; got float32\[2\]"):
        module.main(X)


def test_send_and_recv_on_one_channel_become_data_flow():
    b = XlaBuilder("send_recv")
    x = Parameter(b, 0, Shape.parse("f32[3]"))
    sent = SendWithToken(x * 3.0, CreateToken(b), ChannelHandle(1))
    received = RecvWithToken(sent, Shape.parse("f32[3]"), ChannelHandle(1))
    comp = b.build(GetTupleElement(received, 0) + x)
    assert_close(_load(comp).main(X), X * 4, 0, 0, "hlo-mlir vs numpy")


def _host_call(target: str, shape: str) -> hm.XlaComputation:
    b = XlaBuilder("host_call")
    x, y = Parameter(b, 0, Shape.parse("f32[2,3]")), Parameter(b, 1, Shape.parse("s32[3]"))
    out = CustomCall(b, target, [x * 2.0, y], Shape.parse(shape))
    return b.build(out)


@pytest.mark.parametrize("driver", [None, pytest.param("vulkan", marks=pytest.mark.vulkan)])
def test_python_custom_call_computes_what_numpy_does(host_targets, driver):
    """Like jax.pure_callback: numpy arrays in, the declared result shapes out (two here)."""
    seen = []

    def solve_and_count(a, counts):
        seen.append((a.copy(), counts.copy()))
        return np.linalg.svd(a, compute_uv=False).astype(np.float32), np.cumsum(counts).astype(np.int32)

    host_targets("test_svd_cumsum", solve_and_count)
    comp = _host_call("test_svd_cumsum", "(f32[2], s32[3])")
    a = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5
    counts = np.array([3, -1, 4], np.int32)
    out = _load(comp, driver).main(a, counts)
    expected = (np.linalg.svd(2 * a, compute_uv=False).astype(np.float32), np.cumsum(counts, dtype=np.int32))
    assert_close(out, expected, 0, 0, "hlo-mlir vs numpy")
    assert_close(seen[0], (2 * a, counts), 0, 0, "operands the function saw")


def test_host_function_errors_reach_the_caller(host_targets):
    host_targets("test_bad", lambda a, c: np.zeros(2, np.float32))  # one result, two declared
    with pytest.raises(RuntimeCallError, match=r"CustomCall target 'test_bad' requires its function to "
                                               r"return 2 arrays \(f32\[2\], s32\[3\]\); got ndarray\."):
        _load(_host_call("test_bad", "(f32[2], s32[3])")).main(np.ones((2, 3), np.float32),
                                                               np.ones(3, np.int32))

    def fails(a, c):
        raise ZeroDivisionError("no")

    host_targets("test_raises", fails)
    with pytest.raises(RuntimeCallError, match=r"a host call failed: ZeroDivisionError: no") as info:
        _load(_host_call("test_raises", "f32[2,3]")).main(np.ones((2, 3), np.float32), np.ones(3, np.int32))
    assert isinstance(info.value.__cause__, ZeroDivisionError)


def test_unregistered_host_function_fails_at_load(host_targets):
    host_targets("test_gone", lambda a, c: a)
    vmfb = hm.compile(_host_call("test_gone", "f32[2,3]"))
    hm.unregister_custom_call_target("test_gone")
    with pytest.raises(RuntimeCallError, match=r"the vmfb calls CustomCall target\(s\) 'test_gone' on the "
                                               r"host, which require a HostFunction registered"):
        hm.runtime.load(vmfb)


def test_send_in_one_program_recv_in_another_through_the_host():
    """A Send without its Recv writes module.channel(h); the host hands the value on."""
    b = XlaBuilder("producer")
    x = Parameter(b, 0, Shape.parse("f32[3]"))
    SendWithToken(x * x, CreateToken(b), ChannelHandle(7))
    producer = _load(b.build(x))
    b = XlaBuilder("consumer")
    y = Parameter(b, 0, Shape.parse("f32[3]"))
    received = RecvWithToken(CreateToken(b), Shape.parse("f32[3]"), ChannelHandle(7))
    consumer = _load(b.build(GetTupleElement(received, 0) - y))
    producer.main(X)
    consumer.channel(7).put(producer.channel(7).get())
    assert_close(consumer.main(X), X * X - X, 0, 0, "hlo-mlir vs numpy")
    with pytest.raises(RuntimeCallError, match=r"Recv requires a value in module.channel\(7\); got an empty"):
        consumer.main(X)


def test_module_alive_at_exit_prints_no_leak_report():
    """nanobind reports a Python VM module still alive at interpreter exit as ~120 lines of
    leaks (docs/iree-defects.md); the runtime releases host modules at exit."""
    script = textwrap.dedent("""
        import numpy as np, hlo_mlir as hm
        hm.register_custom_call_target("double", hm.HostFunction(lambda a: a * 2))
        b = hm.XlaBuilder("feed")
        fed = hm.Infeed(b, hm.Shape.parse("f32[2]"))
        module = hm.runtime.load(hm.compile(b.build(hm.CustomCall(b, "double", [fed], fed.shape))))
        module.infeed.put(np.ones(2, np.float32))
        print(module.main())
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                          cwd=ROOT, env=os.environ | {"PYTHONPATH": ROOT})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[2. 2.]"
    assert "leaked" not in done.stderr, done.stderr[-2000:]


def test_compile_cache_follows_the_target_registration(tmp_path, monkeypatch):
    """The same program compiled again after its target is registered anew (another
    expansion, or a HostFunction) is not served the old vmfb from the compile cache."""
    monkeypatch.setenv("HLO_MLIR_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("HLO_MLIR_CACHE", raising=False)

    def run():
        b = XlaBuilder("cached")
        x = Parameter(b, 0, Shape.parse("f32[3]"))
        comp = b.build(CustomCall(b, "test_cached", [x], Shape.parse("f32[3]")))
        return _load(comp).main(X)

    try:
        hm.register_custom_call_target("test_cached", lambda b, ops, opaque: ops[0] * 2.0)
        assert_close(run(), X * 2, 0, 0, "first expansion")
        assert_close(run(), X * 2, 0, 0, "first expansion, cached")
        hm.register_custom_call_target("test_cached", lambda b, ops, opaque: ops[0] * 3.0, replace=True)
        assert_close(run(), X * 3, 0, 0, "second expansion")
        hm.register_custom_call_target("test_cached", hm.HostFunction(lambda a: a * 4), replace=True)
        assert_close(run(), X * 4, 0, 0, "host function")
    finally:
        hm.unregister_custom_call_target("test_cached")
