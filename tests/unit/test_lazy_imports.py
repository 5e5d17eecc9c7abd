"""``import hlo_mlir`` loads nothing heavy; its names load on first use; the tools parse
their arguments before importing the compiler (so ``--help`` answers at once)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

import dialect_ops
import hlo_mlir


def _modules_after(code: str) -> list[str]:
    """The modules a fresh interpreter has loaded after running ``code``."""
    script = f"{code}\nimport json, sys; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    return json.loads(out.splitlines()[-1])


@pytest.mark.parametrize("module", ["hlo_mlir", "hlo_mlir.tools.hlo_opt", "hlo_mlir.tools.hlo_compile",
                                    "hlo_mlir.tools.hlo_run"])
def test_importing_loads_neither_the_compiler_nor_numpy(module):
    loaded = _modules_after(f"import {module}")
    assert [m for m in loaded if m.split(".")[0] in ("iree", "numpy", "dialect_ops", "pipelines")] == []


def test_the_runtime_loads_without_the_compiler():
    loaded = _modules_after("import hlo_mlir.runtime")
    assert "iree.runtime" in loaded and not [m for m in loaded if m.startswith("iree.compiler")]


def test_star_import_gives_every_public_name():
    names: dict = {}
    exec("from hlo_mlir import *", names)
    for family in dialect_ops.FAMILIES:
        assert set(importlib.import_module(f"dialect_ops.{family}").__all__) <= set(names), family
    assert {"XlaBuilder", "XlaOp", "Parameter", "XlaComputation", "HloModule", "Shape", "PrimitiveType",
            "compile", "runtime", "InvalidArgumentError", "Add", "Reduce", "from_jax", "jit"} <= set(names)
    assert names["runtime"] is importlib.import_module("hlo_mlir.runtime")
    assert set(hlo_mlir.__all__) <= set(dir(hlo_mlir))


def test_submodules_and_unknown_names():
    assert hlo_mlir.compiler is importlib.import_module("hlo_mlir.compiler")
    with pytest.raises(AttributeError, match="no attribute 'NoSuchOp'"):
        hlo_mlir.NoSuchOp  # noqa: B018
