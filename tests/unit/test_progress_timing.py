"""Progress and timing: compile stages reported as they run (``hlo_mlir.timing``,
``compile(..., verbose=True)``, ``hlo-compile -v/--mlir-timing``), MLIR's timing report
format, ``python -m hlo_mlir``, and the benchmarks' progress bar decision.

Three IREE compiles in all (a verbose one, a silent one, one through hlo-compile); the
rest are cache hits or need no compile.
"""

from __future__ import annotations

import importlib.metadata
import io
import os
import re
import subprocess
import sys
import tomllib

import pytest

import hlo_mlir
from hlo_mlir import __main__ as about
from hlo_mlir import compiler, timing
from hlo_mlir.tools.hlo_compile import main as hlo_compile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Its own constant, so no other test's cache entry serves it.
MODULE = """\
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c = stablehlo.constant dense<0.4375> : tensor<3xf32>
  %0 = stablehlo.multiply %x, %c : tensor<3xf32>
  return %0 : tensor<3xf32>
}
"""

ROW = re.compile(r"^  ( *-?\d+\.\d{4}) \(( *-?\d+\.\d)%\)  ( *)(\S.*)$")
STAGE_START = re.compile(r"^(hlo-mlir|hlo-compile): (\s*)(.+) \.\.\.$")
STAGE_END = re.compile(r"^(hlo-mlir|hlo-compile): (\s*)(.+): (\d+\.\d{4}) s$")


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HLO_MLIR_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def stage_events(text: str) -> list[tuple[str, str]]:
    """("start"|"end", stage name) for each progress line, in order."""
    events = []
    for line in text.splitlines():
        if m := STAGE_END.match(line):
            events.append(("end", m.group(3)))
        elif m := STAGE_START.match(line):
            events.append(("start", m.group(3)))
    return events


def parse_report(text: str) -> tuple[float, list[tuple[float, int, str]]]:
    """(total seconds, [(seconds, depth, name)]) of the one report in ``text``, checking
    its frame line by line against MLIR's DefaultTimingManager text output."""
    lines = text.splitlines()
    start = lines.index(timing.BANNER)
    assert lines[start + 1] == " " * 25 + "... Execution time report ..."
    assert lines[start + 2] == timing.BANNER
    total = re.fullmatch(r"  Total Execution Time: (\d+\.\d{4}) seconds", lines[start + 3])
    assert total, lines[start + 3]
    assert lines[start + 4] == ""
    assert lines[start + 5] == "  ----Wall Time----  ----Name----"
    rows = []
    for line in lines[start + 6:]:
        m = ROW.match(line)
        if not m:
            break
        seconds, depth, name = float(m.group(1)), len(m.group(3)) // 2, m.group(4)
        rows.append((seconds, depth, name))
        if name == "Total":
            break
    assert rows[-1][1:] == (0, "Total") and rows[-2][1:] == (0, "Rest")
    assert rows[-1][0] == float(total.group(1))
    return float(total.group(1)), rows


# --- the timer and the report format (no compile) ----------------------------------------------
def test_report_has_mlir_timing_layout():
    parser = timing.TimeRecord("Parser", 0.5)
    pipeline = timing.TimeRecord("'cpu' Pipeline", 1.0)
    pipeline.add("algsimp", 0.25)
    pipeline.add("cse", 0.125)
    pipeline.add("algsimp", 0.25)  # a pass that runs twice is summed, in first-run order
    assert timing.format_report([parser, pipeline], 2.0) == (
        "===-------------------------------------------------------------------------===\n"
        "                         ... Execution time report ...\n"
        "===-------------------------------------------------------------------------===\n"
        "  Total Execution Time: 2.0000 seconds\n"
        "\n"
        "  ----Wall Time----  ----Name----\n"
        "    0.5000 ( 25.0%)  Parser\n"
        "    1.0000 ( 50.0%)  'cpu' Pipeline\n"
        "    0.5000 ( 25.0%)    algsimp\n"
        "    0.1250 (  6.2%)    cse\n"
        "    0.5000 ( 25.0%)  Rest\n"
        "    2.0000 (100.0%)  Total\n")


