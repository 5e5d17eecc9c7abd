"""Hypothesis properties of three passes whose lit and unit tests predate the property
tests of issue 11: constant-folding, cse and tree-reduction-rewriter.

- constant-folding: generated constant expressions (every folded op, every element type
  it folds, special values: signed zeros, infinities, NaN, integer extremes, zero
  divisors, shift counts past the width, out-of-range float-to-int converts). What the pass
  folds must be bit for bit what XLA CPU computes at run time from the same module (its
  constants read through an optimization barrier, XLA's own constant folding off), with
  NaN matching any NaN; what it refuses stays an op. No IREE compile: the reference is XLA.
- cse: modules with repeated ops (the same operands, swapped operands, other attributes,
  ops in regions, effectful rng); the pass under the semantics check, no pure duplicate
  left in a block, and rng calls never merged.
- tree-reduction-rewriter: reductions of small shapes with a small window (so that tiny
  modules are split) over every reducer and init value it accepts or refuses, under the
  semantics check.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, note, settings
from hypothesis import strategies as st
from iree.compiler import ir

from hlo_mlir import compiler
from hlo_mlir.context import get_context
from hlo_mlir.semantics import SemanticsChecker
from pipelines.matchers import constant_array, ops_where
from pipelines.pipeline import run_pipeline
from tests.fuzz.runner import XLA_DISABLED
from tests.oracle import run_xla
from tests.properties import examples

FLOATS = ("f16", "bf16", "f32", "f64")
INTS = ("i8", "i32", "ui8", "ui32")
TYPES = FLOATS + INTS + ("i1",)
SHAPE = (2, 3)

_FLOAT_VALUES = ("0.0", "-0.0", "1.0", "-1.0", "2.5", "-3.0", "7.0", "100.0", "0.5",
                 "0x7FC00000", "0x7F800000", "0xFF800000", "3.0e9", "-3.0e9")
_INT_VALUES = {
    "i8": (0, 1, -1, 7, -128, 127, 9, -3),
    "i32": (0, 1, -1, 7, -2147483648, 2147483647, 33, -3),
    "ui8": (0, 1, 255, 7, 128, 9, 3, 200),
    "ui32": (0, 1, 4294967295, 7, 2147483648, 33, 3, 100000),
}
_BINARY = {
    "add": TYPES, "subtract": FLOATS + INTS, "multiply": TYPES, "divide": FLOATS + INTS,
    "remainder": FLOATS + INTS, "maximum": TYPES, "minimum": TYPES, "and": INTS + ("i1",),
    "or": INTS + ("i1",), "xor": INTS + ("i1",), "shift_left": INTS,
    "shift_right_arithmetic": INTS, "shift_right_logical": INTS,
}
_MOVES = {  # data movement: result shape, operands and attributes
    "reshape": ((3, 2), "{x}"),
    "transpose": ((3, 2), "{x}, dims = [1, 0]"),
    "slice": ((1, 2), "{x} [1:2, 0:3:2]"),
    "concatenate": ((4, 3), "{x}, {y}, dim = 0"),
    "broadcast_in_dim": ((2, 2, 3), "{x}, dims = [0, 2]"),
}
_UNARY = {"negate": FLOATS + INTS, "abs": FLOATS + ("i8", "i32"), "not": INTS + ("i1",),
          "sqrt": FLOATS, "floor": FLOATS, "ceil": FLOATS, "round_nearest_even": FLOATS}


def _tensor(dtype: str, shape=SHAPE) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{dtype}>" if shape else f"tensor<{dtype}>"


def _float_literal(dtype: str, text: str) -> str:
    """A float literal of ``dtype``: the f32 hex patterns of NaN and the infinities are
    rewritten to the type's own width."""
    if not text.startswith("0x"):
        return text
    bits = {"f16": {"0x7FC00000": "0x7E00", "0x7F800000": "0x7C00", "0xFF800000": "0xFC00"},
            "bf16": {"0x7FC00000": "0x7FC0", "0x7F800000": "0x7F80", "0xFF800000": "0xFF80"},
            "f64": {"0x7FC00000": "0x7FF8000000000000", "0x7F800000": "0x7FF0000000000000",
                    "0xFF800000": "0xFFF0000000000000"}}
    return bits.get(dtype, {}).get(text, text)


class _Lines:
    def __init__(self, draw):
        self.draw, self.lines, self.count = draw, [], 0

    def emit(self, text: str) -> str:
        name = f"%v{self.count}"
        self.count += 1
        self.lines.append(f"    {name} = {text}")
        return name


