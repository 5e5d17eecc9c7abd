"""docs/coverage.md and scripts/coverage.py, the per-target spec op coverage table.

The default run does not regenerate the table (that compiles every sample for three
targets, minutes): it checks that the document has the script's structure, that its
summary counts and failure sections agree with its own cells, and that the columns
that need no compile (builder, sample present, the spec's op list) are current. The
script itself runs end to end on one op.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

import hlo_mlir
from tests.op_samples import all_samples

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = os.path.join(ROOT, "docs", "coverage.md")


def _load_script():
    path = os.path.join(ROOT, "scripts", "coverage.py")
    spec = importlib.util.spec_from_file_location("coverage_script", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve the script's annotations through it
    spec.loader.exec_module(module)
    return module


cov = _load_script()


def _tables(text: str) -> dict[str, list[list[str]]]:
    """Each '## ' section's table rows (cells stripped), header row first."""
    out: dict[str, list[list[str]]] = {}
    section = ""
    for line in text.splitlines():
        if line.startswith("## "):
            section = line[3:]
            out[section] = []
        elif line.startswith("|") and not line.startswith("|---"):
            out[section].append([c.strip() for c in line.strip().strip("|").split("|")])
    return out


@pytest.fixture(scope="module")
def doc() -> str:
    with open(DOC) as f:
        return f.read()


def test_doc_has_a_column_per_target_and_every_spec_op_in_order(doc):
    ops = _tables(doc)["Ops"]
    assert ops[0] == ["op", "builder", "verifies", "llvm-cpu", "vulkan-spirv", "cuda",
                      "XLA matches reference", "note"]
    assert [r[0] for r in ops[1:]] == cov.SPEC_OPS
    assert "`--targets llvm-cpu,vulkan-spirv,cuda`" in doc
    cells = set(cov._CELL.values())
    for row in ops[1:]:
        assert len(row) == len(ops[0]), row
        assert set(row[3:6]) <= cells, row


def test_doc_builder_and_sample_columns_are_current(doc):
    """What needs no compile is checked against the tree: a new builder or sample must regenerate."""
    samples = all_samples()
    for row in _tables(doc)["Ops"][1:]:
        name = row[0].rstrip("*")
        stale = f"{name}: docs/coverage.md is stale, run python scripts/coverage.py"
        assert row[1] == ("yes" if hasattr(hlo_mlir, name) else "**no**"), stale
        assert (row[2] != "-") == (name in samples), stale


def test_doc_summary_and_failure_sections_agree_with_the_table(doc):
    tables = _tables(doc)
    header, rows = tables["Ops"][0], tables["Ops"][1:]
    total = len(rows)
    for target in ("llvm-cpu", "vulkan-spirv"):
        column = [r[header.index(target)] for r in rows]
        assert f"**{target}: {column.count('yes')} of {total} ops match the reference**" in doc
        failed = {r[0] for r, cell in zip(rows, column, strict=True) if cell not in ("yes", "-")}
        assert {r[0] for r in tables[f"Failures on {target}"][1:]} == failed
    cuda = [r[header.index("cuda")] for r in rows]
    assert "**cuda**: compiled with `--iree-cuda-target=sm_80`" in doc
    if "**not run**" in doc:  # compile-only: "compiles" is the best a cell can say
        assert "yes" not in cuda
        assert f"**cuda: {cuda.count('compiles')} of {total} ops compile** (not run" in doc
    failed = {r[0] for r, cell in zip(rows, cuda, strict=True) if cell not in ("yes", "compiles", "-")}
    assert {r[0] for r in tables["Failures on cuda"][1:]} == failed


def _row(op: str, builder: bool, **status: str) -> object:
    return cov.Row(op, builder, {t: cov.Outcome(sample=True, verifies=True, status=s, error=f"{t} failed")
                                 for t, s in status.items()})


