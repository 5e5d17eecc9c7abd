"""Named pipelines: ``O0``, ``O1``, ``O2`` and the target pipelines ``cpu`` and ``gpu``.

A preset is a pipeline spec; its name expands in place inside any spec
(``"inline,O1"``). Order follows STYLE.md point 10: passes do not clean up after
themselves, presets run the cleanups after them. ``hlo_mlir.compile`` and
``hlo-compile`` run the target's pipeline unless told otherwise (``target_preset``):
``cpu`` for llvm-cpu, ``gpu`` for vulkan-spirv and cuda.

- ``O0``: nothing.
- ``O1``: cheap cleanups, one sweep: algebraic simplification, CSE, DCE.
- ``O2``: XLA's simplification loop. Inline calls, inline maps of one element-wise op,
  drop zero-sized ops; then a fixed point of algsimp, constant folding, CSE, DCE, the
  conditional, tuple and sort simplifiers, the while-loop passes (simplifier, constant
  sinking, invariant code motion, unroller: loops that run 0 or 1 times vanish, small
  counted loops are unrolled and the next sweep cleans up the copies) and the tree
  reduction rewriter (long reductions into few results become two reductions). A pass
  whose ops a module does not hold is skipped (``Pass.acts_on``), so a module without
  loops, conditionals or sorts pays only for the passes that can act on it.
- ``cpu``: ``O2``, then XLA's CPU backend rewrites that help IREE's CPU code: transposes
  folded into dot_general and convolution dimension numbers (``transpose-folding``).
- ``gpu``: ``O2``, then XLA's GPU backend graph rewrites: transpose folding, two-way
  conditionals of cheap branches as selects (no divergent control flow), reduces over
  size-1 dimensions as reshapes, adjacent reduced dimensions grouped (exact reducers
  only), and concatenates of many operands split into a tree.
- ``iree-legalize``: the expanders that make the pinned IREE compute XLA's answers
  (every pass with ``legalizes_for_iree = True``), in dependency order: a pass comes
  before the passes that handle what it emits (the sort network and the
  select-and-scatter expander emit gathers and scatters), and the element-wise
  legalizations (pred-arithmetic, c99-pow-atan2-cbrt, ...) last. ``hlo_mlir.compile``
  runs it after the optimization preset.
- ``vulkan-legalize``: what the pinned IREE gets wrong only on vulkan-spirv (Mesa's
  shader compiler folding NaN/inf arithmetic, SPIR-V's missing f64 math, ...): every pass
  with ``legalizes_for_target = "vulkan-spirv"``. ``hlo_mlir.compile`` runs it after
  ``iree-legalize`` for that target only (``target_legalize``).

Every pass in ``O2``, ``cpu`` and ``gpu`` is exact: it keeps every output bit for bit
(tests/unit, under the semantics check); ``python -m benchmarks.presets`` measures what
each preset does to the benchmark workloads (op counts, answers, run time).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Preset", "PRESETS", "IREE_LEGALIZE", "VULKAN_LEGALIZE", "TARGET_PRESETS", "target_preset",
           "target_legalize"]


@dataclass(frozen=True)
class Preset:
    name: str
    spec: str
    summary: str


IREE_LEGALIZE = [
    "type-extensions-to-bounds",
    "map-invariant-body",
    "custom-call-expander",
    "host-calls",  # after custom-call-expander (its expansions may hold infeeds), before token-elimination
    "token-elimination",
    # After token-elimination (it records the program shape the runtime sees), before
    # float-to-int-saturation (which saturates the float -> s32 converts it emits).
    "widen-sub-byte-integers",
    "set-dimension-size-clamp",
    "cholesky-expander",
    "triangular-solve-expander",
    "fft-expander",
    "batchnorm-expander",
    "trivial-collectives",
    "all-reduce-split",
    "rng-expander",
    "rng-bit-generator-empty",
    "rng-bit-generator-expander{only=PHILOX}",  # after -empty, before -unsigned (IREE's THREE_FRY is right)
    "rng-bit-generator-unsigned",
    "dot-empty-contraction",
    "product-reduction-barrier",  # after dot-empty-contraction, whose multiplies it fences
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
    "scatter-expander{mode=variadic}",  # the variadic scatters scatter-bounds could not split
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
    "complex-sin-cos",  # before trig-range-reduction, which reduces its real sin/cos
    "complex-expm1",
    "complex-abs",
    "complex-sqrt-sign",
    "f64-log1p",  # after complex-log, whose log|z| reads log1p
    "complex-division",
    "complex-dot",
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
    "half-scalar-barrier",  # after bf16-scalar-rounding, whose rounding of a constant it fences
]

# What the pinned IREE gets wrong only on vulkan-spirv (Mesa's shader compiler, SPIR-V's
# instruction set): every pass with ``legalizes_for_target = "vulkan-spirv"``, run after
# ``iree-legalize`` (f64-log1p emits the log that vulkan-f64-math reports; the check last).
VULKAN_LEGALIZE = [
    "vulkan-float-rem",
    "vulkan-signed-zero-min-max",
    "vulkan-log1p",
    "vulkan-narrow-clz",
    "vulkan-bf16-from-integers",
    "vulkan-bf16-reduce",
    "vulkan-inf-nan-arithmetic",
    "vulkan-f64-math",
]

PRESETS: dict[str, Preset] = {
    p.name: p
    for p in [
        Preset("O0", "", "no passes"),
        Preset("O1", "algsimp,cse,dce", "cheap cleanups: one sweep of algsimp, cse, dce"),
        Preset(
            "O2",
            "inline,map-inliner,zero-sized-hlo-elimination,"
            "fixed-point{max-iterations=8}(algsimp,constant-folding,cse,dce,conditional-simplifier,"
            "tuple-simplifier,sort-simplifier,while-loop-simplifier,while-loop-constant-sinking,"
            "while-loop-invariant-code-motion,while-loop-unroller,tree-reduction-rewriter)",
            "inline calls and maps, drop zero-sized ops, then XLA's simplification loop (algsimp, "
            "constant folding, cse, dce, the conditional, tuple, sort and while-loop simplifiers, "
            "the tree reduction rewriter) to a fixed point",
        ),
        Preset("cpu", "O2,transpose-folding,dce",
               "O2, then XLA's CPU backend rewrites (transposes folded into dots and convolutions)"),
        Preset("gpu",
               "O2,transpose-folding,conditional-to-select,reduction-degenerate-dim-remover,"
               "reduction-dimension-grouper,variadic-op-splitter,algsimp,cse,dce",
               "O2, then XLA's GPU backend graph rewrites (transpose folding, conditionals to "
               "selects, reduction dimension cleanups, concatenate splitting)"),
        Preset("iree-legalize", ",".join(IREE_LEGALIZE),
               "expanders that make the pinned IREE compute XLA's answers"),
        Preset("vulkan-legalize", ",".join(VULKAN_LEGALIZE),
               "rewrites that make the pinned IREE compute XLA's answers on vulkan-spirv (after "
               "iree-legalize)"),
    ]
}

# The pipeline ``hlo_mlir.compile`` runs for each target unless given ``passes``.
TARGET_PRESETS: dict[str, str] = {"llvm-cpu": "cpu", "vulkan-spirv": "gpu", "cuda": "gpu"}


# The legalizations ``hlo_mlir.compile`` runs after ``iree-legalize`` for one target only.
TARGET_LEGALIZE: dict[str, str] = {"vulkan-spirv": "vulkan-legalize"}


def target_legalize(target: str) -> str:
    """The preset of ``target``'s own legalizations (``vulkan-legalize``); "" for none."""
    return TARGET_LEGALIZE.get(target, "")


def target_preset(target: str) -> str:
    """The optimization preset for ``target`` (``cpu`` or ``gpu``); ``O2`` for a target
    without one of its own."""
    return TARGET_PRESETS.get(target, "O2")
