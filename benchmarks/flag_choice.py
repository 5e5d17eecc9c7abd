"""Measures hlo-mlir's llvm-cpu default flags and the local runtime drivers.

Not a test: a script whose numbers justify ``compiler.TARGETS["llvm-cpu"]`` and
``runtime.DEFAULT_DRIVER``. For each workload it compiles twice (our default flags,
IREE's defaults) and loads each vmfb on local-sync and local-task, then times calls
through the public API (``LoadedModule.main``, argument copies included) in
interleaved rounds, so that load from other processes hits every configuration alike.

    PYTHONPATH=. python benchmarks/flag_choice.py [--rounds 5] [--min-time 0.2]

Prints the median time per call of every (workload, flags, driver) and the ratios.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "1")

import numpy as np  # noqa: E402

import hlo_mlir  # noqa: E402
from hlo_mlir import Add, Dot, Max, Parameter, ScalarLike, Shape, XlaBuilder  # noqa: E402

# IREE's own defaults for a host CPU: no optimization level, no data tiling, no ukernels.
IREE_DEFAULT_FLAGS = [
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
    "--iree-llvmcpu-target-cpu=host",
    "--iree-input-demote-f64-to-f32=false",
]


def tiny_add():
    b = XlaBuilder("tiny_add")
    x = Parameter(b, 0, Shape.parse("f32[4]"))
    y = Parameter(b, 1, Shape.parse("f32[4]"))
    comp = b.build(Add(x, y))
    return comp, [np.ones(4, np.float32), np.ones(4, np.float32)]


def matmul(n: int):
    b = XlaBuilder(f"matmul{n}")
    x = Parameter(b, 0, Shape.parse(f"f32[{n},{n}]"))
    y = Parameter(b, 1, Shape.parse(f"f32[{n},{n}]"))
    comp = b.build(Dot(x, y))
    rng = np.random.default_rng(0)
    return comp, [rng.standard_normal((n, n), np.float32), rng.standard_normal((n, n), np.float32)]


def mlp(batch: int = 32, sizes=(256, 512, 512, 10)):
    b = XlaBuilder("mlp")
    rng = np.random.default_rng(0)
    h = Parameter(b, 0, Shape.parse(f"f32[{batch},{sizes[0]}]"), "x")
    args = [rng.standard_normal((batch, sizes[0]), np.float32)]
    for i, (k, n) in enumerate(zip(sizes, sizes[1:])):
        w = Parameter(b, 1 + 2 * i, Shape.parse(f"f32[{k},{n}]"), f"w{i}")
        bias = Parameter(b, 2 + 2 * i, Shape.parse(f"f32[{n}]"), f"b{i}")
        args += [(rng.standard_normal((k, n)) / np.sqrt(k)).astype(np.float32), rng.standard_normal(n, np.float32)]
        h = Add(Dot(h, w), bias, [1])
        if i < len(sizes) - 2:
            h = Max(h, ScalarLike(h, 0.0))
    return b.build(h), args


WORKLOADS = {"tiny add f32[4]": tiny_add, "mlp 32x256-512-512-10": mlp, "matmul f32 512": lambda: matmul(512),
             "matmul f32 1024": lambda: matmul(1024)}
FLAGS = {"ours": None, "iree-default": IREE_DEFAULT_FLAGS}
DRIVERS = ("local-sync", "local-task")


def per_call(fn, args, min_time: float) -> float:
    """Seconds per call: repeats until ``min_time`` has passed."""
    fn(*args)  # warm up
    calls, start = 0, time.perf_counter()
    while True:
        fn(*args)
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return elapsed / calls


def compile_with(comp, flags):
    if flags is None:
        return hlo_mlir.compile(comp, "llvm-cpu")
    # Replace our defaults wholesale: pass IREE's through a target whose flags are emptied.
    from hlo_mlir import compiler

    saved = compiler.TARGETS["llvm-cpu"]
    compiler.TARGETS["llvm-cpu"] = flags
    try:
        return hlo_mlir.compile(comp, "llvm-cpu")
    finally:
        compiler.TARGETS["llvm-cpu"] = saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--min-time", type=float, default=0.2)
    args = parser.parse_args()

    cases = {}
    for wname, make in WORKLOADS.items():
        comp, inputs = make()
        for fname, flags in FLAGS.items():
            vmfb = compile_with(comp, flags)
            for driver in DRIVERS:
                cases[(wname, fname, driver)] = (hlo_mlir.runtime.load(vmfb, driver).main, inputs)
    times: dict = {key: [] for key in cases}
    for _ in range(args.rounds):
        for key, (fn, inputs) in cases.items():
            times[key].append(per_call(fn, inputs, args.min_time))

    med = {key: statistics.median(v) for key, v in times.items()}
    print(f"{'workload':24} {'flags':13} {'driver':11} {'us/call':>10}")
    for (w, f, d), t in med.items():
        print(f"{w:24} {f:13} {d:11} {t * 1e6:10.1f}")
    print("\nspeedups (time of the slower-named config / time of the other; >1: the second wins)")
    for w in WORKLOADS:
        for d in DRIVERS:
            print(f"{w:24} {d:11} t(iree-default) / t(ours) = "
                  f"{med[(w, 'iree-default', d)] / med[(w, 'ours', d)]:.2f}")
        for f in FLAGS:
            print(f"{w:24} {f:11} t(local-sync) / t(local-task) = "
                  f"{med[(w, f, 'local-sync')] / med[(w, f, 'local-task')]:.2f}")


if __name__ == "__main__":
    main()
