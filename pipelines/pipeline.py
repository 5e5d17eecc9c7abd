"""Running pass pipelines: ``run_pipeline(module, "algsimp,cse,dce")``.

Pipeline spec syntax (like MLIR's, with presets and fixed-point groups)::

    spec     := element (',' element)*            -- may be empty
    element  := NAME options?                     -- a registered pass or a preset (O0, O1, O2)
              | 'fixed-point' options? '(' spec ')'
    options  := '{' key=value ((',' | ' ') key=value)* '}'

- ``algsimp{max-iterations=3}`` sets a pass option (names as ``--list-passes`` shows);
- a preset name expands in place to its pipeline (``presets.PRESETS``);
- ``fixed-point{max-iterations=8}(algsimp,cse,dce)`` reruns the group until no pass in
  it reports a change, at most ``max-iterations`` times (XLA's ``HloPassFix``); hitting
  the limit is not an error, it is reported in ``PipelineResult.warnings``.

After each pass that reports a change the module is verified (``verify_each``; the
error names the pass; a pass must report every change it makes),
with ``verify_hlo`` also against XLA's invariants (the ``hlo-verifier`` pass; ``hlo-opt
--verify-each``), and with a ``semantics_checker`` (``hlo_mlir.semantics.SemanticsChecker``)
it is compiled for CPU and run on fixed random inputs: any output that differs from the
previous run beyond a dtype-dependent tolerance fails with the pass name and the first
differing element. The checker compiles and runs, which only the layers above the pipelines may do,
so the caller passes it in.

A pass that declares the ops it acts on (``Pass.acts_on``; a pattern pass, its patterns'
roots) is skipped on a module that holds none of them: one walk takes the census of op
names, kept until a pass changes the module. That keeps long pipelines linear in the size
of the module and cheap on modules without loops, conditionals, sorts or calls.
"""

from __future__ import annotations

import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import IO, Callable, Collection, Protocol

from iree.compiler import ir

from hlo_mlir.context import unregistered_ops
from hlo_mlir.errors import HloMlirError, VerificationError
from pipelines import registry
from pipelines.pass_base import PassError
from pipelines.pipeline_spec import (
    FIXED_POINT_DEFAULT_ITERATIONS,
    FixedPointNode,
    Node,
    PassNode,
    PipelineSpecError,
    parse_pipeline,
)

__all__ = [
    "run_pipeline",
    "parse_pipeline",
    "PipelineResult",
    "PassRun",
    "PassNode",
    "FixedPointNode",
    "PipelineSpecError",
    "PassVerificationError",
    "SemanticsCheck",
    "FIXED_POINT_DEFAULT_ITERATIONS",
    "verify_module",
    "format_diagnostic",
]


class SemanticsCheck(Protocol):
    """What ``run_pipeline``'s ``semantics_checker`` makes from the module before the first
    pass: ``check(pass_name)`` runs after each pass that changed the module and raises a
    PassError when the results changed."""

    def check(self, pass_name: str) -> None: ...


class PassVerificationError(VerificationError):
    """A pass produced IR that fails MLIR verification; ``pass_name`` names it."""

    def __init__(self, message: str, diagnostics: list[str], pass_name: str):
        super().__init__(message, diagnostics)
        self.pass_name = pass_name


# --- results ------------------------------------------------------------------------------
@dataclass
class PassRun:
    """One execution of one pass."""

    name: str
    changed: bool
    seconds: float
    statistics: Counter


@dataclass
class PipelineResult:
    """What a pipeline did: every pass run in order, warnings, and derived reports."""

    runs: list[PassRun] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    verifier_seconds: float = 0.0
    semantics_seconds: float = 0.0

    @property
    def changed(self) -> bool:
        return any(r.changed for r in self.runs)

    def statistics(self) -> dict[str, Counter]:
        """Rule firings summed per pass name: ``{"algsimp": {"negate-of-negate": 2}}``."""
        out: dict[str, Counter] = {}
        for r in self.runs:
            out.setdefault(r.name, Counter()).update(r.statistics)
        return {k: v for k, v in out.items() if v}

    def timing(self) -> dict[str, float]:
        """Seconds spent per pass name (summed over repeated runs)."""
        out: dict[str, float] = {}
        for r in self.runs:
            out[r.name] = out.get(r.name, 0.0) + r.seconds
        return out

    def timing_report(self) -> str:
        rows = list(self.timing().items())
        if self.verifier_seconds:
            rows.append(("(verifier)", self.verifier_seconds))
        if self.semantics_seconds:
            rows.append(("(verify-semantics)", self.semantics_seconds))
        total = sum(s for _, s in rows) or 1e-12
        lines = [
            _BANNER,
            "                      ... Pass execution timing report ...",
            _BANNER,
            f"  Total Execution Time: {total:.4f} seconds",
            "",
            "  ----Wall Time----  ----Name----",
        ]
        lines += [f"  {s:8.4f} ({100 * s / total:5.1f}%)  {name}" for name, s in rows]
        lines.append(f"  {total:8.4f} (100.0%)  Total")
        return "\n".join(lines) + "\n"

    def statistics_report(self) -> str:
        lines = [_BANNER, "                         ... Pass statistics report ...", _BANNER]
        for name, counts in self.statistics().items():
            lines.append(name)
            lines += [f"  (S) {n:6d} {rule}" for rule, n in sorted(counts.items())]
        return "\n".join(lines) + "\n"