@st.composite
def constant_expressions(draw):
    """``func.func @main() -> ...`` of one to four ops on 2x3 constants of one element type,
    with a convert, a compare or a data-movement op now and then."""
    w = _Lines(draw)
    dtype = draw(st.sampled_from(TYPES))
    values: list[tuple[str, str, tuple]] = []  # (name, dtype, shape)

    def constant(t: str) -> str:
        if t == "i1":
            elems = [draw(st.sampled_from(["true", "false"])) for _ in range(6)]
        elif t in FLOATS:
            elems = [_float_literal(t, draw(st.sampled_from(_FLOAT_VALUES))) for _ in range(6)]
            if t in ("f16", "bf16"):  # 3e9 overflows f16 to inf: keep the text in range
                elems = [e if "e9" not in e else "-65504.0" for e in elems]
        else:
            elems = [str(draw(st.sampled_from(_INT_VALUES[t]))) for _ in range(6)]
        rows = ", ".join("[" + ", ".join(elems[i * 3:i * 3 + 3]) + "]" for i in range(2))
        return w.emit(f"stablehlo.constant dense<[{rows}]> : {_tensor(t)}")

    def operand(t: str) -> str:
        pool = [n for n, d, s in values if d == t and s == SHAPE]
        if pool and draw(st.booleans()):
            return draw(st.sampled_from(pool))
        name = constant(t)
        values.append((name, t, SHAPE))
        return name

    outputs: list[tuple[str, str]] = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["binary", "binary", "unary", "compare", "select", "convert", "move"]))
        t = dtype
        if kind == "binary":
            op = draw(st.sampled_from([o for o, ts in _BINARY.items() if t in ts]))
            result = w.emit(f"stablehlo.{op} {operand(t)}, {operand(t)} : {_tensor(t)}")
        elif kind == "unary":
            op = draw(st.sampled_from([o for o, ts in _UNARY.items() if t in ts]))
            result = w.emit(f"stablehlo.{op} {operand(t)} : {_tensor(t)}")
        elif kind == "compare":
            direction = draw(st.sampled_from(["EQ", "NE", "LT", "LE", "GT", "GE"]))
            ctype = ("FLOAT" if t in FLOATS else "SIGNED" if t.startswith("i") and t != "i1"
                     else "UNSIGNED")
            ctype = draw(st.sampled_from([ctype, "TOTALORDER"] if t in FLOATS else [ctype]))
            result = w.emit(f"stablehlo.compare {direction}, {operand(t)}, {operand(t)}, {ctype} : "
                            f"({_tensor(t)}, {_tensor(t)}) -> {_tensor('i1')}")
            t = "i1"
        elif kind == "select":
            result = w.emit(f"stablehlo.select {operand('i1')}, {operand(t)}, {operand(t)} : "
                            f"{_tensor('i1')}, {_tensor(t)}")
        elif kind == "convert":
            to = draw(st.sampled_from(TYPES))
            result = w.emit(f"stablehlo.convert {operand(t)} : ({_tensor(t)}) -> {_tensor(to)}")
            t = to
        else:
            x, y = operand(t), operand(t)
            move = draw(st.sampled_from(sorted(_MOVES)))
            if move == "broadcast_in_dim":  # of a 1x1 slice
                x = w.emit(f"stablehlo.slice {x} [0:1, 1:2] : ({_tensor(t)}) -> {_tensor(t, (1, 1))}")
            out, form = _MOVES[move]
            operand_types = _tensor(t, (1, 1)) if move == "broadcast_in_dim" else _tensor(t)
            if move == "concatenate":
                operand_types += f", {_tensor(t)}"
            attrs = form.format(x=x, y=y)
            result = w.emit(f"stablehlo.{move} {attrs} : ({operand_types}) -> {_tensor(t, out)}")
            outputs.append((result, _tensor(t, out)))
            continue
        values.append((result, t, SHAPE))
        outputs.append((result, _tensor(t)))
    types = ", ".join(ty for _, ty in outputs)
    body = "\n".join(w.lines)
    rets = ", ".join(n for n, _ in outputs)
    return (f"func.func @main() -> ({types}) {{\n{body}\n    return {rets} : {types}\n}}\n")


def parse(text: str) -> ir.Module:
    with get_context():
        return ir.Module.parse(text)


def _same(expected: np.ndarray, actual: np.ndarray) -> bool:
    """Bit for bit, except that any NaN matches any NaN."""
    expected, actual = np.asarray(expected), np.asarray(actual)
    if expected.shape != actual.shape or expected.dtype != actual.dtype:
        return False
    if expected.dtype.kind == "f" or expected.dtype.name == "bfloat16":
        e64, a64 = expected.astype(np.float64), actual.astype(np.float64)
        nan = np.isnan(e64)
        if not (nan == np.isnan(a64)).all():
            return False
        expected, actual = np.where(nan, 0, expected).astype(expected.dtype), np.where(
            nan, 0, actual).astype(actual.dtype)
    return np.ascontiguousarray(expected).tobytes() == np.ascontiguousarray(actual).tobytes()


