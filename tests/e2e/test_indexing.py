"""End to end: DynamicSlice, DynamicUpdateSlice, Gather and Scatter against numpy and XLA CPU.

The numpy references are explicit loops over the spec's index formulas (StableHLO
gather/scatter, batching dimensions included): starts of DynamicSlice,
DynamicUpdateSlice and Gather clamp into the operand; a Scatter window that does not lie
entirely inside the operand is skipped (XLA CPU skips the whole window, as checked here).

Until ``hlo_mlir.compile`` runs the ``legalizes_for_iree`` passes itself, ``_check`` runs
``gather-clamp`` and ``scatter-bounds`` explicitly: IREE runs the legalized module, XLA
both the original and the legalized one, and all must equal numpy.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import hlo_mlir
from hlo_mlir import (
    Add,
    DTypeError,
    DynamicSlice,
    DynamicUpdateSlice,
    Gather,
    GatherDimensionNumbers,
    GetTupleElement,
    InvalidArgumentError,
    Max,
    Mul,
    Parameter,
    Reshape,
    Scatter,
    ScatterDimensionNumbers,
    Shape,
    ShapeError,
    Slice,
    Sub,
    Tuple,
    XlaBuilder,
    compiler,
)
from pipelines import registry
from tests.builders import params
from tests.oracle import assert_close, check, run_iree, run_xla

LEGALIZATIONS = ("gather-clamp", "scatter-bounds")


def _legalized(comp):
    module = compiler.as_module(comp)
    for name in LEGALIZATIONS:
        registry.get(name)().run(module)
    module.operation.verify()
    return module


def _check(comp, args, reference, rtol=1e-5, atol=1e-6):
    """IREE runs the legalized module, XLA the original and the legalized one; each must
    equal ``reference(*args)``. (Each test batches its cases into one module: every
    compile costs about a second.)"""
    module = _legalized(comp)
    expected = reference(*args)
    assert_close(run_iree(module, *args), expected, rtol, atol, "hlo-mlir vs numpy")
    assert_close(run_xla(comp, *args), expected, rtol, atol, "XLA vs numpy")
    assert_close(run_xla(module, *args), expected, rtol, atol, "XLA (legalized) vs numpy")


def data(shape, dtype, seed=0):
    """Small integers (exact in every dtype; negative unless unsigned), as ``dtype``."""
    low = 0 if np.dtype(dtype).kind == "u" else -50
    return np.random.default_rng(seed).integers(low, 50, size=shape).astype(dtype)


def binary_computation(op, type_name, name="combine"):
    b = XlaBuilder(name)
    x, y = params(b, f"{type_name}[]", f"{type_name}[]")
    return b.build(op(x, y))


def replace_computation(type_name):
    b = XlaBuilder("replace")
    _, update = params(b, f"{type_name}[]", f"{type_name}[]")
    return b.build(update)


# --- numpy references ---------------------------------------------------------------------
def np_dynamic_slice(x, starts, sizes):
    starts = [min(max(int(s), 0), n - k) for s, n, k in zip(starts, x.shape, sizes, strict=True)]
    return x[tuple(slice(s, s + k) for s, k in zip(starts, sizes, strict=True))]


def np_dynamic_update_slice(x, update, starts):
    starts = [min(max(int(s), 0), n - k) for s, n, k in zip(starts, x.shape, update.shape, strict=True)]
    out = x.copy()
    out[tuple(slice(s, s + k) for s, k in zip(starts, update.shape, strict=True))] = update
    return out


def _index_vector(indices, batch_index, ivd):
    if ivd == indices.ndim:
        return [int(indices[tuple(batch_index)])]
    pos = list(batch_index)
    return [int(indices[tuple(pos[:ivd] + [k] + pos[ivd:])]) for k in range(indices.shape[ivd])]


def np_gather(operand, indices, dn: GatherDimensionNumbers, slice_sizes):
    batch_shape = [n for d, n in enumerate(indices.shape) if d != dn.index_vector_dim]
    offset_sizes = [s for d, s in enumerate(slice_sizes)
                    if d not in dn.collapsed_slice_dims + dn.operand_batching_dims]
    rank = len(batch_shape) + len(offset_sizes)
    batch_dims = [d for d in range(rank) if d not in dn.offset_dims]
    shape = [0] * rank
    for d, n in zip(batch_dims, batch_shape, strict=True):
        shape[d] = n
    for d, n in zip(dn.offset_dims, offset_sizes, strict=True):
        shape[d] = n
    out = np.zeros(shape, operand.dtype)
    offset_operand_dims = [d for d in range(operand.ndim)
                           if d not in dn.collapsed_slice_dims + dn.operand_batching_dims]
    for out_index in itertools.product(*map(range, shape)):
        batch_index = [out_index[d] for d in batch_dims]
        start = _index_vector(indices, batch_index, dn.index_vector_dim)
        full = [0] * operand.ndim
        for k, d in enumerate(dn.start_index_map):
            full[d] = min(max(start[k], 0), operand.shape[d] - slice_sizes[d])
        for od, sd in zip(dn.operand_batching_dims, dn.start_indices_batching_dims, strict=True):
            full[od] += batch_index[sd - (sd > dn.index_vector_dim)]
        for od, rd in zip(offset_operand_dims, dn.offset_dims, strict=True):
            full[od] += out_index[rd]
        out[out_index] = operand[tuple(full)]
    return out


def np_scatter(operands, indices, updates, dn: ScatterDimensionNumbers, combine):
    """Spec scatter, applying updates in row-major order; a window not entirely inside the
    operand is skipped."""
    outs = [o.copy() for o in operands]
    upd = updates[0]
    scatter_dims = [d for d in range(upd.ndim) if d not in dn.update_window_dims]
    window_operand_dims = [d for d in range(outs[0].ndim)
                           if d not in dn.inserted_window_dims + dn.input_batching_dims]
    window = [1] * outs[0].ndim
    for od, ud in zip(window_operand_dims, dn.update_window_dims, strict=True):
        window[od] = upd.shape[ud]
    for u_index in itertools.product(*map(range, upd.shape)):
        batch_index = [u_index[d] for d in scatter_dims]
        start = _index_vector(indices, batch_index, dn.index_vector_dim)
        if any(not 0 <= start[k] <= outs[0].shape[d] - window[d]
               for k, d in enumerate(dn.scatter_dims_to_operand_dims)):
            continue
        full = [0] * outs[0].ndim
        for k, d in enumerate(dn.scatter_dims_to_operand_dims):
            full[d] = start[k]
        for od, sd in zip(dn.input_batching_dims, dn.scatter_indices_batching_dims, strict=True):
            full[od] += batch_index[sd - (sd > dn.index_vector_dim)]
        for od, ud in zip(window_operand_dims, dn.update_window_dims, strict=True):
            full[od] += u_index[ud]
        full = tuple(full)
        values = combine([o[full] for o in outs], [u[u_index] for u in updates])
        for o, v in zip(outs, values, strict=True):
            o[full] = v
    return outs


# --- DynamicSlice, DynamicUpdateSlice -------------------------------------------------------
@pytest.mark.parametrize("type_name,index_type", [("f32", "s32"), ("s8", "s64"), ("bf16", "u32")])
def test_dynamic_slice_and_update_clamp_starts(type_name, index_type):
    """Each row of ``starts`` is used twice: as two scalars and as XLA's older rank-1 form."""
    dtype, itype = Shape.parse(f"{type_name}[]").dtype, Shape.parse(f"{index_type}[]").dtype
    info = np.iinfo(itype)
    starts = [(0, 0), (4, 3), (2, 1), (9, 100), (info.max, info.max)]
    if info.min < 0:
        starts += [(-1, 2), (-7, -100), (info.min, info.max)]
    b = XlaBuilder("dynamic_slice")
    x, u, s = params(b, f"{type_name}[5,4]", f"{type_name}[2,3]", f"{index_type}[{len(starts)},2]")
    outs = []
    for p in range(len(starts)):
        vec = Reshape(Slice(s, [p, 0], [p + 1, 2]), [2])
        i0, i1 = (Reshape(Slice(s, [p, k], [p + 1, k + 1]), []) for k in range(2))
        outs += [DynamicSlice(x, [i0, i1], [2, 3]), DynamicSlice(x, vec, [3, 1]),
                 DynamicUpdateSlice(x, u, [i0, i1]), DynamicUpdateSlice(x, u, vec)]
    comp = b.build(Tuple(b, outs))

    def reference(x, u, s):
        return tuple(r for a, c in s
                     for r in (np_dynamic_slice(x, [a, c], [2, 3]), np_dynamic_slice(x, [a, c], [3, 1]),
                               np_dynamic_update_slice(x, u, [a, c]), np_dynamic_update_slice(x, u, [a, c])))

    _check(comp, (data((5, 4), dtype), data((2, 3), dtype, seed=1), np.array(starts, itype)), reference)


