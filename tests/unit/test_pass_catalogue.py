"""The pass catalogue of spec 004 (pipelines/catalogue.py, docs/passes.md) and pass aliases.

Every pass the spec names under its CPU, GPU and frontend sections is in the catalogue, read
from the spec's own text; an implemented pass runs under its spec name (an alias); the
generated docs/passes.md is current; aliases resolve through the registry, pipeline specs and
``hlo-opt``, and a clashing alias is refused at registration.
"""

from __future__ import annotations

import glob
import importlib.util
import os
from collections import Counter

import pytest

from hlo_mlir.errors import InvalidArgumentError
from hlo_mlir.tools import hlo_opt
from pipelines import registry
from pipelines.catalogue import CATALOGUE, KINDS, SECTIONS, CatalogueEntry, spec_cli_name, spec_passes
from pipelines.pass_base import Pass
from pipelines.pipeline import PassNode, PipelineSpecError, parse_pipeline

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The spec's pass list (from "# XLA Optimization Pass" to its end), kept in the repository so
# that a fresh clone checks against it; the spec itself sits beside the checkout when present.
VENDORED_SPEC = os.path.join(ROOT, "tests", "data", "spec_004_passes.txt")
SHARED_SPECS = sorted(glob.glob(os.path.join(ROOT, "..", "shared", "spec", "004_*.txt")))

# The aliases that name implemented passes by spec 004's names.
SPEC_ALIASES = {
    "algebraic-simplifier": "algsimp",
    "hlo-dce": "dce",
    "call-inliner": "inline",
    "hlo-cse": "cse",
    "hlo-constant-folding": "constant-folding",
    "batchnorm-rewriter": "batchnorm-expander",
}


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


