"""Compiles, runs and compares fuzz programs in worker processes; a dying worker is a finding.

The coordinator (``Fuzzer.run``) hands batches of program indices to ``jobs`` worker
processes. A worker (``_worker_main``) generates each program, runs it on XLA CPU in
strict mode (``tests.oracle.run_xla(..., strict=True)``), runs hlo-mlir's passes on
it, compiles the batch as *one* IREE module (each program a public function, renamed
``f<k>``; IREE's fixed cost per module is most of a small program's compile time), runs
each function on the driver the program prefers and compares (``compare.compare``).
A batch that fails to compile is split in halves until the failing program is alone;
a program that fails in a batch is compiled again alone with plain ``hlo_mlir.compile``
(the user's path), and that verdict is the one reported.

A worker that dies (segfault, abort) or stops answering (``timeout``) is killed and
replaced; the programs of its batch that had no verdict are retried one per task, so
the one that kills a worker alone is reported as a crash or a hang, with the stage it
was in (generate, xla, prepare, compile, run) and the tail of its stderr.

Outcomes (``OUTCOMES``): ``ok``; findings: ``mismatch``, ``traceback`` (an unexpected
Python exception from hlo-mlir), ``error`` (a clean hlo-mlir error such as an IREE
CompileError on a program XLA runs), ``crash``, ``timeout``, ``unsafe`` (a caller's
array changed, or results share memory), ``fuzzer-error`` (a bug of the fuzzer itself);
not findings: ``xla-rejected`` (XLA refused the program, so there is no reference) and
``known`` (a documented defect, see ``known.py``).
"""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import multiprocessing.connection as mpc
import os
import re
import shutil
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

FINDINGS = ("mismatch", "traceback", "error", "crash", "timeout", "unsafe", "fuzzer-error")
OUTCOMES = ("ok",) + FINDINGS + ("xla-rejected", "xla-crashed", "xla-inconsistent", "known")

# XLA passes off for the reference, besides strict mode's algsimp: the constant folder's
# evaluator differs from XLA's compiled code (clz of a negative constant is -32, add of PRED
# constants is XOR); convolution-canonicalization hands f32 convolutions to Eigen's kernel,
# which is wrong with a negative low padding (jaxlib 0.10.2; program 5435 of seed 20261126:
# off by up to 250%); without it XLA's loop emitter runs them, as it runs every f64 one.
# A mismatch is checked again against XLA without ``fusion`` too: fused code has its own
# defects (atan2(iota, iota) is NaN at 0); and against XLA with every constant behind an
# optimization barrier: XLA evaluates what it knows at compile time its own way (two NaN
# constants compare unordered under TOTALORDER, where the spec and XLA's run-time code order
# them; tests/e2e/test_fuzz_reference.py). A result that agrees with one of these is
# ``xla-inconsistent``, not a finding.
XLA_DISABLED = ("constant_folding", "convolution-canonicalization")
XLA_SECOND_OPINION = XLA_DISABLED + ("fusion",)


@dataclasses.dataclass
class Config:
    seed: int = 0
    out: str | None = None  # where findings are written (None: nowhere)
    batch: int = 16  # programs per IREE module
    timeout: float = 120.0  # seconds one program may take in one stage
    target: str = "llvm-cpu"
    max_ops: int = 20
    known: bool = True  # documented defects (known.py) are not findings
    reduce: bool = True  # shrink each finding (reduce.py) and write the result next to it
    denormals: bool = False  # subnormal floats among the special inputs (implementation-defined)
    # self-test of the isolation (tests/e2e/test_fuzz.py): {"abort": [i, ...], "hang": [j, ...]}
    # makes the worker abort or hang on those programs
    self_test: dict = dataclasses.field(default_factory=dict)
    recycle: int = 500  # programs after which a worker is replaced (bounds memory growth)
    print_programs: bool = False  # results carry the builder code and the StableHLO text


@dataclasses.dataclass
class Result:
    index: int
    outcome: str
    stage: str = ""
    message: str = ""
    ops: dict = dataclasses.field(default_factory=dict)
    finding: str = ""  # the directory the finding was written to
    seconds: float = 0.0
    source: str = ""  # with Config.print_programs: the builder code
    text: str = ""  # and the StableHLO module
    reduced: str = ""  # the shrunk program's builder code, when it was shrunk

    def signature(self) -> str:
        """What went wrong, without the numbers: findings with one signature likely share a cause."""
        return signature(self.outcome, self.stage, self.message)

    def line(self) -> str:
        first = self.message.strip().splitlines()[0] if self.message.strip() else ""
        where = f" [{self.stage}]" if self.stage else ""
        return f"program {self.index}: {self.outcome}{where} {first}".rstrip()


