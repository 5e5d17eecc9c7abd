# RUN: %python %s | filecheck %s
"""Builder output of dialect_ops.reduction: Reduce, ReducePrecision (one TEST per case)."""

import numpy as np

from hlo_mlir import (
    ConstantR0,
    Ge,
    Iota,
    Max,
    Parameter,
    Reduce,
    ReducePrecision,
    Select,
    Shape,
    Tuple,
    XlaBuilder,
)

from harness import add_f32, test


def max_index():
    """(max, argmax, value, index) -> the pair with the larger value (the spec's example)."""
    r = XlaBuilder("max_index")
    m, i = Parameter(r, 0, Shape.parse("f32[]")), Parameter(r, 1, Shape.parse("s32[]"))
    v, k = Parameter(r, 2, Shape.parse("f32[]")), Parameter(r, 3, Shape.parse("s32[]"))
    take = Ge(v, m)
    return r.build(Tuple(r, [Select(take, v, m), Select(take, k, i)]))


# Check that a simple reducer prints in the compact form and dimensions are kept as given.
# CHECK-LABEL: TEST: reduce_add
# CHECK: %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
# CHECK: stablehlo.reduce(%arg0 init: %[[Z]]) applies stablehlo.add across dimensions = [2, 0]
# CHECK-SAME: (tensor<2x3x4xf32>, tensor<f32>) -> tensor<3xf32>
test("reduce_add", lambda b: Reduce(Parameter(b, 0, Shape.parse("f32[2,3,4]")), ConstantR0(b, 0.0), add_f32(),
                                    [2, 0]))

# Check that the variadic form inlines a tuple-returning reducer as N returned scalars
# and gives a tuple of the N results.
# CHECK-LABEL: TEST: reduce_variadic
# CHECK: %[[R:.*]]:2 = stablehlo.reduce(%arg0 init: %{{.*}}), (%{{.*}} init: %{{.*}}) across dimensions = [1]
# CHECK-SAME: -> (tensor<3xf32>, tensor<3xi32>)
# CHECK-NEXT: reducer(%[[M:.*]]: tensor<f32>, %[[V:.*]]: tensor<f32>)
# CHECK-SAME: (%[[I:.*]]: tensor<i32>, %[[K:.*]]: tensor<i32>)
# CHECK: %[[T:.*]] = stablehlo.compare GE, %[[V]], %[[M]]
# CHECK-NOT: stablehlo.tuple
# CHECK: stablehlo.return %{{.*}}, %{{.*}} : tensor<f32>, tensor<i32>
# CHECK: stablehlo.tuple %[[R]]#0, %[[R]]#1 : tuple<tensor<3xf32>, tensor<3xi32>>
test("reduce_variadic", lambda b: Reduce(
    b, [Parameter(b, 0, Shape.parse("f32[3,5]")), Iota(b, Shape.parse("s32[3,5]"), 1)],
    [ConstantR0(b, -np.inf), ConstantR0(b, np.int32(-1))], max_index(), [1]))


def _nested_reducer():
    r = XlaBuilder("max_of")
    m = Max(Parameter(r, 0, Shape.parse("s32[]")), Parameter(r, 1, Shape.parse("s32[]")))
    return r.build(m)


# CHECK-LABEL: TEST: reduce_max_s32
# CHECK: stablehlo.reduce(%arg0 init: %{{.*}}) applies stablehlo.maximum across dimensions = [0]
# CHECK-SAME: (tensor<0x2xi32>, tensor<i32>) -> tensor<2xi32>
test("reduce_max_s32", lambda b: Reduce(Parameter(b, 0, Shape.parse("s32[0,2]")), ConstantR0(b, np.int32(7)),
                                        _nested_reducer(), [0]))

# CHECK-LABEL: TEST: reduce_precision
# CHECK: stablehlo.reduce_precision %arg0, format = e5m10 : tensor<4xf32>
test("reduce_precision", lambda b: ReducePrecision(Parameter(b, 0, Shape.parse("f32[4]")), 5, 10))
