// RUN: %hlo-opt %s -p batchnorm-expander --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p "batchnorm-expander{training=true inference=true grad=false}" --split-input-file \
// RUN:   | filecheck %s --check-prefix=ALL

// Check that batch_norm_grad becomes XLA's formulas: grad_offset = sum(dy), grad_scale =
// sum(dy (x - mean)) rsqrt(var + eps), grad_operand = scale rsqrt(var + eps) / N
// (N dy - grad_offset - (x - mean) sum(dy (x - mean)) / (var + eps)), N = 2 * 4 = 8.
// CHECK-LABEL: func.func @grad
// CHECK-NOT: stablehlo.batch_norm_grad
// CHECK: %[[MEAN:.*]] = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<3xf32>) -> tensor<2x3x4xf32>
// CHECK: %[[XC:.*]] = stablehlo.subtract %arg0, %[[MEAN]]
// CHECK: %[[DYXC:.*]] = stablehlo.multiply %arg4, %[[XC]]
// CHECK: %[[SUMDYXC:.*]] = stablehlo.reduce(%[[DYXC]] init: %{{.*}}) applies stablehlo.add across dimensions = [0, 2]
// CHECK: %[[GOFF:.*]] = stablehlo.reduce(%arg4 init: %{{.*}}) applies stablehlo.add across dimensions = [0, 2]
// CHECK: stablehlo.constant dense<1.000000e-03> : tensor<f32>
// CHECK: %[[RSQRT:.*]] = stablehlo.rsqrt
// CHECK: %[[GSCALE:.*]] = stablehlo.multiply %[[SUMDYXC]], %[[RSQRT]] : tensor<3xf32>
// CHECK: stablehlo.constant dense<8.000000e+00> : tensor<f32>
// CHECK: stablehlo.constant dense<8.000000e+00> : tensor<f32>
// CHECK: %[[FACTOR:.*]] = stablehlo.broadcast_in_dim %{{.*}}, dims = [1]
// CHECK: %[[GX:.*]] = stablehlo.multiply %[[FACTOR]], %{{.*}} : tensor<2x3x4xf32>
// CHECK-NEXT: return %[[GX]], %[[GSCALE]], %[[GOFF]]
// ALL-LABEL: func.func @grad
// ALL: stablehlo.batch_norm_grad
func.func @grad(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>,
                %dy: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) {
  %r:3 = "stablehlo.batch_norm_grad"(%x, %s, %m, %v, %dy) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64}
      : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3x4xf32>)
      -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1, %r#2 : tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// Check that training is left to IREE by default, and with training=true becomes
// mean = sum(x) / N, var = sum(x * x) / N - mean^2 (XLA's one-pass variance).
// CHECK-LABEL: func.func @training
// CHECK: stablehlo.batch_norm_training
// ALL-LABEL: func.func @training
// ALL-NOT: stablehlo.batch_norm_training
// ALL: %[[SUM:.*]] = stablehlo.reduce(%arg0 init: %{{.*}}) applies stablehlo.add across dimensions = [0]
// ALL: %[[MEAN:.*]] = stablehlo.divide %[[SUM]]
// ALL: %[[SQ:.*]] = stablehlo.multiply %arg0, %arg0
// ALL: %[[SUMSQ:.*]] = stablehlo.reduce(%[[SQ]] init: %{{.*}}) applies stablehlo.add across dimensions = [0]
// ALL: %[[MEANSQ:.*]] = stablehlo.divide %[[SUMSQ]]
// ALL: %[[M2:.*]] = stablehlo.multiply %[[MEAN]], %[[MEAN]]
// ALL: %[[VAR:.*]] = stablehlo.subtract %[[MEANSQ]], %[[M2]]
// ALL: %[[Y:.*]] = stablehlo.add %{{.*}}, %{{.*}} : tensor<5x2xf64>
// ALL: return %[[Y]], %[[MEAN]], %[[VAR]]
func.func @training(%x: tensor<5x2xf64>, %s: tensor<2xf64>, %o: tensor<2xf64>)
    -> (tensor<5x2xf64>, tensor<2xf64>, tensor<2xf64>) {
  %r:3 = "stablehlo.batch_norm_training"(%x, %s, %o) {epsilon = 1.0e-5 : f32, feature_index = 1 : i64}
      : (tensor<5x2xf64>, tensor<2xf64>, tensor<2xf64>) -> (tensor<5x2xf64>, tensor<2xf64>, tensor<2xf64>)
  return %r#0, %r#1, %r#2 : tensor<5x2xf64>, tensor<2xf64>, tensor<2xf64>
}

// -----

// Check that inference with inference=true becomes x * s + (offset - mean * s),
// s = scale * rsqrt(var + eps).
// CHECK-LABEL: func.func @inference
// CHECK: stablehlo.batch_norm_inference
// ALL-LABEL: func.func @inference
// ALL-NOT: stablehlo.batch_norm_inference
// ALL: %[[R:.*]] = stablehlo.rsqrt
// ALL: %[[S:.*]] = stablehlo.multiply %arg1, %[[R]]
// ALL: %[[MS:.*]] = stablehlo.multiply %arg3, %[[S]]
// ALL: %[[SHIFT:.*]] = stablehlo.subtract %arg2, %[[MS]]
// ALL: %[[SB:.*]] = stablehlo.broadcast_in_dim %[[S]], dims = [0]
// ALL: %[[XS:.*]] = stablehlo.multiply %arg0, %[[SB]]
// ALL: %[[SHB:.*]] = stablehlo.broadcast_in_dim %[[SHIFT]], dims = [0]
// ALL: %[[Y:.*]] = stablehlo.add %[[XS]], %[[SHB]]
// ALL: return %[[Y]]
func.func @inference(%x: tensor<3x2xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>, %m: tensor<3xf32>,
                     %v: tensor<3xf32>) -> tensor<3x2xf32> {
  %r = "stablehlo.batch_norm_inference"(%x, %s, %o, %m, %v) {epsilon = 1.0e-5 : f32, feature_index = 0 : i64}
      : (tensor<3x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
