"""End to end: BatchNormTraining, BatchNormInference and BatchNormGrad against the spec's
formulas in numpy and XLA CPU.

The pinned IREE rejects ``batch_norm_grad``; ``batchnorm-expander`` rewrites it (and, with
its options, training and inference) with the formulas of XLA's BatchNormExpander. IREE's
own training and inference are checked too (the default pipeline keeps them). The three
ops of one dtype and feature index share one module.
"""

import numpy as np
import pytest

import hlo_mlir
from hlo_mlir import (
    BatchNormGrad,
    BatchNormInference,
    BatchNormTraining,
    DTypeError,
    InvalidArgumentError,
    Parameter,
    Shape,
    ShapeError,
    Tuple,
    XlaBuilder,
    compiler,
)
from pipelines import registry
from tests.oracle import assert_close, run_iree, run_xla

rng = np.random.default_rng(5)
EPSILON = 1e-3


def references(x, scale, offset, mean, variance, dy, epsilon, feature_index):
    """The spec's formulas (the epsilon attribute is an f32)."""
    eps = float(np.float32(epsilon))
    axes = tuple(d for d in range(x.ndim) if d != feature_index)

    def bc(f):
        return np.expand_dims(f, axes)

    batch_mean, batch_var = x.mean(axes), x.var(axes)
    training = ((x - bc(batch_mean)) / np.sqrt(bc(batch_var) + eps) * bc(scale) + bc(offset), batch_mean,
                batch_var)
    inference = (x - bc(mean)) / np.sqrt(bc(variance) + eps) * bc(scale) + bc(offset)
    c = (dy * (x - bc(mean)) / (bc(variance) + eps)).mean(axes)
    d = dy.mean(axes)
    grad_x = bc(scale) / np.sqrt(bc(variance) + eps) * (dy - bc(d) - bc(c) * (x - bc(mean)))
    grad_scale = (dy * (x - bc(mean)) / np.sqrt(bc(variance) + eps)).sum(axes)
    return training, inference, (grad_x, grad_scale, dy.sum(axes))


@pytest.mark.parametrize("dtype, shape, feature_index", [
    (np.float32, (2, 3, 4, 5), 1),    # NCHW: the feature dimension in the middle
    (np.float32, (4, 3), 0),
    (np.float64, (2, 5, 3), 2),       # NHWC: the last dimension
], ids=["f32-nchw", "f32-first", "f64-last"])
def test_batchnorm_ops(dtype, shape, feature_index):
    features = shape[feature_index]
    x = (rng.normal(size=shape) * 2 + 0.5).astype(dtype)
    scale, offset = rng.normal(size=features).astype(dtype), rng.normal(size=features).astype(dtype)
    mean = rng.normal(size=features).astype(dtype)
    variance = rng.uniform(0.5, 2.0, size=features).astype(dtype)
    dy = rng.normal(size=shape).astype(dtype)
    b = XlaBuilder("batchnorm")
    px, ps, po, pm, pv, pdy = [Parameter(b, i, Shape.from_numpy(a))
                               for i, a in enumerate((x, scale, offset, mean, variance, dy))]
    comp = b.build(Tuple(b, [BatchNormTraining(px, ps, po, EPSILON, feature_index),
                             BatchNormInference(px, ps, po, pm, pv, EPSILON, feature_index),
                             BatchNormGrad(px, ps, pm, pv, pdy, EPSILON, feature_index)]))
    training, inference, grad = references(x, scale, offset, mean, variance, dy, EPSILON, feature_index)
    expected = tuple(np.asarray(r, dtype) for r in (*training, inference, *grad))
    args = (x, scale, offset, mean, variance, dy)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    default = compiler.as_module(comp)
    assert registry.get("batchnorm-expander")().run(default)
    assert "batch_norm_training" in str(default) and "batch_norm_grad" not in str(default)
    everything = compiler.as_module(comp)
    registry.get("batchnorm-expander")(training=True, inference=True).run(everything)
    assert "batch_norm" not in str(everything)
    for who, outs in (("hlo-mlir (IREE's training and inference)", run_iree(default, *args)),
                      ("hlo-mlir (all expanded)", run_iree(everything, *args)),
                      ("XLA", run_xla(comp, *args)),
                      ("XLA on the expanded module", run_xla(everything, *args))):
        assert_close(outs, expected, rtol=tol, atol=tol, what=f"{who} vs numpy")


