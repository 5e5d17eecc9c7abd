"""End to end: While, Conditional and Map against Python/numpy references and XLA CPU, on
the same module; errors are checked for their message.

A module is compiled once and run on several inputs (``check_cases``) where the cases
differ only in their inputs (trip counts, branch indices).
"""

import numpy as np
import pytest

import hlo_mlir
from hlo_mlir import (
    Call,
    Conditional,
    ConstantR0,
    ConvertElementType,
    Dot,
    DTypeError,
    GetTupleElement,
    InvalidArgumentError,
    Map,
    Parameter,
    Reduce,
    Select,
    Shape,
    ShapeError,
    Slice,
    Sqrt,
    Tuple,
    While,
    XlaBuilder,
)
from tests.builders import computation
from tests.oracle import assert_close, check, run_xla

F32, S32 = hlo_mlir.PrimitiveType.F32, hlo_mlir.PrimitiveType.S32


def check_cases(comp, cases, rtol=1e-5, atol=1e-6):
    """Compiles ``comp`` once, runs every ``(args, expected)`` case with hlo-mlir and XLA CPU."""
    run = hlo_mlir.runtime.load(hlo_mlir.compile(comp)).main
    for args, expected in cases:
        assert_close(run(*args), expected, rtol, atol, f"hlo-mlir vs numpy for {args}")
        assert_close(run_xla(comp, *args), expected, rtol, atol, f"XLA vs numpy for {args}")


def elements(t, n):
    return [GetTupleElement(t, i) for i in range(n)]


# --- While --------------------------------------------------------------------------------------
@pytest.mark.parametrize("name,dtype", [("f32", np.float32), ("s32", np.int32), ("f64", np.float64)])
def test_while_counted_loop_with_tuple_state(name, dtype):
    """state (i, n, acc, x): acc += x * i while i < n; n <= 0 runs zero times."""
    state = f"(s32[], s32[], {name}[4], {name}[4])"

    def body(b, t):
        i, n, acc, x = elements(t, 4)
        return Tuple(b, [i + 1, n, acc + x * ConvertElementType(i, acc.shape.element_type), x])

    cond = computation("cond", [state], lambda b, t: GetTupleElement(t, 0) < GetTupleElement(t, 1))
    loop = computation("body", [state], body)
    comp = computation(f"counted_{name}", ["s32[]", f"{name}[4]"], lambda b, n, x: GetTupleElement(
        While(cond, loop, Tuple(b, [ConstantR0(b, np.int32(0)), n, x * 0, x])), 2))
    x = np.array([1, -2, 3, 0.5 if name != "s32" else 5], dtype)

    def reference(n):
        acc = np.zeros(4, dtype)
        i = 0
        while i < n:
            acc = (acc + x * dtype(i)).astype(dtype)
            i += 1
        return acc

    check_cases(comp, [((np.int32(n), x), reference(n)) for n in (0, -3, 1, 7)])


def test_while_fibonacci_s64():
    """(k, a, b) -> (k - 1, b, a + b) while k > 0: a is fib(n); s64 holds fib(90)."""
    state = "(s64[], s64[], s64[])"
    cond = computation("cond", [state], lambda b, t: GetTupleElement(t, 0) > ConstantR0(b, np.int64(0)))
    def fib_step(b, t):
        k, a, c = elements(t, 3)
        return Tuple(b, [k - np.int64(1), c, a + c])

    step = computation("step", [state], fib_step)
    comp = computation("fib", ["s64[]"], lambda b, n: GetTupleElement(
        While(cond, step, Tuple(b, [n, ConstantR0(b, np.int64(0)), ConstantR0(b, np.int64(1))])), 1))

    def fib(n):
        a, c = 0, 1
        for _ in range(max(n, 0)):
            a, c = c, a + c
        return np.int64(a)

    check_cases(comp, [((np.int64(n),), fib(n)) for n in (0, 1, 2, 10, 90)])