@settings(max_examples=examples(60), deadline=None)
@given(constant_expressions())
def test_folded_constants_are_what_xla_computes(text):
    note(text)
    expected = run_xla(compiler.as_module(parse(text)), opaque_constants=True, disable=XLA_DISABLED)
    expected = expected if isinstance(expected, tuple) else (expected,)
    module = parse(text)
    run_pipeline(module, "constant-folding")
    note(module.operation.get_asm())
    with get_context():
        main = ops_where(module, lambda op: op.name == "func.return")[0]
        for i, (value, want) in enumerate(zip(main.operands, expected, strict=True)):
            got = constant_array(value)
            if got is None:
                continue  # refused (an inexact convert, a TOTALORDER compare): still an op
            assert _same(want, got), f"result {i}: folded {got!r}, XLA computes {want!r}"


@settings(max_examples=100, deadline=None)
@given(constant_expressions())
def test_folding_reaches_a_fixed_point_and_verifies(text):
    module = parse(text)
    run_pipeline(module, "constant-folding,dce")
    module.operation.verify()
    assert not run_pipeline(module, "constant-folding").changed, module.operation.get_asm()


# --- cse ------------------------------------------------------------------------------------------
X = "tensor<3x4xf32>"


@st.composite
def repeated_ops(draw):
    """Ops on two arguments, each drawn again and again with the same, swapped or other
    operands and attributes; a while loop whose body repeats an op of the function; rng."""
    w = _Lines(draw)
    pool = ["%x", "%y"]
    for _ in range(draw(st.integers(2, 8))):
        kind = draw(st.sampled_from(["binary", "binary", "unary", "compare", "repeat", "rng", "while"]))
        a, b = draw(st.sampled_from(pool)), draw(st.sampled_from(pool))
        if kind == "binary":
            op = draw(st.sampled_from(["add", "multiply", "subtract", "maximum"]))
            pool.append(w.emit(f"stablehlo.{op} {a}, {b} : {X}"))
        elif kind == "unary":
            op = draw(st.sampled_from(["negate", "exponential", "abs"]))
            pool.append(w.emit(f"stablehlo.{op} {a} : {X}"))
        elif kind == "compare":
            direction = draw(st.sampled_from(["LT", "GT"]))
            c = w.emit(f"stablehlo.compare {direction}, {a}, {b} : ({X}, {X}) -> tensor<3x4xi1>")
            pool.append(w.emit(f"stablehlo.select {c}, {a}, {b} : tensor<3x4xi1>, {X}"))
        elif kind == "repeat" and len(w.lines) > 0:
            line = draw(st.sampled_from(w.lines)).split(" = ", 1)[1]
            if not line.endswith(f" : {X}") or "rng" in line or "constant" in line:
                continue  # f32 results only, and no rng (it is not pure)
            pool.append(w.emit(line))
        elif kind == "rng":
            lo = w.emit("stablehlo.constant dense<0.0> : tensor<f32>")
            hi = w.emit("stablehlo.constant dense<1.0> : tensor<f32>")
            shp = w.emit("stablehlo.constant dense<[3, 4]> : tensor<2xi64>")
            r1 = w.emit(f"stablehlo.rng {lo}, {hi}, {shp}, distribution = UNIFORM : "
                        f"(tensor<f32>, tensor<f32>, tensor<2xi64>) -> {X}")
            r2 = w.emit(f"stablehlo.rng {lo}, {hi}, {shp}, distribution = UNIFORM : "
                        f"(tensor<f32>, tensor<f32>, tensor<2xi64>) -> {X}")
            pool.append(w.emit(f"stablehlo.subtract {r1}, {r2} : {X}"))
        elif kind == "while":
            name = f"%v{w.count}"
            w.count += 1
            w.lines.append(
                f"    {name}:2 = stablehlo.while(%i = %c0, %acc = {a}) : tensor<i32>, {X}\n"
                f"     cond {{\n"
                f"      %p = stablehlo.compare LT, %i, %c2 : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
                f"      stablehlo.return %p : tensor<i1>\n"
                f"     }} do {{\n"
                f"      %s = stablehlo.add %acc, {b} : {X}\n"
                f"      %t = stablehlo.add %acc, {b} : {X}\n"
                f"      %u = stablehlo.multiply %s, %t : {X}\n"
                f"      %j = stablehlo.add %i, %c1 : tensor<i32>\n"
                f"      stablehlo.return %j, %u : tensor<i32>, {X}\n"
                f"     }}")
            pool.append(f"{name}#1")
    outs = pool[2:] or ["%x"]
    types = ", ".join([X] * len(outs))
    body = "\n".join(w.lines)
    return (f"func.func @main(%x: {X}, %y: {X}) -> ({types}) {{\n"
            f"    %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
            f"    %c1 = stablehlo.constant dense<1> : tensor<i32>\n"
            f"    %c2 = stablehlo.constant dense<2> : tensor<i32>\n"
            f"{body}\n    return {', '.join(outs)} : {types}\n}}\n")


