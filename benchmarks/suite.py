"""The runtime suite: every workload on hlo-mlir, XLA CPU and numpy, interleaved.

    PYTHONPATH=. python -m benchmarks.suite [--quick] [--only a,b] [--json out.json]

Per workload: compile with hlo-mlir (our O2 passes + IREE legalizations + IREE, the
default llvm-cpu flags) and with XLA CPU on the same StableHLO module; check every
output against XLA's (a fast wrong answer is reported as WRONG); then time, in
interleaved rounds with the warm-up excluded:

- ``hlo-mlir api <driver>``: ``hlo_mlir.runtime.load(vmfb, driver).main(*numpy_args)``,
  the public API (arguments copied in, results read back);
- ``hlo-mlir raw <driver>``: the same vmfb with inputs already in device buffers;
- ``xla api`` / ``xla raw``: the same two ways for XLA CPU through jax;
- ``numpy`` where the computation is natural in numpy.

Reports medians, the hlo-mlir/XLA time ratio (api and raw, on the driver
``runtime.load(vmfb)`` picks from what ``hlo_mlir.compile`` recorded, and on the best
driver), GFLOP/s and percent of the measured fp32 peak (an FMA microbenchmark), or
GB/s and percent of the measured memory bandwidth (a streaming add), for memory-bound
workloads.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Callable

from benchmarks import measure, workloads
from benchmarks.measure import geomean, median

__all__ = ["run_suite", "measure_peaks", "main"]

DRIVERS = ("local-sync", "local-task")


def _cases_for(ours, xla, built, drivers) -> dict:
    args = built.args
    cases: dict[str, Callable[[], Any]] = {}
    for d in drivers:
        cases[f"hlo-mlir api {d}"] = measure.call_with(ours.api(d), args)
    for d in drivers:
        cases[f"hlo-mlir raw {d}"] = ours.raw(d, args)
    cases["xla api"] = lambda: xla.api(*args)
    cases["xla raw"] = xla.raw(args)
    if built.numpy is not None:
        cases["numpy"] = lambda: built.numpy(*args)
    return cases


def _checks(ours, xla, built, drivers) -> dict:
    """Every output against XLA's: hlo-mlir on each driver, and numpy."""
    expected = xla.api(*built.args)
    checks = {}
    for d in drivers:
        try:
            got = ours.api(d)(*built.args)
            checks[f"hlo-mlir {d} vs xla"] = measure.compare(got, expected, built.rtol, built.atol)
        except Exception as e:  # noqa: BLE001 - a failing run is a result to report
            checks[f"hlo-mlir {d} vs xla"] = {"ok": False, "max_abs_err": None, "detail": f"run failed: {e}"}
    if built.numpy is not None:
        checks["numpy vs xla"] = measure.compare(built.numpy(*built.args), expected, built.rtol, built.atol)
    return checks


def measure_peaks(quick: bool, rounds: int, min_time: float) -> dict:
    """fp32 FMA rate and streaming bandwidth, each the best of XLA and hlo-mlir (raw calls)."""
    out = {}
    for key, make, unit in (("fp32", workloads.fma_peak_program, "gflops"),
                            ("bandwidth", workloads.copy_program, "gbs")):
        built = make(quick)
        ours, xla = measure.Ours(built.source), measure.Xla(built.source)
        cases = {"hlo-mlir local-task": ours.raw("local-task", built.args), "xla": xla.raw(built.args)}
        samples = measure.interleave(cases, rounds, min_time)
        work = built.flops if unit == "gflops" else built.bytes
        rates = {name: work / median(s) / 1e9 for name, s in samples.items()}
        out[key] = {unit: max(rates.values()), "by": rates,
                    "program": (make.__doc__ or key).strip().splitlines()[0]}
    out["fp32"]["nominal"] = measure.nominal_fp32_peak()
    return out


def run_workload(w, quick: bool, rounds: int, min_time: float, drivers, budget: float) -> dict:
    built = w.make(quick)
    record = {"name": w.name, "description": w.description, "origin": w.origin, "tags": list(w.tags),
              "flops": built.flops, "bytes": built.bytes}
    try:
        ours = measure.Ours(built.source)
    except Exception as e:  # noqa: BLE001 - report and go on with the other workloads
        record["error"] = f"hlo-mlir compile failed: {type(e).__name__}: {str(e)[:2000]}"
        return record
    xla = measure.Xla(built.source)
    record["driver"] = ours.preferred_driver  # what runtime.load(vmfb) picks
    record["compile_seconds"] = {"hlo-mlir": ours.compile_seconds, "xla": xla.compile_seconds}
    record["checks"] = _checks(ours, xla, built, drivers)
    samples = measure.interleave(_cases_for(ours, xla, built, drivers), rounds, min_time, budget)
    times = {name: median(s) for name, s in samples.items()}
    record["samples"] = samples
    record["times"] = times
    record.update(_derived(times, built, drivers, record["driver"]))
    return record