def test_while_power_iteration():
    """(k, M, v) -> (k + 1, M, M v / |M v|) for 30 steps: v tends to M's dominant eigenvector."""
    state = "(s32[], f32[3,3], f32[3])"
    add = computation("add", ["f32[]", "f32[]"], lambda b, u, v: u + v)

    def step(b, t):
        k, m, v = elements(t, 3)
        w = Dot(m, v)
        norm = Sqrt(Reduce(w * w, ConstantR0(b, np.float32(0)), add, [0]))
        return Tuple(b, [k + 1, m, w / norm])

    cond = computation("cond", [state], lambda b, t: GetTupleElement(t, 0) < np.int32(30))
    comp = computation("power", ["f32[3,3]", "f32[3]"], lambda b, m, v: GetTupleElement(
        While(cond, computation("step", [state], step), Tuple(b, [ConstantR0(b, np.int32(0)), m, v])), 2))
    m = np.array([[4, 1, 0], [1, 3, 1], [0, 1, 2]], np.float32)
    v = np.ones(3, np.float32)
    for _ in range(30):
        v = m @ v
        v = v / np.sqrt((v * v).sum())
    assert abs(np.linalg.eigvalsh(m.astype(np.float64))[-1] - v @ m @ v) < 1e-4  # the reference converged
    check(comp, [m, np.ones(3, np.float32)], v.astype(np.float32), rtol=1e-5, atol=1e-5)


def test_while_array_state():
    """A non-tuple state, x -> 2x while x < 100, in a module without tuples (IREE's plain
    stablehlo input)."""
    comp = computation("array_state", ["f32[]"], lambda b, x: While(
        computation("cond", ["f32[]"], lambda c, v: v < np.float32(100)),
        computation("double", ["f32[]"], lambda c, v: v * np.float32(2)), x))
    assert "tuple" not in str(comp)

    def doubled(x):
        while x < 100:
            x = np.float32(x * 2)
        return x

    check_cases(comp, [((np.float32(x),), doubled(np.float32(x))) for x in (3, 100, 0.75, 250)])


def test_while_identity_body_zero_trips():
    """A body returning its parameter unchanged under a condition false at once: the loop
    returns init."""
    never = computation("never", ["(f32[2], s32[])"], lambda b, t: GetTupleElement(t, 1) < np.int32(0))
    same = computation("same", ["(f32[2], s32[])"], lambda b, t: t)
    comp = computation("identity", ["f32[2]"],
                       lambda b, y: While(never, same, Tuple(b, [y, ConstantR0(b, np.int32(4))])))
    y = np.array([1.5, -2], np.float32)
    check(comp, [y], (y, np.int32(4)))


def test_while_nested_state_and_nested_loops():
    """A nested tuple state ((i, acc), total) whose body runs an inner While:
    total = sum over i < n of sum over j < i of (j + 1) * acc_scale."""
    inner_state = "(s32[], s32[], f32[2])"  # j, i, sum
    inner_cond = computation("inner_cond", [inner_state],
                             lambda b, t: GetTupleElement(t, 0) < GetTupleElement(t, 1))

    def inner_step(b, t):
        j, i, s = elements(t, 3)
        return Tuple(b, [j + 1, i, s + ConvertElementType(j + 1, s.shape.element_type)])

    inner = computation("inner_step", [inner_state], inner_step)
    outer_state = "((s32[], s32[]), f32[2])"  # (i, n), total
    outer_cond = computation("outer_cond", [outer_state], lambda b, t: GetTupleElement(
        GetTupleElement(t, 0), 0) < GetTupleElement(GetTupleElement(t, 0), 1))

    def outer_step(b, t):
        counters, total = elements(t, 2)
        i, n = elements(counters, 2)
        inner_init = Tuple(b, [ConstantR0(b, np.int32(0)), i, total * 0])
        inner_sum = GetTupleElement(While(inner_cond, inner, inner_init), 2)
        return Tuple(b, [Tuple(b, [i + 1, n]), total + inner_sum])

    outer = computation("outer_step", [outer_state], outer_step)
    comp = computation("nested", ["s32[]", "f32[2]"], lambda b, n, x: While(
        outer_cond, outer, Tuple(b, [Tuple(b, [ConstantR0(b, np.int32(0)), n]), x])))
    x = np.array([0.5, -1], np.float32)

    def reference(n):
        total = x.copy()
        for i in range(n):
            total = total + np.float32(sum(j + 1 for j in range(i)))
        return np.int32(max(n, 0)), np.int32(n), total

    check_cases(comp, [((np.int32(n), x), reference(n)) for n in (0, 1, 5)])


