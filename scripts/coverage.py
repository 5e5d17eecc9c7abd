"""Generates docs/coverage.md: every spec op, per target, against its reference.

Usage: python scripts/coverage.py [--out docs/coverage.md] [--ops Add,Dot]
                                  [--targets llvm-cpu,vulkan-spirv,cuda] [--jobs 2]

For each op of the spec (../shared/spec/000_*.txt, plus the ops only older editions
name) it looks for a builder function in ``hlo_mlir`` and a sample in
``tests/op_samples``; the sample is built and verified, then for each target compiled,
run and compared with its numpy reference (the same reference on every target); the
same module also runs on XLA CPU and is compared with that reference. Targets:

- llvm-cpu: run on the driver the vmfb prefers (local-sync or local-task);
- vulkan-spirv: run on IREE's ``vulkan`` driver (Mesa's llvmpipe in CI); the script
  refuses to run it without a Vulkan driver rather than write an empty column;
- cuda: compiled (the target's default ``--iree-cuda-target``); run and compared only
  where the IREE runtime finds a CUDA device, and the document says which happened.

Each (op, target) runs in a forked child, ``--jobs`` at a time, so a compiler or driver
crash is reported, not fatal; compiles go through the persistent compile cache.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import multiprocessing as mp
import os
import re
import subprocess
import sys
import time
import traceback
from dataclasses import asdict, dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("JAX_PLATFORMS", "cpu")

# The spec's ops, in the spec's order (000 = current edition; * = older editions only).
SPEC_OPS = """
AfterAll AllGather AllReduce AllToAll BatchNormGrad BatchNormInference BatchNormTraining
BitcastConvertType Broadcast BroadcastInDim Call Cholesky Clamp Collapse CollectivePermute
ConcatInDim Conditional Conv ConvWithGeneralPadding ConvertElementType CrossReplicaSum* CustomCall
Dot DotGeneral DynamicSlice DynamicUpdateSlice
Add Sub Mul Div Rem Max Min Pow Atan2 Complex And Or Xor Not ShiftLeft ShiftRightArithmetic ShiftRightLogical
Eq Ne Ge Gt Le Lt EqTotalOrder NeTotalOrder GeTotalOrder GtTotalOrder LeTotalOrder LtTotalOrder
Abs Ceil Cos Exp Floor Imag IsFinite Log LogicalNot Logistic PopulationCount Neg Real Rsqrt Sign Sin
Sqrt Cbrt Tan Tanh Round RoundNearestEven
Fft Gather GetDimensionSize SetDimensionSize GetTupleElement Infeed Outfeed Iota Map
OptimizationBarrier Pad Recv Reduce ReducePrecision ReduceScatter ReduceWindow ReplicaId Reshape Rev
RngBernoulli* RngBitGenerator RngNormal RngUniform Scatter Select SelectAndScatter Send Slice Sort
Transpose TriangularSolve Tuple While
""".split()

# The targets, in column order, and the runtime driver each runs on (None: the driver
# the vmfb records as preferred).
TARGETS = ("llvm-cpu", "vulkan-spirv", "cuda")
DRIVERS = {"llvm-cpu": None, "vulkan-spirv": "vulkan", "cuda": "cuda"}
# Seconds one (op, target) child may take before it counts as hung.
JOB_TIMEOUT = 600

# Outcomes of one (op, target), from worst to best; the cell text of each.
NO_SAMPLE, NOT_VERIFIED, COMPILE_ERROR, RUN_ERROR, WRONG, COMPILES, MATCHES = (
    "no sample", "not verified", "compile error", "run error", "wrong numbers", "compiles", "matches")
_CELL = {NO_SAMPLE: "-", NOT_VERIFIED: "**not verified**", COMPILE_ERROR: "**compile error**",
         RUN_ERROR: "**run error**", WRONG: "**wrong numbers**", COMPILES: "compiles", MATCHES: "yes"}
_COMPILED = (COMPILES, WRONG, RUN_ERROR, MATCHES)
_YES_NO = {True: "yes", False: "**no**", None: "-"}
_DEVICE_FLAGS = ("--iree-cuda-target", "--iree-vulkan-target")


@dataclass
class Outcome:
    """What one (op, target) child found: the sample's facts and the target's result."""

    sample: bool = False
    verifies: bool | None = None
    status: str = NO_SAMPLE
    error: str = ""  # the first line of the error that decided ``status``
    known_gap: str = ""
    xla: bool | None = None  # llvm-cpu jobs only: XLA CPU matches the reference
    xla_note: str = ""


@dataclass
class Row:
    op: str  # the spec name (with * for older editions)
    builder: bool
    results: dict[str, Outcome] = field(default_factory=dict)


def _run_one(name: str, target: str, run: bool, xla: bool, conn) -> None:
    """Child process: build -> verify -> compile for ``target`` -> run -> compare."""
    out = Outcome()
    try:
        import hlo_mlir
        from tests import oracle
        from tests.op_samples import all_samples

        samples = all_samples()
        if name not in samples:
            conn.send(asdict(out))
            return
        out.sample = True
        sample = samples[name]()
        out.known_gap = sample.known_gap
        try:
            sample.computation.verify()
            out.verifies = True
        except Exception as e:  # noqa: BLE001 - every failure is a table entry
            out.verifies, out.status, out.error = False, NOT_VERIFIED, _first_line(e)
            conn.send(asdict(out))
            return
        try:
            vmfb = hlo_mlir.compile(sample.computation, target, **sample.run_kwargs.get("compile", {}))
        except Exception as e:  # noqa: BLE001
            out.status, out.error = COMPILE_ERROR, _first_line(e)
            conn.send(asdict(out))
            return
        out.status = COMPILES
        if run:
            try:
                program = hlo_mlir.runtime.load(vmfb, DRIVERS[target])
                if sample.prepare:  # fills the infeed or a channel (tests/op_samples/misc.py)
                    sample.prepare(program)
                got = program.main(*sample.args)
            except Exception as e:  # noqa: BLE001
                out.status, out.error = RUN_ERROR, _first_line(e)
            else:
                try:
                    oracle.assert_close(got, sample.expected, sample.rtol, sample.atol, name)
                    out.status = MATCHES
                except Exception as e:  # noqa: BLE001 - wrong values, shapes or dtypes
                    out.status, out.error = WRONG, _first_line(e)
        if xla and not sample.no_xla:
            try:
                theirs = oracle.run_xla(sample.computation, *sample.args)
                oracle.assert_close(theirs, sample.expected, sample.rtol, sample.atol, name)
                out.xla = True
            except Exception as e:  # noqa: BLE001
                out.xla, out.xla_note = False, "XLA: " + _first_line(e)
        elif xla:
            out.xla_note = f"XLA n/a: {sample.no_xla}"
    except Exception:  # noqa: BLE001 - the sample did not build (or an import failed)
        out.error = _first_line(traceback.format_exc().splitlines()[-1])
        out.verifies, out.status = False, NOT_VERIFIED
    conn.send(asdict(out))


def _first_line(e) -> str:
    """The first non-empty line of an error (numpy's mismatch count appended), table-safe."""
    lines = [line.strip() for line in str(e).splitlines() if line.strip()]
    if not lines:
        return type(e).__name__
    text = lines[0]
    diagnostics = [line for line in lines if line.startswith("error:")]
    if diagnostics:  # a CompileError: IREE's first diagnostic says what failed
        text = re.sub(r"^error:\s*(<string>:\d+:\d+:\s*)?", "", diagnostics[0])
    elif text.endswith(":") and len(lines) > 1:  # "the module cannot run on IREE:" + the op's line
        text += " " + re.sub(r"^\S+\.py:\d+:\s*", "", lines[1])
    mismatched = [line for line in lines if line.startswith("Mismatched elements")]
    if mismatched and mismatched[0] != text:
        text += f" ({mismatched[0]})"
    return text[:200].replace("|", "/")


def _device_available(driver: str) -> str:
    """"" if the IREE runtime can create a ``driver`` device here, else why not.

    Asked in a child interpreter: a device made in this process would not survive the
    forks that run the samples.
    """
    code = ("import iree.runtime as rt\n"
            f"try: rt.get_driver({driver!r}).create_default_device()\n"
            "except Exception as e: print(str(e).strip().splitlines()[0] if str(e).strip() else repr(e))")
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return f"creating a {driver} device took over 120 s"
    why = done.stdout.strip() if done.returncode == 0 else \
        (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
    # "...cuda_dynamic_symbols.c:66: UNAVAILABLE; CUDA driver library 'libcuda.so'/... not available; ..."
    found = re.search(r"UNAVAILABLE; ([^;]*)", why)
    return (found.group(1) if found else why)[:200]


Job = tuple[str, str, bool, bool]  # (op, target, run it, ask XLA too)


def _run_jobs(jobs: list[Job], parallel: int, report) -> dict[tuple[str, str], Outcome]:
    """Runs each (op, target, run, xla) in a forked child, ``parallel`` at a time."""
    ctx = mp.get_context("fork")
    pending = list(jobs)
    running: dict[Connection, tuple[str, str, Any, float]] = {}  # -> (op, target, process, start)
    results: dict[tuple[str, str], Outcome] = {}

    def finish(conn, outcome: Outcome) -> None:
        op, target, proc, start = running.pop(conn)
        proc.join(5)
        if proc.is_alive():
            proc.kill()
            proc.join()
        conn.close()
        results[(op, target)] = outcome
        report(op, target, outcome, time.monotonic() - start)

    while pending or running:
        while pending and len(running) < parallel:
            op, target, run, xla = pending.pop(0)
            parent, child = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_run_one, args=(op, target, run, xla, child))
            proc.start()
            child.close()
            running[parent] = (op, target, proc, time.monotonic())
        ready = wait(list(running), timeout=5)
        for conn in [c for c in running if c in ready]:
            try:
                outcome = Outcome(**conn.recv())  # a dict: the class need not pickle by name
            except EOFError:  # the child died without an answer
                proc = running[conn][2]
                proc.join(5)
                outcome = Outcome(sample=True, status=RUN_ERROR, error=f"crashed (exit code {proc.exitcode})")
            finish(conn, outcome)
        for conn, (_, _, proc, start) in list(running.items()):
            if time.monotonic() - start > JOB_TIMEOUT:
                proc.kill()
                hung = f"no answer within {JOB_TIMEOUT} s"
                finish(conn, Outcome(sample=True, status=RUN_ERROR, error=hung))
    return results


def _versions() -> str:
    parts = []
    for dist in ("iree-base-compiler", "iree-base-runtime", "jax"):
        try:
            parts.append(f"{dist} {importlib.metadata.version(dist)}")
        except importlib.metadata.PackageNotFoundError:
            pass
    return ", ".join(parts)


def _mesa_version() -> str:
    try:
        done = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "mesa-vulkan-drivers"],
                              capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def _target_lines(targets: list[str], cuda_runs: bool, cuda_why: str) -> list[str]:
    from hlo_mlir.targets import TARGETS as FLAGS

    lines = []
    for target in targets:
        device = " ".join(f for f in FLAGS[target] if f.startswith(_DEVICE_FLAGS))
        if target == "llvm-cpu":
            lines.append("- **llvm-cpu**: compiled with the target's default flags and run on the driver "
                         "the vmfb prefers (local-sync or local-task).")
        elif target == "vulkan-spirv":
            mesa = _mesa_version()
            mesa = f" (mesa-vulkan-drivers {mesa})" if mesa else ""
            lines.append(f"- **vulkan-spirv**: compiled with `{device}` and run on IREE's `vulkan` driver, "
                         f"Mesa's software device llvmpipe{mesa}.")
        elif cuda_runs:
            lines.append(f"- **cuda**: compiled with `{device}` and run on a CUDA device.")
        else:
            lines.append(f"- **cuda**: compiled with `{device}` only, **not run**: the machine that "
                         f"generated this table has no CUDA device ({cuda_why}). The column says whether "
                         "the op compiles.")
    return lines