def test_dynamic_slice_empty_and_full():
    b = XlaBuilder("dynamic_slice_edges")
    x, i = params(b, "f32[3,0]", "s32[]")
    y, = [Parameter(b, 2, Shape.parse("f32[4]"))]
    comp = b.build(Tuple(b, [DynamicSlice(x, [i, i], [1, 0]), DynamicSlice(y, [i], [4]),
                             DynamicSlice(y, [i], [0])]))
    y0 = np.arange(4, dtype=np.float32)
    _check(comp, (np.zeros((3, 0), np.float32), np.int32(-2), y0),
           lambda x, k, y: (np.zeros((1, 0), np.float32), y, np.zeros(0, np.float32)))


# --- Gather -----------------------------------------------------------------------------------
ROWS = GatherDimensionNumbers(offset_dims=[1], collapsed_slice_dims=[0], start_index_map=[0],
                              index_vector_dim=1)


@pytest.mark.parametrize("type_name,index_type", [("f32", "s32"), ("f16", "u8"), ("pred", "s8")])
def test_gather_rows_clamps_out_of_range_indices(type_name, index_type):
    """The row gather IREE reads out of bounds for; XLA clamps every start."""
    b = XlaBuilder("gather_rows")
    x, idx = params(b, f"{type_name}[5,3]", f"{index_type}[12,1]")
    comp = b.build(Gather(x, idx, ROWS, [1, 3]))
    dtype, itype = Shape.parse(f"{type_name}[]").dtype, Shape.parse(f"{index_type}[]").dtype
    x0 = data((5, 3), dtype)
    info = np.iinfo(itype)
    rows = [0, 4, 2, 5, info.max, 3, 1, 1, 100, 0, 4, 2]
    if info.min < 0:
        rows[6:] = [-1, info.min, 2, -3, 7, 0]
    _check(comp, (x0, np.array(rows, itype).reshape(12, 1)), lambda x, i: np_gather(x, i, ROWS, [1, 3]))