# ============================================================================================
# worker side
# ============================================================================================
_LIBRARY = re.compile(r"[/\\](hlo_mlir|dialect_ops|pipelines)[/\\]")
_PY_ERRORS = re.compile(r"(?<![\w.])(ValueError|TypeError|KeyError|IndexError|AttributeError|AssertionError|"
                        r"ZeroDivisionError|NotImplementedError|RecursionError|OverflowError|NameError|"
                        r"UnboundLocalError|StopIteration|MemoryError)(: |\b)")


def classify_exception(error: BaseException) -> str:
    """``traceback`` for an unexpected exception (or one wrapped in an hlo-mlir error),
    ``crash``/``timeout`` for a compiler crash or hang that ``hlo_mlir.compile`` isolated and
    reported as a CompileError, ``error`` for a clean one."""
    from hlo_mlir import HloMlirError

    chain, seen = [], set()
    e: BaseException | None = error
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        chain.append(e)
        e = e.__cause__ or (None if e.__suppress_context__ else e.__context__)
    if any(not isinstance(x, HloMlirError) for x in chain):
        return "traceback"
    text = str(error)
    if "IREE did not finish compiling" in text:
        return "timeout"
    if "IREE crashed" in text:
        return "crash"
    if "Traceback (most recent call last)" in text or _PY_ERRORS.search(text.split("\n  flags:")[0]):
        return "traceback"
    if re.search(r"\b(crashed|signal \d+|SIG[A-Z]+|LLVM ERROR|killed)\b", text):
        return "crash"
    return "error"


def signature(outcome: str, stage: str, message: str) -> str:
    """``outcome [stage] <the first telling line>`` with locations, numbers and names of
    SSA values blanked."""
    text = message or ""
    line = ""
    if outcome == "mismatch":
        m = re.search(r"\((\w+), (exact|inexact)\)", text)
        line = f"{m.group(1)} {m.group(2)}" if m else text.splitlines()[0] if text else ""
    elif outcome in ("crash", "timeout") and "File " in text:
        library = r'File "[^"]*[/\\]((?:hlo_mlir|dialect_ops|pipelines)[/\\][\w/\\]+\.py)", line \d+ in (\w+)'
        frames = re.findall(library, text)
        line = f"in {frames[0][0]}:{frames[0][1]}" if frames else ""
    if not line:
        lines = text.strip().splitlines() or [""]
        errors = [ln.strip() for ln in lines if "error:" in ln and "failed to run translation" not in ln]
        line = errors[0] if errors else lines[0]
        if line.startswith("VerificationError") and len(lines) > 1:
            line = lines[1].strip()
    line = re.sub(r"<[^>]*>:\d+:\d+:\s*", "", line)
    line = re.sub(r"%[\w#]+", "%_", line)
    line = re.sub(r"\d+", "N", line)
    return f"{outcome} [{stage}] {line[:160]}".rstrip()


def _trace(error: BaseException) -> str:
    """The error's message, then its traceback; very long lines (IREE's CPU feature lists) cut."""
    lines = [f"{type(error).__name__}: {error}", ""] + "".join(traceback.format_exception(error)).splitlines()
    return "\n".join(line if len(line) <= 400 else line[:400] + " [...]" for line in lines)