def test_render_counts_and_lists_failures_per_target():
    rows = [_row("Add", True, **{"llvm-cpu": cov.MATCHES, "vulkan-spirv": cov.WRONG, "cuda": cov.COMPILES}),
            _row("Sin", True, **{"llvm-cpu": cov.MATCHES, "vulkan-spirv": cov.MATCHES,
                                 "cuda": cov.COMPILE_ERROR})]
    text = cov.render(rows, ["llvm-cpu", "vulkan-spirv", "cuda"], False, "no libcuda.so")
    assert "**llvm-cpu: 2 of 2 ops match the reference** (2 compile)." in text
    assert "**vulkan-spirv: 1 of 2 ops match the reference** (2 compile)." in text
    assert "**cuda: 1 of 2 ops compile** (not run: no CUDA device)." in text
    assert "no CUDA device (no libcuda.so)" in text
    tables = _tables(text)
    assert tables["Failures on vulkan-spirv"][1:] == [["Add", "wrong numbers", "vulkan-spirv failed"]]
    assert tables["Failures on cuda"][1:] == [["Sin", "compile error", "cuda failed"]]
    assert "## Failures on llvm-cpu\n\nNone." in text


def test_first_line_names_the_iree_diagnostic_not_the_preamble():
    error = ("IREE failed to compile the module.\n  target: vulkan-spirv\n  flags: --a\n  diagnostics:\n"
             "    error: <string>:10:1: 'spirv.GL.Log' op operand #0 must be 16/32-bit float, but got 'f64'\n"
             "    error: <string>:10:1: failed to run translation")
    assert cov._first_line(error) == "'spirv.GL.Log' op operand #0 must be 16/32-bit float, but got 'f64'"
    mismatch = ("\nNot equal to tolerance rtol=1e-05, atol=1e-06\nAdd\n"
                "Mismatched elements: 6 / 8 (75%)\nMax absolute difference: 1")
    assert cov._first_line(mismatch) == ("Not equal to tolerance rtol=1e-05, atol=1e-06 "
                                         "(Mismatched elements: 6 / 8 (75%))")
    assert cov._first_line("a | b") == "a / b"  # never splits a table cell


def test_targets_are_validated_and_kept_in_column_order():
    assert cov.parse_targets("cuda,llvm-cpu") == ["llvm-cpu", "cuda"]
    with pytest.raises(SystemExit, match="requires --targets from llvm-cpu,vulkan-spirv,cuda; got 'rocm'"):
        cov.parse_targets("rocm")


def _run_script(*args: str) -> str:
    """Runs scripts/coverage.py in a fresh interpreter (its children are forked: this
    pytest worker may hold XLA's or a device's threads, which a fork would not carry)."""
    done = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "coverage.py"), *args],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_script_runs_one_op_on_cpu_and_compiles_it_for_cuda(tmp_path):
    out = tmp_path / "coverage.md"
    printed = _run_script("--ops", "Add", "--targets", "llvm-cpu,cuda", "--out", str(out))
    assert f"wrote {out} in" in printed
    text = out.read_text()
    tables = _tables(text)
    assert tables["Ops"][0] == ["op", "builder", "verifies", "llvm-cpu", "cuda", "XLA matches reference",
                                "note"]
    compile_only = "**not run**: the machine that generated this table has no CUDA device" in text
    cuda = "compiles" if compile_only else "yes"  # a machine with a CUDA GPU runs it
    assert tables["Ops"][1][:6] == ["Add", "yes", "yes", "yes", cuda, "yes"]


def test_script_refuses_vulkan_without_a_driver(tmp_path, monkeypatch):
    """An empty vulkan column would read as 'all fail': the script stops instead."""
    monkeypatch.setattr(cov, "_device_available", lambda driver: f"no {driver} driver")
    with pytest.raises(SystemExit, match="requires a Vulkan driver for vulkan-spirv .*got: no vulkan driver"):
        cov.main(["--ops", "Add", "--targets", "vulkan-spirv", "--out", str(tmp_path / "c.md")])
    assert not (tmp_path / "c.md").exists()


@pytest.mark.vulkan
def test_script_runs_one_op_on_vulkan(tmp_path):
    out = tmp_path / "coverage.md"
    _run_script("--ops", "Add", "--targets", "vulkan-spirv", "--out", str(out))
    text = out.read_text()
    assert _tables(text)["Ops"][1][:4] == ["Add", "yes", "yes", "yes"]
    assert "**vulkan-spirv: 1 of 1 ops match the reference** (1 compile)." in text
