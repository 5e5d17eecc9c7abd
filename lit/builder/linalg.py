# RUN: %python %s | filecheck %s
"""Builder output of dialect_ops.linalg: Dot, DotGeneral (one TEST per case)."""

from hlo_mlir import Dot, DotDimensionNumbers, DotGeneral, Precision, PrecisionConfig, PrimitiveType

from harness import params, test

# Check that Dot contracts lhs's last dimension with rhs's first.
# CHECK-LABEL: TEST: dot_matrix_vector
# CHECK: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0]
# CHECK-SAME: (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3xf32>
test("dot_matrix_vector", lambda b: Dot(*params(b, "f32[3,5]", "f32[5]")))

# CHECK-LABEL: TEST: dot_vector_vector
# CHECK: stablehlo.dot_general %arg0, %arg1, contracting_dims = [0] x [0]
# CHECK-SAME: : (tensor<4xi32>, tensor<4xi32>) -> tensor<i32>
test("dot_vector_vector", lambda b: Dot(*params(b, "s32[4]", "s32[4]")))

# Check that the result is batch dims, then lhs free dims, then rhs free dims.
# CHECK-LABEL: TEST: dot_general_batch
# CHECK: stablehlo.dot_general %arg0, %arg1, batching_dims = [1] x [2], contracting_dims = [0] x [1]
# CHECK-SAME: (tensor<3x2x4xf32>, tensor<5x3x2xf32>) -> tensor<2x4x5xf32>
test("dot_general_batch", lambda b: DotGeneral(*params(b, "f32[3,2,4]", "f32[5,3,2]"),
                                               DotDimensionNumbers([0], [1], [1], [2])))

# CHECK-LABEL: TEST: precision_config
# CHECK: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, HIGHEST]
test("precision_config", lambda b: Dot(*params(b, "f32[2,3]", "f32[3,4]"),
                                       precision_config=PrecisionConfig([Precision.DEFAULT, "HIGHEST"])))

# Check that no precision_config means no attribute.
# CHECK-LABEL: TEST: no_precision
# CHECK-NOT: precision =
# CHECK: return
test("no_precision", lambda b: Dot(*params(b, "f32[2,3]", "f32[3,4]")))

# CHECK-LABEL: TEST: preferred_element_type
# CHECK: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0]
# CHECK-SAME: : (tensor<2x16xi8>, tensor<16x3xi8>) -> tensor<2x3xi32>
test("preferred_element_type", lambda b: Dot(*params(b, "s8[2,16]", "s8[16,3]"),
                                             preferred_element_type=PrimitiveType.S32))
