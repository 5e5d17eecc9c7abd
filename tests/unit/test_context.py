"""The MLIR bindings find an op-class module for every dialect we emit, once, without
modules planted in ``sys.modules`` (hlo_mlir.context.register_dialect_modules)."""

from __future__ import annotations

import importlib.util
import sys

from iree.compiler import ir

from hlo_mlir.context import DIALECT_MODULES, as_module, register_dialect_modules

SOURCE = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %x, %x : tensor<4xf32>
  %1 = chlo.erf %0 : tensor<4xf32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
"""


class _CountingFinder:
    """A meta-path finder that only counts the searches for dialect modules."""

    def __init__(self) -> None:
        self.searches: list[str] = []

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name.rsplit(".", 1)[-1] in ("stablehlo", "chlo"):
            self.searches.append(name)
        return None


def _wrap_all_ops(module: ir.Module) -> list[str]:
    names = []

    def visit(op):
        names.append(op.opview.operation.name)  # wraps the op: the bindings look up its class
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return names


def test_wrapping_ops_searches_for_dialect_modules_once():
    module = as_module(SOURCE)
    _wrap_all_ops(module)  # the first wrap of each dialect may search
    finder = _CountingFinder()
    sys.meta_path.insert(0, finder)
    try:
        for _ in range(50):
            assert "chlo.erf" in _wrap_all_ops(module)
    finally:
        sys.meta_path.remove(finder)
    assert finder.searches == []


def test_our_dialect_modules_come_after_iree_and_nothing_is_planted():
    register_dialect_modules()  # idempotent
    prefixes = list(ir._globals.dialect_search_modules)
    assert prefixes.count(DIALECT_MODULES) == 1
    assert prefixes.index("iree.compiler.dialects") < prefixes.index(DIALECT_MODULES)
    for dialect in ("stablehlo", "chlo"):
        assert importlib.util.find_spec(f"{DIALECT_MODULES}.{dialect}") is not None
        # A module in IREE's namespace exists only if IREE ships it (and then it wins).
        name = f"iree.compiler.dialects.{dialect}"
        if name in sys.modules:
            assert sys.modules[name].__spec__ is not None and sys.modules[name].__file__