GATHER_FORMS = {
    # name: ((operand, indices), dimension numbers, slice sizes, index values)
    "points_permuted": (("f32[5,4]", "s32[3,2]"), GatherDimensionNumbers([], [0, 1], [1, 0], 1), [1, 1],
                        [[0, 0], [3, 4], [-1, 9]]),
    "windows_clamped": (("f32[5,4]", "s32[3,2]"), GatherDimensionNumbers([1, 2], [], [0, 1], 1), [2, 3],
                        [[0, 0], [4, 3], [-2, 1]]),
    "index_vector_first": (("f32[5,3]", "s32[1,4]"), GatherDimensionNumbers([1], [0], [0], 0), [1, 3],
                           [[-1, 7, 2, 4]]),
    "implicit_vector": (("s32[5,3]", "s32[2,2]"), GatherDimensionNumbers([2], [0], [0], 2), [1, 2],
                        [[0, 4], [-3, 9]]),
    "scalar_index": (("f32[5,3]", "s32[]"), GatherDimensionNumbers([0], [0], [0], 0), [1, 3], -2),
    "batching": (("f32[2,5,3]", "s32[2,4,1]"),
                 GatherDimensionNumbers([2], [1], [1], 2, operand_batching_dims=[0],
                                        start_indices_batching_dims=[0]),
                 [1, 1, 3], [[[-1], [7], [2], [4]], [[0], [1], [9], [-3]]]),
    # whole rows (gather-index-select turns these into torch_index_select after clamping)
    "rows_of_rank3_by_matrix": (("f32[6,2,3]", "s32[2,3]"), GatherDimensionNumbers([2, 3], [0], [0], 2),
                                [1, 2, 3], [[0, 5, -1], [9, 2, 3]]),
    "elements_of_vector": (("s32[7]", "s64[5]"), GatherDimensionNumbers([], [0], [0], 1), [1],
                           [0, 6, -2, 8, 3]),
    "empty_indices": (("f32[5,3]", "s32[0,1]"), ROWS, [1, 3], np.zeros((0, 1))),
    "empty_operand_dim": (("f32[5,0]", "s32[2,1]"), ROWS, [1, 0], [[3], [-1]]),
}


