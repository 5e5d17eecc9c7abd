"""Documented defects of the pinned IREE that the fuzzer reports as ``known``, not as findings.

An entry belongs here only when docs/iree-defects.md lists the defect and a test pins it
down (the entry names both); ``match(program, result)`` recognizes it by signature: the
ops of the program and what went wrong. ``--no-known`` turns the list off (every such
program is then a finding again). An empty list is the goal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

__all__ = ["Known", "KNOWN", "match"]


@dataclass(frozen=True)
class Known:
    name: str
    doc: str  # the row of docs/iree-defects.md
    test: str  # the test that pins it down
    signature: Callable  # (program, result) -> bool


# --- numerics of the pinned IREE (issue 9 findings; issue 12 is the fix) ---------------------------
# A signature below holds when the program mismatches, calls one of the defect's ops, and gives
# XLA's answer once each call of those ops reads its operands "tamed": the elements the defect is
# about (and only those) replaced by a harmless value. The check compiles and runs the tamed
# program (llvm-cpu) and XLA again: a mismatch anywhere else in the program stays a finding.

# Real f32/bf16 sin/cos/tan and c64 sin/cos/exp/expm1 reduce every argument exactly
# (trig-range-reduction, complex-sin-cos, complex-exp, complex-expm1); c64 tan, tanh and
# logistic use IREE's reduction, off from 64 on.
COMPLEX_TRIG_LIMIT = 64.0
HUGE = 1e30  # a c64 part beyond this (or inf, NaN) is a "special" for complex arithmetic


def _limit_mask(x, limit: float):
    """pred: ``|x| >= limit``, or ``x`` NaN (real ``x``)."""
    import hlo_mlir as h

    ax = h.Abs(x)
    return h.Not(h.Lt(ax, h.Full(x.builder, _scalar(x.shape.element_type.value, limit), ax.shape)))


def _scalar(dtype: str, value):
    from tests.fuzz import generator

    return generator.np_dtype(dtype).type(value)


def _complex_tamer(real_limit: float, imag_limit: float):
    """A tamer of c64 operands: elements with a NaN or infinite part, or a real (imaginary)
    part beyond ``real_limit`` (``imag_limit``), become 0.5+0.5j."""
    def tame(z):
        import hlo_mlir as h

        if z.shape.is_tuple or z.shape.element_type.value != "c64":
            return z
        bad = h.Or(_limit_mask(h.Real(z), real_limit), _limit_mask(h.Imag(z), imag_limit))
        return h.Select(bad, h.Full(z.builder, np.complex64(0.5 + 0.5j), z.shape), z)
    return tame


def _agrees_when_tamed(program, result, tamers: dict, calls: dict | None = None) -> bool:
    """Whether ``result`` is a mismatch of a program calling an op of ``tamers`` (op name ->
    operand tamer) or ``calls`` (op name -> a function of the builder function that returns
    its tamed replacement) that differs from XLA as it is and gives XLA's answer when those
    ops read tamed operands (are replaced)."""
    calls = calls or {}
    if result.outcome != "mismatch" or not any(program.ops.get(op) for op in [*tamers, *calls]):
        return False
    try:
        return not _agrees(program, {}) and _agrees(program, tamers, calls)
    except Exception:  # noqa: BLE001 - no verdict: the finding stands
        return False


def _agrees(program, tamers: dict, calls: dict | None = None) -> bool:
    """Whether hlo-mlir (llvm-cpu) gives XLA's answer to ``program`` with ``tamers`` and
    ``calls``."""
    import hlo_mlir
    from hlo_mlir import XlaOp
    from tests import oracle
    from tests.fuzz import compare, generator, reduce, runner

    ns = generator._namespace()
    for op, tame in tamers.items():
        ns[op] = _wrapped(ns[op], tame, XlaOp)
    for op, replace in (calls or {}).items():
        ns[op] = replace(ns[op])
    candidate = reduce.Candidate(program.code, dict(enumerate(program.args)), program.leaves)
    computation, args, _ = reduce.build_candidate(candidate, ns)
    expected = oracle.run_xla(computation, *args, strict=True, disable=runner.XLA_DISABLED)
    actual = hlo_mlir.runtime.load(hlo_mlir.compile(computation, "llvm-cpu")).main(*args)
    flat = list(actual) if isinstance(actual, tuple) else [actual]
    return not compare.compare(expected, flat, program.leaves)


def _wrapped(fn, tame, op_type):
    def call(*args, **kwargs):
        return fn(*[tame(a) if isinstance(a, op_type) else a for a in args], **kwargs)
    return call


def _atan2_zeros_apart(atan2):
    """``Atan2`` whose (+-0, +-0) elements are ``y`` itself, on both sides: XLA CPU's fused
    atan2 of constant zeros is NaN (its answer for runtime zeros is C99's 0 or +-pi)."""
    def call(y, x, *args, **kwargs):
        import hlo_mlir as h

        kind = y.shape.element_type.value if not y.shape.is_tuple else ""
        if args or kwargs or kind not in ("f16", "bf16", "f32", "f64") or y.shape != x.shape:
            return atan2(y, x, *args, **kwargs)
        zero = h.Full(y.builder, _scalar(kind, 0), y.shape)
        return h.Select(h.And(h.Eq(y, zero), h.Eq(x, zero)), y, atan2(y, x))
    return call


_C_TRIG_RE = _complex_tamer(COMPLEX_TRIG_LIMIT, HUGE)  # tan(x+iy) reduces x
_C_TRIG_IM = _complex_tamer(HUGE, COMPLEX_TRIG_LIMIT)  # tanh, logistic (exp(-z)) reduce y

POLE_DISTANCE = 1e-2  # IREE's c64 tan/tanh is off by up to 4e-4 relative this close to a pole


def _near_pole(x):
    """pred: ``x`` (real) within ``POLE_DISTANCE`` of a pole ``(k + 1/2) pi`` of tan."""
    import hlo_mlir as h

    t = x / _scalar(x.shape.element_type.value, np.pi) - _scalar(x.shape.element_type.value, 0.5)
    off = h.Abs(t - h.Round(t)) * _scalar(x.shape.element_type.value, np.pi)
    return h.Lt(off, h.Full(x.builder, _scalar(x.shape.element_type.value, POLE_DISTANCE), off.shape))


def _tame_near_pole(part: str):
    """A tamer of c64 tan's (part ``"x"``: the real part) or tanh's (``"y"``: the imaginary
    part) operands: elements near a pole of tan become 0.5+0.5j. (Real tan near its poles
    is XLA's since trig-range-reduction.)"""
    def tame(x):
        import hlo_mlir as h

        if x.shape.is_tuple or x.shape.element_type.value != "c64":
            return x
        near = _near_pole(h.Real(x) if part == "x" else h.Imag(x))
        return h.Select(near, h.Full(x.builder, np.complex64(0.5 + 0.5j), x.shape), x)
    return tame

KNOWN: list[Known] = [
    Known("complex-specials",
          "docs/iree-defects.md, 'complex specials'",
          "tests/e2e/test_fuzz_numerics.py::test_c64_transcendentals_of_special_parts",
          lambda program, result: _agrees_when_tamed(program, result, {
              "Tan": _C_TRIG_RE, "Tanh": _C_TRIG_IM, "Logistic": _C_TRIG_IM})),
    Known("tan-near-pole",
          "docs/iree-defects.md, 'sin/cos/tan of large arguments' (tan near its poles)",
          "tests/e2e/test_fuzz_numerics.py::test_tan_near_its_poles",
          lambda program, result: _agrees_when_tamed(program, result, {
              "Tan": _tame_near_pole("x"), "Tanh": _tame_near_pole("y")})),
    # XLA's own defect: hlo-mlir's answer is C99's and numpy's
    Known("xla-atan2-of-constant-zeros",
          "docs/iree-defects.md, 'XLA CPU: atan2 of constant zeros'",
          "tests/e2e/test_fuzz_numerics.py::test_xla_atan2_of_constant_zeros, "
          "test_atan2_of_zeros_in_a_map",
          lambda program, result: _agrees_when_tamed(program, result, {}, {"Atan2": _atan2_zeros_apart})),
]


def match(program, result) -> str:
    """The name of the known defect ``result`` is an instance of, or ""."""
    for known in KNOWN:
        if known.signature(program, result):
            return f"known defect {known.name} ({known.doc}; {known.test})"
    return ""