class _Worker:
    """The worker's state: the config, the pipe, the oracle."""

    def __init__(self, conn, config: Config):
        self.conn, self.config = conn, config
        from tests import oracle
        from tests.fuzz import compare, generator, known

        self.oracle, self.compare, self.generator, self.known = oracle, compare, generator, known
        self.xla_crashed: set[int] = set()  # programs whose XLA run killed a worker: not run again

    prefix = ""  # "reduce:" while shrinking a finding

    def stage(self, index, stage: str) -> None:
        self.conn.send(("stage", index, self.prefix + stage))

    # --- one program up to the IREE compile --------------------------------------------------
    def front(self, index: int) -> tuple[Any, Any, Any, Result | None]:
        """(program, expected, prepared module) or a Result when it ends before IREE."""
        from hlo_mlir import compiler

        start = time.perf_counter()
        self.stage(index, "generate")
        if index in self.config.self_test.get("abort", ()):
            os.abort()
        if index in self.config.self_test.get("hang", ()):
            time.sleep(3600)
        try:
            program = self.generator.generate(self.config.seed, index, self.config.max_ops,
                                              denormals=self.config.denormals)
        except Exception as e:  # noqa: BLE001 - a bug of the generator
            return None, None, None, Result(index, "fuzzer-error", "generate", _trace(e))
        ops = dict(program.ops)
        if program.failure is not None:
            f = program.failure
            from hlo_mlir import HloMlirError

            # an HloMlirError can only come from build(): every op was accepted, the module is not
            outcome = ("error" if isinstance(f.error, HloMlirError) else
                       "traceback" if _LIBRARY.search(f.trace) else "fuzzer-error")
            r = Result(index, outcome, "build", f"{f}\n  while running: {f.line}\n{f.trace}", ops)
            return program, None, None, r
        if index in self.xla_crashed:  # the oracle killed an earlier worker: no reference
            return program, None, None, self.unchecked(program, Result(
                index, "xla-crashed", "xla", "XLA CPU (the oracle) crashed on this program", ops))
        self.stage(index, "xla")
        if index in self.config.self_test.get("xla-abort", ()):
            os.abort()
        refused = ""
        try:
            expected = self.oracle.run_xla(program.computation, *program.args, strict=True,
                                           disable=XLA_DISABLED)
        except Exception as e:  # noqa: BLE001 - XLA refused: no reference
            refused = f"XLA: {type(e).__name__}: {e}"
        if refused:  # ours runs outside the handler: XLA's error must not become the context
            # of our clean errors (classify_exception would call them tracebacks; program 4722)
            return program, None, None, self.unchecked(program, Result(index, "xla-rejected", "xla",
                                                                       refused, ops))
        self.stage(index, "prepare")
        try:
            module = compiler.as_module(program.computation)
            compiler.prepare(module, self.config.target)
        except Exception as e:  # noqa: BLE001
            r = Result(index, classify_exception(e), "prepare", _trace(e), ops)
            return program, expected, None, r
        r = Result(index, "ok", ops=ops, seconds=time.perf_counter() - start)
        return program, expected, module, r

    def unchecked(self, program, result: Result) -> Result:
        """A program XLA refused: ours still runs; a crash or traceback is a finding, any
        other outcome (a clean error included: the program may be invalid) is not."""
        verdict = self.alone(program, None, result)
        if verdict.outcome in ("traceback", "crash", "timeout", "unsafe"):
            return dataclasses.replace(verdict, message=verdict.message + "\n(" + result.message + ")")
        return result

    # --- running and comparing ----------------------------------------------------------------
    def check(self, program, expected, fn, result: Result) -> Result:
        """Calls ``fn`` on the program's inputs and compares with ``expected``."""
        import numpy as np

        self.stage(program.index, "run")
        copies = [_copy(a) for a in program.args]
        try:
            actual = fn(*program.args)
        except Exception as e:  # noqa: BLE001
            return dataclasses.replace(result, outcome=classify_exception(e), stage="run", message=_trace(e))
        flat = list(actual) if isinstance(actual, tuple) else [actual]
        for k, (a, c) in enumerate(zip(program.args, copies, strict=True)):
            if not _same_bits(a, c):
                return dataclasses.replace(result, outcome="unsafe", stage="run",
                                           message=f"argument {k} (the caller's array) was changed by the "
                                                   "call")
        for i in range(len(flat)):
            for j in range(i + 1, len(flat)):
                if flat[i].size and flat[j].size and np.shares_memory(flat[i], flat[j]):
                    return dataclasses.replace(result, outcome="unsafe", stage="run",
                                               message=f"results {i} and {j} share memory")
        diffs = self.compare.compare(expected, flat, program.leaves) if expected is not None else []
        if diffs:
            message = "\n".join(str(d) for d in diffs)
            try:
                second = self.oracle.run_xla(program.computation, *program.args, strict=True,
                                             disable=XLA_SECOND_OPINION)
            except Exception as e:  # noqa: BLE001
                second, message = None, message + f"\n(XLA without fusion failed: {type(e).__name__}: {e})"
            if second is not None and not self.compare.compare(second, flat, program.leaves):
                return dataclasses.replace(result, outcome="xla-inconsistent", stage="compare", message=(
                    "XLA with and without fusion disagree; hlo-mlir matches XLA without fusion:\n" + message))
            try:
                third = self.oracle.run_xla(program.computation, *program.args, strict=True,
                                            disable=XLA_DISABLED, opaque_constants=True)
            except Exception as e:  # noqa: BLE001
                third = None
                message += f"\n(XLA with opaque constants failed: {type(e).__name__}: {e})"
            if third is not None and not self.compare.compare(third, flat, program.leaves):
                return dataclasses.replace(result, outcome="xla-inconsistent", stage="compare", message=(
                    "XLA's compile-time constants and its run-time code disagree; hlo-mlir matches XLA "
                    "with every constant behind an optimization barrier:\n" + message))
            return dataclasses.replace(result, outcome="mismatch", stage="compare", message=message)
        return result

    def alone(self, program, expected, result: Result) -> Result:
        """The user's path: ``hlo_mlir.compile`` of the computation, ``runtime.load``, call.
        ``program``: anything with ``index``, ``computation``, ``args`` and ``leaves``."""
        import hlo_mlir

        self.stage(program.index, "compile")
        try:
            vmfb = hlo_mlir.compile(program.computation, self.config.target, timeout=self.config.timeout)
        except Exception as e:  # noqa: BLE001
            return dataclasses.replace(result, outcome=classify_exception(e), stage="compile",
                                       message=_trace(e))
        try:
            fn = hlo_mlir.runtime.load(vmfb).main
        except Exception as e:  # noqa: BLE001
            return dataclasses.replace(result, outcome=classify_exception(e), stage="load", message=_trace(e))
        return self.check(program, expected, fn, result)

    # --- a task -------------------------------------------------------------------------------
    def run(self, indices: list[int]) -> None:
        entries = []
        for index in indices:
            try:
                program, expected, module, result = self.front(index)
            except Exception as e:  # noqa: BLE001
                self.finish(None, None, Result(index, "fuzzer-error", "front", _trace(e)))
                continue
            if result.outcome != "ok" or module is None:
                self.finish(program, expected, result)
            else:
                entries.append((program, expected, module, result))
        if not entries:  # every program ended before IREE (compile_groups needs one)
            return
        if len(entries) == 1:
            program, expected, _, result = entries[0]
            self.finish(program, expected, self.alone(program, expected, result))
            return
        for group, vmfb in self.compile_groups(entries):
            for k, (program, expected, module, result) in enumerate(group):
                try:
                    verdict = self.in_batch(program, expected, module, result, vmfb, f"f{k}")
                    self.finish(program, expected, verdict)
                except Exception as e:  # noqa: BLE001
                    self.finish(program, expected, dataclasses.replace(
                        result, outcome="fuzzer-error", stage="batch", message=_trace(e)))

    def in_batch(self, program, expected, module, result: Result, vmfb, name: str) -> Result:
        import hlo_mlir
        from hlo_mlir import compiler

        verdict = None
        if vmfb is not None:
            try:
                driver = compiler.preferred_driver(module, self.config.target)
                fn = hlo_mlir.runtime.load(vmfb, driver=driver)[name]
                verdict = self.check(program, expected, fn, result)
            except Exception as e:  # noqa: BLE001
                verdict = dataclasses.replace(result, outcome=classify_exception(e), stage="run",
                                              message=_trace(e))
            if verdict.outcome == "ok":
                return verdict
        return self.alone(program, expected, result)  # the user's path decides

    def compile_groups(self, entries):
        """Yields (entries, vmfb or None): the batch compiled as one module, halved on failure."""
        import hlo_mlir

        pending = [entries]
        while pending:
            group = pending.pop(0)
            if len(group) == 1:
                yield group, None
                continue
            self.stage(None, "compile-batch " + ",".join(str(e[0].index) for e in group))
            try:
                merged = _merge([module for _, _, module, _ in group])
                vmfb = hlo_mlir.compile(merged, self.config.target, passes="", legalize=False,
                                        timeout=self.config.timeout)
            except Exception as e:  # noqa: BLE001 - find the culprit: halves, then one by one
                if classify_exception(e) == "timeout":  # the slow one costs a timeout per try
                    pending[:0] = [[entry] for entry in group]
                else:
                    half = len(group) // 2
                    pending[:0] = [group[:half], group[half:]]
                continue
            yield group, vmfb

    # --- shrinking a finding --------------------------------------------------------------------
    def shrink(self, program, result: Result) -> str:
        """The builder code of the smallest program found that fails like ``result``
        (``reduce.shrink``); "" when nothing smaller fails that way."""
        import types

        from tests.fuzz import reduce

        want = result.signature()
        leaf = re.match(r"result (\d+)", result.message) if result.outcome == "mismatch" else None

        def still_fails(candidate) -> bool:
            computation, args, _ = reduce.build_candidate(candidate)
            subject = types.SimpleNamespace(index=program.index, computation=computation, args=args,
                                            leaves=candidate.leaves)
            expected = None
            if result.outcome == "mismatch":
                expected = self.oracle.run_xla(computation, *args, strict=True, disable=XLA_DISABLED)
            verdict = self.alone(subject, expected, Result(program.index, "ok"))
            if result.outcome == "mismatch":
                return verdict.outcome == "mismatch"
            return verdict.signature() == want

        start = reduce.Candidate(program.code, dict(enumerate(program.args)), program.leaves)
        small = reduce.shrink(start, still_fails, int(leaf.group(1)) if leaf else None)
        if len(small.code) >= len(program.code):
            return ""
        computation, args, _ = reduce.build_candidate(small)
        shrunk = self.generator.Program(program.seed, program.index, program.name, reduce.renumbered(small),
                                        computation, args, small.leaves)
        if self.config.out:
            write_finding(self.config, shrunk, result, None, folder=_finding_dir(
                Path(self.config.out), self.config.seed, result) / "reduced")
        return shrunk.source()

    def finish(self, program, expected, result: Result) -> None:
        if self.config.print_programs and program is not None:
            result = dataclasses.replace(result, source=program.source(), text=program.text())
        if result.outcome in FINDINGS and program is not None and self.config.known:
            name = self.known.match(program, result)
            if name:
                result = dataclasses.replace(result, outcome="known", message=f"{name}: {result.message}")
        if result.outcome in FINDINGS and self.config.out and program is not None:
            try:
                result.finding = str(write_finding(self.config, program, result, expected))
            except Exception as e:  # noqa: BLE001
                result.message += f"\n(could not write the finding: {e})"
        self.conn.send(("result", dataclasses.asdict(result)))
        if (self.config.reduce and program is not None and program.computation is not None
                and result.outcome in ("mismatch", "error", "traceback", "unsafe", "crash")):
            self.prefix = "reduce:"
            self.stage(result.index, "start")
            try:
                code = self.shrink(program, result)
            except Exception as e:  # noqa: BLE001 - shrinking is a convenience
                code = ""
                print(f"shrinking program {result.index} failed: {e}", file=sys.stderr)
            finally:
                self.prefix = ""
            if code:
                self.conn.send(("reduced", result.index, code))