def test_timer_reports_start_end_and_failure_lines_in_order():
    out = io.StringIO()
    with pytest.raises(ValueError, match="bad input"):
        with timing.reporting(out, prefix="tool"):
            with timing.stage("Outer"):
                with timing.stage("Inner"):
                    pass
                timing.note("a note")
            with timing.stage("Broken"):
                raise ValueError("bad input")
    lines = out.getvalue().splitlines()
    assert lines[0] == "tool: Outer ..."
    assert lines[1] == "tool:   Inner ..."
    assert re.fullmatch(r"tool:   Inner: \d\.\d{4} s", lines[2])
    assert lines[3] == "tool:   a note"
    assert re.fullmatch(r"tool: Outer: \d\.\d{4} s", lines[4])
    assert lines[5] == "tool: Broken ..."
    assert re.fullmatch(r"tool: Broken: failed after \d\.\d{4} s", lines[6])
    _, rows = parse_report(out.getvalue())  # reported by the error too, as MLIR does
    assert [(d, n) for _, d, n in rows] == [(0, "Outer"), (1, "Inner"), (0, "Broken"), (0, "Rest"),
                                           (0, "Total")]
    assert timing.active() is None


def test_inner_reporting_joins_the_outer_timer_and_stages_cost_nothing_without_one():
    assert timing.active() is None
    with timing.stage("nobody listens") as record:
        assert record is None
    out = io.StringIO()
    with timing.reporting(out, progress=False) as outer:
        with timing.reporting(out) as inner:
            assert inner is outer
            with timing.stage("A"):
                pass
    assert out.getvalue().count("Execution time report") == 1
    assert "A ..." not in out.getvalue()  # progress=False: the report only


# --- compile(..., verbose=True) ------------------------------------------------------------------
def test_verbose_compile_reports_each_stage_before_the_next_begins(fresh_cache, monkeypatch):
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    seen_at: dict[str, str] = {}
    real_pipeline, real_iree = compiler.run_pipeline, compiler._compile_bytecode

    def spy_pipeline(module, spec, **kw):
        seen_at[spec] = err.getvalue()
        return real_pipeline(module, spec, **kw)

    def spy_iree(*args, **kw):
        seen_at["iree"] = err.getvalue()
        return real_iree(*args, **kw)

    monkeypatch.setattr(compiler, "run_pipeline", spy_pipeline)
    monkeypatch.setattr(compiler, "_compile_bytecode", spy_iree)
    vmfb = hlo_mlir.compile(MODULE, "llvm-cpu", verbose=True)
    assert vmfb
    text = err.getvalue()
    # When a stage's work runs, its line is out and the stage before it has ended.
    assert stage_events(seen_at["cpu"])[-2:] == [("end", "Verifier"), ("start", "'cpu' Pipeline")]
    assert stage_events(seen_at["iree-legalize"])[-2:] == [("end", "'cpu' Pipeline"),
                                                           ("start", "'iree-legalize' Pipeline")]
    assert stage_events(seen_at["iree"])[-2:] == [("end", "'iree-legalize' Pipeline"),
                                                  ("start", "IREE compile (llvm-cpu)")]
    stages = ["Parser", "Cache key", "Verifier", "'cpu' Pipeline", "'iree-legalize' Pipeline",
              "IREE compile (llvm-cpu)"]
    assert stage_events(text) == [(kind, s) for s in stages for kind in ("start", "end")]
    total, rows = parse_report(text)
    assert [n for _, d, n in rows if d == 0] == stages + ["Rest", "Total"]
    nested = [n for _, d, n in rows if d == 1]
    assert {"algsimp", "cse", "pred-arithmetic", "(verifier)"} <= set(nested)
    assert sum(s for s, d, _ in rows if d == 0 and s >= 0) == pytest.approx(2 * total, abs=1e-3)
    # The same compile again is a cache hit: it says so and runs no pass and no IREE.
    err.truncate(0), err.seek(0)
    assert hlo_mlir.compile(MODULE, "llvm-cpu", verbose=True) == vmfb
    assert f"hlo-mlir: served from the compile cache ({fresh_cache})" in err.getvalue()
    assert [n for _, d, n in parse_report(err.getvalue())[1] if d == 0] == ["Parser", "Cache key", "Rest",
                                                                             "Total"]


