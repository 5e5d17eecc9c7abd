"""The op index (scripts/ops_index.py): docs/ops.md and the README's "Op index" section list
every builder op with a one-line summary, and are current."""

from __future__ import annotations

import importlib.util
import inspect
import os
import shutil
import sys

import pytest

import dialect_ops
import hlo_mlir

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="module")
def ops_index():
    spec = importlib.util.spec_from_file_location("ops_index", os.path.join(ROOT, "scripts", "ops_index.py"))
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["ops_index"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_index_is_current(ops_index, capsys):
    assert ops_index.main(["--check"]) == 0, capsys.readouterr().err


def test_every_builder_op_is_listed_once_with_a_summary(ops_index):
    listed = [op for family in ops_index.families() for op in family.ops]
    names = [op.name for op in listed]
    assert len(names) == len(set(names))
    expected = {"Parameter"} | {name for family in dialect_ops.FAMILIES
                                for name in importlib.import_module(f"dialect_ops.{family}").__all__
                                if name[0].isupper() and inspect.isfunction(getattr(hlo_mlir, name))}
    assert set(names) == expected
    assert all(op.summary.endswith(".") and "\n" not in op.summary for op in listed)
    summaries = {op.name: op.summary for op in listed}
    assert summaries["Tanh"].startswith("Element-wise hyperbolic tangent")
    assert summaries["ConstantLiteral"] == "Same as `Constant`."
    # A period inside a formula does not end the sentence; the next capitalized one does.
    assert summaries["Cholesky"].endswith("or upper `u` with `a = u^H . u`.")


def test_the_readme_and_docs_show_each_op(ops_index):
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    with open(os.path.join(ROOT, "docs", "ops.md"), encoding="utf-8") as f:
        ops_md = f.read()
    section = readme[readme.index(ops_index.BEGIN):readme.index(ops_index.END)]
    assert "- **[linalg](docs/ops.md#linalg)**: `Dot`, `DotGeneral`" in section
    assert "| `Dot` | Vector-vector, matrix-vector or matrix-matrix product" in ops_md


def test_check_fails_on_a_stale_file(ops_index, tmp_path, monkeypatch, capsys):
    for name in ("OPS_MD", "README"):
        copy = tmp_path / os.path.basename(getattr(ops_index, name))
        shutil.copy(getattr(ops_index, name), copy)
        monkeypatch.setattr(ops_index, name, str(copy))
    (tmp_path / "ops.md").write_text("# stale\n")
    assert ops_index.main(["--check"]) == 1
    assert "ops.md is stale: run python scripts/ops_index.py" in capsys.readouterr().err
    assert ops_index.main([]) == 0 and ops_index.main(["--check"]) == 0  # regenerated
    readme = (tmp_path / "README.md").read_text()
    (tmp_path / "README.md").write_text(readme.replace(ops_index.BEGIN, "", 1))
    with pytest.raises(SystemExit, match="README.md requires the markers"):
        ops_index.main(["--check"])