def _copy(a):
    import numpy as np

    return tuple(np.array(x, copy=True) for x in a) if isinstance(a, tuple) else np.array(a, copy=True)


def _same_bits(a, b) -> bool:
    import numpy as np

    if isinstance(a, tuple):
        return all(_same_bits(x, y) for x, y in zip(a, b, strict=True))
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.tobytes() == b.tobytes()


def _merge(modules):
    """One module holding every prepared module's functions; ``main`` of module k is
    public ``f<k>``, every other symbol is prefixed ``f<k>_``."""
    from iree.compiler import ir

    from hlo_mlir import context

    with context.get_context(), ir.Location.unknown():
        merged = ir.Module.create()
        for k, module in enumerate(modules):
            if any(name != "sym_name" for name in module.operation.attributes):
                raise ValueError("module attributes: compiled alone")
            copy = module.operation.clone()
            ops = list(copy.regions[0].blocks[0].operations)
            for op in ops:
                if "sym_name" not in op.attributes:
                    continue
                old = ir.StringAttr(op.attributes["sym_name"]).value
                new = f"f{k}" if old == "main" else f"f{k}_{old}"
                ir.SymbolTable.replace_all_symbol_uses(old, new, copy)
                op.attributes["sym_name"] = ir.StringAttr.get(new)
            for op in ops:
                merged.body.append(op)
            copy.erase()
    return merged