def test_default_compile_prints_nothing(fresh_cache, capfd):
    assert hlo_mlir.compile(MODULE.replace("0.4375", "0.5625"), "llvm-cpu")
    assert capfd.readouterr() == ("", "")


# --- hlo-compile -v / --mlir-timing -----------------------------------------------------------
def test_hlo_compile_verbose_and_mlir_timing(fresh_cache, tmp_path, capsys):
    source = tmp_path / "m.mlir"
    source.write_text(MODULE.replace("0.4375", "0.8125"))
    out = tmp_path / "m.vmfb"
    assert hlo_compile([str(source), "-o", str(out), "-v", "--no-isolate"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith(f"wrote {out} (")
    stages = ["Parser", "'cpu' Pipeline", "Copy input", "Cache key", "Verifier", "'iree-legalize' Pipeline",
              "IREE compile (llvm-cpu)", "Output"]
    assert stage_events(captured.err) == [(kind, s) for s in stages for kind in ("start", "end")]
    assert all(line.startswith("hlo-compile: ") for line in captured.err.split(timing.BANNER)[0].splitlines())
    assert [n for _, d, n in parse_report(captured.err)[1] if d == 0] == stages + ["Rest", "Total"]
    # --mlir-timing: the report only (a cache hit now); no flag: nothing at all.
    assert hlo_compile([str(source), "-o", str(out), "--mlir-timing", "--no-isolate"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(timing.BANNER + "\n")
    assert stage_events(captured.err) == []
    assert [n for _, d, n in parse_report(captured.err)[1] if d == 0] == [
        "Parser", "'cpu' Pipeline", "Copy input", "Cache key", "Output", "Rest", "Total"]
    assert hlo_compile([str(source), "-o", str(out), "--no-isolate"]) == 0
    assert capsys.readouterr() == ("", "")


def test_hlo_compile_help_names_the_timing_flags(capsys):
    assert hlo_compile(["--help"]) == 0
    text = capsys.readouterr().out
    assert re.search(r"^  -v, --verbose\s", text, re.M) and re.search(r"^  --mlir-timing\s", text, re.M)


# --- python -m hlo_mlir ------------------------------------------------------------------------
def test_python_m_hlo_mlir_prints_versions_targets_drivers_and_cache(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("HLO_MLIR_CACHE", "HLO_MLIR_CACHE_MAX_BYTES")}
    env.update(HLO_MLIR_CACHE_DIR=str(tmp_path / "c"), PYTHONPATH=ROOT)
    r = subprocess.run([sys.executable, "-m", "hlo_mlir"], capture_output=True, text=True, env=env,
                       cwd=tmp_path, timeout=120)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    text = r.stdout
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        pins = tomllib.load(f)["project"]["dependencies"]
    for dist in ("iree-base-compiler", "iree-base-runtime"):
        pin = next(p for p in pins if p.startswith(dist + "=="))[len(dist):]
        version = importlib.metadata.version(dist)
        assert f"{dist} {version} (pinned {pin})" in text
    assert re.search(r"^hlo-mlir \S+ \(.*hlo_mlir\)$", text, re.M)
    for target in ("llvm-cpu", "vulkan-spirv", "cuda"):
        assert re.search(rf"^  {target} +compiles; ", text, re.M), target
    assert re.search(r"^  llvm-cpu +compiles; runs on local-sync, local-task$", text, re.M)
    assert re.search(r"^  local-sync +host CPU \(\d+ cores\)$", text, re.M)
    # The Vulkan line names what the runtime itself finds here (Mesa's llvmpipe in CI).
    import iree.runtime as rt

    try:
        names = [d["name"] for d in rt.get_driver("vulkan").query_available_devices()]
    except (RuntimeError, ValueError):
        names = []
    vulkan = re.search(r"^  vulkan +(.*)$", text, re.M)
    assert vulkan, text
    if names:
        assert vulkan.group(1) == "; ".join(names)
        assert re.search(r"^  vulkan-spirv +compiles; runs on vulkan$", text, re.M)
    else:
        assert vulkan.group(1).startswith(("unavailable: ", "no device"))
    assert f"compile cache: {tmp_path / 'c'} (on; empty, not created yet; limit 2.0 GiB)" in text


def test_driver_probe_survives_a_crashing_or_hanging_driver():
    crash = ("import json, os, signal\n"
             "print(json.dumps({'probing': 'local-sync'}))\n"
             "print(json.dumps({'driver': 'local-sync', 'devices': ['default']}))\n"
             "print(json.dumps({'probing': 'vulkan'}), flush=True)\n"
             "os.kill(os.getpid(), signal.SIGSEGV)\n")
    proc = subprocess.Popen([sys.executable, "-c", crash], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    drivers, note = about.probe_drivers(proc)
    assert note == ""
    assert [(d.name, d.devices) for d in drivers] == [("local-sync", ["default"]), ("vulkan", [])]
    assert drivers[1].error.startswith("the probe ended with SIGSEGV (signal 11)")
    hang = "import time\ntime.sleep(60)\n"
    proc = subprocess.Popen([sys.executable, "-c", hang], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    drivers, note = about.probe_drivers(proc, timeout=0.5)
    assert drivers == [] and note == "the driver probe did not answer within 0.5 s"
    out = io.StringIO()
    report = about.Report("0", "here", "3", "c", "r", [], drivers, note, "cache")
    about.render(report, out)
    assert "  (the driver probe did not answer within 0.5 s)" in out.getvalue()


# --- the benchmarks' progress bar ----------------------------------------------------------------
class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        if self.closed:
            raise ValueError("I/O operation on closed file")  # as a real file's isatty
        return True


def test_progress_bar_only_on_a_terminal_unless_told():
    from benchmarks.measure import progress_bar_enabled

    closed = _Terminal()
    closed.close()
    assert progress_bar_enabled(_Terminal()) is True
    assert progress_bar_enabled(io.StringIO()) is False  # a log file, a pipe, CI
    assert progress_bar_enabled(_Terminal(), requested=False) is False  # --no-progress
    assert progress_bar_enabled(io.StringIO(), requested=True) is True
    assert progress_bar_enabled(None) is False and progress_bar_enabled(closed) is False


def test_progress_draws_a_bar_on_a_terminal_and_plain_lines_elsewhere(monkeypatch):
    from benchmarks import measure

    monkeypatch.setattr(measure, "PROGRESS_BAR", None)
    terminal = _Terminal()
    with measure.Progress(2, "suite", terminal) as progress:
        for name in progress.items(["add", "dot"]):
            progress.status(f"starting {name}")
            progress.note(f"  {name}: done")
    assert "2/2" in terminal.getvalue() and "\r" in terminal.getvalue()
    assert "  add: done\n" in terminal.getvalue() and "starting" not in terminal.getvalue()
    log = io.StringIO()
    with measure.Progress(2, "suite", log) as progress:
        for name in progress.items(["add", "dot"]):
            progress.status(f"starting {name}")
            progress.note(f"  {name}: done")
    assert log.getvalue() == "starting add\n  add: done\nstarting dot\n  dot: done\n"
    monkeypatch.setattr(measure, "PROGRESS_BAR", False)  # python -m benchmarks --no-progress
    terminal = _Terminal()
    with measure.Progress(1, "suite", terminal) as progress:
        for name in progress.items(["add"]):
            progress.note(name)
    assert terminal.getvalue() == "add\n"


def test_benchmarks_no_progress_flag(monkeypatch, tmp_path, capsys):
    from benchmarks import __main__ as bench
    from benchmarks import measure

    monkeypatch.setattr(measure, "PROGRESS_BAR", None)
    assert bench.main(["--no-progress", "--parts", "", "--out-dir", str(tmp_path)]) == 0
    assert measure.PROGRESS_BAR is False
    capsys.readouterr()
