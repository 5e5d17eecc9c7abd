"""The fuzzer's command line: ``python -m tests.fuzz --seed N --count K`` (or scripts/fuzz.sh).

Prints a progress line while it runs and a summary at the end; writes each finding to a
directory under ``--out``; exits 1 when there are findings, 0 when there are none, 2 on
a usage error. ``--only I,J`` runs (and prints) single programs of the seed again.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from tests.fuzz import runner

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=0, help="the seed: program i of seed s is always the same")
    p.add_argument("--count", type=int, default=100, help="how many programs (indices start..start+count-1)")
    p.add_argument("--start", type=int, default=0, help="the first program index")
    p.add_argument("--only", default="", help="comma-separated program indices to run (and print) alone")
    p.add_argument("--time-budget", type=float, default=None, metavar="SECONDS",
                   help="start no new batch after this many seconds")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (each compiles and runs)")
    p.add_argument("--out", default="fuzz-findings", help="directory for findings (default: %(default)s)")
    p.add_argument("--batch", type=int, default=16, help="programs per IREE module (1: each alone)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds a program may spend in one stage")
    p.add_argument("--max-ops", type=int, default=20, help="the most builder ops per program")
    p.add_argument("--no-known", action="store_true", help="report documented defects (known.py) as findings")
    p.add_argument("--no-reduce", action="store_true", help="do not shrink findings (reduce.py)")
    p.add_argument("--denormals", action="store_true",
                   help="feed subnormal floats too (XLA CPU flushes them in some ops only: expect "
                        "differences)")
    p.add_argument("--print", action="store_true", help="print each program's builder code and StableHLO")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    args = p.parse_args(argv)
    if args.count < 0 or args.start < 0 or args.seed < 0 or args.jobs < 1 or args.batch < 1:
        p.error("--seed, --count and --start must be >= 0, --jobs and --batch >= 1")
    try:
        args.indices = ([int(i) for i in args.only.split(",") if i.strip()] if args.only
                        else list(range(args.start, args.start + args.count)))
    except ValueError:
        p.error(f"--only takes comma-separated integers; got {args.only!r}")
    if any(i < 0 for i in args.indices):
        p.error("program indices must be >= 0")
    return args


class _Progress:
    def __init__(self, total: int, quiet: bool):
        self.total, self.quiet = total, quiet
        self.last = 0.0
        self.tty = sys.stderr.isatty()
        self.reported: set[int] = set()

    def __call__(self, fuzzer: runner.Fuzzer) -> None:
        for index, r in sorted(fuzzer.results.items()):
            if index not in self.reported and r.outcome in runner.FINDINGS + ("known",):
                self.reported.add(index)
                where = f" -> {r.finding}" if r.finding else ""
                print(("\r" if self.tty else "") + r.line() + where, file=sys.stderr)
        now = time.monotonic()
        if self.quiet or now - self.last < (1.0 if self.tty else 10.0):
            return
        self.last = now
        c = fuzzer.counts()
        findings = sum(c[k] for k in runner.FINDINGS)
        line = (f"[fuzz] {len(fuzzer.results)}/{self.total} programs, {fuzzer.rate():.2f}/s, ok {c['ok']}, "
                f"findings {findings}, known {c['known']}, xla-rejected {c['xla-rejected']}")
        print(("\r" + line) if self.tty else line, end="" if self.tty else "\n", file=sys.stderr, flush=True)


def main(argv=None) -> int:
    args = parse_args(argv)
    # scripts/fuzz.sh runs from the checkout: a relative --out is relative to where it was called
    out = os.path.join(os.environ.get("HLO_MLIR_FUZZ_CWD", ""), args.out) if args.out else None
    config = runner.Config(seed=args.seed, out=os.path.abspath(out) if out else None, batch=args.batch,
                           timeout=args.timeout, max_ops=args.max_ops, known=not args.no_known,
                           print_programs=args.print or bool(args.only), reduce=not args.no_reduce,
                           denormals=args.denormals)
    progress = _Progress(len(args.indices), args.quiet)
    fuzzer = runner.Fuzzer(config, args.jobs, progress)
    start = time.monotonic()
    results = fuzzer.run(args.indices, args.time_budget)
    progress.last = 0
    progress(fuzzer)
    seconds = time.monotonic() - start
    if progress.tty and not args.quiet:
        print(file=sys.stderr)
    if config.print_programs:
        for index in args.indices:
            r = results.get(index)
            if r is None:
                print(f"program {index}: no verdict")
                continue
            print(f"# ---- program {index} of seed {args.seed}\n{r.source}\n{r.text}")
            print(r.line())
            if r.outcome != "ok":
                print(r.message)
            if r.reduced:
                print(f"# shrunk to:\n{r.reduced}")
    counts = fuzzer.counts()
    print(f"seed {args.seed}: {runner.summary_line(counts, len(results))}")
    print(f"{len(results)} programs in {seconds:.1f} s: {len(results) / max(seconds, 1e-9):.2f} programs/s "
          f"({args.jobs} job(s), batch {args.batch})")
    findings = sum(counts[k] for k in runner.FINDINGS)
    groups: dict[str, list[int]] = {}
    for index, r in sorted(results.items()):
        if r.outcome in runner.FINDINGS + ("known",):
            groups.setdefault(r.signature(), []).append(index)
    if groups:
        print("findings by signature (count: programs):")
        for sig, indices in sorted(groups.items(), key=lambda t: -len(t[1])):
            shown = ", ".join(map(str, indices[:8])) + (", ..." if len(indices) > 8 else "")
            print(f"  {len(indices):4d}  {sig}  [{shown}]")
    if findings:
        print(f"{findings} finding(s) written under {config.out}" if config.out else f"{findings} finding(s)")
    return EXIT_FINDINGS if findings else EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
