"""Compile time per workload: our pass pipeline, IREE (isolated and in process), the cache, and XLA.

    PYTHONPATH=. python -m benchmarks.compile_time [--quick] [--only a,b] [--rounds N]

For each workload of the suite (CPU seconds are less disturbed by other processes than
wall seconds; both are recorded, the table shows wall; an isolated compile's ``cpu``
adds the compile worker's, read from /proc in clock ticks of 10 ms):

- ``pipeline``: what ``hlo_mlir.compile`` runs before IREE (``compiler.prepare``: the O2
  preset, the iree-legalize expanders, the element-wise legalizations);
- ``iree``: IREE compiling the prepared module in the crash-proof compile worker, as
  ``hlo_mlir.compile`` does by default (``hlo_mlir.compile(prepared, passes="",
  legalize=False)``, cache off); ``iree_in_process``: the same with ``isolate=False``
  (the path before compiles were isolated); each the faster of two interleaved samples;
- ``cold`` / ``cached``: ``hlo_mlir.compile(source)`` with an empty cache, then again with
  the same source (a hit serves it from the persistent cache);
- ``xla``: XLA CPU compiling the same StableHLO module (jax's client).

The first row, ``small module``, is ``x * x + x`` on f32[4]: there IREE's own work is
smallest, so the isolation overhead shows most; its IREE times are medians of
``--rounds`` interleaved in-process / isolated compiles (the worker already running, as
for every compile after a process's first).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from contextlib import contextmanager

from benchmarks import measure, workloads

__all__ = ["run_compile_times", "isolation_overhead", "isolation_text", "small_module", "main"]

SMALL_MODULE = "small module"
_REJECTED_FLAG = "--hlo-mlir-benchmark-no-such-flag"  # IREE answers at once: a request without a compile


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


def small_module():
    """``x * x + x`` on f32[4]: the smallest compile, where fixed costs show most."""
    from hlo_mlir import Add, Mul, Parameter, Shape, XlaBuilder

    b = XlaBuilder("small_module")
    x = Parameter(b, 0, Shape.parse("f32[4]"), "x")
    return b.build(Add(Mul(x, x), x))


def _workers_cpu() -> float:
    """CPU seconds this process's compile workers have used (from /proc; 0 where there is none)."""
    from hlo_mlir import compile_worker

    total = 0.0
    for pid in compile_worker.default_pool().pids():
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()  # fields 3.. of proc(5)
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
        except (OSError, ValueError, IndexError):
            pass
    return total


def _iree(module, isolate: bool):
    """IREE compiling the prepared ``module``: wall seconds, and CPU seconds of this process
    and of its compile workers (where an isolated compile spends them)."""
    import hlo_mlir

    before = _workers_cpu()
    times = _timed(lambda: hlo_mlir.compile(module, "llvm-cpu", passes="", legalize=False,
                                            flags=measure.EXTRA_FLAGS, isolate=isolate))[1]
    times["cpu"] += _workers_cpu() - before
    return times


