# RUN: %python %s | filecheck %s
"""Builder output of the batch-norm family (one TEST per case)."""

from hlo_mlir import BatchNormGrad, BatchNormInference, BatchNormTraining

from harness import params, test

# CHECK-LABEL: TEST: training
# CHECK: %[[Y:.*]], %[[M:.*]], %[[V:.*]] = "stablehlo.batch_norm_training"(%arg0, %arg1, %arg2)
# CHECK-SAME: <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}>
# CHECK-SAME: -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
# CHECK: %[[T:.*]] = stablehlo.tuple %[[Y]], %[[M]], %[[V]]
# CHECK: return %[[T]] : tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>>
test("training", lambda b: BatchNormTraining(*params(b, "f32[2,3,4]", "f32[3]", "f32[3]"), 1e-3, 1))

# CHECK-LABEL: TEST: inference
# CHECK: %[[Y:.*]] = "stablehlo.batch_norm_inference"(%arg0, %arg1, %arg2, %arg3, %arg4)
# CHECK-SAME: <{epsilon = 9.99999974E-6 : f32, feature_index = 0 : i64}>
# CHECK-SAME: -> tensor<5x2xf64>
# CHECK: return %[[Y]]
test("inference", lambda b: BatchNormInference(*params(b, "f64[5,2]", *["f64[5]"] * 4), 1e-5, 0))

# CHECK-LABEL: TEST: grad
# CHECK: %[[GX:.*]], %[[GS:.*]], %[[GO:.*]] = "stablehlo.batch_norm_grad"(%arg0, %arg1, %arg2, %arg3, %arg4)
# CHECK-SAME: feature_index = 2 : i64
# CHECK: stablehlo.tuple %[[GX]], %[[GS]], %[[GO]]
test("grad", lambda b: BatchNormGrad(*params(b, "f32[2,3,4]", "f32[4]", "f32[4]", "f32[4]", "f32[2,3,4]"),
                                     0.5, 2))
