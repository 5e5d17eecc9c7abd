"""The HLO pass catalogue of spec 004: what hlo-mlir does with every pass the spec documents.

Spec 004 lists XLA's HLO passes at three levels (its sections "CPU Backend Level
Optimization", "GPU Backend Level Optimization" and "Frontend Level Optimization"). Each
pass it names is, here, one of:

- ``implemented``: a registered pass; ``cli`` is its name, and the spec's name in kebab
  case (:func:`spec_cli_name`) reaches it too, as its name or one of its ``aliases``;
- ``delegated``: IREE does the job after our pipeline; ``note`` says what it does instead
  and where (fusion, layouts, buffers, kernel selection);
- ``not-applicable``: the pass has nothing to act on in StableHLO or in this design;
  ``note`` says why;
- ``planned``: not implemented yet; ``note`` says what covers part of it today, if anything.

This module is data only (no pass is imported): ``scripts/passes_table.py`` joins it with
the registry to generate ``docs/passes.md``, and tests/unit/test_pass_catalogue.py checks
it against the spec's own headings (:func:`spec_passes`), so a pass the spec names cannot
be missing here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "CatalogueEntry",
    "CATALOGUE",
    "KINDS",
    "SECTIONS",
    "spec_cli_name",
    "spec_passes",
]

IMPLEMENTED, DELEGATED, NOT_APPLICABLE, PLANNED = "implemented", "delegated", "not-applicable", "planned"
KINDS = (IMPLEMENTED, DELEGATED, NOT_APPLICABLE, PLANNED)
CPU, GPU, FRONTEND = "CPU", "GPU", "frontend"
SECTIONS = (CPU, GPU, FRONTEND)


@dataclass(frozen=True)
class CatalogueEntry:
    """One pass of spec 004 and what hlo-mlir does with it."""

    spec_name: str  # as the spec writes it ("HLO dce", "TopK rewriter")
    section: str  # CPU, GPU or frontend
    kind: str  # one of KINDS
    cli: str = ""  # implemented: the registered pass's name
    note: str = ""  # delegated: what IREE does instead; not-applicable: why; planned: today's cover
    other_names: tuple[str, ...] = ()  # names the spec's text also gives the pass
    titled: bool = True  # False: the spec describes the pass in a paragraph without a title

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"CatalogueEntry requires a kind in {KINDS}; got {self.kind!r}.")
        if self.section not in SECTIONS:
            raise ValueError(f"CatalogueEntry requires a section in {SECTIONS}; got {self.section!r}.")
        if (self.kind == IMPLEMENTED) != bool(self.cli):
            raise ValueError(
                f"CatalogueEntry requires a CLI name exactly when implemented; got kind {self.kind!r} "
                f"and cli {self.cli!r} for '{self.spec_name}'."
            )
        if self.kind in (DELEGATED, NOT_APPLICABLE) and not self.note:
            raise ValueError(
                f"CatalogueEntry requires a note on a {self.kind} pass; '{self.spec_name}' has none."
            )

    @property
    def spec_cli_name(self) -> str:
        return spec_cli_name(self.spec_name)


def spec_cli_name(spec_name: str) -> str:
    """The spec's pass name in kebab case: ``"HLO dce"`` -> ``"hlo-dce"``."""
    return "-".join(spec_name.lower().split())


def _impl(spec_name: str, section: str, cli: str, note: str = "", **kw) -> CatalogueEntry:
    return CatalogueEntry(spec_name, section, IMPLEMENTED, cli, note, **kw)


def _iree(spec_name: str, section: str, note: str, **kw) -> CatalogueEntry:
    return CatalogueEntry(spec_name, section, DELEGATED, note=note, **kw)


def _na(spec_name: str, section: str, note: str, **kw) -> CatalogueEntry:
    return CatalogueEntry(spec_name, section, NOT_APPLICABLE, note=note, **kw)


def _todo(spec_name: str, section: str, note: str = "", **kw) -> CatalogueEntry:
    return CatalogueEntry(spec_name, section, PLANNED, note=note, **kw)


