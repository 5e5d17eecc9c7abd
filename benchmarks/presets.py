"""What the optimization presets do to real programs: op counts, answers and run time.

    PYTHONPATH=. python -m benchmarks.presets [--only NAMES] [--presets O0,O1,O2,cpu] [--quick]

For every benchmark workload, plus a JAX-exported MLP and softmax (the layer norm and the
attention block of the suite are JAX exports already), each preset runs on the module and
the program is compiled with it for llvm-cpu. The report gives, per workload and preset:
the StableHLO op count after the preset (before ``iree-legalize``), whether the outputs
match XLA CPU on the same module (the workload's tolerance) and the time per call with the
inputs on the device, as a ratio to the first preset measured in the same interleaved
rounds (below 1: faster; "= O1": the same module as that preset, so the same program). A
preset must not make any workload slower or change an answer.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from benchmarks import measure, workloads
from benchmarks.measure import geomean, median
from benchmarks.pipeline_scaling import count_ops

__all__ = ["run_presets", "main"]

DEFAULT_PRESETS = ("O0", "O1", "O2", "cpu")


def _jax_mlp(quick: bool) -> workloads.Built:
    import jax.numpy as jnp

    batch, dims = (8, (16, 32, 8)) if quick else (128, (784, 1024, 10))
    rng = workloads._rng()
    weights = [(rng.standard_normal((a, b)) / np.sqrt(a)).astype(np.float32)
               for a, b in zip(dims, dims[1:], strict=False)]
    args = [rng.standard_normal((batch, dims[0]), np.float32), *weights]

    def mlp(x, w1, w2):
        return jnp.tanh(jnp.maximum(x @ w1, 0.0) @ w2)

    return workloads.Built(workloads._jax_export(mlp, args), args,
                           numpy=lambda x, w1, w2: np.tanh(np.maximum(x @ w1, 0) @ w2), rtol=1e-4, atol=1e-4)


def _jax_softmax(quick: bool) -> workloads.Built:
    import jax

    shape = (4, 16) if quick else (4096, 1024)
    args = [workloads._rng().standard_normal(shape, np.float32)]

    def reference(x):
        e = np.exp(x - x.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)

    return workloads.Built(workloads._jax_export(lambda x: jax.nn.softmax(x, axis=-1), args), args,
                           numpy=reference, rtol=1e-5, atol=1e-6)


EXTRA = [
    workloads.Workload("jax_mlp", "JAX export: batch 128, 784-1024-10, relu, tanh", _jax_mlp, "jax"),
    workloads.Workload("jax_softmax", "JAX export: f32[4096,1024] along rows", _jax_softmax, "jax"),
]


def _after_presets(source, presets) -> tuple[dict[str, int], dict[str, str]]:
    """(StableHLO op count of the input and after each preset, the preset whose output
    each preset's output is identical to: the first such, itself if none)."""
    from hlo_mlir import compiler
    from pipelines.pipeline import run_pipeline

    counts, same = {"input": count_ops(compiler.as_module(source))}, {}
    texts: dict[str, str] = {}
    for preset in presets:
        module = compiler.as_module(source)  # a fresh copy per preset
        run_pipeline(module, preset)
        counts[preset] = count_ops(module)
        text = module.operation.get_asm(print_generic_op_form=True)
        same[preset] = next((p for p, other in texts.items() if other == text), preset)
        texts[preset] = text
    return counts, same


def run_workload(w, presets, quick: bool, rounds: int, min_time: float, budget: float) -> dict:
    """One workload under each preset. Presets that give the same module as an earlier one
    share its program: their time ratio to it is 1 by construction, not a measurement."""
    built = w.make(quick)
    counts, same = _after_presets(built.source, presets)
    record: dict = {"name": w.name, "origin": w.origin, "ops": counts, "same_as": same}
    xla = measure.Xla(built.source)
    expected = xla.api(*built.args)
    compiled, record["checks"], record["compile_seconds"] = {}, {}, {}
    for preset in presets:
        if same[preset] != preset:
            if same[preset] in compiled:
                record["checks"][preset] = record["checks"][same[preset]]
            continue
        try:
            ours = measure.Ours(built.source, passes=preset)
        except Exception as e:  # noqa: BLE001 - a failure is a result to report
            detail = f"compile failed: {type(e).__name__}: {e}"[:500]
            record["checks"][preset] = {"ok": False, "detail": detail}
            continue
        compiled[preset] = ours
        record["compile_seconds"][preset] = ours.compile_seconds
        got = ours.api(ours.preferred_driver)(*built.args)
        record["checks"][preset] = measure.compare(got, expected, built.rtol, built.atol)
    cases = {p: ours.raw(ours.preferred_driver, built.args) for p, ours in compiled.items()}
    samples = measure.interleave(cases, rounds, min_time, budget)
    times = {p: median(s) for p, s in samples.items()}
    record["times"] = {p: times[same[p]] for p in presets if same[p] in times}
    base = record["times"].get(presets[0])
    record["ratios"] = {p: t / base for p, t in record["times"].items()} if base else {}
    return record


def run_presets(names=(), presets=DEFAULT_PRESETS, quick: bool = False, rounds: int = 5,
                min_time: float = 0.1, budget: float = 20.0, progress=sys.stderr) -> dict:
    chosen = [w for w in workloads.WORKLOADS + EXTRA if not names or w.name in names]
    unknown = sorted(set(names) - {w.name for w in workloads.WORKLOADS + EXTRA})
    if unknown:
        raise SystemExit(f"unknown workload(s) {unknown}")
    rows, start = [], time.perf_counter()
    with measure.Progress(len(chosen), "presets", progress) as bar:
        for i, w in enumerate(bar.items(chosen, lambda w: w.name), 1):
            bar.status(f"[{i}/{len(chosen)}] {w.name}")
            rows.append(run_workload(w, list(presets), quick, rounds, min_time, budget))
    summary = {p: geomean([r["ratios"].get(p) for r in rows]) for p in presets}
    return {"presets": list(presets), "workloads": rows, "geomean_ratio": summary,
            "quick": quick, "seconds": time.perf_counter() - start, "machine": measure.machine_info()}


def failures(result: dict) -> list[str]:
    """The workloads a preset failed to compile or answered wrongly."""
    return [r["name"] for r in result["workloads"] if not all(c.get("ok") for c in r["checks"].values())]


def table(result: dict) -> tuple[list[str], list[list[str]]]:
    """(header, rows): op counts per preset, answers, time ratios to the first preset."""
    presets = result["presets"]
    header = ["workload", "ops in"] + [f"ops {p}" for p in presets] + ["answers"] + [
        f"time {p}/{presets[0]}" for p in presets[1:]]
    rows = []
    for r in result["workloads"]:
        wrong = [p for p in presets if not r["checks"].get(p, {}).get("ok")]
        same = r.get("same_as", {})
        rows.append([r["name"], str(r["ops"]["input"])] + [str(r["ops"][p]) for p in presets]
                    + ["XLA's" if not wrong else "WRONG: " + ", ".join(wrong)]
                    + [_ratio_cell(r, p, same.get(p, p)) for p in presets[1:]])
    return header, rows


def _ratio_cell(r: dict, preset: str, same_as: str) -> str:
    if preset not in r["ratios"]:
        return "-"
    return f"{r['ratios'][preset]:.2f}" + (f" (= {same_as})" if same_as != preset else "")


def print_report(result: dict, out=sys.stdout) -> None:
    presets = result["presets"]
    header, rows = table(result)
    for row in [header, *rows]:
        print(" | ".join(row), file=out)
    print("geomean time ratio: " + ", ".join(
        f"{p}/{presets[0]} {result['geomean_ratio'][p]:.3f}" for p in presets[1:]), file=out)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.presets", description=__doc__.splitlines()[0])
    p.add_argument("--only", default="", help="comma-separated workload names")
    p.add_argument("--presets", default=",".join(DEFAULT_PRESETS),
                   help="presets to compare, the first is the base")
    p.add_argument("--quick", action="store_true", help="tiny sizes, few rounds (smoke test)")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--out", default="", help="write the JSON result here")
    args = p.parse_args(argv)
    names = [n for n in args.only.split(",") if n]
    presets = [n for n in args.presets.split(",") if n]
    result = run_presets(names, presets, args.quick, rounds=2 if args.quick else args.rounds,
                         min_time=0.01 if args.quick else 0.1)
    if args.out:
        measure.save_json(args.out, result)
    print_report(result)
    bad = failures(result)
    if bad:
        print(f"wrong or failed: {bad}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