def test_while_body_calls_and_conditionals():
    """Collatz steps: n -> n / 2 if even else 3n + 1 (a Conditional inside the body, one branch
    through Call) until n == 1, counting steps."""
    state = "(s32[], s32[])"
    half = computation("half", ["s32[]"], lambda b, n: n / np.int32(2))
    triple = computation("triple", ["s32[]"], lambda b, n: n * np.int32(3) + np.int32(1))
    via_call = computation("via_call", ["s32[]"], lambda b, n: Call(b, triple, [n]))

    def step(b, t):
        n, steps = elements(t, 2)
        odd = (n % np.int32(2)) > np.int32(0)
        return Tuple(b, [Conditional(odd, n, via_call, n, half), steps + 1])

    cond = computation("cond", [state], lambda b, t: GetTupleElement(t, 0) > np.int32(1))
    comp = computation("collatz", ["s32[]"], lambda b, n: GetTupleElement(
        While(cond, computation("step", [state], step), Tuple(b, [n, ConstantR0(b, np.int32(0))])), 1))

    def steps(n):
        k = 0
        while n > 1:
            n = 3 * n + 1 if n % 2 else n // 2
            k += 1
        return np.int32(k)

    check_cases(comp, [((np.int32(n),), steps(n)) for n in (1, 6, 27)])


# --- Conditional --------------------------------------------------------------------------------
def test_conditional_predicate_form_with_tuples():
    """true: (f32[2], s32[]) -> (v * k, k + 1); false: f32[3] -> (its first two, 0)."""
    on_true = computation("on_true", ["(f32[2], s32[])"], lambda b, t: Tuple(b, [
        GetTupleElement(t, 0) * ConvertElementType(GetTupleElement(t, 1), F32), GetTupleElement(t, 1) + 1]))
    on_false = computation("on_false", ["f32[3]"], lambda b, w: Tuple(b, [Slice(w, [0], [2], [1]),
                                                                         ConstantR0(b, np.int32(0))]))
    comp = computation("if_tuples", ["pred[]", "f32[2]", "s32[]", "f32[3]"],
                       lambda b, p, v, k, w: Conditional(p, Tuple(b, [v, k]), on_true, w, on_false))
    v, k, w = np.array([1.5, -2], np.float32), np.int32(3), np.array([7, 8, 9], np.float32)
    check_cases(comp, [((np.bool_(True), v, k, w), (v * 3, np.int32(4))),
                       ((np.bool_(False), v, k, w), (w[:2], np.int32(0)))])


def test_conditional_indexed_out_of_range_runs_last_branch():
    """Three branches of different operand shapes; an index < 0 or >= 3 runs branch 2 (XLA)."""
    branches = [computation("b0", ["f32[2]"], lambda b, x: x + np.float32(1)),
                computation("b1", ["(f32[], f32[2])"],
                            lambda b, t: GetTupleElement(t, 1) * GetTupleElement(t, 0)),
                computation("b2", ["s32[2]"], lambda b, i: ConvertElementType(-i, F32))]
    comp = computation("case", ["s32[]", "f32[2]", "f32[]", "s32[2]"], lambda b, i, x, s, n: Conditional(
        i, branches, [x, Tuple(b, [s, x]), n]))
    x, s, n = np.array([1, -2], np.float32), np.float32(3), np.array([4, 5], np.int32)
    results = {0: x + 1, 1: x * s, 2: -n.astype(np.float32)}
    cases = [((np.int32(i), x, s, n), results[i if 0 <= i < 3 else 2])
             for i in (0, 1, 2, 3, 7, -1, -2, 2**31 - 1, -2**31)]
    check_cases(comp, cases)


def test_conditional_single_branch_and_shared_operand():
    """One branch runs for every index; two branches may take one operand."""
    only = computation("only", ["f64[2]"], lambda b, x: x * x)
    comp = computation("one_branch", ["s32[]", "f64[2]"], lambda b, i, x: Conditional(
        branch_index=i, branch_computations=[only], branch_operands=[x]))
    x = np.array([1.5, -3], np.float64)
    check_cases(comp, [((np.int32(i), x), x * x) for i in (0, 1, -1)])

    neg = computation("neg", ["s32[3]"], lambda b, v: -v)
    dbl = computation("dbl", ["s32[3]"], lambda b, v: v + v)
    shared = computation("shared", ["pred[]", "s32[3]"], lambda b, p, v: Conditional(p, v, neg, v, dbl))
    v = np.array([1, -2, 3], np.int32)
    check_cases(shared, [((np.bool_(True), v), -v), ((np.bool_(False), v), v + v)])