def _worker_main(conn, config: dict, log_path: str) -> None:
    os.environ["HLO_MLIR_CACHE"] = "0"  # fuzzing must not fill the user's compile cache
    if config.get("out"):  # reproducers of IREE crashes that hlo_mlir.compile isolated
        os.environ["HLO_MLIR_REPRO_DIR"] = os.path.join(config["out"], "iree-reproducers")
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "1")
    log = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import faulthandler

    faulthandler.enable()
    worker = _Worker(conn, Config(**config))
    conn.send(("ready", os.getpid()))
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg[0] == "stop":
            return
        if msg[0] == "run":
            worker.xla_crashed = set(msg[2]) if len(msg) > 2 else set()
            worker.run(msg[1])
        elif msg[0] == "describe":
            _, index, result = msg
            result = Result(**result)
            try:
                trace = _TraceFile(_finding_dir(Path(config["out"]), worker.config.seed, result))
                program = worker.generator.generate(worker.config.seed, index, worker.config.max_ops,
                                                    trace=trace, denormals=worker.config.denormals)
                if program.computation is not None and worker.config.out:
                    result.finding = str(write_finding(worker.config, program, result, None))
            except Exception as e:  # noqa: BLE001
                result.message += f"\n(could not describe the program: {e})"
            conn.send(("described", dataclasses.asdict(result)))
        conn.send(("done",))


