"""A five-minute tour: build with the XLA builder API, optimize, compile with IREE, run.

``python -m hlo_mlir.demo`` (or the ``hlo-mlir-demo`` script) builds a two-layer MLP
(Dot + bias Add + Max(0) ReLU) and a reduction (sum and max over rows, each with a
reducer built by its own XlaBuilder, as in XLA), optimizes both with the O2 pass
pipeline, compiles them for llvm-cpu, runs them on random inputs and prints each result
next to numpy's with the largest absolute difference, then prints the StableHLO of the
MLP.
"""

from __future__ import annotations

import argparse
import itertools
import sys

import numpy as np

import hlo_mlir
from hlo_mlir import (
    Add,
    Dot,
    Max,
    Parameter,
    PrimitiveType,
    Reduce,
    ScalarLike,
    Shape,
    Tuple,
    XlaBuilder,
    XlaComputation,
)
from pipelines.pipeline import run_pipeline

__all__ = ["build_mlp", "build_reductions", "optimize", "main"]


def build_mlp(batch: int = 4, sizes: tuple[int, ...] = (8, 16, 3)) -> XlaComputation:
    """``relu(x @ w0 + b0) @ w1 + b1``: parameters x, w0, b0, w1, b1 (f32)."""
    b = XlaBuilder("mlp")
    h = Parameter(b, 0, Shape.array_shape(PrimitiveType.F32, [batch, sizes[0]]), "x")
    for layer, (k, n) in enumerate(itertools.pairwise(sizes)):
        w = Parameter(b, 1 + 2 * layer, Shape.array_shape(PrimitiveType.F32, [k, n]), f"w{layer}")
        bias = Parameter(b, 2 + 2 * layer, Shape.array_shape(PrimitiveType.F32, [n]), f"b{layer}")
        h = Add(Dot(h, w), bias, [1])  # bias broadcast along dimension 1
        if layer < len(sizes) - 2:
            h = Max(h, ScalarLike(h, 0.0))  # ReLU
    return b.build(h)


def _scalar_reducer(name: str, op) -> XlaComputation:
    """A (f32[], f32[]) -> f32[] reducer, built like XLA's CreateScalarAddComputation."""
    b = XlaBuilder(name)
    lhs = Parameter(b, 0, Shape.scalar_shape(PrimitiveType.F32), "lhs")
    rhs = Parameter(b, 1, Shape.scalar_shape(PrimitiveType.F32), "rhs")
    return b.build(op(lhs, rhs))


def build_reductions(rows: int = 5, cols: int = 7) -> XlaComputation:
    """Row sums and row maxima of an f32[rows, cols] matrix, as a tuple."""
    b = XlaBuilder("reductions")
    x = Parameter(b, 0, Shape.array_shape(PrimitiveType.F32, [rows, cols]), "x")
    row_sum = Reduce(x, ScalarLike(x, 0.0), _scalar_reducer("add", Add), [1])
    row_max = Reduce(x, ScalarLike(x, -np.inf), _scalar_reducer("max", Max), [1])
    return b.build(Tuple(b, [row_sum, row_max]))


def optimize(computation: XlaComputation) -> XlaComputation:
    """Runs the ``O2`` pass pipeline (inline, then algsimp, constant folding, CSE and DCE to
    a fixed point) on a copy of ``computation`` and prints which rules fired.

    ``hlo_mlir.compile`` runs O2 itself; the demo runs it here to show what it does, and
    compiles the result with ``passes="O0"``.
    """
    module = computation.get_hlo_module()
    before = module.instruction_count()
    result = run_pipeline(module.module, "O2")
    fired = {f"{name}:{rule}": n for name, rules in result.statistics().items() for rule, n in rules.items()}
    print(f"O2: {before} -> {module.instruction_count()} instructions; rules fired: {fired or 'none'}")
    return module.to_computation()


def _report(name: str, ours, reference) -> float:
    ours, reference = np.asarray(ours), np.asarray(reference)
    diff = float(np.max(np.abs(ours.astype(np.float64) - reference))) if ours.size else 0.0
    print(f"--- {name}: {ours.dtype}{list(ours.shape)}, max |hlo-mlir - numpy| = {diff:.3g}")
    with np.printoptions(precision=4, suppress=True, linewidth=100):
        for label, value in (("hlo-mlir", ours), ("numpy", reference)):
            text = np.array2string(np.asarray(value, np.float32), prefix=" " * 11)
            print(f"  {label:>8}: {text}")
    return diff


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hlo-mlir-demo", description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="random seed for the inputs (default: 0)")
    parser.add_argument("--driver", default="local-task", choices=hlo_mlir.runtime.DRIVERS[:2],
                        help="IREE runtime driver (default: local-task)")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)

    def run(computation):  # compiled for the CPU, loaded on the chosen driver
        return hlo_mlir.runtime.load(hlo_mlir.compile(computation, "llvm-cpu", passes="O0"), args.driver)

    built = build_mlp()
    print(f"MLP {built.program_shape()}")
    mlp = optimize(built)
    x = rng.standard_normal((4, 8)).astype(np.float32)
    w0, b0 = rng.standard_normal((8, 16)).astype(np.float32), rng.standard_normal(16).astype(np.float32)
    w1, b1 = rng.standard_normal((16, 3)).astype(np.float32), rng.standard_normal(3).astype(np.float32)
    ours = run(mlp).main(x, w0, b0, w1, b1)
    worst = _report("mlp", ours, np.maximum(x @ w0 + b0, 0) @ w1 + b1)

    built = build_reductions()
    print(f"\nReductions {built.program_shape()}")
    reductions = optimize(built)
    m = rng.standard_normal((5, 7)).astype(np.float32)
    row_sum, row_max = run(reductions).main(m)
    worst = max(worst, _report("row sum", row_sum, m.sum(axis=1)), _report("row max", row_max, m.max(axis=1)))

    print("\nStableHLO of the MLP:")
    print(mlp.as_text())
    ok = worst < 1e-4
    print(f"{'OK' if ok else 'MISMATCH'}: largest difference from numpy {worst:.3g}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