def _pure_duplicates(module: ir.Module) -> list[str]:
    """Pure ops of one block that print the same (same operands and attributes)."""
    seen: dict[tuple, str] = {}
    dups = []
    with get_context():
        for op in ops_where(module, lambda op: op.name.startswith("stablehlo.")
                            and op.name not in ("stablehlo.rng", "stablehlo.while", "stablehlo.return")):
            text = str(op).split(" = ", 1)[-1]
            key = (str(op.operation.parent), text)
            if key in seen:
                dups.append(text)
            seen[key] = text
    return dups


@settings(max_examples=100, deadline=None)
@given(repeated_ops())
def test_cse_leaves_no_pure_duplicate_and_keeps_every_rng(text):
    module = parse(text)
    with get_context():
        rngs = len(ops_where(module, lambda op: op.name == "stablehlo.rng"))
    run_pipeline(module, "cse")
    note(module.operation.get_asm())
    with get_context():
        assert len(ops_where(module, lambda op: op.name == "stablehlo.rng")) == rngs
    assert not _pure_duplicates(module)
    assert not run_pipeline(module, "cse").changed


@settings(max_examples=examples(12), deadline=None)
@given(repeated_ops().filter(lambda t: "stablehlo.rng" not in t), st.integers(0, 3))
def test_cse_keeps_the_numbers(text, seed):
    module = parse(text)
    run_pipeline(module, "cse", semantics_checker=lambda m: SemanticsChecker(m, seed=seed))


# --- tree-reduction-rewriter -------------------------------------------------------------------------
_REDUCERS = {  # reducer -> (element types, init values: identity first, then others)
    "add": (("f32", "i32"), ("0", "-0.0", "1")),
    "multiply": (("i32",), ("1", "2")),
    "maximum": (("f32", "i32"), ("0xFF800000", "-5", "3")),
    "minimum": (("f32", "i32"), ("0x7F800000", "-5", "3")),
    "and": (("i1",), ("true", "false")),
    "or": (("i1",), ("false", "true")),
}


@st.composite
def reductions(draw):
    """One reduce of a 1-d or 2-d argument (dimensions up to 40) over one or both
    dimensions, with the window and min-size options that make it eligible or not."""
    op = draw(st.sampled_from(sorted(_REDUCERS)))
    types, inits = _REDUCERS[op]
    t = draw(st.sampled_from(types))
    init = draw(st.sampled_from(inits))
    if t == "i32":
        init = {"0xFF800000": "-2147483648", "0x7F800000": "2147483647", "-0.0": "0"}.get(init, init)
    elif t == "f32" and init.lstrip("-").isdigit():
        init += ".0"
    shape = draw(st.lists(st.integers(1, 40), min_size=1, max_size=2))
    dims = draw(st.sampled_from([[d] for d in range(len(shape))] + [list(range(len(shape)))]))
    out = [n for i, n in enumerate(shape) if i not in dims]
    x, r, s = _tensor(t, shape), _tensor(t, out), _tensor(t, ())
    text = (f"func.func @main(%x: {x}) -> {r} {{\n"
            f"    %c = stablehlo.constant dense<{init}> : {s}\n"
            f"    %r = stablehlo.reduce(%x init: %c) applies stablehlo.{op} across dimensions = {dims} "
            f": ({x}, {s}) -> {r}\n"
            f"    return %r : {r}\n}}\n")
    window, min_size = draw(st.integers(2, 8)), draw(st.integers(1, 16))
    max_results = draw(st.integers(1, 64))
    options = f"{{window={window} min-size={min_size} max-results={max_results}}}"
    return text, "tree-reduction-rewriter" + options


@settings(max_examples=100, deadline=None)
@given(reductions())
def test_tree_reduction_splits_to_a_fixed_point(case):
    text, passes = case
    module = parse(text)
    run_pipeline(module, passes)
    module.operation.verify()
    with get_context():
        assert len(ops_where(module, lambda op: op.name == "stablehlo.reduce")) in (1, 2)


@settings(max_examples=examples(16), deadline=None)
@given(reductions(), st.integers(0, 3))
def test_tree_reduction_keeps_the_numbers(case, seed):
    text, passes = case
    note(passes)
    module = parse(text)
    run_pipeline(module, passes, semantics_checker=lambda m: SemanticsChecker(m, seed=seed))
