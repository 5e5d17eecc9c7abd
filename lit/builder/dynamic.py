# RUN: %python %s | filecheck %s
"""Builder output of dialect_ops.dynamic: GetDimensionSize, SetDimensionSize (one TEST per case)."""

from hlo_mlir import Exp, GetDimensionSize, Parameter, SetDimensionSize, Shape

from harness import test

# CHECK-LABEL: TEST: get_dimension_size
# CHECK: stablehlo.get_dimension_size %arg0, dim = 1 : (tensor<2x7xf32>) -> tensor<i32>
test("get_dimension_size", lambda b: GetDimensionSize(Parameter(b, 0, Shape.parse("f32[2,7]")), 1))


def _set_then_get(b):
    x = Parameter(b, 0, Shape.parse("f32[4,3]"))
    dynamic = SetDimensionSize(x, Parameter(b, 1, Shape.parse("s32[]")), 0)
    return GetDimensionSize(Exp(dynamic), 0)


# CHECK-LABEL: TEST: set_dimension_size
# CHECK: %[[D:.*]] = stablehlo.set_dimension_size %arg0, %arg1, dim = 0
# CHECK-SAME: (tensor<4x3xf32>, tensor<i32>) -> tensor<?x3xf32, #stablehlo.bounds<4, ?>>
# CHECK: %[[E:.*]] = stablehlo.exponential %[[D]] : tensor<?x3xf32, #stablehlo.bounds<4, ?>>
# CHECK: stablehlo.get_dimension_size %[[E]], dim = 0
test("set_dimension_size", _set_then_get)


def _set_two(b):
    size = Parameter(b, 1, Shape.parse("s32[]"))
    return SetDimensionSize(SetDimensionSize(Parameter(b, 0, Shape.parse("s8[2,5]")), size, 1), size, 0)


# CHECK-LABEL: TEST: set_two_dimensions
# CHECK: %[[D:.*]] = stablehlo.set_dimension_size %arg0, %arg1, dim = 1
# CHECK-SAME: -> tensor<2x?xi8, #stablehlo.bounds<?, 5>>
# CHECK: stablehlo.set_dimension_size %[[D]], %arg1, dim = 0
# CHECK-SAME: (tensor<2x?xi8, #stablehlo.bounds<?, 5>>, tensor<i32>)
# CHECK-SAME: -> tensor<?x?xi8, #stablehlo.bounds<2, 5>>
test("set_two_dimensions", _set_two)
