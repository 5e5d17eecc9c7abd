"""Collectives end to end: built with the builder, run for N = 2 and N = 4 replicas on one
CPU through ``emulate-replicas`` (hlo_mlir's path), and checked against per-replica numpy
references AND against XLA CPU running the same, non-emulated, module on N CPU devices
(tests/xla_replicas.py; one child process runs every case). Each case batches several
replica groupings (all replicas, split groups, reversed order) in one module.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Callable

import numpy as np
import pytest

import hlo_mlir
from dialect_ops.collectives import set_replica_count
from hlo_mlir import (
    Add,
    AllGather,
    AllReduce,
    AllToAll,
    Call,
    CollectivePermute,
    ConstantR0,
    ConvertElementType,
    CrossReplicaSum,
    DTypeError,
    Gt,
    InvalidArgumentError,
    Lt,
    Max,
    Parameter,
    ReduceScatter,
    ReplicaId,
    Select,
    Shape,
    ShapeError,
    Tuple,
    While,
    XlaBuilder,
)
from hlo_mlir.replicas import run_replicated
from pipelines.legalizations.emulate_replicas import emulate_replicas
from tests.oracle import assert_close
from tests.xla_replicas import run_xla_replicated

RNG = np.random.default_rng(3)


# --- numpy references, per replica ----------------------------------------------------------------
def _full(n, groups):
    return groups or [list(range(n))]


def ref_all_reduce(xs, groups, fn):
    out = [None] * len(xs)
    for g in _full(len(xs), groups):
        acc = xs[g[0]]
        for m in g[1:]:
            acc = fn(acc, xs[m])
        for m in g:
            out[m] = acc
    return out


def ref_all_gather(xs, groups, dim):
    out = [None] * len(xs)
    for g in _full(len(xs), groups):
        for m in g:
            out[m] = np.concatenate([xs[i] for i in g], axis=dim)
    return out


def ref_reduce_scatter(xs, groups, dim, fn):
    reduced = ref_all_reduce(xs, groups, fn)
    out = [None] * len(xs)
    for g in _full(len(xs), groups):
        for k, m in enumerate(g):
            out[m] = np.split(reduced[m], len(g), axis=dim)[k]
    return out


def ref_all_to_all(xs, groups, split, concat):
    out = [None] * len(xs)
    for g in _full(len(xs), groups):
        for k, m in enumerate(g):
            out[m] = np.concatenate([np.split(xs[i], len(g), axis=split)[k] for i in g], axis=concat)
    return out


def ref_permute(xs, pairs):
    out = [np.zeros_like(x) for x in xs]
    for s, t in pairs:
        out[t] = xs[s]
    return out


def _transpose(per_output):
    """[output][replica] -> [replica] of flat tuples."""
    return [tuple(o[r] for o in per_output) for r in range(len(per_output[0]))]


# --- computations -----------------------------------------------------------------------------------
def _scalar_computation(name, dtype, fn):
    b = XlaBuilder(name)
    s = Shape.scalar_shape(dtype)
    return b.build(fn(Parameter(b, 0, s, "a"), Parameter(b, 1, s, "b")))


def _adder(dtype):
    return _scalar_computation("add", dtype, Add)


def _select_max(dtype):
    """max written as select(a > b, a, b): not a single element-wise op (the map path)."""
    return _scalar_computation("select_max", dtype, lambda a, b: Select(Gt(a, b), a, b))


def _builder(n, shape, name):
    b = XlaBuilder(name)
    set_replica_count(b, n)
    return b, Parameter(b, 0, Shape.parse(shape), "x")


def _inputs(n, shape, dtype):
    dims = Shape.parse(shape).dimensions
    if np.dtype(dtype).kind in "iu":
        return [RNG.integers(-50, 50, dims).astype(dtype) for _ in range(n)]
    return [RNG.standard_normal(dims).astype(dtype) for _ in range(n)]


# Groupings per replica count: all replicas (None), split groups, groups in reversed order.
SPLIT = {2: [[0], [1]], 4: [[0, 2], [1, 3]]}
REVERSED = {2: [[1, 0]], 4: [[3, 2], [1, 0]]}


@dataclasses.dataclass
class Case:
    computation: object
    args: list  # per replica: a list of arguments
    expected: list  # per replica
    rtol: float = 1e-5
    # XLA CPU runs only all-reduce computations it recognizes (add, mul, min, max, and, or,
    # ...): others fail with "UNIMPLEMENTED: Unsupported reduction computation".
    xla: bool = True


def case_replica_id(n):
    b, x = _builder(n, "f32[3]", "replica_id")
    rid = ReplicaId(b)
    c = b.build(Tuple(b, [rid, x * ConvertElementType(rid, np.float32)]))
    xs = _inputs(n, "f32[3]", np.float32)
    return Case(c, [[x] for x in xs], [(np.uint32(r), xs[r] * r) for r in range(n)])


def case_all_reduce(n):
    b, x = _builder(n, "f32[2,3]", "all_reduce")
    y = Parameter(b, 1, Shape.parse("s32[5]"), "y")
    add_f, max_s = _adder(np.float32), _scalar_computation("max", np.int32, Max)
    uneven = [[0], [1, 2, 3]] if n == 4 else [[1], [0]]
    outs = [AllReduce(x, add_f), AllReduce(x, add_f, SPLIT[n]), AllReduce(y, max_s, REVERSED[n]),
            AllReduce(y, max_s, uneven), AllReduce(Tuple(b, [x, x * 2.0]), add_f, channel_id=1,
                                                   use_global_device_ids=True)]
    c = b.build(Tuple(b, outs))
    xs, ys = _inputs(n, "f32[2,3]", np.float32), _inputs(n, "s32[5]", np.int32)
    expected = _transpose([ref_all_reduce(xs, None, np.add), ref_all_reduce(xs, SPLIT[n], np.add),
                           ref_all_reduce(ys, REVERSED[n], np.maximum),
                           ref_all_reduce(ys, uneven, np.maximum), ref_all_reduce(xs, None, np.add),
                           ref_all_reduce([v * 2 for v in xs], None, np.add)])
    return Case(c, [[xs[r], ys[r]] for r in range(n)], expected)


def case_custom_reducer(n):
    """Reducers that are not one element-wise op go through stablehlo.map (numpy only: XLA
    CPU rejects such all-reduce computations)."""
    b, x = _builder(n, "s32[2,4]", "custom_reducer")
    max_s = _select_max(np.int32)
    c = b.build(Tuple(b, [AllReduce(x, max_s, SPLIT[n]), ReduceScatter(x, max_s, 1, n)]))
    xs = _inputs(n, "s32[2,4]", np.int32)
    return Case(c, [[x] for x in xs], _transpose([ref_all_reduce(xs, SPLIT[n], np.maximum),
                                                  ref_reduce_scatter(xs, None, 1, np.maximum)]), xla=False)


def case_cross_replica_sum(n):
    # No replica count on the builder: "all replicas" is the empty replica_groups attribute.
    b = XlaBuilder("cross_replica_sum")
    x = Parameter(b, 0, Shape.parse("s32[4]"), "x")
    c = b.build(Tuple(b, [CrossReplicaSum(x), CrossReplicaSum(x, SPLIT[n])]))
    xs = _inputs(n, "s32[4]", np.int32)
    expected = _transpose([ref_all_reduce(xs, None, np.add), ref_all_reduce(xs, SPLIT[n], np.add)])
    return Case(c, [[x] for x in xs], expected)


def case_all_gather(n):
    b, x = _builder(n, "f32[2,3]", "all_gather")
    half = n // 2 if n > 2 else 1
    c = b.build(Tuple(b, [AllGather(x, 0, n), AllGather(x, 1, half, SPLIT[n], channel_id=2),
                          AllGather(x, 1, len(REVERSED[n][0]), REVERSED[n])]))
    xs = _inputs(n, "f32[2,3]", np.float32)
    expected = _transpose([ref_all_gather(xs, None, 0), ref_all_gather(xs, SPLIT[n], 1),
                           ref_all_gather(xs, REVERSED[n], 1)])
    return Case(c, [[x] for x in xs], expected)


def case_all_to_all(n):
    b, x = _builder(n, "s32[4,8]", "all_to_all")
    g = len(SPLIT[n][0])
    c = b.build(Tuple(b, [AllToAll(x, 1, 0, n), AllToAll(x, 0, 1, g, SPLIT[n]),
                          AllToAll(x, 1, 1, len(REVERSED[n][0]), REVERSED[n])]))
    xs = _inputs(n, "s32[4,8]", np.int32)
    expected = _transpose([ref_all_to_all(xs, None, 1, 0), ref_all_to_all(xs, SPLIT[n], 0, 1),
                           ref_all_to_all(xs, REVERSED[n], 1, 1)])
    return Case(c, [[x] for x in xs], expected)


def case_reduce_scatter(n):
    b, x = _builder(n, "f32[8,2]", "reduce_scatter")
    add_f, max_f = _adder(np.float32), _scalar_computation("max", np.float32, Max)
    c = b.build(Tuple(b, [ReduceScatter(x, add_f, 0, n),
                          ReduceScatter(x, max_f, 0, len(SPLIT[n][0]), SPLIT[n]),
                          ReduceScatter(x, add_f, 0, len(REVERSED[n][0]), REVERSED[n], channel_id=4)]))
    xs = _inputs(n, "f32[8,2]", np.float32)
    expected = _transpose([ref_reduce_scatter(xs, None, 0, np.add),
                           ref_reduce_scatter(xs, SPLIT[n], 0, np.maximum),
                           ref_reduce_scatter(xs, REVERSED[n], 0, np.add)])
    return Case(c, [[x] for x in xs], expected)


def case_collective_permute(n):
    b, x = _builder(n, "f32[2,2]", "collective_permute")
    cycle = [(i, (i + 1) % n) for i in range(n)]
    partial = [(0, n - 1)]
    c = b.build(Tuple(b, [CollectivePermute(x, cycle), CollectivePermute(x, partial),
                          CollectivePermute(x, [])]))
    xs = _inputs(n, "f32[2,2]", np.float32)
    expected = _transpose([ref_permute(xs, cycle), ref_permute(xs, partial), ref_permute(xs, [])])
    return Case(c, [[x] for x in xs], expected)


def case_id_in_loop_and_call(n):
    """replica_id inside a while body (made a constant per copy) and an AllGather inside a
    called computation (inlined, then emulated)."""
    cond = XlaBuilder("cond")
    cond_c = cond.build(Lt(Parameter(cond, 0, Shape.parse("s32[]"), "i"), ConstantR0(cond, np.int32(10))))
    body = XlaBuilder("body")
    i = Parameter(body, 0, Shape.parse("s32[]"), "i")
    body_c = body.build(i + (ConvertElementType(ReplicaId(body), np.int32) + np.int32(1)))
    callee = XlaBuilder("gather")
    set_replica_count(callee, n)
    callee_c = callee.build(AllGather(Parameter(callee, 0, Shape.parse("f32[3]"), "v"), 0, n))
    b, x = _builder(n, "f32[3]", "nested")
    c = b.build(Tuple(b, [While(cond_c, body_c, ConstantR0(b, np.int32(0))), Call(b, callee_c, [x])]))
    xs = _inputs(n, "f32[3]", np.float32)
    steps = [np.int32(-(-10 // (r + 1)) * (r + 1)) for r in range(n)]
    return Case(c, [[x] for x in xs], [(steps[r], np.concatenate(xs)) for r in range(n)])


CASES: dict[str, Callable[[int], Case]] = {
    "ReplicaId": case_replica_id, "AllReduce": case_all_reduce, "custom-reducer": case_custom_reducer,
    "CrossReplicaSum": case_cross_replica_sum,
    "AllGather": case_all_gather, "AllToAll": case_all_to_all, "ReduceScatter": case_reduce_scatter,
    "CollectivePermute": case_collective_permute, "nested": case_id_in_loop_and_call,
}
PARAMS = [(name, n) for name in CASES for n in (2, 4)]


@functools.cache
def _case(name, n) -> Case:
    return CASES[name](n)


@pytest.fixture(scope="module")
def xla_results():
    """Every case on XLA CPU, N devices each, in one child process."""
    params = [p for p in PARAMS if _case(*p).xla]
    results = run_xla_replicated([(_case(*p).computation, _case(*p).args, p[1]) for p in params])
    return dict(zip(params, results, strict=True))


@pytest.mark.parametrize("name,n", PARAMS, ids=[f"{name}-N{n}" for name, n in PARAMS])
def test_collective(name, n, xla_results):
    case = _case(name, n)
    ours = run_replicated(case.computation, case.args, n)
    for r in range(n):
        assert_close(ours[r], case.expected[r], case.rtol, 1e-5, f"hlo-mlir replica {r} vs numpy")
        if case.xla:
            assert_close(xla_results[(name, n)][r], case.expected[r], case.rtol, 1e-5,
                         f"XLA replica {r} vs numpy")


def test_emulated_module_runs_on_xla_too():
    """The emulated single-device module is ordinary StableHLO: XLA (one device) agrees."""
    from tests.oracle import run_xla

    case = _case("AllToAll", 4)
    emulated = emulate_replicas(case.computation)
    flat = run_xla(emulated, *[a for args in case.args for a in args])
    per = len(flat) // 4
    for r in range(4):
        assert_close(tuple(flat[r * per:(r + 1) * per]), case.expected[r], what=f"replica {r}")


@pytest.mark.parametrize("name", ["AllReduce", "AllToAll", "ReduceScatter", "CollectivePermute"])
def test_compiles_for_cuda(name):
    """The non-emulated module (real collectives) compiles for CUDA, as a multi-GPU run needs
    (docs/collectives.md; running it needs NCCL and one process per GPU). The N = 2 AllToAll
    has a split_count = 1 all_to_all, which needs trivial-collectives."""
    vmfb = hlo_mlir.compile(_case(name, 2).computation, target="cuda")
    assert b"cuda" in vmfb and b"hal.command_buffer.collective" in vmfb


VARIADIC = """module attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<4x6xf32>, %y: tensor<4xf32>) -> (tensor<4x6xf32>, tensor<4xf32>) {
    %r:2 = "stablehlo.all_reduce"(%x, %y) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
      : (tensor<4x6xf32>, tensor<4xf32>) -> (tensor<4x6xf32>, tensor<4xf32>)
    return %r#0, %r#1 : tensor<4x6xf32>, tensor<4xf32>
  }
}"""


def test_variadic_all_reduce():
    """A variadic all_reduce (as XLA and JAX emit for tuples) is emulated operand by operand,
    and all-reduce-split makes it compile (the pinned IREE segfaults on it)."""
    from pipelines.registry import get

    xs = [[RNG.standard_normal((4, 6)).astype(np.float32), RNG.standard_normal(4).astype(np.float32)]
          for _ in range(2)]
    ours = run_replicated(VARIADIC, xs, 2)
    for r in range(2):
        assert_close(ours[r], (xs[0][0] + xs[1][0], xs[0][1] + xs[1][1]), what=f"replica {r}")
    module = hlo_mlir.compiler.as_module(VARIADIC)
    assert get("all-reduce-split")().run(module)
    assert b"hal.command_buffer.collective" in hlo_mlir.compile(module, target="cuda")


def test_iree_legalize_runs_the_collective_passes():
    """hlo_mlir.compile itself splits variadic all-reduces (needs all-reduce-split and
    trivial-collectives in pipelines.presets.IREE_LEGALIZE; without it the compile would
    crash the process, so that is checked first)."""
    from pipelines.presets import IREE_LEGALIZE

    assert {"all-reduce-split", "trivial-collectives"} <= set(IREE_LEGALIZE)
    assert b"hal.command_buffer.collective" in hlo_mlir.compile(VARIADIC, target="cuda")


# --- errors ---------------------------------------------------------------------------------------------
def test_shape_rule_errors():
    b, x = _builder(4, "f32[4,6]", "errors")
    with pytest.raises(ShapeError,
                       match=r"AllToAll requires the split dimension's size divisible by split_count; got "
                             r"size 6 of dimension 1 of f32\[4,6\] and split_count=4\."):
        AllToAll(x, 1, 0, 4)
    with pytest.raises(ShapeError,
                       match=r"ReduceScatter requires the scatter dimension's size divisible by "
                             r"shard_count; got size 6 of dimension 1 of f32\[4,6\] and shard_count=4\."):
        ReduceScatter(x, _adder(np.float32), 1, 4)
    with pytest.raises(InvalidArgumentError,
                       match=r"AllGather requires replica groups of size 3 .*got \[\[0, 1\], \[2, 3\]\]"):
        AllGather(x, 0, 3, [[0, 1], [2, 3]])
    with pytest.raises(InvalidArgumentError,
                       match=r"AllGather requires shard_count equal to the number of replicas \(4\) when "
                             r"all replicas form one group; got 2\."):
        AllGather(x, 0, 2)
    with pytest.raises(InvalidArgumentError,
                       match=r"AllGather requires all_gather_dimension in \[0, 2\); got 2"):
        AllGather(x, 2, 4)


def test_replica_group_errors():
    b, x = _builder(4, "f32[4]", "groups")
    add = _adder(np.float32)
    with pytest.raises(InvalidArgumentError,
                       match=r"AllReduce requires replica_groups that partition the replicas \[0, 4\) "
                             r".*got \[\[0, 1\], \[1, 2, 3\]\] \(replica 1 in two groups\)"):
        AllReduce(x, add, [[0, 1], [1, 2, 3]])
    with pytest.raises(InvalidArgumentError, match=r"replica 3 missing, replica 5 out of range"):
        AllGather(x, 0, 2, [[0, 1], [2, 5]])
    with pytest.raises(InvalidArgumentError,
                       match=r"AllToAll requires replica groups of one size; got \[\[0\], \[1, 2, 3\]\]"):
        AllToAll(x, 0, 0, 1, [[0], [1, 2, 3]])
    # Without a replica count the groups must still partition [0, M) for some M.
    b2 = XlaBuilder("no_count")
    y = Parameter(b2, 0, Shape.parse("f32[4]"))
    with pytest.raises(InvalidArgumentError, match=r"partition the replicas \[0, 2\) .*replica 0 missing"):
        AllReduce(y, add, [[1, 2]])


def test_permute_and_reducer_errors():
    b, x = _builder(4, "f32[4]", "permute")
    with pytest.raises(InvalidArgumentError,
                       match=r"CollectivePermute requires distinct source replicas; got source 0 twice in "
                             r"\[\(0, 1\), \(0, 2\)\]\."):
        CollectivePermute(x, [(0, 1), (0, 2)])
    with pytest.raises(InvalidArgumentError,
                       match=r"CollectivePermute requires distinct target replicas; got target 1"):
        CollectivePermute(x, [(0, 1), (2, 1)])
    with pytest.raises(InvalidArgumentError,
                       match=r"CollectivePermute requires replica ids in \[0, 4\); got 7"):
        CollectivePermute(x, [(0, 7)])
    with pytest.raises(DTypeError,
                       match=r"AllReduce requires a computation of shape \(f32\[\], f32\[\]\) -> f32\[\] "
                             r"for an operand of element type f32; got \(a: s32\[\], b: s32\[\]\) -> "
                             r"s32\[\]"):
        AllReduce(x, _adder(np.int32))
    with pytest.raises(InvalidArgumentError,
                       match=r"AllReduce requires a channel_id when use_global_device_ids is set"):
        AllReduce(x, _adder(np.float32), use_global_device_ids=True)
    with pytest.raises(InvalidArgumentError, match=r"AllReduce requires a positive channel_id; got 0"):
        AllReduce(x, _adder(np.float32), channel_id=0)
    with pytest.raises(ShapeError,
                       match=r"AllReduce requires an array or a non-empty tuple of arrays; got \(\)"):
        AllReduce(Tuple(b, []), _adder(np.float32))


def test_emulation_errors():
    # A collective inside a while body is refused with the limitation named.
    body = XlaBuilder("body")
    body_c = body.build(CrossReplicaSum(Parameter(body, 0, Shape.parse("f32[2]"), "v")))
    cond = XlaBuilder("cond")
    Parameter(cond, 0, Shape.parse("f32[2]"), "v")
    cond_c = cond.build(ConstantR0(cond, False))
    b, x = _builder(2, "f32[2]", "loop")
    looped = b.build(While(cond_c, body_c, x))
    with pytest.raises(InvalidArgumentError,
                       match=r"emulate-replicas requires collectives at the top level of the entry "
                             r"function; got stablehlo.all_reduce inside stablehlo.while"):
        emulate_replicas(looped)
    plain = XlaBuilder("plain")
    plain_c = plain.build(CrossReplicaSum(Parameter(plain, 0, Shape.parse("f32[2]"))))
    with pytest.raises(InvalidArgumentError, match=r"emulate-replicas requires a replica count"):
        emulate_replicas(plain_c)
    with pytest.raises(InvalidArgumentError,
                       match=r"num-replicas equal to the module's mhlo.num_replicas; got 4 and 2"):
        emulate_replicas(_case("AllGather", 2).computation, 4)
    with pytest.raises(InvalidArgumentError,
                       match=r"run_replicated requires one argument list per replica \(4\); got 2\."):
        run_replicated(plain_c, [[np.zeros(2, np.float32)]] * 2, 4)
    # A shard count that is not the size of the one group of all replicas.
    gather = XlaBuilder("gather")
    gather_c = gather.build(AllGather(Parameter(gather, 0, Shape.parse("f32[2]")), 0, 2))
    with pytest.raises(InvalidArgumentError,
                       match=r"emulate-replicas requires stablehlo.all_gather results that match its "
                             r"replica groups; got result types \['tensor<4xf32>'\] but replica 0 of its "
                             r"group receives \['tensor<8xf32>'\]"):
        emulate_replicas(gather_c, 4)
