"""Test references nobody here wrote: XLA CPU (through jax) and the run helpers.

All use of jax's private API (``jax._src``) lives in this one module; jax is pinned.

- ``run_xla(computation_or_text, *args)``: runs the same StableHLO module on XLA CPU.
- ``run_iree(computation, *args, target=..., driver=...)``: compiles with hlo-mlir, runs.
- ``check(computation, args, expected)``: runs both and compares each with ``expected``
  (a numpy reference) and with each other.
"""

from __future__ import annotations

import functools
import os
from typing import Sequence

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "1")

import numpy as np
import pytest

import hlo_mlir
from hlo_mlir.shape import Shape

# Targets of the tests that also run on Vulkan where a driver is installed (the ``vulkan``
# marker), and the driver each target runs on.
TARGETS = ["llvm-cpu", pytest.param("vulkan-spirv", marks=pytest.mark.vulkan)]
DRIVER = {"llvm-cpu": "local-task", "vulkan-spirv": "vulkan"}


@functools.cache
def _backend():
    import jax
    import jax.extend.backend
    from jax._src.lib import xla_client

    jax.config.update("jax_enable_x64", True)
    client = jax.extend.backend.get_backend("cpu")
    return client, xla_client


def _flat_entry_text(computation, opaque_constants: bool = False) -> tuple[str, list[Shape], list[Shape]]:
    """MLIR text whose @main takes and returns only arrays (PjRt rejects tuples); with
    ``opaque_constants`` every constant is read through an ``optimization_barrier``."""
    from iree.compiler import ir

    from hlo_mlir import _emit, context, ir_access

    module = hlo_mlir.compiler.as_module(computation)
    if opaque_constants:
        _fence_constants(module)
    main = ir_access.entry_function(module)
    if main is None:
        raise ValueError("the oracle requires a module with a public @main function")
    ftype = ir_access.function_type(main)
    params = [Shape.from_mlir_type(t) for t in ftype.inputs]
    results = [Shape.from_mlir_type(t) for t in ftype.results]
    if not any(s.is_tuple for s in params + results):
        return module.operation.get_asm(), params, results
    with context.get_context(), ir.Location.unknown():
        ir.SymbolTable.set_symbol_name(main, "hlo_mlir_inner")
        main.attributes["sym_visibility"] = ir.StringAttr.get("private")
        flat_in = [leaf for s in params for leaf in s.leaves()]
        flat_out = [leaf for s in results for leaf in s.leaves()]
        with ir.InsertionPoint(module.body):
            wrapper = _emit.func_op("main", [s.to_mlir_type() for s in flat_in],
                                    [s.to_mlir_type() for s in flat_out])
        block = wrapper.body.blocks[0]
        args = iter(block.arguments)
        with ir.InsertionPoint(block):
            def pack(shape):
                if not shape.is_tuple:
                    return next(args)
                return _emit.create("stablehlo.tuple", [pack(s) for s in shape.tuple_shapes],
                                    [shape.to_mlir_type()]).result

            def unpack(value, shape, out):
                if not shape.is_tuple:
                    out.append(value)
                    return
                for i, s in enumerate(shape.tuple_shapes):
                    gte = _emit.create("stablehlo.get_tuple_element", [value], [s.to_mlir_type()],
                                       {"index": ir.IntegerAttr.get(ir.IntegerType.get_signless(32), i)})
                    unpack(gte.result, s, out)

            inner = _emit.call("hlo_mlir_inner", [pack(s) for s in params],
                               [s.to_mlir_type() for s in results])
            outs: list = []
            for v, s in zip(inner, results, strict=True):
                unpack(v, s, outs)
            _emit.func_return(outs)
    return module.operation.get_asm(), params, results


def _fence_constants(module) -> None:
    """Reads every ``stablehlo.constant`` of ``module`` (nested ones too) through an
    ``optimization_barrier``: the same values, which XLA can no longer evaluate at compile time."""
    from hlo_mlir import context
    from pipelines.matchers import ops_where
    from pipelines.operand_fences import fence_results

    with context.get_context():
        for constant in ops_where(module, lambda op: op.name == "stablehlo.constant"):
            fence_results(constant)


def _flatten(args, shapes):
    flat = []
    for a, s in zip(args, shapes, strict=True):
        if s.is_tuple:
            flat.extend(_flatten(a, s.tuple_shapes))
        else:
            flat.append(np.asarray(a, dtype=s.dtype))
    return flat