_NO_VENDOR_LIBRARIES = "IREE calls no cuDNN/cuBLAS/cuSolver: it generates its own kernels"
_DISPATCH = "IREE's dispatch-region formation (iree-dispatch-creation-*)"
_COPIES = ("IREE's stream dialect inserts and elides copies (iree-stream-materialize-copy-on-write, "
           "iree-stream-elide-async-copies); inplace-operand-copy covers in-place ops it mishandles.")
_MULTI_OUTPUT = (f"{_DISPATCH} builds dispatches with several results (sibling and producer-consumer "
                 "fusion, iree-dispatch-creation-fuse-multi-use-elementwise-producer).")
_NO_DOMAINS = "No kDomain instructions: hlo-mlir has no sharding domains (no SPMD partitioner)."

CATALOGUE: tuple[CatalogueEntry, ...] = (
    # --- CPU backend level -------------------------------------------------------------
    _impl("Convolution canonicalization", CPU, "convolution-canonicalization",
          "Transposes around a convolution with input/output [b, spatial, f] and kernel "
          "[spatial, i, o] dimension numbers (bit-identical results on IREE)."),
    _iree("Parallel task assigner", CPU,
          "IREE tiles each dispatch into workgroups (iree-codegen-tile-and-distribute-to-workgroups-*) "
          "that the local-task executor runs on its worker threads."),
    # --- GPU backend level -------------------------------------------------------------
    _iree("Alias passthrough params", GPU,
          "IREE's stream allocation (iree-stream-emplace-allocations, iree-stream-schedule-allocation) "
          "reuses buffers; a caller's argument is never aliased with a result (result-barrier)."),
    _impl("cuBLAS GEMM pad for tensor cores", GPU, "cublas-pad-for-gemms",
          "Zero-pads f16/bf16 dot_general free dimensions to multiples of 8 (s8: all non-batch "
          "dimensions to 4) and slices the result; float contracting dimensions only on request."),
    _iree("cuDNN batchnorm rewriter", GPU,
          f"{_NO_VENDOR_LIBRARIES}; batch_norm_training/inference are unfused by "
          "iree-stablehlo-preprocessing-unfuse-batch-norm, batch_norm_grad by batchnorm-expander."),
    _iree("cuDNN fused conv rewriter", GPU,
          f"{_NO_VENDOR_LIBRARIES}; {_DISPATCH} fuses bias, scaling and activation into the "
          "convolution's dispatch.",
          other_names=("cudnn_fused_conv_rewriter",)),
    _iree("cuDNN pad for convolutions", GPU,
          f"{_NO_VENDOR_LIBRARIES}; its GPU codegen pads convolutions to its MMA intrinsics "
          "(iree-codegen-gpu-pad-convs, iree-preprocessing-pad-to-intrinsics)."),
    _na("cuSolver rewriter", GPU,
        f"{_NO_VENDOR_LIBRARIES}, and it rejects stablehlo.cholesky: cholesky-expander turns it "
        "into a loop IREE compiles for every target."),
    _iree("Fusion merger", GPU,
          f"{_DISPATCH} decides what shares a kernel; there are no fusion instructions to merge."),
    _iree("GEMM algorithm picker", GPU,
          "IREE's GPU codegen picks tile sizes and MMA intrinsics per dispatch by heuristics at "
          "compile time (no autotuning run)."),
    _iree("GEMM rewriter", GPU,
          f"{_NO_VENDOR_LIBRARIES}: dot_general becomes linalg.matmul/batch_matmul, and {_DISPATCH} "
          "fuses the alpha/beta epilogue."),
    _iree("GPU conv algorithm picker", GPU,
          "IREE's GPU codegen picks the convolution strategy (direct, implicit GEMM: "
          "iree-codegen-convolution-to-igemm) by heuristics at compile time."),
    _impl("GPU conv padding legalization", GPU, "gpu-conv-padding-legalization",
          "Asymmetric or negative convolution padding and lhs dilation as an explicit pad and "
          "slice of the input (kernel dilation stays: zeros there are not exact)."),
    _iree("GPU conv rewriter", GPU,
          f"{_NO_VENDOR_LIBRARIES}: convolutions become linalg convolutions that its GPU codegen "
          "compiles (directly or as implicit GEMM).",
          other_names=("cudnn_conv_rewriter",)),
    _iree("GPU copy insertion", GPU, _COPIES),
    _na("GPU sanitize constant names", GPU,
        "HLO instruction names never reach PTX: IREE names its own kernels and globals."),
    _iree("Horizontal fusion", GPU,
          "IREE fuses independent contractions (iree-dispatch-creation-fuse-horizontal-contractions) "
          "and runs independent dispatches of one command buffer concurrently "
          "(iree-stream-schedule-concurrency)."),
    _iree("Multi output fusion", GPU, _MULTI_OUTPUT),
    _impl("Reduction degenerate dim remover", GPU, "reduction-degenerate-dim-remover",
          "Size-1 operand dimensions dropped by reshapes around a smaller reduce (variadic too); "
          "the init stays applied once."),
    _impl("Reduction dimension grouper", GPU, "reduction-dimension-grouper",
          "Adjacent reduced dimensions merged by a reshape; float add/multiply only with "
          "reassociate=true."),
    _impl("Reduction layout normalizer", GPU, "reduction-layout-normalizer",
          "StableHLO has no layouts: transposes reduce operands so the reduced dimensions are "
          "innermost; float add/multiply only with reassociate=true."),
    _impl("Reduction splitter", GPU, "reduction-splitter",
          "A reduce neither from nor to contiguous dimensions as a chain, the largest dimension "
          "first; float add/multiply only with reassociate=true."),
    _impl("Tree reduction rewriter", GPU, "tree-reduction-rewriter",
          "Splits a long reduced dimension into rows of `window` reduced twice (case 2 of the "
          "spec, padded with the init value)."),
    _impl("Variadic op splitter", GPU, "variadic-op-splitter",
          "Concatenates of more than max-operands (128) operands as a tree of concatenates."),
    # --- frontend level ------------------------------------------------------------------
    _impl("Algebraic simplifier", FRONTEND, "algsimp",
          "A subset of XLA's rules, each exact for every input (one lit case per rule).",
          other_names=("AlgebraicSimplifier",)),
    _impl("All gather decomposer", FRONTEND, "all-gather-decomposer",
          "dynamic_update_slice at the group position into a zero buffer, then an all_reduce sum; "
          "floats travel as the integers of their bits (exact: XLA's +0 fill loses -0.0)."),
    _impl("All reduce combiner", FRONTEND, "all-reduce-combiner",
          "Independent all_reduce ops of one block, reducer and groups as one variadic all_reduce "
          "(all-reduce-split in iree-legalize splits it again for IREE)."),
    _impl("All reduce simplifier", FRONTEND, "all-reduce-simplifier",
          "One-process groups give the operand; replicated operands (replication analysis) give "
          "x * n (integers; floats for groups of at most 4, where every summation order is exact) "
          "or x (max, min, and, or)."),
    _na("All reduce cross combiner", FRONTEND,
        "It merges the cross-partition all-reduce that XLA's spatial partitioner emits with the "
        "cross-replica sum after it; hlo-mlir has no partitioner (see Sharding propagation), and "
        "regrouping a float sum over all devices rounds differently, which no pass here may do."),
    _impl("Batch dot simplification", FRONTEND, "batch-dot-simplification",
          "Size-1 batch dimension pairs reshaped away wherever they are (XLA: batch dims 0..n-1 with one "
          "contracting dimension, the xla-conditions option)."),
    _impl("Batchnorm expander", FRONTEND, "batchnorm-expander",
          "batch_norm_grad always (IREE rejects it); training and inference on request.",
          other_names=("BatchNormRewriter",)),
    _impl("bfloat16 conversion folding", FRONTEND, "bfloat16-conversion-folding",
          "bf16->f32 converts of dot_general/convolution (and compare) operands folded into the op; "
          "output converts are not (IREE would accumulate in bf16)."),
    _impl("bfloat16 normalization", FRONTEND, "bfloat16-normalization",
          "Ops listed as unsupported in bf16 (default: dot_general, convolution, reduce, reduce_window) "
          "and mixed-precision dots compute in f32 between converts.",
          other_names=("BFloat16Normalization",)),
    _impl("bfloat16 mixed precision removal", FRONTEND, "bfloat16-mixed-precision-removal",
          "Every bf16 op and value in f32 (hlo-element-type-converter from bf16 to f32).",
          other_names=("BFloat16MixedPrecisionRemoval",)),
    _impl("bfloat16 propagation", FRONTEND, "bfloat16-propagation",
          "f32 data movement, select and max/min read only as bf16 compute in bf16 (exact ops only)."),
    _impl("Call inliner", FRONTEND, "inline", "MLIR's inliner on calls of private functions."),
    _na("Conditional canonicalizer", FRONTEND,
        "It makes every conditional return one tuple; stablehlo.if/case return flat result lists, "
        "which is the form later passes read, so there is nothing to canonicalize."),
    _impl("Conditional code motion", FRONTEND, "conditional-code-motion",
          "Identical side-effect-free ops at the end of every branch of stablehlo.if/case hoisted "
          "after it (out of branches only)."),
    _impl("Conditional simplifier", FRONTEND, "conditional-simplifier",
          "stablehlo.if/case with a constant predicate inlined; unused, duplicate and captured "
          "results dropped."),
    _impl("Conditional to select", FRONTEND, "conditional-to-select",
          "Two-way conditionals of cheap, side-effect-free branches as selects."),
    _impl("Convolution group converter", FRONTEND, "convolution-group-converter",
          "Feature and batch groups as one convolution per group and a concatenate (exact; XLA's "
          "block-diagonal kernel is not: inf * 0)."),
    _iree("Copy insertion", FRONTEND, _COPIES,
          other_names=("CopyInsertion",)),
    _na("Defuser", FRONTEND,
        "StableHLO has no fusion instructions: fusion happens inside IREE, after our pipeline.",
        titled=False),
    _na("ControlDepRemover", FRONTEND,
        "StableHLO has no control dependencies: ops are ordered by their operands and by tokens.",
        titled=False),
    _impl("Despecializer", FRONTEND, "despecializer",
          "hlo-descheduler then bfloat16-mixed-precision-removal (ControlDepRemover and Defuser "
          "have nothing to do here).",
          titled=False),
    _impl("Dot decomposer", FRONTEND, "dot-decomposer",
          "dot_general as one [batch, free, contracting] matmul between transposes and reshapes.",
          other_names=("DotDecomposer",)),
    _na("Dynamic index splitter", FRONTEND,
        "It splits the rank-1 index operand of XLA's old DynamicSlice/DynamicUpdateSlice into scalars; "
        "stablehlo.dynamic_slice and dynamic_update_slice take one 0-d index per dimension by "
        "definition, the form the pass produces."),
    _impl("Dynamic padder", FRONTEND, "dynamic-padder",
          "A set_dimension_size read by element-wise ops, sizes and reduces over its dimension "
          "becomes its static operand, the padding masked with the init before each reduce; other "
          "bounded tensors stay dynamic (IREE runs them, set-dimension-size-clamp keeps sizes in range)."),
    _impl("Flatten call graph", FRONTEND, "flatten-call-graph",
          "One copy of a private function per func.call site (loop and branch bodies are regions)."),
    _impl("HLO constant folding", FRONTEND, "constant-folding",
          "Bit-exact folds only (no transcendental functions), size-capped."),
    _impl("HLO cse", FRONTEND, "cse", "MLIR's cse."),
    _impl("HLO dce", FRONTEND, "dce", "Dead side-effect-free ops and unreferenced private functions."),
    _na("HLO domain isolator", FRONTEND, _NO_DOMAINS),
    _na("HLO domain remover", FRONTEND, _NO_DOMAINS),
    _na("HLO domain verifier", FRONTEND, _NO_DOMAINS),
    _impl("HLO element type converter", FRONTEND, "hlo-element-type-converter",
          "from-type values become to-type inside each function, converts at its boundary and around "
          "ops of fixed types."),
    _impl("HLO get dimension size rewriter", FRONTEND, "hlo-get-dimension-size-rewriter",
          "Static sizes as constants; a size set by set_dimension_size (through element-wise ops) as "
          "given, XLA's answer also outside the bound."),
    _impl("HLO memory scheduler", FRONTEND, "hlo-memory-scheduler",
          "Best of XLA's list and DFS heuristics per block; ops moved and the order stored (hlo.schedule)."),
    _impl("HLO trivial scheduler", FRONTEND, "hlo-trivial-scheduler",
          "The IR's op order stored as the schedule (hlo.schedule), read back by HloModule."),
    _impl("HLO descheduler", FRONTEND, "hlo-descheduler", "Removes the stored schedule.",
          other_names=("HloDescheduler",)),
    _impl("HLO module dce", FRONTEND, "hlo-module-dce",
          "Dead loop-carried values, unread results/parameters of private functions, dead calls, then dce."),
    _impl("HLO rematerialization", FRONTEND, "hlo-rematerialization",
          "Cheap values (element-wise, broadcast, iota, constant) recomputed near late readers to fit "
          "memory-limit-bytes."),
    _impl("HLO subcomputation unification", FRONTEND, "hlo-subcomputation-unification",
          "Structurally equivalent private functions merged (MLIR operation equivalence)."),
    _impl("HLO verifier", FRONTEND, "hlo-verifier",
          "XLA invariants StableHLO does not check (names, schedule, call cycles, closed reducers, "
          "channels, replica groups); hlo-opt --verify-each runs it after every pass."),
    _impl("Indexed array analysis", FRONTEND, "indexed-array-analysis",
          "Analysis (changes nothing): XLA's scalar-indexed forms of gathers and of the reshapes, "
          "transposes, element-wise ops and dots over them; statistics per kind, print=true lists them."),
    _iree("Instruction fusion", FRONTEND,
          "IREE fuses producers into their consumers as it forms dispatch regions "
          "(iree-dispatch-creation-elementwise-op-fusion, iree-dispatch-creation-form-dispatch-regions)."),
    _iree("Layout assignment", FRONTEND,
          "StableHLO tensors have no layouts; IREE chooses buffer layouts and, with data tiling, packed "
          "encodings (iree-dispatch-creation-set-encoding, iree-codegen-materialize-device-encoding)."),
    _impl("Map inliner", FRONTEND, "map-inliner",
          "A map of one element-wise op, an argument or a constant becomes whole-tensor ops."),
    _iree("Memory space propagation", FRONTEND,
          "IREE's codegen places buffers in memory spaces (GPU shared-memory promotion, "
          "iree-codegen-gpu-promote-matmul-operands)."),
    _iree("Multi output fusion", FRONTEND, _MULTI_OUTPUT),
    _na("Op expand pass", FRONTEND,
        "An abstract superclass, not a pass: its counterpart is pipelines.pass_base.ExpanderPass."),
    _impl("Cholesky expander", FRONTEND, "cholesky-expander",
          "A column-by-column while loop (IREE rejects stablehlo.cholesky)."),
    _impl("Convolution 4D expander", FRONTEND, "convolution-4d-expander",
          "Trivial spatial dimensions (input size 1, no padding) of 4-D convolutions dropped by "
          "reshapes (all-ranks=true: any rank)."),
    _impl("Gather expander", FRONTEND, "gather-expander",
          "A while loop of clamping dynamic slices (mode=all|simple as XLA's kEliminate*Gathers)."),
    _impl("Logistic Expander", FRONTEND, "logistic-expander",
          "1 / (1 + exp(-x)) as XLA builds it; expansion=tanh gives 0.5 + 0.5 * tanh(0.5 * x)."),
    _impl("Rng bit generator expander", FRONTEND, "rng-bit-generator-expander",
          "Threefry-2x32 / Philox-4x32 in integer ops, bit-exact with XLA for 2- and 3-word states."),
    _impl("Rng expander", FRONTEND, "rng-expander",
          "stablehlo.rng as THREE_FRY bits on a module-level state."),
    _impl("Stable sort expander", FRONTEND, "stable-sort-expander",
          "Ties broken by an iota operand, as XLA does."),
    _impl("Triangular solve expander", FRONTEND, "triangular-solve-expander",
          "A forward-substitution while loop (IREE rejects stablehlo.triangular_solve)."),
    _na("Optimize input output buffer alias", FRONTEND,
        "A caller's array must never change (ARCHITECTURE.md), so no result is written into an "
        "argument's buffer (result-barrier); inside a call IREE's stream allocation reuses buffers."),
    _impl("Reshape mover", FRONTEND, "reshape-mover",
          "Equivalent reshapes/transposes moved below element-wise ops (constants and scalar "
          "broadcasts rearranged alongside)."),
    _impl("Root instruction sinker", FRONTEND, "root-instruction-sinker",
          "In a module with an hlo.schedule, a root that is not last gets a forwarding "
          "bitcast_convert (or tuple of get_tuple_element) appended as the new root."),
    _impl("Scatter expander", FRONTEND, "scatter-expander",
          "A while loop over the update windows in index order (XLA's), out-of-bounds ones skipped."),
    _na("Sharding propagation", FRONTEND,
        "No SPMD partitioner: a module is one program per process with explicit collectives "
        "(producers such as JAX partition before export)."),
    _impl("Slice sinker", FRONTEND, "slice-sinker",
          "Element-wise ops on alike slices of the same sources become one op and slices of it."),
    _impl("Sort simplifier", FRONTEND, "sort-simplifier",
          "Drops sort operands whose results are unused and that the comparator does not read."),
    _impl("TopK rewriter", FRONTEND, "topk-rewriter",
          "A total-order descending sort (and iota) sliced to its first k becomes chlo.top_k."),
    _impl("Transpose folding", FRONTEND, "transpose-folding",
          "Transposes of dot_general operands that keep the free dimensions' order, and of "
          "convolution inputs and kernels, fold into the dimension numbers."),
    _impl("Tree reduction rewriter", FRONTEND, "tree-reduction-rewriter",
          "The same blocked reduction: reducing rows of `window` first is the spec's reduce-window "
          "of that size and stride."),
    _impl("Tuple simplifier", FRONTEND, "tuple-simplifier",
          "algsimp's get_tuple_element-of-tuple rule plus tuple(gte(t, 0..n-1)) -> t.",
          other_names=("TupleSimplifier",)),
    _impl("While loop constant sinking", FRONTEND, "while-loop-constant-sinking",
          "A passed-through carried value with a constant init is read as a copy of the constant in the "
          "body and the condition."),
    _impl("While loop invariant code motion", FRONTEND, "while-loop-invariant-code-motion",
          "Hoisted ops are captured by the body (StableHLO regions capture), not carried as new loop "
          "values."),
    _impl("While loop simplifier", FRONTEND, "while-loop-simplifier",
          "Loops of 0 or 1 trips and dead loop-carried values (StableHLO loops carry no nested "
          "tuples to flatten).",
          other_names=("WhileLoopSimplifier",)),
    _impl("While loop trip count annotator", FRONTEND, "while-loop-trip-count-annotator",
          "The count is the i64 attribute hlo_mlir.known_trip_count, read as "
          "HloInstruction.known_trip_count."),
    _impl("Zero sized HLO elimination", FRONTEND, "zero-sized-hlo-elimination",
          "Side-effect-free ops with an empty array result become empty constants."),
)