def _derived(times: dict, built, drivers, default_driver: str) -> dict:
    d = {}
    for mode in ("api", "raw"):
        ours_default = times[f"hlo-mlir {mode} {default_driver}"]
        best_driver = min(drivers, key=lambda drv: times[f"hlo-mlir {mode} {drv}"])
        d[f"ratio_{mode}"] = ours_default / times[f"xla {mode}"]
        d[f"ratio_{mode}_best_driver"] = times[f"hlo-mlir {mode} {best_driver}"] / times[f"xla {mode}"]
        d[f"best_driver_{mode}"] = best_driver
    if "numpy" in times:
        d["ratio_numpy"] = times[f"hlo-mlir api {default_driver}"] / times["numpy"]
    # Kernel efficiency from the raw (inputs on device) time of the best driver.
    t_ours = times[f"hlo-mlir raw {d['best_driver_raw']}"]
    t_xla = times["xla raw"]
    if built.flops:
        d["gflops"] = {"hlo-mlir": built.flops / t_ours / 1e9, "xla": built.flops / t_xla / 1e9}
    if built.bytes:
        d["gbs"] = {"hlo-mlir": built.bytes / t_ours / 1e9, "xla": built.bytes / t_xla / 1e9}
    return d


def apply_peaks(results: dict) -> None:
    """Sets each workload's percent of peak. The peak is the best rate measured in this
    run: the microbenchmark's, or a workload's when one ran faster (on a shared machine
    the microbenchmark may have met more load); both are recorded."""
    for key, rate, pct in (("fp32", "gflops", "pct_peak"), ("bandwidth", "gbs", "pct_bandwidth")):
        peak = results["peaks"][key]
        achieved = [(v, r["name"], k) for r in results["workloads"] for k, v in r.get(rate, {}).items()]
        best = max(achieved, default=(0.0, None, None))
        peak["microbenchmark"] = max(peak["by"].values())
        peak["best_workload"] = {rate: best[0], "workload": best[1], "system": best[2]}
        peak[rate] = max(peak["microbenchmark"], best[0])
        for r in results["workloads"]:
            if rate in r:
                r[pct] = {k: 100 * v / peak[rate] for k, v in r[rate].items()}


def _fmt_time(s: float | None) -> str:
    if s is None:
        return "-"
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s * 1e9:.3g} ns"


def efficiency(r: dict) -> str:
    """Percent of peak for compute-bound workloads, of bandwidth otherwise (hlo-mlir, raw)."""
    if "compute" in r["tags"] and "pct_peak" in r:
        return f"{r['pct_peak']['hlo-mlir']:.0f}% peak ({r['gflops']['hlo-mlir']:.1f} GF/s)"
    if "pct_bandwidth" in r:
        return f"{r['pct_bandwidth']['hlo-mlir']:.0f}% bw ({r['gbs']['hlo-mlir']:.1f} GB/s)"
    return "-"


def checked(r: dict) -> str:
    if "error" in r:
        return "FAILED"
    bad = [k for k, v in r["checks"].items() if not v["ok"]]
    return "ok" if not bad else "WRONG: " + "; ".join(f"{k} ({r['checks'][k]['detail']})" for k in bad)


def table(results: dict) -> list[tuple]:
    """Rows: workload, hlo-mlir api, xla api, ratio api (driver), ratio raw, ratio best driver, efficiency,
    check; hlo-mlir runs on the driver ``runtime.load`` picks."""
    rows = []
    for r in results["workloads"]:
        if "error" in r:
            rows.append((r["name"], "-", "-", "-", "-", "-", "-", "FAILED: " + r["error"][:200]))
            continue
        t = r["times"]
        rows.append((r["name"], _fmt_time(t[f"hlo-mlir api {r['driver']}"]), _fmt_time(t["xla api"]),
                     f"{r['ratio_api']:.2f} ({r['driver']})", f"{r['ratio_raw']:.2f}",
                     f"{r['ratio_api_best_driver']:.2f} ({r['best_driver_api']})", efficiency(r), checked(r)))
    return rows


HEADER = ("workload", "hlo-mlir", "XLA", "ratio", "ratio raw", "ratio best driver", "hlo-mlir efficiency",
          "output check")


def compute_bound(results: dict) -> list[dict]:
    """The workloads measured against the fp32 peak."""
    return [r for r in results["workloads"] if "compute" in r["tags"] and "gflops" in r]


def share_of_nominal(results: dict, system: str) -> str:
    """"matmul_f32_512 54%, ...": each compute-bound workload's rate on ``system`` against
    the nominal fp32 peak."""
    peak = results["peaks"]["fp32"]["nominal"]["gflops"]
    return ", ".join(f"{r['name']} {100 * r['gflops'][system] / peak:.0f}%" for r in compute_bound(results))