def run_xla(computation, *args, strict: bool = False, disable: Sequence[str] = (),
            opaque_constants: bool = False):
    """Runs ``computation`` on XLA CPU; returns an array or a flat tuple like hlo_mlir.runtime.

    ``strict`` disables XLA's algebraic simplifier (use it when XLA checks a pass of ours).
    ``disable`` names more XLA passes to turn off: the fuzzer (tests/fuzz) turns off
    ``constant_folding``, whose evaluator differs from XLA's compiled code (jaxlib 0.10.2:
    ``clz`` of a negative constant gives -32 where the compiled op gives 0), and asks XLA
    without ``fusion`` for a second opinion (a fused ``atan2(iota, iota)`` gives NaN at 0).
    ``opaque_constants`` reads every constant through an optimization barrier: XLA then
    computes at run time what it would evaluate at compile time (jaxlib 0.10.2 compares two
    compile-time NaNs as unordered under TOTALORDER, where the spec and its run-time code
    order them).
    """
    client, xc = _backend()
    text, params, results = _flat_entry_text(computation, opaque_constants)
    options = xc.CompileOptions()
    disabled = (["algsimp"] if strict else []) + list(disable)
    if disabled:
        options.env_option_overrides = [("xla_disable_hlo_passes", ",".join(disabled))]
    dev = client.local_devices()[0]
    exe = client.compile_and_load(text, xc.DeviceList((dev,)), options)
    from jax._src import core
    from jax.sharding import SingleDeviceSharding

    bufs = []
    for x in _flatten(args, params):
        aval = core.ShapedArray(x.shape, x.dtype)
        bufs.append(xc.batched_device_put(aval, SingleDeviceSharding(dev), [x], [dev], True, True,
                                          xc.HostBufferSemantics.IMMUTABLE_ONLY_DURING_CALL,
                                          enable_x64=True))
    out = exe.execute(bufs)
    outs = [np.asarray(o) for o in out]
    if len(results) == 1 and not results[0].is_tuple:
        return outs[0]
    return tuple(outs)


def _dump(computation) -> None:
    folder = os.environ.get("HLO_MLIR_DUMP_DIR")
    if not folder:
        return
    import hashlib

    text = hlo_mlir.compiler.as_module(computation).operation.get_asm()
    name = hashlib.sha256(text.encode()).hexdigest()[:16]
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"{name}.mlir"), "w") as f:
        f.write(text)


def run_iree(computation, *args, target: str = "llvm-cpu", driver: str | None = None, flags=(),
             **compile_kwargs):
    """Compiles with ``hlo_mlir.compile`` (``compile_kwargs``: e.g. ``legalize=False`` to see
    what the pinned IREE does on its own) and runs ``main`` on ``driver`` (by default the
    target's own, ``DRIVER[target]``)."""
    vmfb = hlo_mlir.compile(computation, target=target, flags=flags, **compile_kwargs)
    return hlo_mlir.runtime.load(vmfb, driver=driver or DRIVER[target]).main(*args)


def assert_close(actual, expected, rtol=1e-5, atol=1e-6, what=""):
    if isinstance(expected, (tuple, list)):
        assert isinstance(actual, (tuple, list)) and len(actual) == len(expected), \
            f"{what}: expected {len(expected)} outputs, got {actual!r}"
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            assert_close(a, e, rtol, atol, f"{what}[{i}]")
        return
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    assert actual.dtype == expected.dtype, f"{what}: dtype {actual.dtype} != {expected.dtype}"
    if expected.dtype.kind in "biu":
        np.testing.assert_array_equal(actual, expected, err_msg=what)
    else:
        wide = np.complex128 if expected.dtype.kind == "c" else np.float64
        np.testing.assert_allclose(actual.astype(wide), expected.astype(wide),
                                   rtol=rtol, atol=atol, equal_nan=True, err_msg=what)


def check(computation, args, expected, rtol=1e-5, atol=1e-6, xla: bool = True, **run_kwargs):
    """Compiles and runs ``computation`` with hlo-mlir and XLA; both must match ``expected``.

    With ``HLO_MLIR_DUMP_DIR`` set, the module is also saved there (``<sha>.mlir``): the
    corpus that ``tests/e2e/test_o2_semantics.py`` runs ``hlo-opt --verify-semantics`` over.
    """
    _dump(computation)
    ours = run_iree(computation, *args, **run_kwargs)
    assert_close(ours, expected, rtol, atol, "hlo-mlir vs numpy")
    if xla:
        theirs = run_xla(computation, *args)
        assert_close(theirs, expected, rtol, atol, "XLA vs numpy")
    return ours
