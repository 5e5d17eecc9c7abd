"""Registry invariants (STYLE.md points 6 and 9): every pass has a summary, a lit file,
name == key, and lives in the folder of its kind in a module named after it."""

from __future__ import annotations

import os
import re

import pytest

from hlo_mlir.errors import InvalidArgumentError
from pipelines import registry
from pipelines.pass_base import ExpanderPass, Pass, PatternPass
from pipelines.pipeline import PassNode, parse_pipeline

LIT_PASSES = os.path.join(os.path.dirname(__file__), "..", "..", "lit", "passes")
PASSES = registry.all_passes()


def test_core_passes_are_registered():
    assert {"algsimp", "constant-folding", "cse", "dce", "inline", "canonicalize"} <= set(PASSES)


@pytest.mark.parametrize("name", sorted(PASSES))
def test_pass_is_well_formed(name):
    cls = PASSES[name]
    assert cls.name == name
    assert re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", name)
    summary = cls.summary()
    assert summary and summary.endswith(".") and len(summary) <= 100, summary
    for opt in cls.options():
        assert re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", opt.name)
        assert isinstance(opt.default, opt.type), (opt.name, opt.default, opt.type)
    cls()  # constructible with defaults


@pytest.mark.parametrize("name", sorted(PASSES))
def test_pass_module_is_named_after_it_in_the_folder_of_its_kind(name):
    """``sort-network-expander`` lives in pipelines/expanders/sort_network_expander.py. The folder
    says what a pass is: simplifiers are target-independent (no ``legalizes_for_iree``),
    expanders are XLA's op expanders (ExpanderPass; those IREE needs run in ``iree-legalize``,
    the others, such as ``dot-decomposer``, on request), performance rewrites run in
    ``iree-legalize`` or a target preset (``cpu``, ``gpu``), and analyses rewrite nothing
    (they check or report, in ``iree-legalize`` or on request)."""
    cls = PASSES[name]
    package, _, module = cls.__module__.rpartition(".")
    assert module == name.replace("-", "_"), f"pass '{name}' is defined in {cls.__module__}"
    kind = package.removeprefix("pipelines.")
    assert package == f"pipelines.{kind}" and kind in registry.KINDS, f"pass '{name}' is in {package}"
    for_iree = getattr(cls, "legalizes_for_iree", False)
    if kind == "simplifiers":
        assert not for_iree
    if kind == "expanders":
        assert issubclass(cls, ExpanderPass)
    if kind == "performance":
        assert for_iree or name in _TARGET_PRESET_PASSES, f"pass '{name}' runs in no pipeline"
    if kind == "analyses":
        assert not issubclass(cls, (ExpanderPass, PatternPass))


def _pass_names(nodes) -> list[str]:
    return [n.name for n in nodes if isinstance(n, PassNode)] + [
        name for n in nodes if not isinstance(n, PassNode) for name in _pass_names(n.children)]


_TARGET_PRESET_PASSES = {name for preset in ("cpu", "gpu") for name in _pass_names(parse_pipeline(preset))}


@pytest.mark.parametrize("name", sorted(PASSES))
def test_pass_has_lit_file(name):
    path = os.path.join(LIT_PASSES, f"{name}.mlir")
    assert os.path.exists(path), f"pass '{name}' needs a lit test at lit/passes/{name}.mlir"
    text = open(path, encoding="utf-8").read()
    assert re.search(rf"RUN: %hlo-opt %s -p \"?{re.escape(name)}", text), "RUN line must run the pass by name"
    assert "// Check that" in text and "CHECK-LABEL" in text


def test_unknown_name_lists_valid_names():
    with pytest.raises(InvalidArgumentError) as e:
        registry.get("algsimpp")
    assert "unknown pass 'algsimpp'; valid passes: " in str(e.value)
    for name in PASSES:
        assert name in str(e.value)


def test_register_rejects_bad_passes():
    class NoDoc(Pass):
        name = "test-no-doc"

    class BadName(Pass):
        """A pass with a bad name."""

        name = "Bad_Name"

    class Duplicate(Pass):
        """Claims algsimp's name."""

        name = "algsimp"

    with pytest.raises(InvalidArgumentError, match="docstring summary on pass 'test-no-doc'"):
        registry.register(NoDoc)
    with pytest.raises(InvalidArgumentError, match="kebab-case pass name; got 'Bad_Name'"):
        registry.register(BadName)
    with pytest.raises(InvalidArgumentError, match="unique pass names; 'algsimp' is already"):
        registry.register(Duplicate)
    with pytest.raises(InvalidArgumentError, match="requires a Pass subclass"):
        registry.register(int)
    assert registry.get("algsimp") is not Duplicate


def test_iree_legalize_preset_lists_every_legalizing_pass():
    """hlo_mlir.compile runs exactly the passes marked ``legalizes_for_iree``, each once (some
    with options: ``rng-bit-generator-expander{only=PHILOX}``)."""
    from pipelines.presets import IREE_LEGALIZE

    marked = {name for name, cls in PASSES.items() if getattr(cls, "legalizes_for_iree", False)}
    names = [entry.split("{")[0] for entry in IREE_LEGALIZE]
    assert sorted(names) == sorted(marked)
    assert len(set(names)) == len(names)