def _forms_module(name, forms, build_one):
    """One module over all ``forms``: per form, its parameters and one result."""
    b = XlaBuilder(name)
    outs, texts = [], []
    for spec in forms.values():
        texts += list(spec[0])
    ps = params(b, *texts)
    i = 0
    for spec in forms.values():
        n = len(spec[0])
        outs.append(build_one(ps[i:i + n], spec))
        i += n
    return b.build(Tuple(b, outs))


def _arrays(texts, index_values, seed):
    """Operand data, the index array (``index_values`` reshaped), updates data."""
    out = []
    for k, text in enumerate(texts):
        shape = Shape.parse(text)
        out.append(np.array(index_values, shape.dtype).reshape(shape.dimensions) if k == 1
                   else data(shape.dimensions, shape.dtype, seed + k))
    return out


def test_gather_forms():
    """Every form in one module; the indices mix in-bounds and out-of-range starts."""
    comp = _forms_module("gather_forms", GATHER_FORMS,
                         lambda ps, spec: Gather(ps[0], ps[1], spec[1], spec[2]))
    args = [a for k, spec in enumerate(GATHER_FORMS.values()) for a in _arrays(spec[0], spec[3], k)]
    _check(comp, args, lambda *a: tuple(np_gather(a[2 * k], a[2 * k + 1], spec[1], spec[2])
                                        for k, spec in enumerate(GATHER_FORMS.values())))


def test_whole_row_gathers_become_index_selects():
    """After clamping, gathers of whole rows are torch_index_select (IREE copies rows)."""
    comp = _forms_module("gather_forms", GATHER_FORMS,
                         lambda ps, spec: Gather(ps[0], ps[1], spec[1], spec[2]))
    module = hlo_mlir.compiler.as_module(comp)
    # O1: the cpu preset's zero-sized-hlo-elimination would make the two empty gathers
    # broadcasts before the legalizations see them
    hlo_mlir.compiler.prepare(module, passes="O1")
    text = str(module)
    # the two row forms, the scalar index and both empty forms
    assert text.count("stablehlo.torch_index_select") == 5
    assert text.count('"stablehlo.gather"(') == len(GATHER_FORMS) - 5


def test_gather_sorted_hint_keeps_results():
    b = XlaBuilder("gather_sorted")
    x, idx = params(b, "f32[6,2]", "s32[4,1]")
    comp = b.build(Gather(x, idx, ROWS, [1, 2], indices_are_sorted=True))
    _check(comp, (data((6, 2), np.float32), np.array([[-1], [0], [3], [9]], np.int32)),
           lambda x, i: np_gather(x, i, ROWS, [1, 2]))


# --- Scatter ------------------------------------------------------------------------------------
ROW_UPDATES = ScatterDimensionNumbers(update_window_dims=[1], inserted_window_dims=[0],
                                      scatter_dims_to_operand_dims=[0], index_vector_dim=1)


def _add(cur, upd):
    return [c + u for c, u in zip(cur, upd, strict=True)]


