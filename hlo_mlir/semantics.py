"""``verify_semantics``: run the module on CPU before and after each pass and compare.

``run_pipeline(module, spec, semantics_checker=SemanticsChecker)`` (``hlo-opt
--verify-semantics``) uses it; it compiles and runs, so it sits above the compiler and the
runtime, and the pipeline gets it from its caller.

The entry function (public ``@main``, else the first public function) is compiled
for llvm-cpu with the IREE legalizations and run on random inputs fixed by a seed.
After every pass that changed the module it is compiled and run again; outputs must
match the previous run: integers and PRED exactly, floating point within a tolerance
of the element type (NaN where NaN was, infinities equal).
"""

from __future__ import annotations

import numpy as np
from iree.compiler import ir

from hlo_mlir import ir_access, runtime
from hlo_mlir.compiler import compile as compile_module
from hlo_mlir.errors import CompileError, InvalidArgumentError, RuntimeCallError
from hlo_mlir.shape import Shape
from pipelines.pass_base import PassError

__all__ = ["SemanticsChecker", "SemanticsError", "tolerance", "first_difference", "random_inputs"]


class SemanticsError(PassError):
    """A pass changed what the module computes."""


# element-type bit width of floats -> (rtol, atol)
_TOLERANCE = {8: (1.3e-1, 1e-1), 16: (1e-2, 1e-3), 32: (1e-5, 1e-6), 64: (1e-12, 1e-13)}


def tolerance(dtype: np.dtype) -> tuple[float, float]:
    """(rtol, atol) for comparing results of ``dtype``; (0, 0) for integers and PRED."""
    dtype = np.dtype(dtype)
    if dtype.kind in "biu" or dtype.name in ("int2", "int4", "uint2", "uint4"):
        return 0.0, 0.0
    bits = dtype.itemsize * 8 // (2 if dtype.kind == "c" else 1)
    return _TOLERANCE.get(bits, _TOLERANCE[8])


def first_difference(before: np.ndarray, after: np.ndarray) -> tuple | None:
    """(index, before value, after value) of the first element that differs, or None."""
    if before.shape != after.shape or before.dtype != after.dtype:
        return ((), f"{before.dtype}{list(before.shape)}", f"{after.dtype}{list(after.shape)}")
    rtol, atol = tolerance(before.dtype)
    if rtol == 0 and atol == 0:
        bad = before != after
    else:
        wide = np.complex128 if before.dtype.kind == "c" else np.float64
        b, a = before.astype(wide), after.astype(wide)
        nan_b, nan_a = np.isnan(b), np.isnan(a)
        with np.errstate(invalid="ignore"):
            close = (np.abs(a - b) <= atol + rtol * np.abs(b)) | (a == b)
            infinite = np.isinf(a) | np.isinf(b)
        close = np.where(infinite, a == b, close)  # infinities only match themselves
        bad = (nan_b != nan_a) | (~nan_b & ~close)
    if not bad.any():
        return None
    index = tuple(int(i) for i in np.argwhere(np.atleast_1d(bad))[0])
    if before.ndim == 0:
        return (), before[()], after[()]
    return index, before[index], after[index]


def random_inputs(shapes: list[Shape], seed: int = 0) -> list:
    """Deterministic random arguments: normal floats, small integers, random PRED."""
    rng = np.random.default_rng(seed)

    def one(shape: Shape):
        if shape.is_tuple:
            return tuple(one(s) for s in shape.tuple_shapes)
        if shape.is_token:
            raise InvalidArgumentError("verify_semantics requires array or tuple parameters; got a token.")
        dims, dtype = shape.dimensions, shape.dtype
        if dtype == np.bool_:
            return rng.random(dims) < 0.5
        if dtype.kind == "u":
            return rng.integers(0, 16, dims).astype(dtype)
        if dtype.kind == "i":
            return rng.integers(-8, 9, dims).astype(dtype)
        if dtype.kind == "c":
            return (rng.standard_normal(dims) + 1j * rng.standard_normal(dims)).astype(dtype)
        return (2 * rng.standard_normal(dims)).astype(dtype)

    return [one(s) for s in shapes]


def _entry(module: ir.Module):
    entry = ir_access.entry_function(module)
    if entry is None:
        publics = [ir_access.symbol_name(f) for f in ir_access.functions(module) if ir_access.is_public(f)]
        raise InvalidArgumentError(f"verify_semantics requires a public @main or a single public function to "
                                   f"run; got public functions {publics}.")
    return entry


def _flatten(value) -> list[np.ndarray]:
    if isinstance(value, (tuple, list)):
        return [leaf for v in value for leaf in _flatten(v)]
    return [np.asarray(value)]


class SemanticsChecker:
    """Holds the inputs and the last outputs; ``check(pass_name)`` reruns and compares."""

    def __init__(
        self, module: ir.Module, seed: int = 0, target: str = "llvm-cpu", driver: str = "local-sync"
    ):
        self.module, self.target, self.driver = module, target, driver
        entry = _entry(module)
        self.function = ir_access.symbol_name(entry)
        ftype = ir_access.function_type(entry)
        self.inputs = random_inputs([Shape.from_mlir_type(t) for t in ftype.inputs], seed)
        try:
            self.outputs = self._run()
        except (CompileError, RuntimeCallError) as e:
            raise PassError(f"verify-semantics could not run the input module: {e}") from None

    def _run(self) -> list[np.ndarray]:
        vmfb = compile_module(self.module, self.target, passes="", legalize=True)
        loaded = runtime.load(vmfb, self.driver)
        return _flatten(loaded[self.function](*self.inputs))

    def check(self, pass_name: str) -> None:
        """Runs the module again; raises SemanticsError naming ``pass_name`` on a difference."""
        try:
            outputs = self._run()
        except (CompileError, RuntimeCallError) as e:
            raise SemanticsError(
                f"pass '{pass_name}': verify-semantics could not run the module after it: {e}", pass_name
            ) from None
        if len(outputs) != len(self.outputs):
            raise SemanticsError(
                f"pass '{pass_name}' changed the number of outputs from {len(self.outputs)} "
                f"to {len(outputs)}.",
                pass_name,
            )
        for i, (before, after) in enumerate(zip(self.outputs, outputs, strict=True)):
            diff = first_difference(before, after)
            if diff is not None:
                index, b, a = diff
                rtol, atol = tolerance(before.dtype)
                tol = "exact" if rtol == atol == 0 else f"rtol={rtol:g}, atol={atol:g}"
                raise SemanticsError(
                    f"pass '{pass_name}' changed the results of @{self.function}: output {i} at index "
                    f"{list(index)}: before {b!r}, after {a!r} ({before.dtype}, {tol}).",
                    pass_name,
                )
        self.outputs = outputs
