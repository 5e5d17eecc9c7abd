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

TRIG_LIMIT = 64.0  # IREE's f32 sin/cos/tan error is about |x| * 3e-8: past the tolerance from here
HUGE = 1e30  # a c64 part beyond this (or inf, NaN) is a "special" for complex arithmetic


def _limit_mask(x, limit: float):
    """pred: ``|x| >= limit``, or ``x`` NaN (real ``x``)."""
    import hlo_mlir as h

    ax = h.Abs(x)
    return h.Not(h.Lt(ax, h.Full(x.builder, _scalar(x.shape.element_type.value, limit), ax.shape)))


def _scalar(dtype: str, value):
    from tests.fuzz import generator

    return generator.np_dtype(dtype).type(value)


def _tame_real_trig(x):
    """f32/bf16 ``x`` with the elements beyond ``TRIG_LIMIT`` (inf included) as 0; NaN kept."""
    import hlo_mlir as h

    if x.shape.is_tuple or x.shape.element_type.value not in ("f32", "bf16"):
        return x
    big = h.Gt(h.Abs(x), h.Full(x.builder, _scalar(x.shape.element_type.value, TRIG_LIMIT), x.shape))
    return h.Select(big, h.Full(x.builder, _scalar(x.shape.element_type.value, 0), x.shape), x)


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


def _agrees_when_tamed(program, result, tamers: dict) -> bool:
    """Whether ``result`` is a mismatch of a program calling an op of ``tamers`` (op name ->
    operand tamer) that differs from XLA as it is and gives XLA's answer when those ops read
    tamed operands."""
    if result.outcome != "mismatch" or not any(program.ops.get(op) for op in tamers):
        return False
    try:
        return not _agrees(program, {}) and _agrees(program, tamers)
    except Exception:  # noqa: BLE001 - no verdict: the finding stands
        return False


def _agrees(program, tamers: dict) -> bool:
    """Whether hlo-mlir (llvm-cpu) gives XLA's answer to ``program`` with ``tamers``."""
    import hlo_mlir
    from hlo_mlir import XlaOp
    from tests import oracle
    from tests.fuzz import compare, generator, reduce, runner

    ns = generator._namespace()
    for op, tame in tamers.items():
        ns[op] = _wrapped(ns[op], tame, XlaOp)
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


_TRIG = {"Sin": _tame_real_trig, "Cos": _tame_real_trig, "Tan": _tame_real_trig}
_C_TRIG_RE = _complex_tamer(TRIG_LIMIT, HUGE)  # sin/cos/tan(x+iy) reduce x
_C_TRIG_IM = _complex_tamer(HUGE, TRIG_LIMIT)  # tanh, logistic (exp(-z)) reduce y

KNOWN: list[Known] = [
    Known("large-argument-trig",
          "docs/iree-defects.md, 'sin/cos/tan of large arguments'",
          "tests/e2e/test_fuzz_numerics.py::test_f32_trig_of_large_arguments, "
          "test_bf16_tan_of_large_arguments",
          lambda program, result: _agrees_when_tamed(program, result, _TRIG)),
    Known("complex-specials",
          "docs/iree-defects.md, 'complex specials'",
          "tests/e2e/test_fuzz_numerics.py::test_c64_trig_of_huge_real_part, "
          "test_c64_transcendentals_of_special_parts",
          lambda program, result: _agrees_when_tamed(program, result, {
              "Sin": _C_TRIG_RE, "Cos": _C_TRIG_RE, "Tan": _C_TRIG_RE, "Tanh": _C_TRIG_IM,
              "Logistic": _C_TRIG_IM})),
]


def match(program, result) -> str:
    """The name of the known defect ``result`` is an instance of, or ""."""
    for known in KNOWN:
        if known.signature(program, result):
            return f"known defect {known.name} ({known.doc}; {known.test})"
    return ""