def render(rows: list[Row], targets: list[str], cuda_runs: bool, cuda_why: str) -> str:
    """The markdown document for ``rows`` (one per spec op) over ``targets``."""
    total = len(rows)
    lines = [
        "# Spec op coverage",
        "",
        "Generated by `python scripts/coverage.py`; do not edit by hand "
        f"(`--targets {','.join(targets)}`; {_versions()}).",
        "Each op's sample (tests/op_samples) is built with the builder, verified, then for",
        "each target compiled, run with the IREE runtime and compared with the sample's",
        "numpy/scipy reference (the same reference and tolerance on every target); the same",
        "module is also run on XLA CPU (through jax) and compared with that reference.",
        "Ops marked * are named only by older editions of the spec.",
        "",
        *_target_lines(targets, cuda_runs, cuda_why),
        "",
        "## Summary",
        "",
    ]
    for target in targets:
        matched = sum(1 for r in rows if r.builder and r.results[target].status == MATCHES)
        compiled = sum(1 for r in rows if r.builder and r.results[target].status in _COMPILED)
        if target == "cuda" and not cuda_runs:
            lines.append(f"- **cuda: {compiled} of {total} ops compile** (not run: no CUDA device).")
        else:
            lines.append(f"- **{target}: {matched} of {total} ops match the reference** "
                         f"({compiled} compile).")
    if "llvm-cpu" in targets:
        xla = sum(1 for r in rows if r.results["llvm-cpu"].xla)
        lines.append(f"- XLA CPU: {xla} of {total} ops match the reference (the rest: see the note column).")
    xla_column = ["XLA matches reference"] if "llvm-cpu" in targets else []
    header = ["op", "builder", "verifies", *targets, *xla_column]
    lines += ["", "## Ops", "", "| " + " | ".join(header + ["note"]) + " |", "|" + "---|" * (len(header) + 1)]
    for r in rows:
        first = r.results[targets[0]]
        cells = [r.op, "yes" if r.builder else "**no**", _YES_NO[first.verifies]]
        cells += [_CELL[r.results[t].status] for t in targets]
        if "llvm-cpu" in targets:
            cells.append(_YES_NO[r.results["llvm-cpu"].xla])
        cells.append(_note(r, targets))
        lines.append("| " + " | ".join(cells) + " |")
    for target in targets:
        failed = [r for r in rows if r.results[target].status not in (MATCHES, COMPILES, NO_SAMPLE)]
        if target == "cuda" and not cuda_runs:  # compile-only: only compile failures count
            failed = [r for r in rows if r.results[target].status in (COMPILE_ERROR, NOT_VERIFIED)]
        lines += ["", f"## Failures on {target}", ""]
        if not failed:
            lines.append("None.")
            continue
        lines += ["| op | outcome | error (first line) |", "|---|---|---|"]
        lines += [f"| {r.op} | {r.results[target].status} | {r.results[target].error} |" for r in failed]
    return "\n".join(lines) + "\n"


