"""Chooses hlo-mlir's llvm-cpu default flags and runtime driver by measurement.

Not a test: the numbers behind ``compiler.TARGETS["llvm-cpu"]`` and
``runtime.DEFAULT_DRIVER``. Each workload of the suite (a representative subset by
default) is compiled with every flag preset below and loaded on local-sync and
local-task; raw calls (inputs on device) and API calls (numpy in and out) are timed in
interleaved rounds, so load from other processes hits every configuration alike.

    PYTHONPATH=. python -m benchmarks.flag_choice [--only a,b] [--presets ours,iree-defaults] [--rounds 3]

Prints the median time per call of every (workload, preset, driver) relative to ``ours``
on the default driver (< 1: faster than the current defaults).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable

from benchmarks import measure, workloads

# Presets are the flags passed on top of the target's defaults (a later flag of the same
# name wins), except "iree-defaults", which replaces the optimization flags by IREE's own
# defaults (no opt level, no data tiling, no ukernels, no reassociation).
_IREE_DEFAULTS = ["--iree-opt-level=O0", "--iree-opt-data-tiling=false",
                  "--iree-llvmcpu-enable-ukernels=none", "--iree-llvmcpu-reassociate-fp-reductions=false"]
# "O2" and "aggressive-fusion" give byte-identical vmfbs to "ours" for the softmax,
# layernorm, matmul, mlp and attention workloads (IREE 3.13.0): kept to show it. The
# "unpack" ukernel (in "all") is what makes batched matmul and attention 15-20% slower
# than "mmt4d"; "none" is as fast but gives wrong bf16 matmuls.
PRESETS: dict[str, list[str]] = {
    "ours": [],
    "iree-defaults": _IREE_DEFAULTS,
    "O2": ["--iree-opt-level=O2"],
    "no-ukernels": ["--iree-llvmcpu-enable-ukernels=none"],
    "ukernels-mmt4d": ["--iree-llvmcpu-enable-ukernels=mmt4d"],
    "ukernels-mmt4d-pack": ["--iree-llvmcpu-enable-ukernels=mmt4d,pack"],
    "aggressive-fusion": ["--iree-dispatch-creation-enable-aggressive-fusion"],
}
DEFAULT_SUBSET = ["matmul_f32_512", "batched_matmul", "mlp_3layer", "attention", "softmax",
                  "elementwise_chain", "while_1000", "tiny_add"]


def run(names, presets, rounds: int, min_time: float, quick: bool) -> dict:
    from hlo_mlir import runtime

    out = {}
    for w in workloads.by_name(names):
        built = w.make(quick)
        cases: dict[str, Callable[[], Any]] = {}
        for preset in presets:
            try:
                ours = measure.Ours(built.source, flags=PRESETS[preset])
            except Exception as e:  # noqa: BLE001 - a preset that fails to compile is a result
                print(f"  {w.name} {preset}: compile failed: {str(e).splitlines()[0][:200]}", file=sys.stderr)
                continue
            for driver in ("local-sync", "local-task"):
                cases[f"{preset} raw {driver}"] = ours.raw(driver, built.args)
                cases[f"{preset} api {driver}"] = measure.call_with(ours.api(driver), built.args)
        samples = measure.interleave(cases, rounds, min_time, budget=30.0)
        med = {k: measure.median(v) for k, v in samples.items()}
        base = {mode: med[f"ours {mode} {runtime.DEFAULT_DRIVER}"] for mode in ("raw", "api")}
        out[w.name] = {k: {"seconds": t, "vs_ours_default": t / base[k.split()[1]]} for k, t in med.items()}
        print(f"{w.name}:", file=sys.stderr)
        for k, v in out[w.name].items():
            print(f"  {k:40} {v['seconds'] * 1e3:10.3f} ms  {v['vs_ours_default']:5.2f}", file=sys.stderr)
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", default=",".join(DEFAULT_SUBSET))
    p.add_argument("--presets", default=",".join(PRESETS))
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--min-time", type=float, default=0.1)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--json", default="")
    args = p.parse_args(argv)
    result = run(args.only.split(","), args.presets.split(","), args.rounds, args.min_time, args.quick)
    measure.save_json(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
