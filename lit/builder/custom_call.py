# RUN: %python %s | filecheck %s
"""Builder output of dialect_ops.custom_call: CustomCall (one TEST per case)."""

from hlo_mlir import CustomCall, CustomCallApiVersion, Shape

from harness import params, test

# CHECK-LABEL: TEST: plain
# CHECK: stablehlo.custom_call @myfunc(%arg0, %arg1) {backend_config = ""}
# CHECK-SAME: (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
test("plain", lambda b: CustomCall(b, "myfunc", params(b, "f32[2]", "f32[2,3]"), Shape.parse("f32[3,3]")))

# CHECK-LABEL: TEST: side_effect_opaque_and_layouts
# CHECK: stablehlo.custom_call @f(%arg0) {backend_config = "opaque bytes", has_side_effect = true,
# CHECK-SAME: operand_layouts = [dense<[1, 0]> : tensor<2xindex>],
# CHECK-SAME: result_layouts = [dense<0> : tensor<1xindex>]}
test("side_effect_opaque_and_layouts",
     lambda b: CustomCall(b, "f", params(b, "s32[2,2]"), Shape.parse("f32[5]"), opaque="opaque bytes",
                          has_side_effect=True, operand_shapes_with_layout=[Shape.parse("s32[2,2]")]))

# CHECK-LABEL: TEST: tuple_result
# CHECK: %[[C:.*]]:2 = stablehlo.custom_call @pair(%arg0) {api_version = 2 : i32, backend_config = ""}
# CHECK-SAME: (tensor<4xf32>) -> (tensor<4xf32>, tensor<i32>)
# CHECK: stablehlo.tuple %[[C]]#0, %[[C]]#1 : tuple<tensor<4xf32>, tensor<i32>>
test("tuple_result", lambda b: CustomCall(b, "pair", params(b, "f32[4]"), Shape.parse("(f32[4], s32[])"),
                                          api_version=CustomCallApiVersion.API_VERSION_STATUS_RETURNING))

# CHECK-LABEL: TEST: typed_ffi
# CHECK: stablehlo.custom_call @ffi() {api_version = 4 : i32, backend_config = {n = 3 : i64}}
# CHECK-SAME: () -> tensor<f32>
test("typed_ffi", lambda b: CustomCall(b, "ffi", [], Shape.parse("f32[]"), opaque="{n = 3 : i64}",
                                       api_version=CustomCallApiVersion.API_VERSION_TYPED_FFI))
