# RUN: %python %s | filecheck %s
"""Builder output of the data-movement ops of dialect_ops.shape_ops (one TEST per case)."""

from hlo_mlir import Collapse, Iota, Parameter, PrimitiveType, Reshape, Rev, Shape, Transpose

from harness import test

# CHECK-LABEL: TEST: iota_shape
# CHECK: stablehlo.iota dim = 1 : tensor<4x8xbf16>
test("iota_shape", lambda b: Iota(b, Shape.parse("bf16[4,8]"), 1))

# CHECK-LABEL: TEST: iota_size
# CHECK: stablehlo.iota dim = 0 : tensor<5xui8>
test("iota_size", lambda b: Iota(b, PrimitiveType.U8, 5))

# CHECK-LABEL: TEST: reshape
# CHECK: stablehlo.reshape %arg0 : (tensor<4x2x3xf32>) -> tensor<8x3xf32>
test("reshape", lambda b: Reshape(Parameter(b, 0, Shape.parse("f32[4,2,3]")), [8, 3]))

# Check that Reshape with a dimension order transposes first, and skips the identity order.
# CHECK-LABEL: TEST: reshape_dimensions
# CHECK: %[[T:.*]] = stablehlo.transpose %arg0, dims = [1, 2, 0] : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>
# CHECK: stablehlo.reshape %[[T]] : (tensor<2x3x4xf32>) -> tensor<2x6x2xf32>
test("reshape_dimensions",
     lambda b: Reshape(Parameter(b, 0, Shape.parse("f32[4,2,3]")), [1, 2, 0], [2, 6, 2]))

# CHECK-LABEL: TEST: reshape_identity_dimensions
# CHECK-NOT: stablehlo.transpose
# CHECK: stablehlo.reshape %arg0 : (tensor<4x2x3xf32>) -> tensor<24xf32>
test("reshape_identity_dimensions",
     lambda b: Reshape(Parameter(b, 0, Shape.parse("f32[4,2,3]")), [0, 1, 2], [24]))

# CHECK-LABEL: TEST: reshape_scalar
# CHECK: stablehlo.reshape %arg0 : (tensor<1x1xi32>) -> tensor<i32>
test("reshape_scalar", lambda b: Reshape(Parameter(b, 0, Shape.parse("s32[1,1]")), []))

# CHECK-LABEL: TEST: collapse
# CHECK: stablehlo.reshape %arg0 : (tensor<4x2x3xi1>) -> tensor<4x6xi1>
test("collapse", lambda b: Collapse(Parameter(b, 0, Shape.parse("pred[4,2,3]")), [1, 2]))

# Check that collapsing a single dimension is the operand itself.
# CHECK-LABEL: TEST: collapse_one
# CHECK-NOT: stablehlo.reshape
# CHECK: return %arg0 : tensor<4x2xf32>
test("collapse_one", lambda b: Collapse(Parameter(b, 0, Shape.parse("f32[4,2]")), [1]))

# CHECK-LABEL: TEST: transpose
# CHECK: stablehlo.transpose %arg0, dims = [2, 0, 1]
# CHECK-SAME: (tensor<4x2x3xcomplex<f32>>) -> tensor<3x4x2xcomplex<f32>>
test("transpose", lambda b: Transpose(Parameter(b, 0, Shape.parse("c64[4,2,3]")), [2, 0, 1]))

# CHECK-LABEL: TEST: rev
# CHECK: stablehlo.reverse %arg0, dims = [0, 2] : tensor<4x2x3xf16>
test("rev", lambda b: Rev(Parameter(b, 0, Shape.parse("f16[4,2,3]")), [0, 2]))
