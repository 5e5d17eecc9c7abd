"""Named pipelines: ``O0``, ``O1``, ``O2`` (used by ``hlo_mlir.compile`` and ``hlo-compile``).

A preset is a pipeline spec; its name expands in place inside any spec
(``"inline,O1"``). Order follows STYLE.md point 10: passes do not clean up after
themselves, presets run the cleanups after them.

- ``O0``: nothing.
- ``O1``: cheap cleanups, one sweep: algebraic simplification, CSE, DCE.
- ``O2``: inline calls, then a fixed point of algsimp, constant folding, CSE, DCE and
  the while-loop simplifier and unroller (XLA's simplification loop; loops that run 0 or
  1 times vanish, small counted loops are unrolled and the next sweep cleans up the
  copies; on a module without loops the while passes only walk it), and the tree
  reduction rewriter (long reductions into few results become two reductions).
- ``iree-legalize``: the expanders that make the pinned IREE compute XLA's answers
  (every pass with ``legalizes_for_iree = True``), in dependency order: a pass comes
  before the passes that handle what it emits (the sort network and the
  select-and-scatter expander emit gathers and scatters), and the element-wise
  legalizations (pred-arithmetic, c99-pow-atan2-cbrt, ...) last. ``hlo_mlir.compile``
  runs it after the optimization preset.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Preset", "PRESETS", "IREE_LEGALIZE"]


@dataclass(frozen=True)
class Preset:
    name: str
    spec: str
    summary: str


IREE_LEGALIZE = [
    "type-extensions-to-bounds",
    "map-invariant-body",
    "custom-call-expander",
    "token-elimination",
    "set-dimension-size-clamp",
    "cholesky-expander",
    "triangular-solve-expander",
    "fft-expander",
    "batchnorm-expander",
    "trivial-collectives",
    "all-reduce-split",
    "rng-expander",
    "rng-bit-generator-empty",
    "rng-bit-generator-unsigned",
    "dot-empty-contraction",
    "empty-pad",
    "top-k-expander",
    "sort-duplicate-operands",
    "sort-network-expander",
    "stable-sort-expander",
    "sort-bf16-as-bits",
    "sort-barriers",
    "sort-splat-operands",
    "select-and-scatter-expander",
    "single-window-stride",
    "reduce-window-padding",
    "unit-window-barrier",
    "gather-clamp",
    "gather-index-select",
    "scatter-unsigned-scalar-updates",
    "scatter-bounds",
    "dynamic-slice-indices",
    "float-to-int-saturation",
    "complex-bitcast-expander",
    "iree-unsupported-ops",
    "materialize-shared-transcendentals",
    "contraction-pred-barrier",
    "nested-pad-barrier",  # after scatter-bounds and reduce-window-padding, which make pads
    "variadic-reduce-barrier",
    "inplace-operand-copy",
    "while-invariant-yields",
    "result-barrier",
    # Element-wise legalizations last: materialize-shared-transcendentals keys on the ops
    # they replace, and complex-log emits the atan2 that c99-pow-atan2-cbrt must not see.
    "pred-arithmetic",
    "complex-constant-parts",
    "c99-pow-atan2-cbrt",
    "complex-log",
    "complex-pow",  # reads c99-pow-atan2-cbrt's C99 pow and atan2, emits them expanded
    "complex-exp",
    "complex-abs",
    "complex-sqrt-sign",
    "f64-log1p",  # after complex-log, whose log|z| reads log1p
    "complex-division",
    "trig-range-reduction",  # after the complex expansions, whose real sin/cos it reduces
    # After the passes above that make complex values from real ones.
    "complex-source-barriers",
    "unsigned-dot-zero-extension",
    "reverse-signless",
    "reverse-slice-barrier",
    # After map-invariant-body, whose broadcasts of constants it fences.
    "constant-reduction-barrier",
    "bf16-negate-sign",  # after every pass that emits negates
    # Last: after every pass that emits converts to bf16 (c99-pow-atan2-cbrt).
    "bf16-scalar-rounding",
]

PRESETS: dict[str, Preset] = {
    p.name: p
    for p in [
        Preset("O0", "", "no passes"),
        Preset("O1", "algsimp,cse,dce", "cheap cleanups: one sweep of algsimp, cse, dce"),
        Preset(
            "O2",
            "inline,fixed-point{max-iterations=8}(algsimp,constant-folding,cse,dce,"
            "while-loop-simplifier,while-loop-unroller,tree-reduction-rewriter)",
            "inline, then algsimp, constant folding, cse, dce, the while-loop passes and the tree "
            "reduction rewriter to a fixed point",
        ),
        Preset("iree-legalize", ",".join(IREE_LEGALIZE),
               "expanders that make the pinned IREE compute XLA's answers"),
    ]
}