_BANNER = "===" + "-" * 73 + "==="


# --- running ------------------------------------------------------------------------------
def run_pipeline(
    module: ir.Module,
    spec: str,
    *,
    verify_each: bool = True,
    verify_hlo: bool = False,
    print_ir_after_all: bool = False,
    print_ir_after_change: bool = False,
    print_ir_before_all: bool = False,
    timing: bool = False,
    statistics: bool = False,
    semantics_checker: Callable[[ir.Module], SemanticsCheck] | None = None,
    print_debuginfo: bool = False,
    print_ir_before: Collection[str] = (),
    print_ir_after: Collection[str] = (),
    before_pass: Callable[[str], None] | None = None,
    out: IO[str] | None = None,
) -> PipelineResult:
    """Runs pipeline ``spec`` on ``module`` in place.

    Raises PipelineSpecError for a bad spec, PassError when a pass fails (or changes
    results under ``semantics_checker``), PassVerificationError when a pass leaves invalid IR
    (or, with ``verify_hlo``, IR that breaks an invariant of ``hlo-verifier``).
    Timing and statistics reports are written to ``out`` (default stderr) at the end.
    IR dumps too: before every pass (``print_ir_before_all``) or the passes named in
    ``print_ir_before``, after every pass or those in ``print_ir_after``; with
    ``print_ir_after_change`` only after a pass that changed the module (alone: after every
    pass that did), as mlir-opt's ``--mlir-print-ir-*`` flags. ``before_pass(name)`` is
    called just before each pass runs (hlo-opt's ``--dump-graph-dir``).
    """
    nodes = parse_pipeline(spec)
    runner = _Runner(
        module,
        verify_each,
        print_ir_after_all,
        print_ir_after_change,
        print_ir_before_all,
        semantics_checker,
        print_debuginfo,
        out if out is not None else sys.stderr,
    )
    runner.verify_hlo = verify_hlo
    runner.before_names, runner.after_names = frozenset(print_ir_before), frozenset(print_ir_after)
    runner.before_pass = before_pass
    if verify_each:
        runner.verify(None)
    if verify_hlo:
        runner.check_hlo(None)
    runner.run_nodes(nodes)
    if timing:
        runner.out.write(runner.result.timing_report())
    if statistics:
        runner.out.write(runner.result.statistics_report())
    return runner.result


