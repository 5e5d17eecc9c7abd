"""all-gather-decomposer, all-reduce-simplifier, all-reduce-combiner and
hlo-get-dimension-size-rewriter: modules run for N replicas on one CPU (emulate-replicas,
``hlo_mlir.replicas.run_replicated``) before and after each pass and compared bit for bit
with numpy references, the decomposed gathers also on XLA CPU with N devices
(tests/xla_replicas.py); statistics, options, refusals; hypothesis properties over
generated collective modules (valid IR, idempotence, and the same numbers under a
``SemanticsChecker`` that runs every replica)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from iree.compiler import ir

import hlo_mlir
from hlo_mlir import ConstantR0, Exp, GetDimensionSize, Max, Reduce, SetDimensionSize, Tuple, ir_access
from hlo_mlir.context import as_module
from hlo_mlir.replicas import run_replicated
from hlo_mlir.semantics import SemanticsChecker, random_inputs
from hlo_mlir.shape import Shape
from pipelines import registry
from pipelines.pipeline import run_pipeline
from pipelines.process_groups import grid_of
from pipelines.simplifiers.all_reduce_simplifier import same_data_arguments
from tests.builders import computation
from tests.oracle import check, run_iree
from tests.properties import examples
from tests.xla_replicas import run_xla_replicated

RNG = np.random.default_rng(11)
PASSES = ("all-gather-decomposer", "all-reduce-simplifier", "all-reduce-combiner")


def transformed(text: str, passes: str) -> tuple[ir.Module, dict]:
    """``text`` parsed and run through ``passes``; the module and its statistics."""
    module = as_module(text)
    stats = run_pipeline(module, passes).statistics()
    return module, {name: dict(counter) for name, counter in stats.items()}


def op_names(module: ir.Module) -> list[str]:
    names = []
    module.operation.walk(lambda o: names.append(o.name) or ir.WalkResult.ADVANCE)
    return names


def flat(outputs) -> list[np.ndarray]:
    return [np.asarray(x) for o in outputs for x in (o if isinstance(o, tuple) else (o,))]


def assert_same_bits(before, after) -> None:
    """Per process, every output equal bit for bit (NaN payloads and zero signs included)."""
    for i, (b, a) in enumerate(zip(flat(before), flat(after), strict=True)):
        assert b.dtype == a.dtype and b.shape == a.shape, (i, b, a)
        assert b.tobytes() == a.tobytes(), (i, b, a)


def same_on_replicas(text: str, passes: str, args, n: int, p: int = 1) -> ir.Module:
    """``text`` gives the same bits on every process with and without ``passes``."""
    module, _ = transformed(text, passes)
    before = run_replicated(text, args, n, num_partitions=p)
    after = run_replicated(module, args, n, num_partitions=p)
    assert_same_bits(before, after)
    return module


def reducer(op: str, t: str) -> str:
    return (f"({{\n  ^bb0(%ra: tensor<{t}>, %rb: tensor<{t}>):\n"
            f"    %rs = stablehlo.{op} %ra, %rb : tensor<{t}>\n    stablehlo.return %rs : tensor<{t}>\n  }})")


def all_reduce(result: str, operand: str, op: str, t: str, shape: str, groups: str, extra: str = "") -> str:
    return (f'  {result} = "stablehlo.all_reduce"({operand}) {reducer(op, t)} '
            f"{{replica_groups = {groups}{extra}}} : (tensor<{shape}{t}>) -> tensor<{shape}{t}>\n")


def groups_attr(groups) -> str:
    if not groups:
        return "dense<> : tensor<0x0xi64>"
    return f"dense<{groups}> : tensor<{len(groups)}x{len(groups[0])}xi64>"


def module(n: int, args: str, results: str, body: str, partitions: int = 1) -> str:
    grid = f"mhlo.num_replicas = {n} : i32, mhlo.num_partitions = {partitions} : i32"
    types = ", ".join(t for t in results.split(";"))
    return (f"module attributes {{{grid}}} {{\nfunc.func @main({args}) -> ({types}) {{\n{body}}}\n}}\n")


# --- all-gather-decomposer ------------------------------------------------------------------------
SPECIAL = np.array([-0.0, np.nan, np.inf, -np.inf, 1e-45, -3.5], np.float32)


def all_gather(result: str, operand: str, dim: int, groups, operand_type: str, result_type: str,
               extra: str = "") -> str:
    return (f'  {result} = "stablehlo.all_gather"({operand}) {{all_gather_dim = {dim} : i64, '
            f"replica_groups = {groups_attr(groups)}{extra}}} : ({operand_type}) -> {result_type}\n")


def gather_module(n: int, special: np.ndarray = SPECIAL) -> tuple[str, list]:
    """Gathers over all replicas (empty groups), reordered groups, split groups, of f32
    (signed zeros, NaN, infinities, a denormal), s32 and pred."""
    split = [list(range(0, n, 2)), list(range(1, n, 2))]
    reordered = [list(reversed(range(n)))]
    types = [f"tensor<2x{3 * n}xf32>", f"tensor<{2 * n}x3xf32>", f"tensor<{3 * n // 2}xi32>",
             f"tensor<{n}xi1>"]
    body = (all_gather("%g0", "%x", 1, [], "tensor<2x3xf32>", types[0])
            + all_gather("%g1", "%x", 0, reordered, "tensor<2x3xf32>", types[1])
            + all_gather("%g2", "%y", 0, split, "tensor<3xi32>", types[2],
                         ", channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>")
            + all_gather("%g3", "%p", 0, split, "tensor<2xi1>", types[3])
            + f"  return %g0, %g1, %g2, %g3 : {', '.join(types)}\n")
    text = module(n, "%x: tensor<2x3xf32>, %y: tensor<3xi32>, %p: tensor<2xi1>", ";".join(types), body)
    args = [[RNG.permutation(special).reshape(2, 3), RNG.integers(-9, 9, 3).astype(np.int32),
             RNG.random(2) < 0.5] for _ in range(n)]
    return text, args


def gather_reference(args, n: int) -> list[tuple]:
    xs, ys, ps = ([a[i] for a in args] for i in range(3))
    split = [list(range(0, n, 2)), list(range(1, n, 2))]
    out = []
    for r in range(n):
        group = split[r % 2]
        out.append((np.concatenate(xs, 1), np.concatenate(xs[::-1], 0),
                    np.concatenate([ys[m] for m in group]), np.concatenate([ps[m] for m in group])))
    return out


@pytest.fixture(scope="module")
def decomposed_on_xla():
    """The decomposed f32/s32 gathers for N = 2 and 4 on XLA CPU (one child process)."""
    cases, references = [], []
    for n in (2, 4):
        text, args = gather_module(n)
        decomposed, _ = transformed(text, "all-gather-decomposer")
        cases.append((decomposed, args, n))
        references.append(gather_reference(args, n))
    return run_xla_replicated(cases), references


@pytest.mark.parametrize("n", [2, 4])
def test_decomposed_gathers_are_exact(n, decomposed_on_xla):
    """The -0.0 fill keeps every bit (XLA's +0 fill turns a gathered -0.0 into +0.0): the
    decomposed module gives numpy's concatenations on hlo-mlir and on XLA CPU."""
    text, args = gather_module(n)
    decomposed = same_on_replicas(text, "all-gather-decomposer", args, n)
    assert "stablehlo.all_gather" not in op_names(decomposed)
    expected = gather_reference(args, n)
    assert_same_bits(run_replicated(decomposed, args, n), expected)
    xla, references = decomposed_on_xla
    assert_same_bits(xla[(2, 4).index(n)], references[(2, 4).index(n)])


def test_float_form_keeps_signed_zeros():
    """as-bits=false sums floats over a -0.0 fill: -0.0, NaN and infinities arrive (the
    pinned IREE flushes denormals in the sum, so none is gathered here)."""
    text, args = gather_module(2, np.array([-0.0, np.nan, np.inf, -np.inf, 2.5, -3.5], np.float32))
    decomposed = same_on_replicas(text, "all-gather-decomposer{as-bits=false}", args, 2)
    assert "stablehlo.bitcast_convert" not in op_names(decomposed)


def test_flattened_ids_with_partitions():
    """use_global_device_ids over 2 replicas x 2 partitions: the position table is indexed
    by replica_id * 2 + partition_id; a variadic gather is decomposed operand by operand."""
    body = (all_gather("%r:2", "%x, %y", 0, [[3, 1], [0, 2]], "tensor<2xf32>, tensor<1x2xi32>",
                       "(tensor<4xf32>, tensor<2x2xi32>)",
                       ", channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,"
                       " use_global_device_ids")
            + "  return %r#0, %r#1 : tensor<4xf32>, tensor<2x2xi32>\n")
    text = module(2, "%x: tensor<2xf32>, %y: tensor<1x2xi32>", "tensor<4xf32>;tensor<2x2xi32>", body,
                  partitions=2)
    args = [[RNG.standard_normal(2).astype(np.float32), RNG.integers(0, 9, (1, 2)).astype(np.int32)]
            for _ in range(4)]
    decomposed = same_on_replicas(text, "all-gather-decomposer", args, 2, p=2)
    assert "stablehlo.partition_id" in op_names(decomposed)
    out = run_replicated(decomposed, args, 2, num_partitions=2)
    group = [args[3], args[1]]  # process 1 is second in [3, 1]
    assert_same_bits(out[1], tuple(np.concatenate([a[i] for a in group]) for i in range(2)))


def test_decomposer_refusals():
    """Unknown positions stay gathers: all replicas without a replica count, and a channel
    without global ids over two partitions (the spec's and XLA's group orders differ)."""
    channel = ", channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>"
    by_channel = module(2, "%x: tensor<2xf32>", "tensor<8xf32>", all_gather(
        "%g", "%x", 0, [[0, 1]], "tensor<2xf32>", "tensor<8xf32>", channel) + "  return %g : tensor<8xf32>\n",
        partitions=2)
    all_replicas = ("func.func @main(%x: tensor<2xf32>) -> tensor<4xf32> {\n"
                    + all_gather("%g", "%x", 0, [], "tensor<2xf32>", "tensor<4xf32>")
                    + "  return %g : tensor<4xf32>\n}\n")
    for source in (by_channel, all_replicas):
        decomposed, stats = transformed(source, "all-gather-decomposer")
        assert stats == {} and "stablehlo.all_gather" in op_names(decomposed)


# --- all-reduce-simplifier ------------------------------------------------------------------------
def simplifier_module(n: int) -> str:
    """Sums and maxima of replicated values (a constant, a marked argument, the result of an
    all-reduce over all replicas) and of values that differ (an argument, replica ids)."""
    quarter = [list(range(k, k + n // 2)) for k in (0, n // 2)]
    body = ("  %c = stablehlo.constant dense<[7, -3, 2147483647]> : tensor<3xi32>\n"
            + all_reduce("%s0", "%c", "add", "i32", "3x", groups_attr([list(range(n))]))
            + all_reduce("%s1", "%x", "add", "f32", "3x", groups_attr(quarter))
            + all_reduce("%s2", "%y", "add", "i32", "3x", groups_attr([]))
            + all_reduce("%s3", "%s2", "add", "i32", "3x", groups_attr(quarter))
            + all_reduce("%s4", "%s2", "maximum", "i32", "3x", groups_attr(quarter))
            + all_reduce("%s5", "%x", "add", "f32", "3x", groups_attr([[r] for r in range(n)]))
            + all_reduce("%s6", "%x", "minimum", "f32", "3x", groups_attr([]))
            + "  %id = stablehlo.replica_id : tensor<ui32>\n"
            "  %i = stablehlo.convert %id : (tensor<ui32>) -> tensor<i32>\n"
            "  %ib = stablehlo.broadcast_in_dim %i, dims = [] : (tensor<i32>) -> tensor<3xi32>\n"
            + all_reduce("%s7", "%ib", "add", "i32", "3x", groups_attr([]))
            + "  return %s0, %s1, %s2, %s3, %s4, %s5, %s6, %s7 : tensor<3xi32>, tensor<3xf32>, tensor<3xi32>,"
            " tensor<3xi32>, tensor<3xi32>, tensor<3xf32>, tensor<3xf32>, tensor<3xi32>\n")
    return module(n, "%x: tensor<3xf32> {mhlo.is_same_data_across_replicas = true}, %y: tensor<3xi32>",
                  "tensor<3xi32>;tensor<3xf32>;tensor<3xi32>;tensor<3xi32>;tensor<3xi32>;tensor<3xf32>;"
                  "tensor<3xf32>;tensor<3xi32>", body)


STATS = {2: {"replicated-sum": 1, "replicated-idempotent": 1, "single-process-group": 4},
         4: {"replicated-sum": 3, "replicated-idempotent": 2, "single-process-group": 1}}


@pytest.mark.parametrize("n", [2, 4])
def test_simplifier_replicated_values(n):
    """With 4 replicas five all-reduces become local (a wrapping integer sum, a float sum
    over groups of 2 and a minimum of a marked argument, the sum and the maximum of a sum
    over all replicas), one over one-member groups is its operand (with 2 replicas the
    groups of n/2 have one member); the sums of an argument and of replica ids stay. Same
    bits on every replica before and after."""
    text = simplifier_module(n)
    x = np.array([1.0 + 2.0 ** -23, -0.0, np.float32(3e38)], np.float32)  # rounding, sign, overflow
    args = [[x, RNG.integers(-50, 50, 3).astype(np.int32)] for _ in range(n)]
    simplified = same_on_replicas(text, "all-reduce-simplifier", args, n)
    _, stats = transformed(text, "all-reduce-simplifier")
    assert stats == {"all-reduce-simplifier": STATS[n]}
    assert op_names(simplified).count("stablehlo.all_reduce") == 2


def test_simplifier_keeps_large_float_groups_and_channels():
    """A float sum of a replicated value over 8 replicas may round unlike x * 8 in some
    order (kept); an all-reduce with a channel is not cross-replica (kept); an integer sum
    over 8 is exact (rewritten)."""
    body = (all_reduce("%a", "%x", "add", "f32", "3x", groups_attr([]))
            + all_reduce("%b", "%x", "maximum", "f32", "3x", groups_attr([]),
                         ", channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>")
            + all_reduce("%c", "%y", "add", "i32", "3x", groups_attr([]))
            + "  return %a, %b, %c : tensor<3xf32>, tensor<3xf32>, tensor<3xi32>\n")
    text = module(8, "%x: tensor<3xf32> {mhlo.is_same_data_across_replicas = true}, "
                  "%y: tensor<3xi32> {mhlo.is_same_data_across_replicas = true}",
                  "tensor<3xf32>;tensor<3xf32>;tensor<3xi32>", body)
    _, stats = transformed(text, "all-reduce-simplifier")
    assert stats == {"all-reduce-simplifier": {"replicated-sum": 1}}


def test_gathers_of_one_process_are_their_operand():
    body = (all_gather("%g", "%x", 0, [[0], [1]], "tensor<2xf32>", "tensor<2xf32>")
            + '  %s = "stablehlo.reduce_scatter"(%g) ' + reducer("add", "f32")
            + " {scatter_dimension = 0 : i64, replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>}"
            " : (tensor<2xf32>) -> tensor<2xf32>\n  return %s : tensor<2xf32>\n")
    text = module(2, "%x: tensor<2xf32>", "tensor<2xf32>", body)
    simplified, stats = transformed(text, "all-reduce-simplifier")
    assert stats == {"all-reduce-simplifier": {"same-shape": 2}}
    assert op_names(simplified) == ["func.return", "func.func", "builtin.module"]


# --- all-reduce-combiner --------------------------------------------------------------------------
def combiner_module() -> str:
    """Two f32 sums and one s32 sum over all replicas, a maximum, a sum over other groups,
    and a sum of a negated sum (depends on the first: not combined with it)."""
    all4, split = groups_attr([[0, 1, 2, 3]]), groups_attr([[0, 2], [1, 3]])
    body = (all_reduce("%a", "%x", "add", "f32", "4x", all4)
            + all_reduce("%i", "%z", "add", "i32", "3x", all4)
            + all_reduce("%m", "%x", "maximum", "f32", "4x", all4)
            + all_reduce("%b", "%y", "add", "f32", "2x3x", all4,
                         ", channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>")
            + all_reduce("%s", "%x", "add", "f32", "4x", split)
            + "  %n = stablehlo.negate %a : tensor<4xf32>\n"
            + all_reduce("%c", "%n", "add", "f32", "4x", all4)
            + all_reduce("%j", "%z", "add", "i32", "3x", all4)
            + "  return %a, %b, %i, %m, %s, %c, %j : tensor<4xf32>, tensor<2x3xf32>, tensor<3xi32>,"
            " tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<3xi32>\n")
    return module(4, "%x: tensor<4xf32>, %y: tensor<2x3xf32>, %z: tensor<3xi32>",
                  "tensor<4xf32>;tensor<2x3xf32>;tensor<3xi32>;tensor<4xf32>;tensor<4xf32>;tensor<4xf32>;"
                  "tensor<3xi32>", body)


def combined_sizes(m: ir.Module) -> list[int]:
    sizes = []
    m.operation.walk(lambda o: (sizes.append(len(o.operands)) if o.name == "stablehlo.all_reduce" else None)
                     or ir.WalkResult.ADVANCE)
    return sorted(sizes)


def test_combiner_combines_independent_sums_and_compiles():
    """The f32 sums a and b combine (a channel handle of 0 is no channel), the s32 sums i
    and j combine; the maximum, the split-group sum and the sum that reads a stay. The
    combined module runs with the same bits and compiles (all-reduce-split in iree-legalize
    splits the variadic all-reduce the pinned IREE crashes on)."""
    text = combiner_module()
    args = [[RNG.standard_normal(4).astype(np.float32), RNG.standard_normal((2, 3)).astype(np.float32),
             RNG.integers(-9, 9, 3).astype(np.int32)] for _ in range(4)]
    combined = same_on_replicas(text, "all-reduce-combiner", args, 4)
    _, stats = transformed(text, "all-reduce-combiner")
    assert stats == {"all-reduce-combiner": {"combined": 4}}
    assert combined_sizes(combined) == [1, 1, 1, 2, 2]
    assert hlo_mlir.compile(combined, target="llvm-cpu")


def test_combiner_thresholds():
    text = combiner_module()
    assert combined_sizes(transformed(text, "all-reduce-combiner{threshold-count=1}")[0]) == [1] * 7
    # 16 bytes (f32[4]) + 24 bytes (f32[2,3]) do not fit in 39; s32[3] + s32[3] (24) do.
    by_bytes = transformed(text, "all-reduce-combiner{threshold-bytes=39}")[0]
    assert combined_sizes(by_bytes) == [1, 1, 1, 1, 1, 2]
    cls = registry.get("all-reduce-combiner")
    assert [o.name for o in cls.options()] == ["threshold-bytes", "threshold-count"]


# --- hlo-get-dimension-size-rewriter -------------------------------------------------------------------
def test_get_dimension_size_rewriter_numbers():
    """Static sizes become constants and a size set on a dimension is read as given, also
    outside [0, bound] as XLA reads it (where IREE alone reads the clamped size); a sum over
    the bounded dimension still sees only the valid rows."""
    add = computation("add", ["f32[]", "f32[]"], lambda b, p, q: p + q)

    def fn(b, x, n):
        d = SetDimensionSize(x, n, 0)
        e = d * np.float32(2)
        return Tuple(b, [GetDimensionSize(e, 0), GetDimensionSize(e, 1), GetDimensionSize(x, 0),
                         Reduce(e, ConstantR0(b, np.float32(0)), add, [0, 1])])

    comp = computation("sizes", ["f32[4,3]", "s32[]"], fn)
    x = RNG.standard_normal((4, 3)).astype(np.float32)
    _, stats = transformed(as_module(comp).operation.get_asm(), "hlo-get-dimension-size-rewriter")
    assert stats == {"hlo-get-dimension-size-rewriter": {"dynamic-dimension": 1, "static-dimension": 2}}
    for size in (-2, 0, 2, 4, 7):
        valid = min(max(size, 0), 4)
        expected = (np.int32(size), np.int32(3), np.int32(4), np.float32(2 * x[:valid].sum()))
        check(comp, [x, np.int32(size)], expected, passes="hlo-get-dimension-size-rewriter", rtol=1e-5)
    # Without the pass the size read through the multiply is the clamped one (XLA: as given).
    assert int(run_iree(comp, x, np.int32(7))[0]) == 4


def test_get_dimension_size_of_a_dynamic_argument_stays():
    text = ("func.func @main(%x: tensor<?xf32>) -> tensor<i32> {\n"
            "  %g = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>\n"
            "  return %g : tensor<i32>\n}\n")
    m, stats = transformed(text, "hlo-get-dimension-size-rewriter")
    assert stats == {} and "stablehlo.get_dimension_size" in op_names(m)


def test_summaries():
    for name in (*PASSES, "hlo-get-dimension-size-rewriter"):
        assert registry.get(name).summary()


# --- generated collective modules --------------------------------------------------------------------
GROUPINGS = {2: [[], [[0, 1]], [[1, 0]], [[0], [1]]],
             4: [[], [[0, 1, 2, 3]], [[0, 2], [1, 3]], [[3, 2], [1, 0]], [[0], [1], [2], [3]],
                 [[0, 1], [2, 3]]]}
REDUCERS = {"f32": ("add", "maximum", "minimum"), "i32": ("add", "maximum", "and", "or")}


class _Collectives:
    """One generated N-replica module: element-wise ops, constants and replica ids over
    %x (f32[4], marked replicated or not) and %y (s32[4]); all_reduce and all_gather over
    random groupings; a few results."""

    def __init__(self, draw):
        self.draw = draw
        self.n = draw(st.sampled_from([2, 4]))
        self.names = itertools.count()
        self.lines: list[str] = []
        self.pool = {"f32": ["%x", "%cf"], "i32": ["%y", "%ci", "%ib"]}
        self.outputs: list[tuple[str, str]] = []

    def fresh(self) -> str:
        return f"%v{next(self.names)}"

    def step(self) -> None:
        draw = self.draw
        t = draw(st.sampled_from(["f32", "i32"]))
        a = draw(st.sampled_from(self.pool[t]))
        kind = draw(st.sampled_from(["elementwise", "all_reduce", "all_reduces", "all_gather"]))
        name = self.fresh()
        groups = draw(st.sampled_from(GROUPINGS[self.n]))
        if kind == "all_reduces":  # two alike: combinable unless one reads the other
            op = draw(st.sampled_from(REDUCERS[t]))
            for _ in range(2):
                self.lines.append(all_reduce(name, draw(st.sampled_from(self.pool[t])), op, t, "4x",
                                             groups_attr(groups)))
                self.pool[t].append(name)
                self.outputs.append((name, f"tensor<4x{t}>"))
                name = self.fresh()
            return
        if kind == "elementwise":
            b = draw(st.sampled_from(self.pool[t]))
            op = draw(st.sampled_from(["add", "multiply", "maximum", "subtract"]))
            self.lines.append(f"  {name} = stablehlo.{op} {a}, {b} : tensor<4x{t}>\n")
            self.pool[t].append(name)
        elif kind == "all_reduce":
            op = draw(st.sampled_from(REDUCERS[t]))
            self.lines.append(all_reduce(name, a, op, t, "4x", groups_attr(groups)))
            self.pool[t].append(name)
        else:
            size = len(groups[0]) if groups else self.n
            self.lines.append(all_gather(name, a, 0, groups, f"tensor<4x{t}>", f"tensor<{4 * size}x{t}>"))
            self.outputs.append((name, f"tensor<{4 * size}x{t}>"))
            return
        if draw(st.booleans()):
            self.outputs.append((name, f"tensor<4x{t}>"))

    def text(self) -> str:
        for _ in range(self.draw(st.integers(1, 7))):
            self.step()
        if not self.outputs:
            self.outputs.append((self.pool["f32"][-1], "tensor<4xf32>"))
        marked = " {mhlo.is_same_data_across_replicas = true}" if self.draw(st.booleans()) else ""
        head = ("  %cf = stablehlo.constant dense<[0.5, -0.0, 3.0, 1.0e+38]> : tensor<4xf32>\n"
                "  %ci = stablehlo.constant dense<[1, -7, 2147483647, 0]> : tensor<4xi32>\n"
                "  %id = stablehlo.replica_id : tensor<ui32>\n"
                "  %i = stablehlo.convert %id : (tensor<ui32>) -> tensor<i32>\n"
                "  %ib = stablehlo.broadcast_in_dim %i, dims = [] : (tensor<i32>) -> tensor<4xi32>\n")
        names, types = zip(*self.outputs, strict=True)
        body = head + "".join(self.lines) + f"  return {', '.join(names)} : {', '.join(types)}\n"
        return module(self.n, f"%x: tensor<4xf32>{marked}, %y: tensor<4xi32>", ";".join(types), body)


collective_modules = st.composite(lambda draw: _Collectives(draw).text())


@settings(max_examples=200, deadline=None)
@given(collective_modules(), st.sampled_from(PASSES))
def test_generated_modules_stay_valid_and_passes_are_idempotent(text, name):
    """Each pass leaves valid IR (run_pipeline verifies) and has nothing left to do after
    one run."""
    m = as_module(text)
    run_pipeline(m, name)
    assert not run_pipeline(m, name).changed, m.operation.get_asm()


class ReplicaSemanticsChecker(SemanticsChecker):
    """``SemanticsChecker`` for an N-replica module: every replica runs (emulate-replicas)
    on its own random inputs; arguments marked ``mhlo.is_same_data_across_replicas`` get
    the same input on every replica."""

    def __init__(self, m: ir.Module, seed: int = 0):
        n, p = grid_of(m)
        self.n, self.p = n, p or 1
        entry = ir_access.entry_function(m)
        shapes = [Shape.from_mlir_type(t) for t in ir_access.function_type(entry).inputs]
        same = same_data_arguments(entry)
        self.per_process = [random_inputs(shapes, seed * 101 + k) for k in range(self.n * self.p)]
        for k in range(self.n * self.p):
            for i in same:
                self.per_process[k][i] = self.per_process[0][i]
        super().__init__(m, seed)

    def _run(self) -> list[np.ndarray]:
        return flat(run_replicated(self.module, self.per_process, self.n, num_partitions=self.p))


@settings(max_examples=examples(12), deadline=None)
@given(collective_modules(), st.integers(0, 3))
def test_generated_modules_keep_their_numbers(text, seed):
    """The three passes in a row under the semantics check, every replica run: no difference."""
    m = as_module(text)
    run_pipeline(m, ",".join(PASSES), semantics_checker=lambda mod: ReplicaSemanticsChecker(mod, seed))
    assert "stablehlo.all_gather" not in op_names(m)


SIZES_MODULE = """func.func @main(%x: tensor<4x3xf32>, %k: tensor<i32>)
    -> (tensor<i32>, tensor<i32>, tensor<f32>) {{
  %lo = stablehlo.constant dense<0> : tensor<i32>
  %hi = stablehlo.constant dense<3> : tensor<i32>
  %n = stablehlo.clamp %lo, %k, %hi : tensor<i32>
  %d = stablehlo.set_dimension_size %x, %n, dim = {dim} : (tensor<4x3xf32>, tensor<i32>) -> {t}
  %e = stablehlo.{op} %d, %d : {t}
  %g0 = stablehlo.get_dimension_size %e, dim = 0 : ({t}) -> tensor<i32>
  %g1 = stablehlo.get_dimension_size %e, dim = 1 : ({t}) -> tensor<i32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [0, 1]
      : ({t}, tensor<f32>) -> tensor<f32>
  return %g0, %g1, %s : tensor<i32>, tensor<i32>, tensor<f32>
}}
"""


@settings(max_examples=examples(8), deadline=None)
@given(st.sampled_from([0, 1]), st.sampled_from(["add", "multiply", "maximum"]), st.integers(0, 3))
def test_get_dimension_size_modules_keep_their_numbers(dim, op, seed):
    """The rewriter under the semantics check (random sizes clamped into the bounds: outside
    them the pass gives XLA's answer where the module before it did not, see above)."""
    t = "tensor<?x3xf32, #stablehlo.bounds<4, ?>>" if dim == 0 else "tensor<4x?xf32, #stablehlo.bounds<?, 3>>"
    m = as_module(SIZES_MODULE.format(dim=dim, op=op, t=t))
    result = run_pipeline(m, "set-dimension-size-clamp,hlo-get-dimension-size-rewriter",
                          semantics_checker=lambda mod: SemanticsChecker(mod, seed=seed))
    assert dict(result.statistics()["hlo-get-dimension-size-rewriter"]) == {
        "dynamic-dimension": 1, "static-dimension": 1}


# --- dynamic-padder ------------------------------------------------------------------------------------
def test_dynamic_padder_numbers_match_xla():
    """A sum and a maximum over the bounded dimension and the size read back, padded and
    masked: XLA's answers for sizes inside and outside [0, bound], as before the pass for
    the reduces; no dynamic type is left."""
    add = computation("add", ["f32[]", "f32[]"], lambda b, p, q: p + q)
    big = computation("max", ["f32[]", "f32[]"], lambda b, p, q: Max(p, q))

    def fn(b, x, n):
        d = SetDimensionSize(x, n, 0)
        e = Exp(d) + d
        return Tuple(b, [GetDimensionSize(e, 0), Reduce(e, ConstantR0(b, np.float32(0)), add, [0, 1]),
                         Reduce(d, ConstantR0(b, np.float32(-np.inf)), big, [0])])

    comp = computation("padded", ["f32[4,3]", "s32[]"], fn)
    padded, stats = transformed(as_module(comp).operation.get_asm(), "dynamic-padder")
    assert stats == {"dynamic-padder": {"padded": 1, "masked-reduce": 2, "size-read": 1}}
    assert "set_dimension_size" not in padded.operation.get_asm()
    x = RNG.standard_normal((4, 3)).astype(np.float32)
    for size in (-2, 0, 3, 4, 7):
        rows = x[:min(max(size, 0), 4)]
        expected = (np.int32(size), np.float32((np.exp(rows) + rows).sum()),
                    rows.max(0) if len(rows) else np.full(3, -np.inf, np.float32))
        check(comp, [x, np.int32(size)], expected, passes="dynamic-padder", rtol=1e-5)


PADDER_MODULE = """func.func @main(%x: tensor<4x3x{t}>, %k: tensor<i32>)
    -> (tensor<i32>, tensor<{t}>, tensor<{rest}x{t}>) {{
  %lo = stablehlo.constant dense<0> : tensor<i32>
  %hi = stablehlo.constant dense<{bound}> : tensor<i32>
  %n = stablehlo.clamp %lo, %k, %hi : tensor<i32>
  %d = stablehlo.set_dimension_size %x, %n, dim = {dim} : (tensor<4x3x{t}>, tensor<i32>) -> {dyn}
  %e = stablehlo.{op} %d, %d : {dyn}
  %g = stablehlo.get_dimension_size %e, dim = {dim} : ({dyn}) -> tensor<i32>
  %i = stablehlo.constant dense<{init}> : tensor<{t}>
  %s = stablehlo.reduce(%e init: %i) applies stablehlo.{reducer} across dimensions = [0, 1]
      : ({dyn}, tensor<{t}>) -> tensor<{t}>
  %r = stablehlo.reduce(%d init: %i) applies stablehlo.{reducer} across dimensions = [{dim}]
      : ({dyn}, tensor<{t}>) -> tensor<{rest}x{t}>
  return %g, %s, %r : tensor<i32>, tensor<{t}>, tensor<{rest}x{t}>
}}
"""
PADDER_REDUCERS = {"f32": [("add", "0.0"), ("add", "-0.0"), ("maximum", "0xFF800000"), ("minimum", "0.5")],
                   "i32": [("add", "0"), ("maximum", "-2147483648"), ("minimum", "3"), ("or", "0")]}


@settings(max_examples=examples(12), deadline=None)
@given(st.sampled_from([0, 1]), st.sampled_from(["f32", "i32"]),
       st.sampled_from(["add", "multiply", "maximum"]), st.integers(0, 3), st.integers(0, 3))
def test_dynamic_padder_modules_keep_their_numbers(dim, t, op, which, seed):
    """The padder under the semantics check (sizes clamped into the bound in the module:
    outside it the size read back through an element-wise op is XLA's after the pass)."""
    reducer, init = PADDER_REDUCERS[t][which]
    dyn = (f"tensor<?x3x{t}, #stablehlo.bounds<4, ?>>" if dim == 0 else
           f"tensor<4x?x{t}, #stablehlo.bounds<?, 3>>")
    text = PADDER_MODULE.format(t=t, dim=dim, dyn=dyn, op=op, reducer=reducer, init=init,
                                bound=4 if dim == 0 else 3, rest=3 if dim == 0 else 4)
    m = as_module(text)
    result = run_pipeline(m, "dynamic-padder", semantics_checker=lambda mod: SemanticsChecker(mod, seed=seed))
    assert dict(result.statistics()["dynamic-padder"]) == {"padded": 1, "masked-reduce": 2, "size-read": 1}