def nominal_text(n: dict) -> str:
    return (f"{n['gflops']:.0f} GFLOP/s ({n['cores']} cores x {n['mhz'] / 1e3:.2f} GHz x "
            f"{n['flops_per_cycle']} flop/cycle)")


def summarize(results: dict) -> dict:
    ok = [r for r in results["workloads"] if "error" not in r]
    s: dict[str, Any] = {key: geomean([r[key] for r in ok]) for key in
                         ("ratio_api", "ratio_raw", "ratio_api_best_driver", "ratio_raw_best_driver")}
    s["worst"] = [r["name"] for r in sorted(ok, key=lambda r: -r["ratio_api"])[:5]]
    s["failed"] = [r["name"] for r in results["workloads"] if "error" in r]
    s["wrong"] = [r["name"] for r in ok if checked(r) != "ok"]
    return s


def print_report(results: dict, out=sys.stdout) -> None:
    rows = [HEADER] + table(results)
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(HEADER) - 1)]
    for row in rows:
        padded = "  ".join(str(c).ljust(w) for c, w in zip(row[:-1], widths, strict=True))
        print(padded + "  " + row[-1], file=out)
    s = results["summary"]
    p = results["peaks"]
    print(f"\nmeasured peaks: fp32 {p['fp32']['gflops']:.1f} GFLOP/s (microbenchmark "
          f"{p['fp32']['microbenchmark']:.1f}), bandwidth {p['bandwidth']['gbs']:.1f} GB/s (microbenchmark "
          f"{p['bandwidth']['microbenchmark']:.1f})", file=out)
    nominal = p["fp32"].get("nominal")
    if nominal and compute_bound(results):
        print(f"nominal fp32 peak {nominal_text(nominal)}; {share_of_nominal(results, 'hlo-mlir')} of it",
              file=out)
    print(f"geomean hlo-mlir/XLA time ratio: api {s['ratio_api']:.2f} (best driver "
          f"{s['ratio_api_best_driver']:.2f}), raw {s['ratio_raw']:.2f} (best driver "
          f"{s['ratio_raw_best_driver']:.2f}); slowest: {', '.join(s['worst'])}", file=out)
    if s["failed"] or s["wrong"]:
        print(f"FAILED: {s['failed']}  WRONG: {s['wrong']}", file=out)


def run_suite(names=None, quick: bool = False, rounds: int = 5, min_time: float = 0.1, budget: float = 25.0,
              drivers=DRIVERS, progress=sys.stderr) -> dict:
    from hlo_mlir import compiler

    selected = workloads.by_name(names) if names else workloads.WORKLOADS
    start = time.perf_counter()
    results: dict[str, Any] = {"machine": measure.machine_info(),
               "settings": {"quick": quick, "rounds": rounds, "min_time": min_time,
                            "budget_per_workload": budget, "drivers": list(drivers),
                            "default_driver": "the vmfb's preferred driver (hlo_mlir.compile records it)",
                            "llvm_cpu_flags": list(compiler.TARGETS["llvm-cpu"]),
                            "extra_flags": list(measure.EXTRA_FLAGS)}}
    results["peaks"] = measure_peaks(quick, rounds, min_time)
    results["workloads"] = []
    with measure.Progress(len(selected), "runtime suite", progress) as bar:
        for w in bar.items(selected, lambda w: w.name):
            t0 = time.perf_counter()
            rec = run_workload(w, quick, rounds, min_time, drivers, budget)
            rec["wall_seconds"] = time.perf_counter() - t0
            results["workloads"].append(rec)
            outcome = f"ratio {rec['ratio_api']:.2f}" if "ratio_api" in rec else rec.get("error", "")[:200]
            bar.note(f"  {w.name}: {rec['wall_seconds']:.1f} s, {outcome}")
    apply_peaks(results)
    results["summary"] = summarize(results)
    results["wall_seconds"] = time.perf_counter() - start
    results["machine"]["load_average_end"] = measure.machine_info()["load_average"]
    return results


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true",
                   help="tiny sizes, 2 rounds: a smoke test, not a measurement")
    p.add_argument("--only", default="", help="comma-separated workload names (default: all)")
    p.add_argument("--rounds", type=int, default=None)
    p.add_argument("--min-time", type=float, default=None, help="seconds per sample (repeats calls)")
    p.add_argument("--json", default="", help="write the results here")
    return p.parse_args(argv)


def settings(args) -> dict:
    return dict(quick=args.quick, rounds=args.rounds or (2 if args.quick else 5),
                min_time=args.min_time if args.min_time is not None else (0.002 if args.quick else 0.1),
                budget=5.0 if args.quick else 25.0)


def main(argv=None) -> int:
    args = parse_args(argv)
    names = [n for n in args.only.split(",") if n]
    results = run_suite(names, **settings(args))
    print_report(results)
    measure.save_json(args.json, results)
    return 1 if results["summary"]["failed"] or results["summary"]["wrong"] else 0


if __name__ == "__main__":
    sys.exit(main())