# --- Map ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name,dtype", [("f32", np.float32), ("s32", np.int32)])
def test_map_one_operand(name, dtype):
    """x -> x * x - 3x + 1, a multi-op scalar computation."""
    poly = computation("poly", [f"{name}[]"], lambda b, x: x * x - x * dtype(3) + dtype(1))
    comp = computation("map1", [f"{name}[2,3]"], lambda b, x: Map(b, [x], poly, [0, 1]))
    x = (np.arange(6) - 2).reshape(2, 3).astype(dtype)
    check(comp, [x], (x * x - x * dtype(3) + dtype(1)).astype(dtype))


def test_map_two_and_three_operands_of_mixed_types():
    """(f32 x, s32 k) -> f32: x * k - 1; (a, b, c) -> a > b ? c : a + b; a pred result."""
    scale = computation("scale", ["f32[]", "s32[]"], lambda b, x, k: x * ConvertElementType(
        k, F32) - np.float32(1))
    pick = computation("pick", ["f32[]", "f32[]", "f32[]"], lambda b, x, y, z: Select(x > y, z, x + y))
    greater = computation("greater", ["f32[]", "f32[]"], lambda b, x, y: x > y)
    comp = computation("map23", ["f32[4]", "s32[4]", "f32[4]", "f32[4]"], lambda b, x, k, y, z: Tuple(b, [
        Map(b, [x, k], scale, [0]), Map(b, [x, y, z], pick, [0]), Map(b, [x, y], greater, [0])]))
    x = np.array([1, -2, 3.5, 0], np.float32)
    k = np.array([2, 3, -1, 7], np.int32)
    y = np.array([0, 5, 3.5, -1], np.float32)
    z = np.array([10, 20, 30, 40], np.float32)
    check(comp, [x, k, y, z], (x * k.astype(np.float32) - np.float32(1), np.where(x > y, z, x + y), x > y))


def test_map_scalar_operands_and_empty_arrays():
    """A scalar operand is broadcast (XLA's builder); all-scalar and empty maps."""
    axpy = computation("axpy", ["f32[]", "f32[]"], lambda b, a, x: a * x + np.float32(1))
    comp = computation("map_scalar", ["f32[]", "f32[2,2]", "f32[0,3]"], lambda b, a, x, e: Tuple(b, [
        Map(b, [a, x], axpy, [0, 1]), Map(b, [x, a], axpy, [0, 1]), Map(b, [a, a], axpy, []),
        Map(b, [e, e], axpy, [0, 1])]))
    a, x, e = np.float32(3), np.array([[1, 2], [-1, 0.5]], np.float32), np.zeros((0, 3), np.float32)
    check(comp, [a, x, e], (a * x + 1, x * a + 1, np.float32(a * a + 1), e))


# --- errors -------------------------------------------------------------------------------------
def test_while_errors():
    b = XlaBuilder("while_errors")
    n, x = Parameter(b, 0, Shape.parse("s32[]")), Parameter(b, 1, Shape.parse("f32[]"))
    int_cond = computation("int_cond", ["f32[]"], lambda c, p: ConvertElementType(p, S32))
    ok_cond = computation("ok_cond", ["f32[]"], lambda c, p: p < np.float32(1))
    ok_body = computation("ok_body", ["f32[]"], lambda c, p: p + np.float32(1))
    with pytest.raises(ShapeError, match=r"While requires a condition computation returning pred\[\]; "
                                         r"got \(p0: f32\[\]\) -> s32\[\]\.") as e:
        While(int_cond, ok_body, x)
    assert "test_control_flow.py" in str(e.value)
    two = computation("two", ["f32[]", "f32[]"], lambda c, p, q: p < q)
    with pytest.raises(InvalidArgumentError, match=r"While requires a condition computation of 1 parameter; "
                                                   r"got \(p0: f32\[\], p1: f32\[\]\) -> pred\[\]"):
        While(two, ok_body, x)
    to_int = computation("to_int", ["f32[]"], lambda c, p: ConvertElementType(p, S32))
    with pytest.raises(ShapeError, match=r"While requires a body computation returning init's shape f32\[\]; "
                                         r"got condition .*, body \(p0: f32\[\]\) -> s32\[\]\."):
        While(ok_cond, to_int, x)
    with pytest.raises(ShapeError, match=r"While requires a condition computation taking init's shape "
                                         r"s32\[\]"):
        While(ok_cond, ok_body, n)
    with pytest.raises(InvalidArgumentError, match=r"While requires an XlaComputation condition and body; "
                                                   r"got function"):
        While(lambda p: p, ok_body, x)