class _TraceFile:
    """Writes each builder line to the finding's build.py before it runs (a crash while
    building leaves the lines up to the one that crashed)."""

    def __init__(self, folder: Path):
        self.path = folder / "build_trace.py"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.file = open(self.path, "w")

    def __call__(self, line: str) -> None:
        self.file.write(line + "\n")
        self.file.flush()


# ============================================================================================
# findings
# ============================================================================================
def _finding_dir(out: Path, seed: int, result: Result) -> Path:
    return out / f"s{seed}-{result.index:06d}-{result.outcome}"


def repro_command(config: Config, index: int) -> str:
    extra = (" --denormals" if config.denormals else "") + (
        f" --max-ops {config.max_ops}" if config.max_ops != Config.max_ops else "")
    return f"scripts/fuzz.sh --seed {config.seed} --only {index}{extra}"


def write_finding(config: Config, program, result: Result, expected, folder: Path | None = None) -> Path:
    """A directory with the program (repro.py, program.mlir), its inputs, XLA's results and a README."""
    import numpy as np

    folder = folder or _finding_dir(Path(config.out), config.seed, result)
    folder.mkdir(parents=True, exist_ok=True)
    for k, a in enumerate(program.args):
        if isinstance(a, tuple):
            for j, x in enumerate(a):
                np.save(folder / f"input_{k}_{j}.npy", x)
        else:
            np.save(folder / f"input_{k}.npy", a)
    if expected is not None:
        for k, e in enumerate(expected if isinstance(expected, tuple) else (expected,)):
            np.save(folder / f"expected_{k}.npy", np.asarray(e))
    header = f"import sys\n\nsys.path.insert(0, {str(ROOT)!r})  # the checkout that found it\n"
    (folder / "repro.py").write_text(header + program.source() + _REPRO_MAIN)
    text = program.text()
    if text:
        (folder / "program.mlir").write_text(text)
    readme = [f"outcome: {result.outcome}", f"stage: {result.stage}", f"seed: {config.seed}",
              f"index: {program.index}", f"ops: {json.dumps(result.ops)}",
              f"reproduce: {repro_command(config, program.index)}   (or: python {folder}/repro.py)",
              "results compared: " + ", ".join(_how(leaf) for leaf in program.leaves),
              f"signature: {result.signature()}", "", result.message]
    (folder / "README.txt").write_text("\n".join(readme) + "\n")
    return folder


def _how(leaf) -> str:
    """How a result was compared, for the README."""
    if leaf.exact:
        return f"{leaf.dtype} exact"
    extra = (f", floor {leaf.floor:.3g}" if leaf.floor else "") + (" (through tan)" if leaf.tan else "") + (
        ", may overflow" if leaf.overflow else "")
    return f"{leaf.dtype} inexact ({leaf.err} steps, eps {leaf.eps:.3g}{extra})"


_REPRO_MAIN = '''

if __name__ == "__main__":
    # Runs the program on hlo-mlir and XLA CPU (strict) with the saved inputs and compares.
    import pathlib

    from tests.fuzz.runner import reproduce

    sys.exit(reproduce(build(), pathlib.Path(__file__).parent))
'''


def load_array(path: Path):
    """``np.load`` of a saved input; bf16 arrays come back as 2-byte void ("V2") and are
    viewed as bfloat16 again."""
    import ml_dtypes
    import numpy as np

    a = np.load(path)
    return a.view(ml_dtypes.bfloat16) if a.dtype.kind == "V" and a.dtype.itemsize == 2 else a


