"""Pass-pipeline scaling: time per op of our pipeline on generated 1k/10k/100k-op modules.

    PYTHONPATH=. python -m benchmarks.pipeline_scaling [--sizes 1000,10000,100000]

Each module is a chain of steps built with the builder; a step is 6 builder calls (9
StableHLO ops once scalars are broadcast, so a module has about 1.5x the requested size)
that give every O2 pass work (a duplicate subexpression for cse, a multiply by one for algsimp, a
constant expression for constant folding), and every step feeds the next so dce keeps
them. Times ``run_pipeline(module, "O2")`` and the ``iree-legalize`` preset per pass and
prints microseconds per op (wall, and CPU time of this process, which other processes on
the machine disturb less): a flat column means linear passes. A pass whose time per
op grows by more than 1.5x from the smallest to the largest module is named as superlinear.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from benchmarks import measure

__all__ = ["build_module", "run_scaling", "main"]

OPS_PER_STEP = 6


def build_module(n_ops: int):
    """An XlaComputation of about ``n_ops`` StableHLO ops (parameters and return excluded)."""
    from hlo_mlir import Add, ConstantR0, Max, Mul, Parameter, Shape, XlaBuilder

    b = XlaBuilder(f"scaling_{n_ops}")
    x = Parameter(b, 0, Shape.parse("f32[8]"), "x")
    v = Parameter(b, 1, Shape.parse("f32[8]"), "v")
    for i in range(max(1, n_ops // OPS_PER_STEP)):
        one = ConstantR0(b, np.float32(1.0))           # folded into its users by algsimp
        a = Add(v, x)
        dup = Add(v, x)                                # cse merges it with a
        scaled = Mul(a, one, [])                       # algsimp: a * 1 -> a
        step = ConstantR0(b, np.float32(1e-3 * (i % 7)))
        v = Max(Add(scaled, step, []), dup)            # keeps the chain alive for dce
    return b.build(v)


def count_ops(module) -> int:
    n = 0

    def walk(op):
        nonlocal n
        for region in op.regions:
            for block in region.blocks:
                for inner in block.operations:
                    if inner.operation.name.startswith("stablehlo."):
                        n += 1
                    walk(inner.operation)

    walk(module.operation)
    return n


def run_scaling(sizes, repeats: int = 1) -> dict:
    from hlo_mlir import compiler
    from pipelines.pipeline import run_pipeline

    rows = []
    for n in sizes:
        start = time.perf_counter()
        comp = build_module(n)
        build_s = time.perf_counter() - start
        runs = []
        for _ in range(repeats):
            module = compiler.as_module(comp)
            ops = count_ops(module)
            c0, t0 = time.process_time(), time.perf_counter()
            o2 = run_pipeline(module, "O2")
            t1 = time.perf_counter()
            leg = run_pipeline(module, "iree-legalize")
            t2, c2 = time.perf_counter(), time.process_time()
            per_pass = {f"O2/{k}": v for k, v in o2.timing().items()}
            per_pass.update({f"iree-legalize/{k}": v for k, v in leg.timing().items()})
            per_pass["O2/(verifier)"] = o2.verifier_seconds
            per_pass["iree-legalize/(verifier)"] = leg.verifier_seconds
            row = {"requested_ops": n, "ops": ops, "ops_after": count_ops(module), "build_seconds": build_s,
                   "O2_seconds": t1 - t0, "iree_legalize_seconds": t2 - t1,
                   "total_seconds": t2 - t0, "cpu_seconds": c2 - c0, "per_pass_seconds": per_pass}
            runs.append(row)
        best = min(runs, key=lambda r: r["total_seconds"])
        best["us_per_op"] = 1e6 * best["total_seconds"] / best["ops"]
        best["cpu_us_per_op"] = 1e6 * best["cpu_seconds"] / best["ops"]
        best["build_us_per_op"] = 1e6 * best["build_seconds"] / best["ops"]
        rows.append(best)
    return {"sizes": rows, "superlinear": superlinear(rows)}


def superlinear(rows, tolerance: float = 1.5) -> list[dict]:
    """Passes whose time per op grows by more than ``tolerance`` from the first row to the last."""
    if len(rows) < 2:
        return []
    first, last = rows[0], rows[-1]
    found = []
    for name, seconds in last["per_pass_seconds"].items():
        before = first["per_pass_seconds"].get(name, 0.0) / first["ops"]
        after = seconds / last["ops"]
        # Ignore passes too cheap to matter (< 1 us per op at the largest size).
        if after > 1e-6 and before > 0 and after / before > tolerance:
            found.append({"pass": name, "us_per_op_small": 1e6 * before, "us_per_op_large": 1e6 * after,
                          "growth": after / before})
    return sorted(found, key=lambda f: -f["growth"])


def print_report(result: dict, out=sys.stdout) -> None:
    print(f"{'ops':>8} {'build s':>8} {'O2 s':>8} {'legalize s':>10} {'total s':>8} {'us/op':>7} "
          f"{'cpu us/op':>9}", file=out)
    for r in result["sizes"]:
        print(f"{r['ops']:>8} {r['build_seconds']:>8.2f} {r['O2_seconds']:>8.2f} "
              f"{r['iree_legalize_seconds']:>10.2f} {r['total_seconds']:>8.2f} "
              f"{r['us_per_op']:>7.1f} {r['cpu_us_per_op']:>9.1f}", file=out)
    last = result["sizes"][-1]
    per_pass = sorted(last["per_pass_seconds"].items(), key=lambda kv: -kv[1])
    print("per pass at the largest size (us/op): " + ", ".join(
        f"{k} {1e6 * v / last['ops']:.1f}" for k, v in per_pass if v > 0), file=out)
    for f in result["superlinear"]:
        print(f"SUPERLINEAR: {f['pass']}: {f['us_per_op_small']:.1f} -> {f['us_per_op_large']:.1f} us/op "
              f"({f['growth']:.1f}x)", file=out)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="1000,10000,100000")
    p.add_argument("--repeats", type=int, default=1)
    p.add_argument("--json", default="")
    args = p.parse_args(argv)
    result = run_scaling([int(s) for s in args.sizes.split(",")], args.repeats)
    print_report(result)
    measure.save_json(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