@pytest.mark.parametrize("type_name,index_type", [("f32", "s32"), ("u8", "u8"), ("f16", "s64")])
def test_scatter_add_duplicates_and_out_of_bounds(type_name, index_type):
    """Duplicate rows accumulate; rows out of bounds (negative, too large) are skipped."""
    b = XlaBuilder("scatter_add")
    x, idx, u = params(b, f"{type_name}[5,3]", f"{index_type}[6,1]", f"{type_name}[6,3]")
    comp = b.build(Scatter(x, idx, u, binary_computation(Add, type_name), ROW_UPDATES))
    dtype, itype = Shape.parse(f"{type_name}[]").dtype, Shape.parse(f"{index_type}[]").dtype
    x0, u0 = data((5, 3), dtype), data((6, 3), dtype, seed=2)
    info = np.iinfo(itype)
    rows = [0, 2, 2, 5, info.max, 2] if info.min == 0 else [0, 2, -1, 5, info.min, 2]
    _check(comp, (x0, np.array(rows, itype).reshape(6, 1), u0),
           lambda x, i, u: np_scatter([x], i, [u], ROW_UPDATES, _add)[0], rtol=1e-3)


SCATTER_FORMS = {
    # name: ((operand, indices, updates), dimension numbers, index values)
    "partial_windows": (("f32[5,4]", "s32[4,2]", "f32[4,2,2]"),
                        ScatterDimensionNumbers([1, 2], [], [0, 1], 1), [[0, 0], [3, 2], [3, 3], [-1, 0]]),
    "column_updates": (("f32[5,3]", "s32[4,1]", "f32[4,5]"), ScatterDimensionNumbers([1], [1], [1], 1),
                       [[0], [2], [2], [-2]]),
    "windows_first": (("f32[5,3]", "s32[4,1]", "f32[3,4]"), ScatterDimensionNumbers([0], [0], [0], 1),
                      [[0], [9], [-2], [4]]),
    "points_permuted": (("s32[5,4]", "s64[3,2]", "s32[3]"), ScatterDimensionNumbers([], [0, 1], [1, 0], 1),
                        [[0, 0], [3, 4], [-1, 4]]),
    "two_components_beside_window": (("f32[3,5,4]", "s32[3,2]", "f32[3,3]"),
                                     ScatterDimensionNumbers([1], [1, 2], [1, 2], 1),
                                     [[0, 1], [3, 3], [5, 3]]),
    "index_vector_first": (("f32[5,3]", "s32[1,4]", "f32[4,3]"), ScatterDimensionNumbers([1], [0], [0], 0),
                           [[0, -2, 5, 4]]),
    "scalar_index": (("f32[5,3]", "s32[]", "f32[3]"), ScatterDimensionNumbers([0], [0], [0], 0), 2),
    "scalar_index_out_of_bounds": (("f32[5,3]", "s32[]", "f32[3]"),
                                   ScatterDimensionNumbers([0], [0], [0], 0), 5),
    "batching": (("f32[2,5,3]", "s32[2,4,1]", "f32[2,4,3]"),
                 ScatterDimensionNumbers([2], [1], [1], 2, input_batching_dims=[0],
                                         scatter_indices_batching_dims=[0]),
                 [[[0], [5], [2], [4]], [[-1], [1], [3], [0]]]),
    "no_index_components": (("f32[5,3]", "s32[2,0]", "f32[2,5,3]"),
                            ScatterDimensionNumbers([1, 2], [], [], 1), np.zeros((2, 0))),
    "empty_updates": (("f32[5,3]", "s32[0,1]", "f32[0,3]"), ROW_UPDATES, np.zeros((0, 1))),
    "empty_operand": (("f32[5,0]", "s32[2,1]", "f32[2,0]"), ROW_UPDATES, [[1], [7]]),
}


def test_scatter_forms():
    """Every form in one module with an add combiner; the indices mix in-bounds windows,
    duplicates and windows (partly) out of bounds."""
    adders = {}

    def build_one(ps, spec):
        t = Shape.parse(spec[0][0]).element_type.value
        adders.setdefault(t, binary_computation(Add, t))
        return Scatter(ps[0], ps[1], ps[2], adders[t], spec[1])

    comp = _forms_module("scatter_forms", SCATTER_FORMS, build_one)
    args = [a for k, spec in enumerate(SCATTER_FORMS.values()) for a in _arrays(spec[0], spec[2], k)]
    _check(comp, args, lambda *a: tuple(np_scatter([a[3 * k]], a[3 * k + 1], [a[3 * k + 2]], spec[1], _add)[0]
                                        for k, spec in enumerate(SCATTER_FORMS.values())))