def reproduce(computation, folder: Path) -> int:
    """Runs ``computation`` on the inputs saved in ``folder`` with hlo-mlir and XLA; prints both."""
    import numpy as np

    import hlo_mlir
    from tests import oracle

    args: list = []
    k = 0
    while True:
        single = folder / f"input_{k}.npy"
        parts = sorted(folder.glob(f"input_{k}_*.npy"), key=lambda p: int(p.stem.rsplit("_", 1)[1]))
        if single.exists():
            args.append(load_array(single))
        elif parts:
            args.append(tuple(load_array(p) for p in parts))
        else:
            break
        k += 1
    expected = oracle.run_xla(computation, *args, strict=True, disable=XLA_DISABLED)
    print("XLA CPU (strict):", expected)
    actual = hlo_mlir.runtime.load(hlo_mlir.compile(computation)).main(*args)
    print("hlo-mlir:        ", actual)
    exp = list(expected) if isinstance(expected, tuple) else [expected]
    act = list(actual) if isinstance(actual, tuple) else [actual]
    same = len(exp) == len(act) and all(
        np.asarray(e).shape == np.asarray(a).shape and np.array_equal(
            np.asarray(e).astype(np.complex128), np.asarray(a).astype(np.complex128), equal_nan=True)
        for e, a in zip(exp, act, strict=True))
    print("identical" if same else "different (see README.txt for the tolerance this program was judged by)")
    return 0 if same else 1


