# RUN: %python %s | filecheck %s
"""Builder output of the window family (one TEST per case)."""

import numpy as np

from hlo_mlir import (
    Add,
    ConstantR0,
    Ge,
    Max,
    Parameter,
    ReduceWindow,
    ReduceWindowWithGeneralPadding,
    SelectAndScatter,
    Shape,
    XlaBuilder,
)

from harness import test


def scalar_computation(name, fn, type_name="f32"):
    b = XlaBuilder(name)
    fn(Parameter(b, 0, Shape.parse(f"{type_name}[]")), Parameter(b, 1, Shape.parse(f"{type_name}[]")))
    return b.build()


MAX, ADD, GE = scalar_computation("max", Max), scalar_computation("add", Add), scalar_computation("ge", Ge)


# CHECK-LABEL: TEST: max_pool_same
# CHECK: %[[INIT:.*]] = stablehlo.constant dense<0xFF800000> : tensor<f32>
# CHECK: "stablehlo.reduce_window"(%arg0, %[[INIT]])
# CHECK-SAME: padding = dense<{{\[}}[0, 1], [0, 1]]> : tensor<2x2xi64>
# CHECK-SAME: window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>
# CHECK: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
# CHECK: %[[M:.*]] = stablehlo.maximum %[[A]], %[[B]] : tensor<f32>
# CHECK: stablehlo.return %[[M]]
# CHECK: (tensor<5x6xf32>, tensor<f32>) -> tensor<3x3xf32>
test("max_pool_same", lambda b: ReduceWindow(Parameter(b, 0, Shape.parse("f32[5,6]")),
                                             ConstantR0(b, np.float32(-np.inf)), MAX, [2, 3], [2, 2], "SAME"))

# CHECK-LABEL: TEST: general_padding
# CHECK: "stablehlo.reduce_window"
# CHECK-SAME: base_dilations = array<i64: 2>, padding = dense<{{\[}}[-1, 2]]> : tensor<1x2xi64>
# CHECK-SAME: window_dilations = array<i64: 3>, window_dimensions = array<i64: 2>,
# CHECK-SAME: window_strides = array<i64: 1>
# CHECK: (tensor<4xi32>, tensor<i32>) -> tensor<5xi32>
test("general_padding", lambda b: ReduceWindowWithGeneralPadding(
    Parameter(b, 0, Shape.parse("s32[4]")), ConstantR0(b, np.int32(0)), scalar_computation("add", Add, "s32"),
    [2], [1], [2], [3], [(-1, 2)]))

# CHECK-LABEL: TEST: select_and_scatter
# CHECK: "stablehlo.select_and_scatter"(%arg0, %arg1, %{{.*}})
# CHECK-SAME: padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 3>,
# CHECK-SAME: window_strides = array<i64: 2, 3>
# CHECK: stablehlo.compare GE
# CHECK: stablehlo.return %{{.*}} : tensor<i1>
# CHECK: stablehlo.add
# CHECK: (tensor<4x6xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x6xf32>
test("select_and_scatter", lambda b: SelectAndScatter(
    Parameter(b, 0, Shape.parse("f32[4,6]")), GE, [2, 3], [2, 3], "VALID", Parameter(b, 1,
                                                                                     Shape.parse("f32[2,2]")),
    ConstantR0(b, np.float32(0)), ADD))