def isolation_overhead(rounds: int = 15) -> dict:
    """What the crash-proof compile costs on the small module (wall seconds, medians of
    ``rounds`` interleaved samples):

    - ``in_process`` / ``isolated``: IREE compiling the prepared module in this process
      and in the compile worker (``hlo_mlir.compile(..., isolate=False/True)``);
    - ``child_iree_compile``: the alternative of one ``iree-compile`` process per compile;
    - ``round_trip``: a request the worker answers at once (IREE rejects its flag),
      minus the same in process: the fixed cost of the pipes, without IREE's noise;
    - ``worker_start``: a new worker answering its first request (once per process,
      overlapped with our passes by ``compile``);
    - ``cpu_isolated`` / ``cpu_in_process``: mean CPU seconds per compile, worker included:
      steadier than wall time when other processes share the cores."""
    import subprocess

    from iree.compiler.tools import binaries

    from hlo_mlir import compile_worker, compiler, context
    from hlo_mlir.errors import CompileError

    def rejected(isolate: bool) -> float:
        start = time.perf_counter()
        try:
            compiler._compile_bytecode(bytecode, "llvm-cpu", [_REJECTED_FLAG], isolate=isolate)
        except CompileError:
            pass
        return time.perf_counter() - start

    with _env(HLO_MLIR_CACHE="0"), tempfile.TemporaryDirectory() as folder:
        module = compiler.as_module(small_module())
        compiler.prepare(module, "llvm-cpu")
        bytecode = context.bytecode(module)
        flags = compiler.full_flags(module, "llvm-cpu", measure.EXTRA_FLAGS)
        path = os.path.join(folder, "module.mlirbc")
        with open(path, "wb") as f:
            f.write(bytecode)
        command = [binaries.find_tool("iree-compile"), path, *flags, "-o", os.path.join(folder, "o.vmfb")]
        cpu: dict[bool, list[float]] = {True: [], False: []}

        def iree(isolate: bool) -> float:
            times = _iree(module, isolate)
            cpu[isolate].append(times["cpu"])
            return times["wall"]

        ways = {"isolated": lambda: iree(True), "in_process": lambda: iree(False),
                "child_iree_compile": lambda: _timed(lambda: subprocess.run(command, check=True,
                                                                            capture_output=True))[1]["wall"],
                "rejected_isolated": lambda: rejected(True), "rejected_in_process": lambda: rejected(False)}
        for way in ways.values():  # warm: the worker runs, IREE's library is loaded
            way()
        cpu[True].clear()
        cpu[False].clear()
        samples: dict[str, list[float]] = {name: [] for name in ways}
        for _ in range(rounds):
            for name, way in ways.items():
                samples[name].append(way())
        fresh = compile_worker.WorkerPool()
        start = time.perf_counter()
        fresh.compile(bytecode, [_REJECTED_FLAG])
        worker_start = time.perf_counter() - start
        fresh.shutdown()
    med = {k: measure.median(v) for k, v in samples.items()}
    return {"rounds": rounds, "isolated": med["isolated"], "in_process": med["in_process"],
            "overhead": med["isolated"] - med["in_process"], "child_iree_compile": med["child_iree_compile"],
            "round_trip": med["rejected_isolated"] - med["rejected_in_process"], "worker_start": worker_start,
            # CPU: means (a tick is 10 ms, a mean of ticks is not biased like a median)
            "cpu_isolated": sum(cpu[True]) / rounds, "cpu_in_process": sum(cpu[False]) / rounds,
            "samples": samples}


def compile_times(source) -> dict:
    import hlo_mlir
    from hlo_mlir import compiler

    out = {}
    with _env(HLO_MLIR_CACHE="0"):
        module = compiler.as_module(source)
        _, out["pipeline"] = _timed(lambda: compiler.prepare(module, "llvm-cpu"))
        # Isolated and in process, interleaved, the faster of two each: one sample of either
        # moves by more than the difference when other processes share the cores.
        samples = [(_iree(module, True), _iree(module, False)) for _ in range(2)]
        out["iree"] = min((s[0] for s in samples), key=lambda t: t["wall"])
        out["iree_in_process"] = min((s[1] for s in samples), key=lambda t: t["wall"])
    with tempfile.TemporaryDirectory() as cache_dir, _env(HLO_MLIR_CACHE="1", HLO_MLIR_CACHE_DIR=cache_dir):
        compile_ = lambda: hlo_mlir.compile(source, "llvm-cpu", flags=measure.EXTRA_FLAGS)
        first, out["cold"] = _timed(compile_)
        second, out["cached"] = _timed(compile_)
        out["cached_identical"] = first == second
    xla, out["xla"] = _timed(lambda: measure.Xla(source))
    out["xla"]["compile_only"] = xla.compile_seconds
    return out


def run_compile_times(names=None, quick: bool = False, progress=sys.stderr, rounds: int = 15) -> dict:
    selected = workloads.by_name(names) if names else workloads.WORKLOADS
    rows = []
    isolation = isolation_overhead(3 if quick else rounds)
    measure.Xla(small_module())  # XLA's one-time start-up is no row's compile time
    if progress:
        print(f"  {SMALL_MODULE}: IREE in process {1e3 * isolation['in_process']:.1f} ms, isolated "
              f"{1e3 * isolation['isolated']:.1f} ms ({1e3 * isolation['overhead']:+.1f} ms); CPU "
              f"{1e3 * isolation['cpu_in_process']:.0f} -> {1e3 * isolation['cpu_isolated']:.0f} ms",
              file=progress, flush=True)
    cases = [(SMALL_MODULE, lambda quick: workloads.Built(small_module(), []))] + [
        (w.name, w.make) for w in selected]
    with measure.Progress(len(cases), "compile time", progress) as bar:
        for name, make in bar.items(cases, lambda case: case[0]):
            built = make(quick)
            try:
                row = {"name": name, **compile_times(built.source)}
                if name == SMALL_MODULE:  # the interleaved medians, steadier than one sample
                    row["iree"] = {**row["iree"], "wall": isolation["isolated"]}
                    row["iree_in_process"] = {**row["iree_in_process"], "wall": isolation["in_process"]}
            except Exception as e:  # noqa: BLE001 - report and go on
                row = {"name": name, "error": f"{type(e).__name__}: {str(e)[:1000]}"}
            rows.append(row)
            if "cold" in row:
                bar.note(f"  {name}: cold {row['cold']['wall']:.2f} s, cached {row['cached']['wall']:.3f} s")
            else:
                bar.note(f"  {name}: {row['error'][:200]}")
    ok = [r for r in rows if "error" not in r and r["name"] != SMALL_MODULE]
    summary = {"isolation_overhead_seconds": isolation["overhead"],
               "isolation_overhead_share": sum(r["iree"]["wall"] - r["iree_in_process"]["wall"] for r in ok)
               / max(1e-9, sum(r["iree_in_process"]["wall"] for r in ok)),
               "geomean_cold_over_xla": measure.geomean([r["cold"]["wall"] / r["xla"]["wall"] for r in ok]),
               "geomean_cached_seconds": measure.geomean([r["cached"]["wall"] for r in ok]),
               "pipeline_share": sum(r["pipeline"]["wall"] for r in ok)
               / max(1e-9, sum(r["cold"]["wall"] for r in ok))}
    return {"workloads": rows, "summary": summary, "isolation": isolation}


