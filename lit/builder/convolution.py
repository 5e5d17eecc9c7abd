# RUN: %python %s | filecheck %s
"""Builder output of the convolution family (one TEST per case)."""

from hlo_mlir import Conv, ConvGeneralDilated, ConvWithGeneralPadding, PrimitiveType

from harness import params, test

# CHECK-LABEL: TEST: conv_same
# CHECK: stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]
# CHECK-SAME: window = {stride = [2, 1], pad = {{\[}}[1, 1], [1, 2]], lhs_dilate = [1, 1],
# CHECK-SAME: rhs_dilate = [1, 1]}
# CHECK-SAME: {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
# CHECK-SAME: (tensor<1x2x5x6xf32>, tensor<3x2x3x4xf32>) -> tensor<1x3x3x6xf32>
test("conv_same", lambda b: Conv(*params(b, "f32[1,2,5,6]", "f32[3,2,3,4]"), [2, 1], "SAME"))

# CHECK-LABEL: TEST: conv_negative_padding
# CHECK: window = {stride = [1], pad = {{\[}}[-1, 2]], lhs_dilate = [1], rhs_dilate = [1]}
# CHECK-SAME: -> tensor<2x4x6xf32>
test("conv_negative_padding",
     lambda b: ConvWithGeneralPadding(*params(b, "f32[2,3,7]", "f32[4,3,3]"), [1], [(-1, 2)]))

# CHECK-LABEL: TEST: nhwc_grouped_dilated
# CHECK: dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]
# CHECK-SAME: window = {stride = [1, 1], pad = {{\[}}[0, 0], [1, 1]], lhs_dilate = [2, 1],
# CHECK-SAME: rhs_dilate = [1, 2]}
# CHECK-SAME: batch_group_count = 1 : i64, feature_group_count = 2 : i64
# CHECK-SAME: precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]
# CHECK-SAME: (tensor<1x4x5x4xbf16>, tensor<2x2x2x6xbf16>) -> tensor<1x6x5x6xf32>
test("nhwc_grouped_dilated", lambda b: ConvGeneralDilated(
    *params(b, "bf16[1,4,5,4]", "bf16[2,2,2,6]"), [1, 1], [(0, 0), (1, 1)], [2, 1], [1, 2],
    ("NHWC", "HWIO", "NHWC"), feature_group_count=2, precision_config="HIGHEST",
    preferred_element_type=PrimitiveType.F32))

# CHECK-LABEL: TEST: batch_groups
# CHECK: batch_group_count = 2 : i64, feature_group_count = 1 : i64
# CHECK-SAME: (tensor<4x3x5xf32>, tensor<6x3x2xf32>) -> tensor<2x6x4xf32>
test("batch_groups", lambda b: Conv(*params(b, "f32[4,3,5]", "f32[6,3,2]"), [1], "VALID",
                                    batch_group_count=2))