@pytest.mark.parametrize("unique", [False, True])
def test_scatter_replace_with_unique_hint(unique):
    """A combiner returning the update overwrites; with distinct in-bounds rows the result is
    defined, and out-of-bounds rows still leave the operand alone."""
    b = XlaBuilder("scatter_replace")
    x, idx, u = params(b, "s32[6,2]", "s32[4,1]", "s32[4,2]")
    comp = b.build(Scatter(x, idx, u, replace_computation("s32"), ROW_UPDATES, unique_indices=unique,
                           indices_are_sorted=unique))
    x0, u0 = data((6, 2), np.int32), data((4, 2), np.int32, seed=4)
    _check(comp, (x0, np.array([0, 6, 3, -1], np.int32).reshape(4, 1), u0),
           lambda x, i, u: np_scatter([x], i, [u], ROW_UPDATES, lambda c, v: v)[0])


def test_scatter_non_commutative_combiner():
    """The current value is the combiner's first argument: x - u, once per in-bounds update."""
    b = XlaBuilder("scatter_sub")
    x, idx, u = params(b, "f32[4,3]", "s32[3,1]", "f32[3,3]")
    comp = b.build(Scatter(x, idx, u, binary_computation(Sub, "f32"), ROW_UPDATES))
    args = (data((4, 3), np.float32), np.array([[1], [3], [-4]], np.int32), data((3, 3), np.float32, 5))
    _check(comp, args,
           lambda x, i, u: np_scatter([x], i, [u], ROW_UPDATES, lambda c, v: [c[0] - v[0]])[0])


def _variadic_module(name, texts, combine, dn):
    """``Scatter([x, y], idx, [u, v])`` returning both results; ``combine(cur0, cur1, upd0,
    upd1)`` builds the two results of the update computation."""
    b = XlaBuilder(name)
    x, y, idx, u, v = params(b, *texts)
    c = XlaBuilder("combine")
    types = [Shape.parse(t).element_type.value for t in texts[:2]]
    combiner = c.build(Tuple(c, list(combine(*params(c, *[f"{t}[]" for t in types * 2])))))
    result = Scatter([x, y], idx, [u, v], combiner, dn)
    return b.build(Tuple(b, [GetTupleElement(result, 0), GetTupleElement(result, 1)]))


def test_variadic_scatter_separable_combiner():
    comp = _variadic_module("scatter_variadic", ["f32[5,3]", "s32[5,3]", "s32[4,1]", "f32[4,3]", "s32[4,3]"],
                            lambda a0, a1, b0, b1: (Add(a0, b0), Max(a1, b1)), ROW_UPDATES)
    args = (data((5, 3), np.float32), data((5, 3), np.int32, 1), np.array([[0], [2], [2], [-1]], np.int32),
            data((4, 3), np.float32, 2), data((4, 3), np.int32, 3))
    _check(comp, args, lambda x, y, i, u, v: tuple(np_scatter(
        [x, y], i, [u, v], ROW_UPDATES, lambda cur, upd: [cur[0] + upd[0], max(cur[1], upd[1])])))


def test_variadic_scatter_mixing_combiner():
    """IREE rejects variadic scatter ('NYI variadic operands scatter') and a combiner mixing
    operands cannot be split into single-operand scatters: iree-legalize runs
    scatter-expander{mode=variadic}, a loop over the update windows."""
    dn = ScatterDimensionNumbers([], [0], [0], 1)
    # index 3 twice (the second window combines with the first's result), 7 out of bounds
    comp = _variadic_module("scatter_mixing", ["f32[5]", "f32[5]", "s32[4,1]", "f32[4]", "f32[4]"],
                            lambda a0, a1, b0, b1: (Add(a0, b1), Mul(a1, b0)), dn)
    args = (np.arange(5, dtype=np.float32), np.ones(5, np.float32), np.array([[1], [3], [3], [7]], np.int32),
            np.array([2, 5, -1, 4], np.float32), np.array([3, -2, 6, 8], np.float32))
    _check(comp, args, lambda x, y, i, u, v: tuple(np_scatter(
        [x, y], i, [u, v], dn, lambda cur, upd: [cur[0] + upd[1], cur[1] * upd[0]])))