def _note(row: Row, targets: list[str]) -> str:
    """The known gap, else the llvm-cpu (or first target's) error, else XLA's note."""
    first = row.results["llvm-cpu" if "llvm-cpu" in targets else targets[0]]
    if not row.builder:
        return "no builder function"
    if not first.sample:
        return "no sample in tests/op_samples"
    return first.known_gap or first.error or first.xla_note


def parse_targets(text: str) -> list[str]:
    chosen = [t.strip() for t in text.split(",") if t.strip()]
    unknown = [t for t in chosen if t not in TARGETS]
    if not chosen or unknown:
        raise SystemExit(f"coverage.py requires --targets from {','.join(TARGETS)}; got {text!r}.")
    return [t for t in TARGETS if t in chosen]  # column order is fixed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "coverage.md"))
    parser.add_argument("--ops", default="", help="comma-separated subset of ops")
    parser.add_argument("--targets", default=",".join(TARGETS),
                        help=f"comma-separated targets to compile for (default {','.join(TARGETS)})")
    parser.add_argument("--jobs", type=int, default=2, help="samples compiled at once (default 2)")
    args = parser.parse_args(argv)
    targets = parse_targets(args.targets)
    if args.jobs < 1:
        raise SystemExit(f"coverage.py requires --jobs >= 1; got {args.jobs}.")
    if "vulkan-spirv" in targets:
        why = _device_available("vulkan")
        if why:
            raise SystemExit(f"coverage.py requires a Vulkan driver for vulkan-spirv (Mesa's llvmpipe: "
                             f"apt-get install -y mesa-vulkan-drivers); got: {why}")
    cuda_why = _device_available("cuda") if "cuda" in targets else ""
    cuda_runs = "cuda" in targets and not cuda_why

    # Imported before forking, so that each child starts at once (no device or XLA
    # client is created here: those are made in the children).
    import hlo_mlir
    import tests.oracle  # noqa: F401
    from tests.op_samples import all_samples

    all_samples()
    if "llvm-cpu" in targets:
        import jax  # noqa: F401

    wanted = set(args.ops.split(",")) if args.ops else None
    ops = [o for o in SPEC_OPS if wanted is None or o.rstrip("*") in wanted]
    rows = [Row(o, hasattr(hlo_mlir, o.rstrip("*"))) for o in ops]
    jobs = [(o.rstrip("*"), t, t != "cuda" or cuda_runs, t == "llvm-cpu") for o in ops for t in targets]

    def report(op: str, target: str, out: Outcome, seconds: float) -> None:
        print(f"{op:24} {target:13} {seconds:5.1f} s  {out.status:14} {out.error or out.known_gap}",
              flush=True)

    start = time.monotonic()
    results = _run_jobs(jobs, args.jobs, report)
    for row in rows:
        row.results = {t: results[(row.op.rstrip("*"), t)] for t in targets}
    text = render(rows, targets, cuda_runs, cuda_why)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write(text)
    for line in text.splitlines():
        if line.startswith("- **"):
            print(line.replace("**", ""))
    print(f"wrote {args.out} in {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
