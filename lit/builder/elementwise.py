# RUN: %python %s | filecheck %s
"""Builder output of the element-wise family (one TEST per case)."""

import numpy as np

from hlo_mlir import (
    Abs,
    Add,
    BitcastConvertType,
    Clamp,
    Complex,
    ConvertElementType,
    EqTotalOrder,
    Lt,
    Parameter,
    PrimitiveType,
    Select,
    Shape,
)

from harness import test

# CHECK-LABEL: TEST: add_broadcast_dimensions
# CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
# CHECK: stablehlo.add %arg0, %[[B]] : tensor<2x3xf32>
test("add_broadcast_dimensions", lambda b: Add(Parameter(b, 0, Shape.parse("f32[2,3]")),
                                               Parameter(b, 1, Shape.parse("f32[3]")), [1]))

# CHECK-LABEL: TEST: degenerate_broadcast
# CHECK-DAG: stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x3xf32>
# CHECK-DAG: stablehlo.broadcast_in_dim %arg1, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<2x3xf32>
# CHECK: stablehlo.add
test("degenerate_broadcast", lambda b: Add(Parameter(b, 0, Shape.parse("f32[2,1]")),
                                           Parameter(b, 1, Shape.parse("f32[1,3]"))))

# CHECK-LABEL: TEST: scalar_operator
# CHECK: %[[C:.*]] = stablehlo.constant dense<2.000000e+00> : tensor<f32>
# CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %[[C]], dims = []
# CHECK: stablehlo.multiply %arg0, %[[B]] : tensor<4xf32>
test("scalar_operator", lambda b: Parameter(b, 0, Shape.parse("f32[4]")) * 2.0)

# CHECK-LABEL: TEST: abs_complex
# CHECK: stablehlo.abs %arg0 : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
test("abs_complex", lambda b: Abs(Parameter(b, 0, Shape.parse("c64[3]"))))

# CHECK-LABEL: TEST: compare_total_order
# CHECK: stablehlo.compare EQ, %arg0, %arg1, TOTALORDER : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
test("compare_total_order", lambda b: EqTotalOrder(Parameter(b, 0, Shape.parse("f32[2]")),
                                                   Parameter(b, 1, Shape.parse("f32[2]"))))

# CHECK-LABEL: TEST: compare_unsigned
# CHECK: stablehlo.compare LT, %arg0, %arg1, UNSIGNED
test("compare_unsigned", lambda b: Lt(Parameter(b, 0, Shape.parse("u8[2]")),
                                      Parameter(b, 1, Shape.parse("u8[2]"))))


def _select(b):
    x = Parameter(b, 0, Shape.parse("s32[3]"))
    return Select(Parameter(b, 1, Shape.parse("pred[]")), x, Clamp(np.int32(0) * x, x, x))


# CHECK-LABEL: TEST: select_scalar_pred
# CHECK: stablehlo.clamp
# CHECK: stablehlo.select %arg1, %arg0, %{{.*}} : tensor<i1>, tensor<3xi32>
test("select_scalar_pred", _select)

# CHECK-LABEL: TEST: convert
# CHECK: stablehlo.convert %arg0 : (tensor<2xf32>) -> tensor<2xbf16>
test("convert", lambda b: ConvertElementType(Parameter(b, 0, Shape.parse("f32[2]")), PrimitiveType.BF16))

# CHECK-LABEL: TEST: bitcast_narrower
# CHECK: stablehlo.bitcast_convert %arg0 : (tensor<3xf32>) -> tensor<3x2xui16>
test("bitcast_narrower", lambda b: BitcastConvertType(Parameter(b, 0, Shape.parse("f32[3]")),
                                                      PrimitiveType.U16))

# CHECK-LABEL: TEST: shift_right_operator_unsigned
# CHECK: stablehlo.shift_right_logical %arg0, %{{.*}} : tensor<2xui8>
test("shift_right_operator_unsigned", lambda b: Parameter(b, 0, Shape.parse("u8[2]")) >> 1)

# CHECK-LABEL: TEST: complex_from_parts
# CHECK: stablehlo.complex %arg0, %arg1 : tensor<2xcomplex<f64>>
test("complex_from_parts", lambda b: Complex(Parameter(b, 0, Shape.parse("f64[2]")),
                                             Parameter(b, 1, Shape.parse("f64[2]"))))
