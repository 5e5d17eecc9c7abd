"""The runtime's contract: numpy in, numpy out, clear errors, caller arrays untouched.

Compiled modules are shared per file (each IREE compile costs ~0.5-1 s). Vulkan
tests run on Mesa's llvmpipe in CI (tests/conftest.py skips them only when the
machine has no Vulkan driver at all).
"""

from __future__ import annotations

import numpy as np
import pytest

import hlo_mlir
from hlo_mlir import (
    Add,
    CallArgumentError,
    ConstantR0,
    Dot,
    GetTupleElement,
    Max,
    Mul,
    Parameter,
    Reduce,
    RuntimeCallError,
    ScalarLike,
    Shape,
    Tuple,
    XlaBuilder,
)
from hlo_mlir.runtime import load

LOCAL_DRIVERS = ("local-sync", "local-task")


def _axpy():
    b = XlaBuilder("axpy")
    a = Parameter(b, 0, Shape.parse("f32[4]"), "a")
    x = Parameter(b, 1, Shape.parse("f32[4]"), "x")
    return b.build(a * x + 1.0)


@pytest.fixture(scope="module")
def axpy_vmfb() -> bytes:
    return hlo_mlir.compile(_axpy())


@pytest.fixture(scope="module")
def axpy(axpy_vmfb):
    return load(axpy_vmfb)


def _sum(dtype: str):
    b = XlaBuilder(f"sum_{dtype}")
    x, y = (Parameter(b, i, Shape.parse(f"{dtype}[]")) for i in range(2))
    return b.build(Add(x, y))


# --- argument checking --------------------------------------------------------------------
def test_argument_count_is_checked(axpy):
    with pytest.raises(RuntimeCallError, match=r"main takes 2 argument\(s\) \(f32\[4\], f32\[4\]\) -> "
                                               r"\(f32\[4\]\); got 1\."):
        axpy.main(np.ones(4, np.float32))
    with pytest.raises(RuntimeCallError, match=r"takes 2 argument\(s\).*got 3\."):
        axpy.main(*[np.ones(4, np.float32)] * 3)


def test_wrong_shape_and_dtype_name_the_argument(axpy):
    ones = np.ones(4, np.float32)
    with pytest.raises(RuntimeCallError, match=r"main: argument 1: expected f32\[4\]; got s64\[3\]\."):
        axpy.main(ones, np.arange(3, dtype=np.int64))
    with pytest.raises(RuntimeCallError, match=r"argument 0: expected f32\[4\]; got f64\[4\]\."):
        axpy.main(np.ones(4), ones)  # no silent narrowing of f64 to f32
    with pytest.raises(RuntimeCallError, match=r"argument 1: expected f32\[4\]; got f32\[2,2\]\."):
        axpy.main(ones, np.ones((2, 2), np.float32))
    with pytest.raises(RuntimeCallError, match=r"argument 0: expected f32\[4\]; got str\."):
        axpy.main("abcd", ones)


def test_python_scalars_convert_only_when_exact():
    m = load(hlo_mlir.compile(_sum("s32")))
    assert m.main(2, 3) == 5 and m.main(2, 3).dtype == np.int32
    with pytest.raises(RuntimeCallError, match=r"argument 1: expected s32\[\]; got s64\[\]\."):
        m.main(1, 2**40)  # does not fit in s32
    with pytest.raises(RuntimeCallError, match=r"argument 0: expected s32\[\]; got f64\[\]\."):
        m.main(1.5, 2)


def test_results_match_numpy_on_both_local_drivers(axpy_vmfb):
    a = np.array([1.5, -2.0, 0.0, 3.25], np.float32)
    x = np.array([2.0, 4.0, -1.0, 0.5], np.float32)
    for driver in LOCAL_DRIVERS:
        out = load(axpy_vmfb, driver).main(a, x)
        assert out.dtype == np.float32 and out.shape == (4,)
        np.testing.assert_array_equal(out, a * x + 1.0)


def test_results_are_fresh_writable_arrays(axpy):
    ones = np.ones(4, np.float32)
    first = axpy.main(ones, ones)
    first[:] = 99.0
    np.testing.assert_array_equal(axpy.main(ones, ones), np.full(4, 2.0, np.float32))


