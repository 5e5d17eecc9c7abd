"""What "the same answer" means when hlo-mlir's result is compared with XLA CPU's.

Per result array (``generator.Leaf``):

- integers and pred: bit for bit;
- floating-point and complex values the generator marks exact (data movement, integer
  conversions, comparisons' inputs, max/min, correctly rounded single ops on exact
  inputs): equal values, NaN where XLA has NaN; the sign of zero and NaN payloads are
  not compared (``max(-0, +0)`` and the NaN an operation produces are not pinned down
  between implementations), nor subnormal values, which count as zero (XLA CPU flushes
  them in some ops and not in others, e.g. a bf16 broadcast gives 0 for 9.2e-41);
- other floating-point and complex values (transcendentals, reductions and dots whose
  summation order is implementation-defined, bf16/f16 arithmetic that either side may
  keep in f32 between ops): ``|actual - expected| <= rtol * (|expected| + scale)`` with
  ``rtol = TOLERANCE_ULPS * eps * (1 + err)`` (at most 1/4), where ``eps`` is the machine
  epsilon of the coarsest float type the value was computed in (an f32 value converted to
  f64 keeps f32's) and ``err`` the number of inexact steps that went into it (a complex
  pow counts ``generator.POW_PHASE_STEPS`` more: its phase is rounded in f32), and
  ``scale`` is the largest finite ``|expected|`` of the array (at least 1), so cancellation
  in one element is judged against the array's magnitude.
  NaN must be NaN on both sides and an infinity an infinity of the same sign, except
  that a finite value within a factor 8 of the largest finite number may stand for an
  infinity (an overflow on the boundary). A value that went through a float sum of many
  terms (Reduce, ReduceWindow, Dot, convolution, Scatter-add) may also be any non-finite
  value where XLA's is non-finite: the summation order, and a fused multiply-add, decide
  whether an overflow meets an infinity (NaN) or not (inf). Where the generator knows the
  terms (a Reduce of a parameter or constant: ``Leaf.floor``, ``Leaf.overflow``), ``scale``
  is at least the largest sum of ``|terms|`` (reordering a sum moves it by up to
  ``(n - 1) * eps * sum|terms|``: 3.4e38 - 3.4e38 - 1.26 is 0 or -1.26), a remainder by an
  inexact divisor is judged against its dividend (``x - n * y`` moves by ``n * dy``, an error
  relative to ``|x|``), sin and cos of such a value carry its floor (``|sin'| <= 1``), tan
  its floor times ``1 + tan^2`` (``Leaf.tan``), and so do sin, cos and tan of a float dot or
  convolution, with a bound on its sums of ``|terms|`` as floor (``generator.Val.terms``),
  and where some order's partial sum or product overflows, one side's infinity against the
  other's finite value is not a difference. A complex value of such a sum or product is
  non-finite as a whole (a part is inf or NaN): C's complex product spreads a non-finite part
  to the other (``(3.3e38 + inf j)(1 + 0j)`` is ``NaN + inf j``), so where both sides are
  non-finite the parts may differ (seed 20261127 program 2077). Complex values: per component,
  each judged against the complex magnitude ``|expected|`` (and ``scale`` the array's
  largest finite magnitude) where that is finite: complex arithmetic's error bounds are
  normwise (``|computed - exact| <= k * eps * |exact|``), a phase rounded by one ulp moves
  both parts by about ``eps * |z|``, so a part much smaller than the other carries the
  other's absolute error (seed 20261126 program 4915: ``pow`` gave ``1.65e12 - 2.9e5j``
  on XLA and ``1.65e12 - 0.9e5j`` here, phases 1.2e-7 rad apart). An ill-conditioned float
  ``pow`` (an inexact base, drawn exponents whose largest ``|y|`` times the base's tolerance
  reaches 1: ``Leaf.ill``) is compared by its NaN places only (seed 20261127 program 8077).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import ml_dtypes
import numpy as np

__all__ = ["Difference", "compare", "EPS", "TOLERANCE_ULPS", "tolerance"]

EPS = {"bf16": 2.0 ** -7, "f16": 2.0 ** -10, "f32": 2.0 ** -23, "f64": 2.0 ** -52,
       "c64": 2.0 ** -23, "c128": 2.0 ** -52}
TOLERANCE_ULPS = 16
_COMPONENT = {"c64": "f32", "c128": "f64"}


def tolerance(dtype: str, err: int, eps: float = 0.0) -> float:
    """The relative tolerance of an inexact value of ``dtype`` computed with precision ``eps``
    (at least ``dtype``'s) in ``err`` inexact steps."""
    return min(TOLERANCE_ULPS * max(EPS[dtype], eps) * (1 + err), 0.25)


@dataclass
class Difference:
    """How one result array differs: ``what`` (shape, dtype, values), where and by how much."""

    leaf: int
    what: str
    detail: str = ""
    count: int = 0
    positions: list = field(default_factory=list)
    expected: list = field(default_factory=list)
    actual: list = field(default_factory=list)
    max_abs: float = 0.0
    max_rel: float = 0.0
    rtol: float = 0.0

    def __str__(self) -> str:
        if self.what != "values":
            return f"result {self.leaf}: {self.what}: {self.detail}"
        pairs = ", ".join(f"{tuple(p)}: expected {e} got {a}"
                          for p, e, a in zip(self.positions, self.expected, self.actual, strict=True))
        tol = f", rtol {self.rtol:.3g}" if self.rtol else " (exact)"
        return (f"result {self.leaf} ({self.detail}): {self.count} element(s) differ{tol}; max abs error "
                f"{self.max_abs:.6g}, max rel error {self.max_rel:.6g}; {pairs}")


def _finfo(dtype: str):
    if dtype == "bf16":
        return ml_dtypes.finfo(ml_dtypes.bfloat16)
    return np.finfo({"f16": np.float16, "f32": np.float32, "f64": np.float64}[dtype])


def _max_finite(dtype: str) -> float:
    return float(_finfo(dtype).max)


def _flush(x: np.ndarray, dtype: str) -> np.ndarray:
    """``x`` with ``dtype``'s subnormal values as zeros."""
    return np.where(np.abs(x) < _finfo(dtype).smallest_normal, 0.0, x)


def _bad_floats(e: np.ndarray, a: np.ndarray, dtype: str, exact: bool, err: int,
                eps: float = 0.0, reassoc: bool = False,
                magnitude: np.ndarray | None = None, floor: float = 0.0,
                overflow: bool = False, tan: bool = False, ill: bool = False) -> tuple[np.ndarray, float]:
    """Mask of differing elements of float arrays ``e`` (expected) and ``a`` (float64);
    an inexact element's tolerance is relative to ``magnitude`` (a complex value's
    ``|expected|``) where that is given and finite, else to ``|e|``."""
    e, a = _flush(e, dtype), _flush(a, dtype)
    enan, anan = np.isnan(e), np.isnan(a)
    bad = enan != anan
    both = ~enan & ~anan
    if exact:
        return bad | (both & (e != a)), 0.0
    rtol = tolerance(dtype, err, eps)
    if ill:  # an ill-conditioned pow: any value within its error (Leaf.ill)
        return bad, rtol
    ref = np.abs(e)
    if magnitude is not None:
        ref = np.where(np.isfinite(magnitude), magnitude, ref)
    finite_e = ref[np.isfinite(ref)]
    scale = max(1.0, float(finite_e.max())) if finite_e.size else 1.0
    scale = max(scale, floor)  # a sum's sum of |terms|, a remainder's dividend (Leaf.floor)
    if tan and floor:  # tan(x) moves by (1 + tan(x)^2) dx (Leaf.tan)
        with np.errstate(over="ignore", invalid="ignore"):
            scale = np.maximum(scale, floor * (1.0 + np.where(np.isfinite(e), e, 0.0) ** 2))
    einf, ainf = np.isinf(e), np.isinf(a)
    near_overflow = _max_finite(dtype) / 8
    inf_ok = ((einf & ~ainf & (np.abs(a) >= near_overflow) & (np.sign(a) == np.sign(e)))
              | (ainf & ~einf & (np.abs(e) >= near_overflow) & (np.sign(a) == np.sign(e)))
              | (einf & ainf & (e == a)))
    inf_bad = (einf | ainf) & both & ~inf_ok
    if reassoc:  # where the order of a sum decides between NaN, +inf and -inf
        # (and, with ``overflow``, between an overflow and a finite value: Leaf.overflow)
        nonfinite = (~np.isfinite(e) | ~np.isfinite(a)) if overflow else (~np.isfinite(e) & ~np.isfinite(a))
        bad, inf_bad = bad & ~nonfinite, inf_bad & ~nonfinite
    finite = both & ~einf & ~ainf
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(a - e)
        val_bad = finite & (diff > rtol * (ref + scale))
    return bad | inf_bad | val_bad, rtol


def compare(expected, actual, leaves) -> list[Difference]:
    """Differences between XLA's results and ours (both flat lists of arrays); [] if none."""
    expected = list(expected) if isinstance(expected, (tuple, list)) else [expected]
    actual = list(actual) if isinstance(actual, (tuple, list)) else [actual]
    if len(expected) != len(actual):
        return [Difference(-1, "arity", f"expected {len(expected)} results, got {len(actual)}")]
    out = []
    for k, (e, a, leaf) in enumerate(zip(expected, actual, leaves, strict=True)):
        e, a = np.asarray(e), np.asarray(a)
        if e.shape != a.shape:
            out.append(Difference(k, "shape", f"expected {e.shape}, got {a.shape}"))
            continue
        if e.dtype != a.dtype:
            out.append(Difference(k, "dtype", f"expected {e.dtype}, got {a.dtype}"))
            continue
        diff = _compare_array(k, e, a, leaf)
        if diff is not None:
            out.append(diff)
    return out


def _compare_array(k: int, e: np.ndarray, a: np.ndarray, leaf) -> Difference | None:
    dtype = leaf.dtype
    exact = leaf.exact or not (e.dtype.kind in "fc" or dtype in ("bf16",))
    if e.dtype.kind in "biu":
        bad = e != a
        rtol = 0.0
        ef, af = e.astype(np.float64), a.astype(np.float64)
    elif e.dtype.kind == "c":
        comp = _COMPONENT.get(dtype, "f32")
        ef, af = e.astype(np.complex128), a.astype(np.complex128)
        with np.errstate(over="ignore", invalid="ignore"):
            magnitude = np.abs(ef)
        bad_re, rtol = _bad_floats(ef.real, af.real, comp, exact, leaf.err, leaf.eps, leaf.reassoc, magnitude)
        bad_im, _ = _bad_floats(ef.imag, af.imag, comp, exact, leaf.err, leaf.eps, leaf.reassoc, magnitude)
        bad = bad_re | bad_im
        if leaf.reassoc and not exact:  # a reordered complex product: any non-finite value where
            # XLA's is non-finite (C's product spreads a non-finite part: (a + inf j)(1 + 0j) is
            # NaN + inf j, so the order, the init's count and padding decide the parts)
            bad &= np.isfinite(ef) | np.isfinite(af)
    else:
        ef, af = e.astype(np.float64), a.astype(np.float64)
        bad, rtol = _bad_floats(ef, af, dtype, exact, leaf.err, leaf.eps, leaf.reassoc,
                                floor=leaf.floor, overflow=leaf.overflow, tan=leaf.tan,
                                ill=leaf.ill)
    if not bad.any():
        return None
    positions = np.argwhere(bad)[:6]
    with np.errstate(invalid="ignore", over="ignore"):
        d = np.abs(af - ef)
        finite = np.isfinite(d) & bad
        max_abs = float(d[finite].max()) if finite.any() else float("nan")
        rel = d / np.maximum(np.abs(ef), np.finfo(np.float64).tiny)
        max_rel = float(rel[finite].max()) if finite.any() else float("nan")
    return Difference(k, "values", f"{dtype}, {'exact' if exact else 'inexact'}", int(bad.sum()),
                      [tuple(int(i) for i in p) for p in positions],
                      [e[tuple(p)].item() for p in positions], [a[tuple(p)].item() for p in positions],
                      max_abs, max_rel, rtol)