def test_compile_runs_index_legalizations():
    """Through plain hlo_mlir.compile: a form IREE fails to legalize without scatter-bounds
    (a compile error, never an out-of-bounds access)."""
    b = XlaBuilder("compile_path")
    dn = SCATTER_FORMS["partial_windows"][1]
    x, idx, u = params(b, "f32[5,4]", "s32[3,2]", "f32[3,2,2]")
    comp = b.build(Scatter(x, idx, u, binary_computation(Add, "f32"), dn))
    args = (data((5, 4), np.float32), np.array([[0, 0], [3, 2], [1, 1]], np.int32),
            data((3, 2, 2), np.float32))
    check(comp, args, np_scatter([args[0]], args[1], [args[2]], dn, _add)[0])


def test_legalizations_are_idempotent():
    b = XlaBuilder("twice")
    x, idx, u = params(b, "f32[5,3]", "s32[2,1]", "f32[2,3]")
    y = Scatter(x, idx, u, binary_computation(Add, "f32"), ROW_UPDATES)
    comp = b.build(Gather(y, idx, ROWS, [1, 3]))
    module = _legalized(comp)
    text = module.operation.get_asm()
    for name in LEGALIZATIONS:
        assert not registry.get(name)().run(module)
    assert module.operation.get_asm() == text


# --- errors ---------------------------------------------------------------------------------------
def raises(error, pattern):
    return pytest.raises(error, match=pattern)


def _error_builder():
    b = XlaBuilder("errors")
    return b, params(b, "f32[5,3]", "s32[4,1]", "f32[4,3]", "s32[]", "f32[]", "s32[2,2]")


def test_dynamic_slice_errors():
    b, (x, idx, u, i, f, m) = _error_builder()
    with raises(ShapeError, r"DynamicSlice requires one start index per operand dimension \(2\); "
                            r"got 1 for operand f32\[5,3\]"):
        DynamicSlice(x, [i], [1, 1])
    with raises(ShapeError, r"DynamicSlice requires one slice size per operand dimension .*"
                            r"got slice_sizes \[6, 1\] for operand f32\[5,3\]"):
        DynamicSlice(x, [i, i], [6, 1])
    with raises(DTypeError, r"DynamicSlice requires scalar integer start indices; got f32\[\]"):
        DynamicSlice(x, [i, f], [1, 1])
    with raises(ShapeError, r"DynamicSlice requires a list of scalar start indices or one rank-1 "
                            r"array of them; got s32\[2,2\]"):
        DynamicSlice(x, m, [1, 1])
    with raises(ShapeError, r"DynamicUpdateSlice requires an update of the operand's rank no larger "
                            r"than the operand in any dimension; got update f32\[5,3\] for operand "
                            r"f32\[4,3\]"):
        DynamicUpdateSlice(u, x, [i, i])
    with raises(DTypeError, r"DynamicUpdateSlice requires an update of the operand's element type"):
        DynamicUpdateSlice(x, idx, [i, i])