def test_non_contiguous_and_read_only_inputs(axpy):
    base = np.arange(8, dtype=np.float32)
    strided = base[::2]  # [0, 2, 4, 6], not contiguous
    frozen = np.array([1, 2, 3, 4], np.float32)
    frozen.setflags(write=False)
    np.testing.assert_array_equal(axpy.main(strided, frozen), strided * frozen + 1.0)
    fortran = np.asfortranarray(np.arange(4, dtype=np.float32))
    np.testing.assert_array_equal(axpy.main(fortran, frozen), fortran * frozen + 1.0)


# --- the caller's arrays never change ------------------------------------------------------
_IN_PLACE_MLIR = """
func.func @update(%x: tensor<8xf32>, %u: tensor<2xf32>, %i: tensor<i32>) -> tensor<8xf32> {
  %0 = stablehlo.dynamic_update_slice %x, %u, %i
      : (tensor<8xf32>, tensor<2xf32>, tensor<i32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @scatter(%x: tensor<8xf32>, %idx: tensor<2x1xi32>, %u: tensor<2xf32>) -> tensor<8xf32> {
  %0 = "stablehlo.scatter"(%x, %idx, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>,
      indices_are_sorted = false, unique_indices = false}
      : (tensor<8xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""


@pytest.mark.parametrize("driver", LOCAL_DRIVERS)
def test_programs_that_update_in_place_never_change_caller_arrays(driver):
    # IREE writes dynamic_update_slice/scatter results into the argument buffer
    # (iree-org/iree#16168); the runtime must hand it a copy.
    m = load(hlo_mlir.compile(_IN_PLACE_MLIR), driver)
    x = np.arange(8, dtype=np.float32)
    u = np.array([-1.0, -2.0], np.float32)
    idx = np.array([[1], [6]], np.int32)
    saved = [a.copy() for a in (x, u, idx)]
    for _ in range(2):  # a second call must see the original x again
        expected = x.copy()
        expected[3:5] = u
        np.testing.assert_array_equal(m["update"](x, u, np.int32(3)), expected)
        expected = x.copy()
        expected[[1, 6]] = u
        np.testing.assert_array_equal(m.scatter(x, idx, u), expected)
    for a, s in zip((x, u, idx), saved, strict=True):
        np.testing.assert_array_equal(a, s)


# --- driver choice and result buffers ---------------------------------------------------------
def _matmul(n: int):
    b = XlaBuilder(f"matmul_{n}")
    x, y = (Parameter(b, i, Shape.parse(f"f32[{n},{n}]")) for i in range(2))
    return b.build(Dot(x, y))


def test_load_picks_the_driver_the_vmfb_prefers(axpy_vmfb):
    # Tiny kernels run on the calling thread; a 256^3 matrix product (16M multiply-adds)
    # on the thread pool. A named driver always wins.
    assert load(axpy_vmfb).driver == "local-sync"
    assert load(hlo_mlir.compile(_matmul(256))).driver == "local-task"
    assert load(axpy_vmfb, "local-task").driver == "local-task"
    m = hlo_mlir.compiler.as_module(_axpy())
    assert [hlo_mlir.compiler.preferred_driver(m, t) for t in ("vulkan-spirv", "cuda")] == ["vulkan", "cuda"]


def test_results_outlive_their_call_and_are_independent(axpy_vmfb):
    # Results are the mapped result buffers (no copy); they stay valid and distinct while
    # later calls allocate and free buffers (the caching allocator reuses freed ones).
    m = load(hlo_mlir.compile(_matmul(64)), "local-task")
    eye = np.eye(64, dtype=np.float32)
    outs = [(k, m.main(eye * k, eye)) for k in range(20)]
    for _ in range(20):
        m.main(eye, eye)
    for k, out in outs:
        np.testing.assert_array_equal(out, eye * k)
    out = outs[0][1]
    out[0, 0] = 7.0  # writable, and writing touches nothing the next call sees
    np.testing.assert_array_equal(m.main(eye, eye), eye)


@pytest.mark.parametrize("allocator", ["caching", "default"])
def test_allocators(axpy_vmfb, allocator):
    m = load(axpy_vmfb, "local-task", allocator=allocator)
    np.testing.assert_array_equal(m.main(np.ones(4, np.float32), np.arange(4, dtype=np.float32)),
                                  np.arange(4, dtype=np.float32) + 1)
    with pytest.raises(RuntimeCallError, match=r"load requires an allocator in \['caching', 'default'\]; "
                                               r"got 'pool'\."):
        load(axpy_vmfb, allocator="pool")


# --- tuples ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tuple_vmfb():
    b = XlaBuilder("tuples")
    pair = Parameter(b, 0, Shape.parse("(f32[2], s32[3])"), "pair")
    y = Parameter(b, 1, Shape.parse("f32[2]"), "y")
    first, second = GetTupleElement(pair, 0), GetTupleElement(pair, 1)
    return hlo_mlir.compile(b.build(Tuple(b, [first + y, Tuple(b, [second * 2, first])])))


@pytest.mark.parametrize("driver", LOCAL_DRIVERS)
def test_tuple_parameters_and_results(tuple_vmfb, driver):
    m = load(tuple_vmfb, driver)
    a, i = np.array([1.0, 2.0], np.float32), np.array([1, -2, 3], np.int32)
    y = np.array([0.5, 4.0], np.float32)
    out = m.main((a, i), y)
    # A tuple result comes back as a flat tuple of its leaves, depth first.
    assert isinstance(out, tuple) and len(out) == 3
    np.testing.assert_array_equal(out[0], a + y)
    np.testing.assert_array_equal(out[1], i * 2)
    np.testing.assert_array_equal(out[2], a)
    assert [o.dtype for o in out] == [np.float32, np.int32, np.float32]


def test_tuple_argument_errors_name_the_element(tuple_vmfb):
    m = load(tuple_vmfb)
    a, y = np.ones(2, np.float32), np.ones(2, np.float32)
    with pytest.raises(RuntimeCallError,
                       match=r"argument 0: expected a tuple \(f32\[2\], s32\[3\]\); got f32\[2\]\."):
        m.main(a, y)
    with pytest.raises(RuntimeCallError, match=r"argument 0: expected a tuple .*; got a tuple of 1\."):
        m.main((a,), y)
    with pytest.raises(RuntimeCallError, match=r"argument 0\[1\]: expected s32\[3\]; got f32\[3\]\."):
        m.main((a, np.ones(3, np.float32)), y)


# --- loading -------------------------------------------------------------------------------
def test_load_from_path(axpy_vmfb, tmp_path):
    path = tmp_path / "axpy.vmfb"
    path.write_bytes(axpy_vmfb)
    ones = np.ones(4, np.float32)
    for source in (path, str(path)):
        np.testing.assert_array_equal(load(source).main(ones, ones), np.full(4, 2.0, np.float32))
    with pytest.raises(RuntimeCallError, match=r"could not read vmfb .*missing\.vmfb.*No such file"):
        load(tmp_path / "missing.vmfb")


def _flip_bytes(data: bytes) -> bytes:
    out = bytearray(data)
    for i in range(64, len(out), 97):
        out[i] ^= 0xFF
    return bytes(out)


@pytest.mark.parametrize("corrupt", [
    pytest.param(lambda v: b"", id="empty"),
    pytest.param(lambda v: b"not a vmfb" * 16, id="garbage"),
    pytest.param(lambda v: v[: len(v) // 2], id="truncated"),
    pytest.param(_flip_bytes, id="flipped-bytes"),
])
def test_corrupted_vmfb_is_a_clear_error(axpy_vmfb, corrupt):
    with pytest.raises(RuntimeCallError,
                       match=r"could not load the vmfb on driver 'local-task': .*INVALID_ARGUMENT"):
        load(corrupt(axpy_vmfb), "local-task")
    with pytest.raises(RuntimeCallError, match=r"could not load the vmfb: .*INVALID_ARGUMENT"):
        load(corrupt(axpy_vmfb))


def test_load_argument_errors(axpy_vmfb):
    with pytest.raises(RuntimeCallError, match=r"load requires vmfb bytes or a path; got int\."):
        load(123)
    with pytest.raises(RuntimeCallError, match=r"load requires a driver in \['local-sync', 'local-task', "
                                               r"'vulkan', 'cuda'\] or None; got 'metal'\."):
        load(axpy_vmfb, "metal")
    m = load(axpy_vmfb)
    with pytest.raises(RuntimeCallError, match=r"no function 'nope'; the module has \['main'\]\."):
        m["nope"]
    with pytest.raises(RuntimeCallError, match=r"no function 'nope'"):
        m.nope  # noqa: B018


def test_vmfb_for_another_device_is_rejected_at_load():
    vmfb = hlo_mlir.compile(_axpy(), "vulkan-spirv")
    with pytest.raises(RuntimeCallError, match=r"compiled for a target that driver 'local-sync' cannot run"):
        load(vmfb, "local-sync")


# --- Vulkan (Mesa llvmpipe in CI) ---------------------------------------------------------------
@pytest.mark.vulkan
def test_vulkan_elementwise_and_tuple_results(tuple_vmfb):
    vmfb = hlo_mlir.compile(_axpy(), "vulkan-spirv")
    m = load(vmfb, "vulkan")
    a = np.array([1.5, -2.0, 0.0, 3.25], np.float32)
    x = np.array([2.0, 4.0, -1.0, 0.5], np.float32)
    np.testing.assert_array_equal(m.main(a, x), a * x + 1.0)
    np.testing.assert_array_equal(m.main(x, a), a * x + 1.0)  # second call, fresh buffers
    b = XlaBuilder("tuples")
    pair = Parameter(b, 0, Shape.parse("(f32[2], s32[3])"))
    out = load(hlo_mlir.compile(b.build(Tuple(b, [GetTupleElement(pair, 1), GetTupleElement(pair, 0)])),
                                "vulkan-spirv"), "vulkan").main((a[:2], np.array([7, 8, 9], np.int32)))
    np.testing.assert_array_equal(out[0], [7, 8, 9])
    np.testing.assert_array_equal(out[1], a[:2])


@pytest.mark.vulkan
@pytest.mark.parametrize("dtype", ["f32", "f16", "s32", "s64", "u8", "f64"])
def test_vulkan_dtypes(dtype):
    b = XlaBuilder(f"vk_{dtype}")
    x = Parameter(b, 0, Shape.parse(f"{dtype}[5]"))
    y = Parameter(b, 1, Shape.parse(f"{dtype}[5]"))
    m = load(hlo_mlir.compile(b.build(Max(x, y) + Mul(x, y)), "vulkan-spirv"), "vulkan")
    np_dtype = Shape.parse(f"{dtype}[]").dtype
    xs = np.array([1, 0, 7, 4, 5]).astype(np_dtype)
    ys = np.array([3, 1, 0, 2, 6]).astype(np_dtype)
    out = m.main(xs, ys)
    assert out.dtype == np_dtype
    np.testing.assert_array_equal(out, np.maximum(xs, ys) + xs * ys)


@pytest.mark.vulkan
def test_vulkan_mlp_and_reduction():
    rng = np.random.default_rng(7)
    b = XlaBuilder("vk_mlp")
    x = Parameter(b, 0, Shape.parse("f32[8,16]"), "x")
    w = Parameter(b, 1, Shape.parse("f32[16,4]"), "w")
    bias = Parameter(b, 2, Shape.parse("f32[4]"), "bias")
    h = Max(Add(Dot(x, w), bias, [1]), ScalarLike(x, 0.0))
    rb = XlaBuilder("add_f32")
    reducer = rb.build(Add(Parameter(rb, 0, Shape.parse("f32[]")), Parameter(rb, 1, Shape.parse("f32[]"))))
    comp = b.build(Tuple(b, [h, Reduce(h, ScalarLike(x, 0.0), reducer, [0])]))
    args = [rng.standard_normal(s).astype(np.float32) for s in ((8, 16), (16, 4), (4,))]
    relu = np.maximum(args[0] @ args[1] + args[2], 0)
    out = load(hlo_mlir.compile(comp, "vulkan-spirv"), "vulkan").main(*args)
    np.testing.assert_allclose(out[0], relu, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out[1], relu.sum(axis=0), rtol=1e-5, atol=1e-5)


@pytest.mark.vulkan
def test_vulkan_zero_element_result():
    b = XlaBuilder("vk_empty")
    x = Parameter(b, 0, Shape.parse("f32[0,3]"))
    out = load(hlo_mlir.compile(b.build(x + x), "vulkan-spirv"), "vulkan").main(np.zeros((0, 3), np.float32))
    assert out.shape == (0, 3) and out.dtype == np.float32


def test_bounded_dynamic_parameter_takes_any_size_up_to_its_bound():
    b = XlaBuilder("dynamic_argument")
    x = Parameter(b, 0, Shape.parse("f32[<=4,3]"))
    add = XlaBuilder("add")
    add = add.build(Add(Parameter(add, 0, Shape.parse("f32[]")), Parameter(add, 1, Shape.parse("f32[]"))))
    module = load(hlo_mlir.compile(b.build(Reduce(x, ConstantR0(b, np.float32(0)), add, [0]))))
    for rows in (4, 2, 0):
        a = np.arange(rows * 3, dtype=np.float32).reshape(rows, 3)
        np.testing.assert_array_equal(module.main(a), a.sum(0))
    with pytest.raises(CallArgumentError, match=r"argument 0: expected f32\[<=4,3\]; got f32\[5,3\]"):
        module.main(np.zeros((5, 3), np.float32))