# --- reading spec 004's pass list ---------------------------------------------------------
_SECTION = re.compile(r"^# (CPU|GPU|Frontend) (?:Backend )?Level Optimization\s*$")
_SECTION_NAMES = {"CPU": CPU, "GPU": GPU, "Frontend": FRONTEND}
# A frontend pass title without '## ': a line of at most 7 plain words between blank lines.
_PLAIN_TITLE = re.compile(r"[A-Za-z][A-Za-z0-9]*(?: [A-Za-z0-9]+){0,6}")


def spec_passes(text: str) -> list[tuple[str, str]]:
    """(section, title) of every pass spec 004's text names, in order: the ``## `` headings
    of its CPU, GPU and frontend sections and, in the frontend section (whose later titles
    lost their ``##``), every line of plain words between blank lines."""
    out: list[tuple[str, str]] = []
    section = None
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = _SECTION.match(line)
        if m or line.startswith("# "):
            section = _SECTION_NAMES[m.group(1)] if m else None
        elif section and line.startswith("## "):
            out.append((section, line[3:].strip()))
        elif (section == FRONTEND and _PLAIN_TITLE.fullmatch(line.rstrip())
              and (i == 0 or not lines[i - 1].strip())
              and (i + 1 == len(lines) or not lines[i + 1].strip())):
            out.append((section, line.strip()))
    return out