def _passes_table():
    path = os.path.join(ROOT, "scripts", "passes_table.py")
    spec = importlib.util.spec_from_file_location("passes_table", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- the catalogue against the spec ---------------------------------------------------------
def test_every_pass_the_spec_names_is_catalogued():
    """The spec's titles (## headings, and the frontend's plain title lines) are exactly the
    titled catalogue entries, section by section; the vendored excerpt is the spec's tail."""
    vendored = _read(VENDORED_SPEC)
    texts = [vendored]
    for path in SHARED_SPECS:
        text = _read(path)
        assert text.endswith(vendored), f"tests/data/spec_004_passes.txt is not the tail of {path}"
        texts.append(text)
    catalogued = Counter((e.section, e.spec_name) for e in CATALOGUE if e.titled)
    for text in texts:
        named = Counter(spec_passes(text))
        assert set(named) == set(catalogued), (
            f"in the spec, not in the catalogue: {sorted(set(named) - set(catalogued))}; "
            f"in the catalogue, not in the spec: {sorted(set(catalogued) - set(named))}"
        )
        assert named == catalogued  # the same pass twice in one section would be listed twice
    assert {s for s, _ in spec_passes(vendored)} == set(SECTIONS)
    assert len(spec_passes(vendored)) == 92


def test_spec_passes_reads_headings_and_plain_frontend_titles():
    text = (
        "# CPU Backend Level Optimization\n## Convolution canonicalization  \nSome text.\n\n"
        "Not a title in the CPU section\n\n"
        "# Frontend Level Optimization\n\n## Algebraic simplifier\nA pass.\n\n"
        "Call inliner\n\nFor every kCall operation, inline.\n\n"
        "The steps are:\n\n  indented words\n\nZero sized HLO elimination"
    )
    assert spec_passes(text) == [
        ("CPU", "Convolution canonicalization"),
        ("frontend", "Algebraic simplifier"),
        ("frontend", "Call inliner"),
        ("frontend", "Zero sized HLO elimination"),
    ]


def test_catalogue_entries_are_well_formed():
    keys = [(e.section, e.spec_name) for e in CATALOGUE]
    assert len(keys) == len(set(keys)), [k for k, n in Counter(keys).items() if n > 1]
    for e in CATALOGUE:
        assert e.kind in KINDS and e.section in SECTIONS
        assert (e.kind == "implemented") == bool(e.cli), e
        if e.kind in ("delegated", "not-applicable"):
            assert e.note.endswith("."), e
    assert spec_cli_name("HLO dce") == "hlo-dce"
    assert spec_cli_name("Convolution 4D expander") == "convolution-4d-expander"


def test_catalogue_entry_refuses_inconsistent_kinds():
    with pytest.raises(ValueError, match="requires a kind in"):
        CatalogueEntry("Reshape mover", "frontend", "done")
    with pytest.raises(ValueError, match="requires a section in"):
        CatalogueEntry("Reshape mover", "TPU", "planned")
    with pytest.raises(ValueError, match="requires a CLI name exactly when implemented"):
        CatalogueEntry("Reshape mover", "frontend", "implemented")
    with pytest.raises(ValueError, match="requires a CLI name exactly when implemented"):
        CatalogueEntry("Reshape mover", "frontend", "planned", cli="reshape-mover")
    with pytest.raises(ValueError, match="requires a note on a delegated pass"):
        CatalogueEntry("Layout assignment", "frontend", "delegated")


@pytest.mark.parametrize("entry", [e for e in CATALOGUE if e.kind == "implemented"],
                         ids=lambda e: f"{e.section}:{e.spec_cli_name}")
def test_implemented_pass_runs_under_its_spec_name(entry):
    cls = registry.get(entry.cli)
    assert cls.name == entry.cli  # the CLI name, not an alias
    assert registry.get(entry.spec_cli_name) is cls, (
        f"'{entry.spec_name}' is implemented by '{entry.cli}': add '{entry.spec_cli_name}' to its aliases"
    )


def test_planned_and_other_passes_are_not_registered_under_the_spec_name():
    """A pass registered under a spec name must be catalogued as implemented (so the table
    cannot say "planned" for a pass that exists)."""
    for e in CATALOGUE:
        if e.kind == "implemented":
            continue
        with pytest.raises(InvalidArgumentError, match="unknown pass"):
            registry.get(e.spec_cli_name)
            pytest.fail(
                f"'{e.spec_name}' is catalogued as {e.kind}, but pass '{e.spec_cli_name}' is registered: "
                "mark it implemented in pipelines/catalogue.py and run scripts/passes_table.py"
            )


# --- docs/passes.md ---------------------------------------------------------------------------
def test_docs_passes_md_is_what_the_script_generates():
    table = _passes_table()
    assert _read(os.path.join(ROOT, "docs", "passes.md")) == table.render(), (
        "docs/passes.md is stale: run python scripts/passes_table.py"
    )
    assert table.main(["--check"]) == 0


def test_docs_passes_md_lists_every_spec_pass_and_every_registered_pass():
    text = _passes_table().render()
    for e in CATALOGUE:
        assert f"| {e.spec_name}" in text
    for name in registry.all_passes():
        assert f"`{name}`" in text
    assert "| Algebraic simplifier (also `AlgebraicSimplifier`) | frontend | implemented | " \
           "`algsimp` (also `algebraic-simplifier`) |" in text


def test_lit_cases_counts_check_labels(tmp_path, monkeypatch):
    table = _passes_table()
    (tmp_path / "my-pass.mlir").write_text(
        "// RUN: %hlo-opt %s -p my-pass | filecheck %s\n"
        "// CHECK-LABEL: func.func @a\nfunc.func @a() { return }\nfunc.func private @helper() { return }\n"
        "// -----\n//   CHECK-LABEL:   func.func @b\nfunc.func @b() { return }\n// CHECK: CHECK-LABEL\n"
    )
    monkeypatch.setattr(table, "LIT_PASSES", str(tmp_path))
    assert table.lit_cases("my-pass") == 2
    assert table.lit_cases("no-such-pass") == 0


def test_passes_table_check_fails_on_a_stale_file(tmp_path, capsys):
    table = _passes_table()
    stale = tmp_path / "passes.md"
    stale.write_text("# old\n")
    assert table.main(["--out", str(stale), "--check"]) == 1
    assert "is stale" in capsys.readouterr().err
    assert table.main(["--out", str(stale)]) == 0
    assert table.main(["--out", str(stale), "--check"]) == 0


# --- aliases --------------------------------------------------------------------------------
def test_spec_aliases_resolve_to_their_passes():
    assert SPEC_ALIASES.items() <= registry.aliases().items()
    for alias, name in SPEC_ALIASES.items():
        assert registry.get(alias) is registry.get(name)
        assert alias in registry.get(name).aliases
    passes = registry.all_passes()
    assert not set(registry.aliases()) & set(passes)  # all_passes lists names only
    assert all(cls.name == name for name, cls in passes.items())


def test_unknown_pass_names_the_aliases_too():
    with pytest.raises(InvalidArgumentError) as e:
        registry.get("reshape-moverr")
    assert "valid passes: " in str(e.value) and "; aliases: " in str(e.value)
    assert "algebraic-simplifier" in str(e.value)


def test_pipeline_spec_accepts_aliases_with_options():
    nodes = parse_pipeline("algebraic-simplifier{max-iterations=3},hlo-cse,fixed-point(hlo-dce,call-inliner)")
    first, second, group = nodes
    assert isinstance(first, PassNode) and first.name == "algsimp"  # runs (and reports) as its pass
    assert type(first.instance) is registry.get("algsimp") and first.instance.max_iterations == 3
    assert isinstance(second, PassNode) and second.name == "cse"
    assert [n.name for n in group.children] == ["dce", "inline"]
    with pytest.raises(PipelineSpecError, match="pass 'algsimp' has no option 'window'"):
        parse_pipeline("algebraic-simplifier{window=3}")


DOUBLE_NEGATE = """\
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %x : tensor<4xf32>
  %1 = stablehlo.negate %0 : tensor<4xf32>
  %2 = stablehlo.add %1, %1 : tensor<4xf32>
  %3 = stablehlo.add %1, %1 : tensor<4xf32>
  %4 = stablehlo.multiply %2, %3 : tensor<4xf32>
  return %4 : tensor<4xf32>
}
"""


def test_hlo_opt_runs_passes_by_their_spec_names(tmp_path, capsys):
    path = tmp_path / "in.mlir"
    path.write_text(DOUBLE_NEGATE)
    assert hlo_opt.main([str(path), "-p", "algebraic-simplifier,hlo-cse,hlo-dce", "--statistics"]) == 0
    out, err = capsys.readouterr()
    assert "stablehlo.negate" not in out
    assert out.count("stablehlo.add") == 1  # the two adds merged by hlo-cse
    assert "algsimp" in err and "involution" in err  # statistics under the pass's name


def test_list_passes_shows_each_pass_once_with_its_aliases():
    text = hlo_opt.list_passes()
    pass_lines = [line for line in text.split("Presets:")[0].splitlines()[1:] if line.startswith("  ")
                  and not line.startswith("      ")]
    listed = [line.split()[0] for line in pass_lines]
    assert listed == list(registry.all_passes())  # each pass once, no alias as its own line
    by_name = dict(zip(listed, pass_lines, strict=True))
    assert by_name["algsimp"].endswith("(also: algebraic-simplifier)")
    assert by_name["dce"].endswith("(also: hlo-dce)")
    assert "(also:" not in by_name["canonicalize"]
    for alias in registry.aliases():
        assert f"also: {alias}" in text or f", {alias}" in text


# --- registration ---------------------------------------------------------------------------
def _pass(name: str, aliases) -> type[Pass]:
    return type(f"Test{name.title().replace('-', '')}", (Pass,), {
        "__doc__": "A pass of the alias tests.", "name": name, "aliases": aliases,
    })


@pytest.mark.parametrize("name, aliases, message", [
    ("test-alias-a", ("cse",), "alias 'cse' of pass 'test-alias-a' is already pass CSE"),
    ("test-alias-a", ("hlo-dce",),
     "alias 'hlo-dce' of pass 'test-alias-a' is already an alias of pass 'dce'"),
    ("hlo-cse", (), "unique pass names; 'hlo-cse' is already an alias of pass 'cse'"),
    ("test-alias-a", ("Test_Alias",), "kebab-case pass aliases; got 'Test_Alias' for pass 'test-alias-a'"),
    ("test-alias-a", ("test-alias-a",), "distinct aliases of pass 'test-alias-a'"),
    ("test-alias-a", ("test-alias-b", "test-alias-b"), "distinct aliases of pass 'test-alias-a'"),
    ("test-alias-a", ["test-alias-b"], "aliases of pass 'test-alias-a' to be a tuple of names"),
])
def test_register_refuses_clashing_aliases(name, aliases, message):
    registry.get("cse")  # the registry is loaded
    before = (registry.all_passes(), registry.aliases())
    with pytest.raises(InvalidArgumentError, match=message.replace("(", r"\(").replace(")", r"\)")) as e:
        registry.register(_pass(name, aliases))
    assert str(e.value).startswith("register requires ") and str(e.value).endswith(".")
    assert (registry.all_passes(), registry.aliases()) == before  # nothing half-registered


def test_registered_aliases_resolve_and_unregister_with_their_pass():
    cls = _pass("test-alias-pass", ("test-alias-one", "test-alias-two"))
    try:
        assert registry.register(cls) is cls
        assert registry.register(cls) is cls  # registering the same class again is harmless
        assert registry.get("test-alias-one") is cls and registry.get("test-alias-two") is cls
        assert registry.aliases()["test-alias-two"] == "test-alias-pass"
        assert "test-alias-one" not in registry.all_passes()
    finally:
        registry.unregister("test-alias-pass")
    assert "test-alias-one" not in registry.aliases()
    with pytest.raises(InvalidArgumentError, match="unknown pass 'test-alias-one'"):
        registry.get("test-alias-one")