HEADER = ("workload", "pipeline", "IREE isolated", "IREE in process", "isolation", "hlo-mlir cold",
          "hlo-mlir cached", "XLA", "cold/XLA")


def _ms_or_s(seconds: float) -> str:
    return f"{1e3 * seconds:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def table(result: dict) -> list[tuple]:
    rows = []
    for r in result["workloads"]:
        if "error" in r:
            rows.append((r["name"], *["-"] * (len(HEADER) - 2), "FAILED: " + r["error"][:120]))
            continue
        isolated = r["iree"]["wall"]
        in_process = r.get("iree_in_process", r["iree"])["wall"]  # results saved before isolation: equal
        rows.append((r["name"], f"{r['pipeline']['wall']:.3f} s", _ms_or_s(isolated), _ms_or_s(in_process),
                     f"{1e3 * (isolated - in_process):+.1f} ms", _ms_or_s(r["cold"]["wall"]),
                     f"{1e3 * r['cached']['wall']:.1f} ms", f"{r['xla']['wall']:.3f} s",
                     f"{r['cold']['wall'] / r['xla']['wall']:.1f}"))
    return rows


def isolation_text(result: dict) -> str:
    """What crash-proof compiling costs, in one sentence ("" for results saved before it)."""
    if "isolation" not in result:
        return ""
    i, s = result["isolation"], result["summary"]
    return (f"Crash-proof compile (IREE in the compile worker, the default) on the {SMALL_MODULE} "
            f"(x * x + x, f32[4]): {1e3 * i['in_process']:.1f} ms in process, {1e3 * i['isolated']:.1f} ms "
            f"isolated ({1e3 * i['overhead']:+.1f} ms; medians of {i['rounds']} interleaved rounds; CPU time "
            f"{1e3 * i['cpu_in_process']:.0f} -> {1e3 * i['cpu_isolated']:.0f} ms, the worker's included); a "
            f"child iree-compile per compile would take {1e3 * i['child_iree_compile']:.1f} ms. The fixed "
            f"cost of a request is {1e3 * i['round_trip']:.2f} ms; starting a worker takes "
            f"{1e3 * i['worker_start']:.0f} ms once per process, overlapped with our passes. Over the "
            f"workloads isolation changes IREE's time "
            f"by {100 * s['isolation_overhead_share']:+.1f}%.")


def summary_text(result: dict) -> str:
    """The sentences under the table."""
    s = result["summary"]
    return " ".join(t for t in (
        f"Geomean hlo-mlir cold / XLA compile time: {s['geomean_cold_over_xla']:.1f}; "
        f"our pipeline is {100 * s['pipeline_share']:.0f}% of the cold compile; "
        f"geomean cached compile: {1e3 * s['geomean_cached_seconds']:.1f} ms.", isolation_text(result)) if t)


def print_report(result: dict, out=sys.stdout) -> None:
    rows = [HEADER] + table(result)
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(HEADER))]
    for row in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)), file=out)
    print(summary_text(result), file=out)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--only", default="")
    p.add_argument("--json", default="")
    p.add_argument("--rounds", type=int, default=15,
                   help="interleaved rounds for the small module's IREE times")
    args = p.parse_args(argv)
    result = run_compile_times([n for n in args.only.split(",") if n], args.quick, rounds=args.rounds)
    print_report(result)
    measure.save_json(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
