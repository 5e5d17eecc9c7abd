"""The differential fuzzer (tests/fuzz) inside the test run, and tests of the fuzzer itself.

``test_short_run_finds_nothing`` runs a fixed seed and count (about a minute on an idle
2-core machine) and requires zero findings; ``test_long_run_finds_nothing`` (``-m slow``)
runs more. docs/fuzzing.md explains how to turn a finding into a regression test.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from tests.fuzz import compare, generator, reduce, runner

SHORT_SEED, SHORT_COUNT = 9, 80  # the long run (-m slow) takes 2000 of another seed
LONG_SEED, LONG_COUNT = 10, 2000


def _run(seed: int, indices, tmp_path, jobs: int = 2, **config) -> dict:
    fuzzer = runner.Fuzzer(runner.Config(seed=seed, out=str(tmp_path), **config), jobs=jobs)
    return fuzzer.run(list(indices))


def _findings_text(results: dict) -> str:
    lines = []
    for r in sorted(results.values(), key=lambda r: r.index):
        if r.outcome in runner.FINDINGS:
            lines.append(f"{r.line()}\n    {r.signature()}\n    {r.finding or '(not written)'}")
    return "\n".join(lines)


def _check_run(results: dict, count: int) -> None:
    assert len(results) == count
    findings = _findings_text(results)
    assert not findings, ("the fuzzer found differences from XLA, crashes or tracebacks (each directory "
                          "holds repro.py, program.mlir and the inputs; docs/fuzzing.md):\n" + findings)
    counts = Counter(r.outcome for r in results.values())
    assert counts["ok"] >= 0.8 * count, counts  # most programs must really be compared


def test_short_run_finds_nothing(tmp_path):
    _check_run(_run(SHORT_SEED, range(SHORT_COUNT), tmp_path), SHORT_COUNT)


@pytest.mark.slow
def test_long_run_finds_nothing(tmp_path):
    _check_run(_run(LONG_SEED, range(LONG_COUNT), tmp_path), LONG_COUNT)


# --- the fuzzer itself -------------------------------------------------------------------------
def test_a_crash_and_a_hang_are_findings_and_the_run_goes_on(tmp_path):
    """A worker that aborts or hangs is replaced; the program is reported with its stage,
    the others of its batch still get their verdicts."""
    results = _run(5, range(4), tmp_path, jobs=1, timeout=15, batch=4, reduce=False,
                   self_test={"abort": [1], "hang": [2]})
    assert len(results) == 4
    assert (results[1].outcome, results[1].stage) == ("crash", "generate")
    assert "exit code -6" in results[1].message
    assert (results[2].outcome, results[2].stage) == ("timeout", "generate")
    assert all(results[i].outcome not in ("crash", "timeout") for i in (0, 3))
    written = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("s5-"))
    assert "s5-000001-crash" in written and "s5-000002-timeout" in written
    assert (tmp_path / "s5-000001-crash" / "repro.py").exists()


def test_a_crash_of_xla_is_not_a_finding_and_ours_still_runs(tmp_path):
    """XLA CPU (the oracle) killed workers with SIGFPE on some programs (seed 20261124): such
    a program runs again without XLA and is ``xla-crashed``, not a crash of ours; a batch
    whose programs all end before IREE no longer hangs the worker."""
    results = _run(5, range(3), tmp_path, jobs=1, timeout=60, batch=3, reduce=False,
                   self_test={"xla-abort": [0, 2]})
    assert [(results[i].outcome, results[i].stage) for i in (0, 2)] == [("xla-crashed", "xla")] * 2
    assert results[1].outcome not in ("crash", "timeout", "xla-crashed")
    assert not any(p.name.startswith("s5-") for p in tmp_path.iterdir())


def test_unique_scatter_indices_are_generated_in_bounded_time():
    """Programs 352 and 735 of seed 20261124 hung the generator (unique scatter indices
    from fewer distinct rows than needed): they are generated, or rejected, at once."""
    import subprocess
    import sys

    code = ("import sys; sys.path.insert(0, '.'); from tests.fuzz import generator; "
            "[generator.generate(20261124, i, 20) for i in (352, 735)]")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def _in_child(fn, *args):
    """``fn(*args)`` in a child process: a builder crash fails the test, not pytest."""
    import concurrent.futures
    import multiprocessing

    with concurrent.futures.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(fn, *args).result(timeout=600)


def _rebuild(seed: int, count: int) -> tuple[int, list[str]]:
    """(programs rebuilt from their code, problems) for programs 0..count-1 of ``seed``."""
    problems, built = [], 0
    for index in range(count):
        a, b = generator.generate(seed, index), generator.generate(seed, index)
        if a.code != b.code or not all(_same_input(x, y) for x, y in zip(a.args, b.args, strict=True)):
            problems.append(f"program {index} differs between two calls")
        if a.failure is not None:  # a builder defect: the fuzzer reports it, not this test
            continue
        namespace: dict = {}
        exec(compile(a.source(), "<repro>", "exec"), namespace)
        if _text(namespace["build"]()) != _text(a.computation):
            problems.append(f"program {index}: its code builds another module")
        built += 1
    return built, problems


def _ops(seed: int, start: int, count: int, log: str) -> None:
    """Appends ``index`` lines and the builder functions each program calls to ``log``
    (before each call runs: a builder crash loses nothing)."""
    with open(log, "a") as f:
        for index in range(start, count):
            f.write(f"#{index}\n")
            f.flush()
            def trace(line: str) -> None:
                f.write(line.split("(")[0] + "\n")
                f.flush()

            generator.generate(seed, index, trace=trace)


def test_programs_are_deterministic_and_their_code_rebuilds_them():
    """Program i of seed s is the same on every call, and its recorded builder code (what a
    finding's repro.py runs) builds the same module with the same inputs."""
    built, problems = _in_child(_rebuild, 5, 12)
    assert not problems
    assert built >= 8


def test_the_generator_covers_every_op_family(tmp_path):
    import concurrent.futures

    log, start = tmp_path / "ops.txt", 0
    while start < 120:  # a builder crash (a finding of the fuzz runs) only skips that program
        try:
            _in_child(_ops, 6, start, 120, str(log))
            break
        except concurrent.futures.process.BrokenProcessPool:
            start = max(int(line[1:]) for line in log.read_text().splitlines() if line.startswith("#")) + 1
    ops = {line.split(" = ")[-1] for line in log.read_text().splitlines() if " = " in line}
    wanted = {"Add", "Exp", "Compare", "Select", "Clamp", "ConvertElementType", "BitcastConvertType",
              "Reshape", "Transpose", "BroadcastInDim", "ConcatInDim", "Slice", "Pad", "Rev", "Iota",
              "Reduce", "ReduceWindow",
              "DotGeneral", "ConvGeneralDilated", "Gather", "Scatter", "DynamicSlice", "DynamicUpdateSlice",
              "Sort", "Tuple", "GetTupleElement", "While", "Conditional", "Map", "Call"}
    missing = {op for op in wanted if not any(name.startswith(op) for name in ops)}
    assert not missing, f"not generated in 120 programs: {sorted(missing)}"


def _same_input(x, y) -> bool:
    if isinstance(x, tuple):
        return all(_same_input(a, b) for a, b in zip(x, y, strict=True))
    return x.dtype == y.dtype and x.tobytes() == y.tobytes()


def _text(computation) -> str:
    """The module without locations and names (the repro is the same program, not the same file)."""
    return computation.module.operation.get_asm(enable_debug_info=False).replace(
        computation.name, "fuzz")


# --- the comparison ------------------------------------------------------------------------------
def _leaf(dtype, exact=True, err=0, eps=0.0):
    return generator.Leaf(dtype, exact, err, eps)


def test_integers_and_exact_floats_must_match_exactly():
    e = np.array([1, 2, 3], np.int32)
    assert compare.compare([e], [e.copy()], [_leaf("s32")]) == []
    [d] = compare.compare([e], [np.array([1, 2, 4], np.int32)], [_leaf("s32")])
    assert (d.count, d.positions) == (1, [(2,)])
    f = np.array([1.0, np.nan, -0.0, np.inf], np.float32)
    assert compare.compare([f], [np.array([1.0, np.nan, 0.0, np.inf], np.float32)], [_leaf("f32")]) == []
    assert compare.compare([f], [np.array([np.nextafter(np.float32(1), np.float32(2)), np.nan, 0, np.inf],
                                          np.float32)], [_leaf("f32")])


def test_inexact_floats_get_a_tolerance_that_grows_with_the_steps():
    e = np.array([1.0, 100.0], np.float32)
    close = e * np.float32(1 + 2e-6)
    assert compare.compare([e], [close], [_leaf("f32", False, 1)]) == []
    assert compare.compare([e], [close], [_leaf("f32")])  # exact: no tolerance
    assert compare.compare([e], [e * np.float32(1.01)], [_leaf("f32", False, 1)])
    # an f32 result converted to f64 keeps f32's tolerance
    assert compare.compare([e.astype(np.float64)], [close.astype(np.float64)],
                           [_leaf("f64", False, 1, compare.EPS["f32"])]) == []


def test_nan_inf_and_subnormals():
    inexact = _leaf("f32", False, 1)
    e = np.array([np.nan, np.inf, 1.0], np.float32)
    assert compare.compare([e], [np.array([1.0, np.inf, 1.0], np.float32)], [inexact])  # NaN must stay NaN
    assert compare.compare([e], [np.array([np.nan, -np.inf, 1.0], np.float32)], [inexact])
    # an overflow on the boundary: the largest float may stand for inf
    big = np.finfo(np.float32).max
    assert compare.compare([e], [np.array([np.nan, big, 1.0], np.float32)], [inexact]) == []
    # subnormal values count as zero (XLA flushes some and not others)
    tiny = np.array([1e-45, 0.0], np.float32)
    assert compare.compare([tiny], [np.zeros(2, np.float32)], [_leaf("f32")]) == []
    assert math.isclose(compare.tolerance("f32", 1), 2 * 16 * 2.0 ** -23)
    # after a float sum, where overflow meets infinity depends on the order: NaN or inf
    summed = np.array([np.nan], np.float64)
    assert compare.compare([summed], [np.array([-np.inf])], [generator.Leaf("f64", False, 3, 0, True)]) == []
    assert compare.compare([summed], [np.array([-np.inf])], [_leaf("f64", False, 3)])
    assert compare.compare([summed], [np.array([1.0])], [generator.Leaf("f64", False, 3, 0, True)])


def test_complex_parts_are_judged_against_the_complex_magnitude():
    """Seed 20261126 program 4915: c64 pow gave 1.65e12 - 2.9e5j on XLA, 1.65e12 - 0.9e5j
    here (phases 1.2e-7 rad apart: one rounding of the angle); the imaginary part carries
    the magnitude's absolute error. A part far off the magnitude's tolerance still differs,
    and so does a finite part beside an infinite one."""
    leaf = _leaf("c64", False, 2)
    e = np.complex64([1651707740160 - 288793.75j, 1 + 1j])
    assert compare.compare([e], [np.complex64([1651708919808 - 94844.43j, 1 + 1j])], [leaf]) == []
    [d] = compare.compare([e], [np.complex64([1651708919808 + 3e7j, 1 + 1j])], [leaf])
    assert d.positions == [(0,)]
    # before: each part against its own size (2.9e5 and the array's largest imaginary part)
    assert compare.compare([e.imag], [np.float32([-94844.43, 1])], [_leaf("f32", False, 2)])
    inf = np.complex64([complex(np.inf, 5.0)])
    assert compare.compare([inf], [np.complex64([complex(np.inf, 7.0)])], [leaf])


# --- shrinking -------------------------------------------------------------------------------------
def test_dead_code_keeps_what_the_result_needs():
    code = ['b = XlaBuilder("m")',
            'p0 = Parameter(b, 0, Shape.parse("f32[2]"), "p0")',
            'p1 = Parameter(b, 1, Shape.parse("f32[2]"), "p1")',
            'c0_b = XlaBuilder("c0_add")',
            'c0_p0 = Parameter(c0_b, 0, Shape.parse("f32[]"), "x0")',
            'c0_p1 = Parameter(c0_b, 1, Shape.parse("f32[]"), "x1")',
            'c0 = c0_b.build(c0_p1)',
            'v0 = ConstantR0(b, np.float32(0.0))',
            'v1 = Reduce(p1, v0, c0, [0])',
            'v2 = Tanh(p0)',
            'return b.build(v1)']
    kept = reduce.dead_code(code)
    assert 'v2 = Tanh(p0)' not in kept and 'p0 = Parameter(b, 0, Shape.parse("f32[2]"), "p0")' not in kept
    assert 'c0_p0 = Parameter(c0_b, 0, Shape.parse("f32[]"), "x0")' in kept  # the reducer keeps its signature
    candidate = reduce.Candidate(kept, {0: np.zeros(2, np.float32), 1: np.ones(2, np.float32)},
                                 [_leaf("f32", False, 1)])
    computation, args, _ = reduce.build_candidate(candidate)
    assert len(args) == 1 and args[0][0] == 1  # p1 became parameter 0
    assert computation.program_shape().parameters[0].dimensions == (2,)


def test_shrink_finds_the_op_that_matters():
    code = ['b = XlaBuilder("m")',
            'p0 = Parameter(b, 0, Shape.parse("f32[2]"), "p0")',
            'v0 = Tanh(p0)',
            'v1 = Neg(v0)',
            'v2 = Abs(v1)',
            'return b.build(Tuple(b, [v2, p0]))']
    start = reduce.Candidate(code, {0: np.zeros(2, np.float32)}, [_leaf("f32", False, 1), _leaf("f32")])
    # "fails" while the program still negates something
    small = reduce.shrink(start, lambda c: any("Neg(" in line for line in c.code))
    assert small.code == ['b = XlaBuilder("m")', 'p0 = Parameter(b, 0, Shape.parse("f32[2]"), "p0")',
                          'v1 = Neg(p0)', 'return b.build(v1)']


def test_exceptions_are_classified():
    from hlo_mlir import CompileError

    assert runner.classify_exception(ValueError("max() arg is an empty sequence")) == "traceback"
    assert runner.classify_exception(CompileError("pass 'x' failed: ValueError: boom")) == "traceback"
    assert runner.classify_exception(CompileError("IREE failed to compile the module.")) == "error"
    assert runner.classify_exception(CompileError("IREE crashed compiling the module: signal 11")) == "crash"
    wrapped = CompileError("pass failed")
    wrapped.__cause__ = KeyError("x")
    assert runner.classify_exception(wrapped) == "traceback"


def test_a_while_result_is_as_inexact_as_its_state():
    """A While's result is its state when the loop runs no iteration, and the body reads the
    state: both carry the state's flags. Seed 20261124 program 1526 loops over a Dot with inf
    and 3.4e38 terms; the flag that the value went through a float sum was lost, so XLA's
    NaN against hlo-mlir's -inf (IREE fuses the multiply-add) was a finding."""
    program = generator.generate(20261124, 1526)
    leaf = program.leaves[0]
    assert (leaf.dtype, leaf.exact, leaf.reassoc) == ("f32", False, True)
    e = np.array([np.nan, np.nan, 1.0], np.float32)
    a = np.array([-np.inf, np.inf, 1.0], np.float32)
    assert compare.compare([e], [a], [leaf]) == []
    assert compare.compare([e], [a], [generator.Leaf("f32", False, leaf.err, leaf.eps)])