def test_gather_errors():
    b, (x, idx, u, i, f, m) = _error_builder()
    with raises(ShapeError, r"Gather requires one slice size per operand dimension .*got "
                            r"slice_sizes \[1, 4\] for operand f32\[5,3\]"):
        Gather(x, idx, ROWS, [1, 4])
    with raises(ShapeError, r"Gather requires slice sizes of at most 1 in collapsed_slice_dims \[0\]"):
        Gather(x, idx, ROWS, [2, 3])
    with raises(ShapeError, r"Gather requires start_index_map to have one entry per index vector "
                            r"component \(1\); got \[0, 1\]"):
        Gather(x, idx, GatherDimensionNumbers([1], [0], [0, 1], 1), [1, 3])
    with raises(InvalidArgumentError, r"Gather requires index_vector_dim in \[0, 2\]"):
        Gather(x, idx, GatherDimensionNumbers([1], [0], [0], 3), [1, 3])
    with raises(InvalidArgumentError, r"Gather requires offset_dims in ascending order"):
        Gather(x, m, GatherDimensionNumbers([2, 1], [], [0, 1], 0), [1, 3])
    with raises(ShapeError, r"Gather requires operand rank = size\(offset_dims\)"):
        Gather(x, idx, GatherDimensionNumbers([1], [], [0], 1), [1, 3])
    with raises(DTypeError, r"Gather requires start_indices of an integer type; got f32\[4,3\]"):
        Gather(x, u, ROWS, [1, 3])
    with raises(InvalidArgumentError, r"Gather requires indices_are_sorted to be a bool; got 1"):
        Gather(x, idx, ROWS, [1, 3], indices_are_sorted=1)
    with raises(InvalidArgumentError, r"Gather requires a GatherDimensionNumbers"):
        Gather(x, idx, ROW_UPDATES, [1, 3])
    with raises(ShapeError, r"Gather requires batching dimensions of equal size"):
        Gather(x, idx, GatherDimensionNumbers([1], [], [1], 1, operand_batching_dims=[0],
                                              start_indices_batching_dims=[0]), [1, 3])


def test_scatter_errors():
    b, (x, idx, u, i, f, m) = _error_builder()
    add = binary_computation(Add, "f32")
    with raises(ShapeError, r"Scatter requires update window dimension 1 \(4\) to fit its operand "
                            r"dimension \(3\)"):
        y = Parameter(b, 6, Shape.parse("f32[4,4]"))
        Scatter(x, idx, y, add, ROW_UPDATES)
    with raises(ShapeError, r"Scatter requires update scatter dimension 0 \(2\) to equal the "
                            r"matching scatter_indices dimension \(4\)"):
        Scatter(x, idx, Parameter(b, 7, Shape.parse("f32[2,3]")), add, ROW_UPDATES)
    with raises(ShapeError, r"Scatter requires updates of rank size\(update_window_dims\) \+ 1"):
        Scatter(x, idx, Parameter(b, 8, Shape.parse("f32[4,1,3]")), add, ROW_UPDATES)
    with raises(DTypeError, r"Scatter requires updates of their operand's element type; got updates "
                            r"s32\[4,1\] for operand f32\[5,3\]"):
        Scatter(x, idx, idx, add, ScatterDimensionNumbers([1], [0], [0], 1))
    with raises(InvalidArgumentError, r"Scatter requires inserted_window_dims in ascending order"):
        Scatter(x, m, Parameter(b, 9, Shape.parse("f32[2]")), add,
                ScatterDimensionNumbers([], [1, 0], [0, 1], 1))
    with raises(InvalidArgumentError, r"Scatter requires distinct scatter_dims_to_operand_dims and "
                                      r"input_batching_dims together; got \[0, 0\]"):
        Scatter(x, m, Parameter(b, 10, Shape.parse("f32[2,3]")), add,
                ScatterDimensionNumbers([1], [0], [0, 0], 1))
    with raises(InvalidArgumentError, r"Scatter requires an update_computation of 2 parameters"):
        Scatter(x, idx, u, _unary("f32"), ROW_UPDATES)
    with raises(DTypeError, r"Scatter requires an update_computation of shape \(p0: f32\[\], p1: "
                            r"f32\[\]\) -> f32\[\]; got \(.*s32\[\].*\)"):
        Scatter(x, idx, u, binary_computation(Add, "s32"), ROW_UPDATES)
    with raises(InvalidArgumentError, r"Scatter requires unique_indices to be a bool; got 'yes'"):
        Scatter(x, idx, u, add, ROW_UPDATES, unique_indices="yes")
    with raises(InvalidArgumentError, r"Scatter requires N >= 1 operands and as many updates; got 2 "
                                      r"operands and 1 updates"):
        Scatter([x, x], idx, [u], add, ROW_UPDATES)
    with raises(InvalidArgumentError, r"Scatter requires an XlaComputation update_computation"):
        Scatter(x, idx, u, Add, ROW_UPDATES)


def _unary(type_name):
    b = XlaBuilder("unary")
    (p,) = params(b, f"{type_name}[]")
    return b.build(p)
