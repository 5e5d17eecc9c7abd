"""Runs every benchmark: the runtime suite, compile times, pipeline scaling and the presets' effect.

    PYTHONPATH=. python -m benchmarks                 # everything, JSON in benchmarks/results/
    PYTHONPATH=. python -m benchmarks --write-docs    # ... and regenerate docs/performance.md
    PYTHONPATH=. python -m benchmarks --docs-only     # regenerate the docs from the saved JSON
    PYTHONPATH=. python -m benchmarks --quick         # tiny sizes: a smoke test, not a measurement

A progress bar (tqdm) counts the workloads on stderr when stderr is a terminal;
``--no-progress`` turns it off (logs and CI get one line per workload instead).

``scripts/bench.sh`` runs the same with the project's virtualenv.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from benchmarks import compile_time, docs, measure, pipeline_scaling, presets, suite

PARTS = ("suite", "compile", "scaling", "presets")


def parse_args(argv=None):
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="tiny sizes, few rounds (smoke test)")
    p.add_argument("--only", default="", help="comma-separated workload names (suite and compile times)")
    p.add_argument("--parts", default=",".join(PARTS), help=f"which parts to run, of {','.join(PARTS)}")
    p.add_argument("--sizes", default="", help="pipeline-scaling module sizes (default 1000,10000,100000)")
    p.add_argument("--iree-flag", action="append", default=[],
                   help="an extra IREE flag for every hlo-mlir compile (to measure a change of the defaults)")
    p.add_argument("--out-dir", default=docs.RESULTS_DIR, help="where the JSON results go")
    p.add_argument("--write-docs", action="store_true", help="regenerate the tables in docs/performance.md")
    p.add_argument("--docs-only", action="store_true", help="only regenerate the docs from saved JSON")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar (there is one only when stderr is a terminal)")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.docs_only:
        docs.write_docs(args.out_dir)
        print(f"wrote {docs.DOC_PATH}")
        return 0
    parts = [p for p in args.parts.split(",") if p]
    unknown = sorted(set(parts) - set(PARTS))
    if unknown:
        print(f"error: unknown part(s) {unknown}; known: {list(PARTS)}", file=sys.stderr)
        return 2
    names = [n for n in args.only.split(",") if n]
    measure.EXTRA_FLAGS[:] = args.iree_flag
    measure.PROGRESS_BAR = False if args.no_progress else None
    os.makedirs(args.out_dir, exist_ok=True)
    status, start = 0, time.perf_counter()
    if "suite" in parts:
        print("== runtime suite", file=sys.stderr, flush=True)
        quick_s = suite.settings(suite.parse_args(["--quick"] if args.quick else []))
        result = suite.run_suite(names, **quick_s)
        _save(args.out_dir, "suite", result)
        suite.print_report(result)
        status |= bool(result["summary"]["failed"] or result["summary"]["wrong"])
    if "compile" in parts:
        print("\n== compile time", file=sys.stderr, flush=True)
        result = compile_time.run_compile_times(names, args.quick)
        _save(args.out_dir, "compile_time", result)
        compile_time.print_report(result)
    if "scaling" in parts:
        print("\n== pipeline scaling", file=sys.stderr, flush=True)
        sizes = args.sizes or ("100,300" if args.quick else "1000,10000,100000")
        result = pipeline_scaling.run_scaling([int(s) for s in sizes.split(",")])
        _save(args.out_dir, "pipeline_scaling", result)
        pipeline_scaling.print_report(result)
    if "presets" in parts:
        print("\n== presets", file=sys.stderr, flush=True)
        result = presets.run_presets(names, quick=args.quick, rounds=2 if args.quick else 5,
                                     min_time=0.01 if args.quick else 0.1)
        _save(args.out_dir, "presets", result)
        presets.print_report(result)
        status |= bool(presets.failures(result))
    print(f"\ntotal {time.perf_counter() - start:.0f} s; results in {args.out_dir}", file=sys.stderr)
    if args.write_docs:
        docs.write_docs(args.out_dir)
        print(f"wrote {docs.DOC_PATH}", file=sys.stderr)
    return int(status)


def _save(out_dir: str, name: str, result: dict) -> None:
    measure.save_json(os.path.join(out_dir, f"{name}.json"), result)


if __name__ == "__main__":
    sys.exit(main())