class _Runner:
    def __init__(
        self, module, verify_each, after_all, after_change, before_all, semantics_checker, debuginfo, out
    ):
        self.module, self.verify_each = module, verify_each
        self.after_all, self.after_change, self.before_all = after_all, after_change, before_all
        self.debuginfo, self.out = debuginfo, out
        self.result = PipelineResult()
        self.verify_hlo = False
        self.before_names: frozenset[str] = frozenset()  # passes to print the IR before/after
        self.after_names: frozenset[str] = frozenset()
        self.before_pass: Callable[[str], None] | None = None
        self.semantics = None
        self._census: frozenset[str] | None = None
        if semantics_checker is not None:
            start = time.perf_counter()
            self.semantics = semantics_checker(module)
            self.result.semantics_seconds += time.perf_counter() - start

    def run_nodes(self, nodes: list[Node]) -> bool:
        changed = False
        for node in nodes:
            if isinstance(node, PassNode):
                changed |= self.run_pass(node)
            else:
                changed |= self.run_fixed_point(node)
        return changed

    def run_fixed_point(self, node: FixedPointNode) -> bool:
        changed = False
        for _ in range(node.max_iterations):
            if not self.run_nodes(node.children):
                return changed
            changed = True
        names = ",".join(_node_names(node.children))
        self.result.warnings.append(
            f"fixed-point({names}) still changed the module after max-iterations={node.max_iterations}."
        )
        return changed

    def dump(self, when: str, name: str) -> None:
        self.out.write(f"// -----// IR Dump {when} {name} //----- //\n")
        self.out.write(self.module.operation.get_asm(enable_debug_info=self.debuginfo))
        self.out.write("\n")

    def dump_after(self, name: str, changed: bool) -> None:
        wanted = self.after_all or name in self.after_names or (self.after_change and not self.after_names)
        if wanted and (changed or not self.after_change):
            self.dump("After", name)

    def run_pass(self, node: PassNode) -> bool:
        p = node.instance
        if self.before_pass is not None:
            self.before_pass(node.name)
        if self.before_all or node.name in self.before_names:
            self.dump("Before", node.name)
        p.statistics.clear()
        start = time.perf_counter()
        relevant = p.relevant_ops()
        if relevant is not None and relevant.isdisjoint(self.census()):
            # Nothing for the pass to act on: skipped, as if it ran and changed nothing.
            self.result.runs.append(PassRun(node.name, False, time.perf_counter() - start, Counter()))
            self.dump_after(node.name, False)
            return False
        try:
            with self.module.context:
                changed = bool(p.run(self.module))
        except PassError:
            raise
        except HloMlirError as e:
            raise PassError(f"pass '{node.name}' failed: {e}", node.name) from e
        except Exception as e:  # noqa: BLE001 - a bug in a pass: still name the pass
            raise PassError(f"pass '{node.name}' failed: {type(e).__name__}: {e}", node.name) from e
        seconds = time.perf_counter() - start
        self.result.runs.append(PassRun(node.name, changed, seconds, Counter(p.statistics)))
        if changed:
            self._census = None
        self.dump_after(node.name, changed)
        if self.verify_each and changed:  # an unchanged module was verified already
            self.verify(node.name)
        if self.verify_hlo and changed:
            self.check_hlo(node.name)
        if self.semantics is not None and changed:
            start = time.perf_counter()
            self.semantics.check(node.name)
            self.result.semantics_seconds += time.perf_counter() - start
        return changed

    def census(self) -> frozenset[str]:
        """The names of the ops in the module (one walk, kept until a pass changes it)."""
        if self._census is None:
            names: set[str] = set()

            def visit(op):
                names.add(op.name)
                return ir.WalkResult.ADVANCE

            self.module.operation.walk(visit)
            self._census = frozenset(names)
        return self._census

    def verify(self, pass_name: str | None) -> None:
        start = time.perf_counter()
        ok, messages = verify_module(self.module)
        if pass_name is None:
            # The context parses operations of unregistered dialects (it must, for their
            # attributes; hlo_mlir.context): refuse them on input, once.
            unknown = unregistered_ops(self.module)
            ok, messages = ok and not unknown, messages + unknown
        self.result.verifier_seconds += time.perf_counter() - start
        if ok:
            return
        what = (
            f"pass '{pass_name}' produced IR that fails verification"
            if pass_name
            else "the input module fails verification"
        )
        message = f"{what}:\n  " + "\n  ".join(messages)
        if pass_name:
            raise PassVerificationError(message, messages, pass_name)
        raise VerificationError(message, messages)

    def check_hlo(self, pass_name: str | None) -> None:
        """Runs the ``hlo-verifier`` pass (XLA's invariants); its error names ``pass_name``."""
        start = time.perf_counter()
        try:
            registry.get("hlo-verifier")().run(self.module)
        except VerificationError as e:
            what = (f"pass '{pass_name}' produced IR that breaks XLA's invariants (hlo-verifier)"
                    if pass_name else "the input module breaks XLA's invariants (hlo-verifier)")
            message = f"{what}:\n  " + "\n  ".join(e.diagnostics)
            if pass_name:
                raise PassVerificationError(message, e.diagnostics, pass_name) from None
            raise VerificationError(message, e.diagnostics) from None
        finally:
            self.result.verifier_seconds += time.perf_counter() - start


_FILE_LOC = re.compile(r'"((?:[^"\\]|\\.)*)":(\d+):(\d+)')


def format_diagnostic(d) -> str:
    """``file:line:col: message`` (the first file location in ``d``'s location), notes indented."""
    m = _FILE_LOC.search(str(d.location))
    where = f"{m.group(1)}:{m.group(2)}:{m.group(3)}" if m else str(d.location)
    text = f"{where}: {d.message}"
    for note in d.notes:
        text += "\n  note: " + format_diagnostic(note)
    return text


def verify_module(module: ir.Module) -> tuple[bool, list[str]]:
    """Runs the MLIR verifier; returns (ok, ``file:line:col: message`` diagnostics)."""
    messages: list[str] = []

    def handle(d) -> bool:
        messages.append(format_diagnostic(d))
        return True

    handler = module.context.attach_diagnostic_handler(handle)
    try:
        ok = module.operation.verify()
    except ir.MLIRError as e:
        ok = False
        if not messages:
            messages.extend(format_diagnostic(d) for d in e.error_diagnostics)
        if not messages:
            messages.append(str(e))
    finally:
        handler.detach()
    return ok, messages


def _node_names(nodes: list[Node]) -> list[str]:
    return [n.name if isinstance(n, PassNode) else "fixed-point(...)" for n in nodes]
