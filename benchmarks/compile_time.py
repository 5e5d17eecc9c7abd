"""Compile time per workload: our pass pipeline, IREE, the cache, and XLA.

    PYTHONPATH=. python -m benchmarks.compile_time [--quick] [--only a,b]

For each workload of the suite (CPU seconds are less disturbed by other processes than
wall seconds; both are recorded, the table shows wall):

- ``pipeline``: what ``hlo_mlir.compile`` runs before IREE (``compiler.prepare``: the O2
  preset, the iree-legalize expanders, the element-wise legalizations);
- ``iree``: IREE compiling the prepared module (``hlo_mlir.compile(prepared, passes="",
  legalize=False)``, cache off);
- ``cold`` / ``cached``: ``hlo_mlir.compile(source)`` with an empty cache, then again with
  the same source (a hit serves it from the persistent cache);
- ``xla``: XLA CPU compiling the same StableHLO module (jax's client).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from contextlib import contextmanager

from benchmarks import measure, workloads

__all__ = ["run_compile_times", "main"]


@contextmanager
def _env(**values):
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu}


def compile_times(source) -> dict:
    import hlo_mlir
    from hlo_mlir import compiler

    out = {}
    with _env(HLO_MLIR_CACHE="0"):
        module = compiler.as_module(source)
        _, out["pipeline"] = _timed(lambda: compiler.prepare(module, "llvm-cpu"))
        _, out["iree"] = _timed(lambda: hlo_mlir.compile(module, "llvm-cpu", passes="", legalize=False,
                                                                     flags=measure.EXTRA_FLAGS))
    with tempfile.TemporaryDirectory() as cache_dir, _env(HLO_MLIR_CACHE="1", HLO_MLIR_CACHE_DIR=cache_dir):
        first, out["cold"] = _timed(lambda: hlo_mlir.compile(source, "llvm-cpu", flags=measure.EXTRA_FLAGS))
        second, out["cached"] = _timed(lambda: hlo_mlir.compile(source, "llvm-cpu", flags=measure.EXTRA_FLAGS))
        out["cached_identical"] = first == second
    xla, out["xla"] = _timed(lambda: measure.Xla(source))
    out["xla"]["compile_only"] = xla.compile_seconds
    return out


def run_compile_times(names=None, quick: bool = False, progress=sys.stderr) -> dict:
    selected = workloads.by_name(names) if names else workloads.WORKLOADS
    rows = []
    for w in selected:
        built = w.make(quick)
        try:
            row = {"name": w.name, **compile_times(built.source)}
        except Exception as e:  # noqa: BLE001 - report and go on
            row = {"name": w.name, "error": f"{type(e).__name__}: {str(e)[:1000]}"}
        rows.append(row)
        if progress:
            print(f"  {w.name}: " + (f"cold {row['cold']['wall']:.2f} s, cached {row['cached']['wall']:.3f} s"
                                     if "cold" in row else row["error"][:200]), file=progress, flush=True)
    ok = [r for r in rows if "error" not in r]
    summary = {"geomean_cold_over_xla": measure.geomean([r["cold"]["wall"] / r["xla"]["wall"] for r in ok]),
               "geomean_cached_seconds": measure.geomean([r["cached"]["wall"] for r in ok]),
               "pipeline_share": sum(r["pipeline"]["wall"] for r in ok) / max(1e-9, sum(r["cold"]["wall"] for r in ok))}
    return {"workloads": rows, "summary": summary}


HEADER = ("workload", "pipeline", "IREE", "hlo-mlir cold", "hlo-mlir cached", "XLA", "cold/XLA")


def table(result: dict) -> list[tuple]:
    rows = []
    for r in result["workloads"]:
        if "error" in r:
            rows.append((r["name"], "-", "-", "-", "-", "-", "FAILED: " + r["error"][:120]))
            continue
        rows.append((r["name"], f"{r['pipeline']['wall']:.3f} s", f"{r['iree']['wall']:.2f} s",
                     f"{r['cold']['wall']:.2f} s", f"{1e3 * r['cached']['wall']:.1f} ms",
                     f"{r['xla']['wall']:.3f} s", f"{r['cold']['wall'] / r['xla']['wall']:.1f}"))
    return rows


def print_report(result: dict, out=sys.stdout) -> None:
    rows = [HEADER] + table(result)
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(HEADER))]
    for row in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)), file=out)
    s = result["summary"]
    print(f"geomean hlo-mlir cold / XLA compile time: {s['geomean_cold_over_xla']:.1f}; "
          f"our pipeline is {100 * s['pipeline_share']:.0f}% of the cold compile; "
          f"geomean cached compile: {1e3 * s['geomean_cached_seconds']:.1f} ms", file=out)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--only", default="")
    p.add_argument("--json", default="")
    args = p.parse_args(argv)
    result = run_compile_times([n for n in args.only.split(",") if n], args.quick)
    print_report(result)
    measure.save_json(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