def test_grad_is_rejected_by_iree_without_the_expander():
    b = XlaBuilder("raw")
    x, f = Parameter(b, 0, Shape.parse("f32[2,3]")), Parameter(b, 1, Shape.parse("f32[3]"))
    comp = b.build(BatchNormGrad(x, f, f, f, x, EPSILON, 1))
    with pytest.raises(hlo_mlir.CompileError,
                       match="failed to legalize operation 'stablehlo.batch_norm_grad'"):
        hlo_mlir.compile(comp, passes="O0", legalize=False)


def test_grad_through_hlo_mlir_compile():
    x, dy = rng.normal(size=(4, 2)).astype(np.float32), rng.normal(size=(4, 2)).astype(np.float32)
    ones = np.ones(2, np.float32)
    b = XlaBuilder("compile")
    px, pf, pdy = (Parameter(b, i, Shape.from_numpy(a)) for i, a in enumerate((x, ones, dy)))
    comp = b.build(BatchNormGrad(px, pf, pf, pf, pdy, EPSILON, 1))
    expected = references(x, ones, ones, ones, ones, dy, EPSILON, 1)[2]
    assert_close(run_iree(comp, x, ones, dy), expected, 1e-5, 1e-5, "compile")


@pytest.mark.parametrize("operand, feature, feature_index, error, match", [
    ("f32[2,3]", "f32[3]", 2, InvalidArgumentError,
     r"BatchNormTraining requires feature_index in \[0, 2\) for operand f32\[2,3\]; got 2"),
    ("f32[2,3]", "f32[2]", 1, ShapeError,
     r"BatchNormTraining requires scale of shape f32\[3\] \(the operand's element type and feature "
     r"dimension 1 of f32\[2,3\]\); got f32\[2\]"),
    ("f32[2,3]", "f64[3]", 1, ShapeError, r"BatchNormTraining requires scale of shape f32\[3\]"),
    ("s32[2,3]", "s32[3]", 1, DTypeError,
     r"BatchNormTraining requires a floating-point operand; got s32\[2,3\]"),
])
def test_batchnorm_training_errors(operand, feature, feature_index, error, match):
    b = XlaBuilder("bad")
    x, f = Parameter(b, 0, Shape.parse(operand)), Parameter(b, 1, Shape.parse(feature))
    with pytest.raises(error, match=match):
        BatchNormTraining(x, f, f, EPSILON, feature_index)


def test_batchnorm_inference_and_grad_errors():
    b = XlaBuilder("bad")
    x, f = Parameter(b, 0, Shape.parse("f32[2,3]")), Parameter(b, 1, Shape.parse("f32[3]"))
    wrong = Parameter(b, 2, Shape.parse("f32[3,2]"))
    with pytest.raises(ShapeError,
                       match=r"BatchNormInference requires variance of shape f32\[3\] .*got f32\[3,2\]"):
        BatchNormInference(x, f, f, f, wrong, EPSILON, 1)
    with pytest.raises(ShapeError, match=r"BatchNormGrad requires grad_output of the operand's shape "
                                         r"f32\[2,3\]; got f32\[3,2\]"):
        BatchNormGrad(x, f, f, f, wrong, EPSILON, 1)
    with pytest.raises(InvalidArgumentError, match=r"BatchNormGrad requires a float epsilon; got 'small'"):
        BatchNormGrad(x, f, f, f, x, "small", 1)