# ============================================================================================
# coordinator
# ============================================================================================
class _Slot:
    """One worker process and what it is doing."""

    def __init__(self, ctx, config: Config, logdir: Path, number: int):
        self.log = logdir / f"worker{number}-{time.monotonic_ns()}.log"
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child, dataclasses.asdict(config), str(self.log)),
                                daemon=True)
        self.proc.start()
        child.close()
        self.ready = False
        self.task: list[int] | None = None  # indices without a verdict yet
        self.kind = "run"
        self.stage: tuple[Any, str] = (None, "start")
        self.since = time.monotonic()
        self.done = 0
        self.described: Result | None = None

    def send(self, msg) -> None:
        self.conn.send(msg)
        self.since = time.monotonic()

    def kill(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(5)
        self.conn.close()

    def stderr_tail(self, limit: int = 4000) -> str:
        try:
            data = self.log.read_bytes()[-limit:]
        except OSError:
            return ""
        return data.decode("utf-8", "replace")


class Fuzzer:
    """Runs programs ``indices`` of ``config.seed`` on ``jobs`` workers."""

    def __init__(self, config: Config, jobs: int = 1, progress=None):
        self.config, self.jobs = config, max(1, jobs)
        self.progress = progress
        self.results: dict[int, Result] = {}
        self.xla_crashed: set[int] = set()  # programs whose XLA run killed a worker
        self.ctx = multiprocessing.get_context("spawn")
        self.logdir = Path(tempfile.mkdtemp(prefix="hlo-mlir-fuzz-"))
        self.started = time.monotonic()

    def run(self, indices: list[int], time_budget: float | None = None) -> dict[int, Result]:
        queue: list[list[int]] = [indices[i:i + self.config.batch]
                                  for i in range(0, len(indices), self.config.batch)]
        retry: list[list[int]] = []
        describe: list[Result] = []
        slots = [_Slot(self.ctx, self.config, self.logdir, n) for n in range(min(self.jobs, len(queue) or 1))]
        deadline = None if time_budget is None else self.started + time_budget
        try:
            while True:
                out_of_time = deadline is not None and time.monotonic() > deadline
                for n, slot in enumerate(slots):
                    if not slot.ready or slot.task is not None:
                        continue
                    if slot.done >= self.config.recycle:
                        slot.send(("stop",))
                        slot.kill()
                        slots[n] = slot = _Slot(self.ctx, self.config, self.logdir, n)
                        continue
                    if describe and self.config.out:
                        r = describe.pop(0)
                        slot.task, slot.kind = [r.index], "describe"
                        slot.described = r
                        slot.send(("describe", r.index, dataclasses.asdict(r)))
                    elif retry:
                        slot.task, slot.kind = retry.pop(0), "run"
                        slot.send(("run", list(slot.task), sorted(self.xla_crashed & set(slot.task))))
                    elif queue and not out_of_time:
                        slot.task, slot.kind = queue.pop(0), "run"
                        slot.send(("run", list(slot.task)))
                busy = [s for s in slots if s.task is not None or not s.ready]
                if not busy:
                    break
                ready = mpc.wait([s.conn for s in busy] + [s.proc.sentinel for s in busy], timeout=1.0)
                for n, slot in enumerate(slots):
                    if slot not in busy:
                        continue
                    if slot.conn in ready:
                        self._drain(slot)
                    dead = not slot.proc.is_alive()
                    limit = self.config.timeout + (10 * len(slot.task or [])
                                                   if slot.stage[1].startswith("compile-batch") else 0)
                    hung = slot.task is not None and time.monotonic() - slot.since > limit + (
                        60 if not slot.ready else 0)
                    if dead or hung or (not slot.ready and time.monotonic() - slot.since > 300):
                        if slot.conn.poll():
                            self._drain(slot)
                        self._lost(slot, "timeout" if hung and not dead else "crash", retry, describe)
                        slot.kill()
                        slots[n] = _Slot(self.ctx, self.config, self.logdir, n)
                if self.progress:
                    self.progress(self)
        finally:
            for slot in slots:
                try:
                    slot.send(("stop",))
                except (OSError, ValueError):
                    pass
                slot.kill()
            shutil.rmtree(self.logdir, ignore_errors=True)
        return self.results

    def _drain(self, slot: _Slot) -> None:
        while True:
            try:
                if not slot.conn.poll():
                    return
                msg = slot.conn.recv()
            except (EOFError, OSError):
                return
            slot.since = time.monotonic()
            kind = msg[0]
            if kind == "ready":
                slot.ready = True
            elif kind == "stage":
                slot.stage = (msg[1], msg[2])
            elif kind == "result":
                r = Result(**msg[1])
                self.results[r.index] = r
                slot.done += 1
                if slot.task and r.index in slot.task:
                    slot.task.remove(r.index)
            elif kind == "reduced":
                if msg[1] in self.results:
                    self.results[msg[1]].reduced = msg[2]
            elif kind == "described":
                r = Result(**msg[1])
                self.results[r.index] = r
            elif kind == "done":
                slot.task = None

    def _lost(self, slot: _Slot, outcome: str, retry: list, describe: list) -> None:
        """The worker died or hung: its batch is retried one by one; a lone program is the culprit."""
        task = slot.task or []
        if slot.kind == "describe":  # it died again rebuilding the program: a crash while building
            r = slot.described
            r.message += f"\n(the worker died again rebuilding the program: {outcome})"
            if self.config.out:
                folder = _finding_dir(Path(self.config.out), self.config.seed, r)
                folder.mkdir(parents=True, exist_ok=True)
                (folder / "README.txt").write_text(
                    f"outcome: {r.outcome}\nstage: {r.stage}\nseed: {self.config.seed}\nindex: {r.index}\n"
                    f"reproduce: {repro_command(self.config, r.index)}\nsignature: {r.signature()}\n"
                    f"build_trace.py: the builder lines up to the one that crashed (the last line)\n\n"
                    f"{r.message}\n")
                r.finding = str(folder)
            self.results[r.index] = r
            return
        if slot.stage[1].startswith("reduce:"):  # its verdict is in; shrinking it killed the worker
            if task:
                retry.insert(0, list(task))
            return
        if not task:
            return
        culprit = slot.stage[0]
        if len(task) > 1:
            if culprit in task:  # it died on a known program: that one alone, the rest together
                rest = [i for i in task if i != culprit]
                retry[:0] = [[culprit], rest]
            else:  # it died compiling the batch: halves until the culprit is alone
                half = len(task) // 2
                retry[:0] = [task[:half], task[half:]]
            return
        index = task[0]
        stage = slot.stage[1] if slot.stage[0] in (index, None) else ""
        if stage == "xla" and outcome == "crash" and index not in self.xla_crashed:
            self.xla_crashed.add(index)  # the oracle's crash, not ours: our side still runs
            retry.insert(0, [index])
            return
        what = "was killed after" if outcome == "timeout" else "died in"
        detail = (f" ({self.config.timeout:.0f} s)" if outcome == "timeout"
                  else f" (exit code {slot.proc.exitcode})")
        msg = f"the worker {what} stage {stage!r}{detail}"
        tail = slot.stderr_tail()
        r = Result(index, outcome, stage, msg + ("\n--- worker stderr (tail) ---\n" + tail if tail else ""))
        self.results[index] = r
        describe.append(r)

    # --- reporting ------------------------------------------------------------------------------
    def counts(self) -> Counter:
        return Counter(r.outcome for r in self.results.values())

    def rate(self) -> float:
        return len(self.results) / max(time.monotonic() - self.started, 1e-9)


def summary_line(counts: Counter, total: int) -> str:
    parts = [f"programs: {total}", f"ok: {counts['ok']}", f"mismatches: {counts['mismatch']}",
             f"tracebacks: {counts['traceback']}", f"crashes: {counts['crash']}",
             f"timeouts: {counts['timeout']}", f"errors: {counts['error']}", f"unsafe: {counts['unsafe']}",
             f"fuzzer-errors: {counts['fuzzer-error']}", f"known: {counts['known']}",
             f"xla-rejected: {counts['xla-rejected']}", f"xla-crashed: {counts['xla-crashed']}",
             f"xla-inconsistent: {counts['xla-inconsistent']}"]
    return ", ".join(parts)