def test_conditional_errors():
    b = XlaBuilder("cond_errors")
    p, i, x, v = (Parameter(b, k, Shape.parse(s))
                  for k, s in enumerate(["pred[]", "s32[]", "f32[]", "f32[2]"]))
    f = computation("f", ["f32[]"], lambda c, a: a)
    g = computation("g", ["f32[2]"], lambda c, a: a)
    h = computation("h", ["f32[]"], lambda c, a: ConvertElementType(a, S32))
    with pytest.raises(ShapeError, match=r"Conditional requires a pred\[\] predicate; got s32\[\]\.") as e:
        Conditional(i, x, f, x, f)
    assert "test_control_flow.py" in str(e.value)
    with pytest.raises(ShapeError, match=r"Conditional requires an s32\[\] branch_index; got pred\[\]\."):
        Conditional(p, [f, f], [x, x])
    with pytest.raises(ShapeError, match=r"Conditional requires every branch computation to return one "
                                         r"shape; got f32\[\] from true_computation and s32\[\] from "
                                         r"false_computation"):
        Conditional(p, x, f, x, h)
    with pytest.raises(ShapeError, match=r"Conditional requires the operand of branch computation 1 "
                                         r"\(p0: f32\[2\]\) -> f32\[2\] to be of shape f32\[2\]; "
                                         r"got f32\[\]\."):
        Conditional(i, [f, g], [x, x])
    with pytest.raises(InvalidArgumentError, match=r"Conditional requires one branch operand per branch "
                                                   r"computation; got 2 computations and 1 operands"):
        Conditional(i, [f, f], [x])
    with pytest.raises(InvalidArgumentError, match=r"Conditional requires at least one branch computation; "
                                                   r"got none"):
        Conditional(i, [], [])
    two = computation("two", ["f32[]", "f32[]"], lambda c, a, d: a + d)
    with pytest.raises(InvalidArgumentError,
                       match=r"Conditional requires false_computation to take 1 parameter"):
        Conditional(p, x, f, x, two)
    with pytest.raises(InvalidArgumentError,
                       match=r"Conditional requires an XlaComputation per branch; got str"):
        Conditional(i, [f, "g"], [x, v])
    with pytest.raises(InvalidArgumentError, match=r"Conditional requires \(predicate, true_operand"):
        Conditional(p, x, f, x)


def test_map_errors():
    b = XlaBuilder("map_errors")
    x, y, k = (Parameter(b, n, Shape.parse(s)) for n, s in enumerate(["f32[2,3]", "f32[3]", "s32[2,3]"]))
    add = computation("add", ["f32[]", "f32[]"], lambda c, u, v: u + v)
    with pytest.raises(ShapeError, match=r"Map requires operands of one shape \(or scalars\); "
                                         r"got f32\[2,3\], f32\[3\]\."):
        Map(b, [x, y], add, [0, 1])
    with pytest.raises(InvalidArgumentError, match=r"Map requires dimensions \[0, 1\] \(all of the "
                                                   r"operands', in order\); got \[1, 0\]\."):
        Map(b, [x, x], add, [1, 0])
    with pytest.raises(InvalidArgumentError, match=r"Map requires a computation of 1 parameter\(s\), one per "
                                                   r"operand; got \(p0: f32\[\], p1: f32\[\]\) -> f32\[\]"):
        Map(b, [x], add, [0, 1])
    with pytest.raises(DTypeError, match=r"Map requires computation parameter 1 to be s32\[\], operand 1's "
                                         r"element type; got .* for operand s32\[2,3\]\."):
        Map(b, [x, k], add, [0, 1])
    vec = computation("vec", ["f32[]"], lambda c, u: hlo_mlir.Broadcast(u, [2]))
    with pytest.raises(ShapeError, match=r"Map requires a computation returning a scalar; "
                                         r"got \(p0: f32\[\]\) -> f32\[2\]\."):
        Map(b, [x], vec, [0, 1])
    with pytest.raises(InvalidArgumentError, match=r"Map requires no static_operands .*; got 1\.") as e:
        Map(b, [x, x], add, [0, 1], static_operands=[x])
    assert "test_control_flow.py" in str(e.value)
    with pytest.raises(InvalidArgumentError, match=r"Map requires at least one operand; got none\."):
        Map(b, [], add, [])
    with pytest.raises(InvalidArgumentError, match=r"Map requires an XlaComputation; got function"):
        Map(b, [x, x], lambda u, v: u + v, [0, 1])
