// RUN: %hlo-opt %s -p bfloat16-conversion-folding --split-input-file | filecheck %s

// Check that bf16 -> f32 converts of both dot operands fold into the dot, which keeps its
// f32 result (XLA FoldIfSupported).
// CHECK-LABEL: func.func @dot
// CHECK: %[[D:.*]] = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x3xbf16>, tensor<3x2xbf16>) -> tensor<2x2xf32>
// CHECK: return %[[D]]
func.func @dot(%a: tensor<2x3xbf16>, %b: tensor<3x2xbf16>) -> tensor<2x2xf32> {
  %x = stablehlo.convert %a : (tensor<2x3xbf16>) -> tensor<2x3xf32>
  %y = stablehlo.convert %b : (tensor<3x2xbf16>) -> tensor<3x2xf32>
  %d = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %d : tensor<2x2xf32>
}

// -----

// Check that one operand folds when only it is converted (the dot mixes types), and a
// convolution folds too.
// CHECK-LABEL: func.func @one_side
// CHECK: stablehlo.dot_general %arg0, %arg1, {{.*}} : (tensor<2x3xbf16>, tensor<3x2xf32>) -> tensor<2x2xf32>
// CHECK: stablehlo.convolution(%arg2, %arg3) {{.*}} : (tensor<1x4x4x1xbf16>, tensor<2x2x1x1xbf16>) -> tensor<1x3x3x1xf32>
func.func @one_side(%a: tensor<2x3xbf16>, %c: tensor<3x2xf32>, %i: tensor<1x4x4x1xbf16>, %k: tensor<2x2x1x1xbf16>) -> (tensor<2x2xf32>, tensor<1x3x3x1xf32>) {
  %x = stablehlo.convert %a : (tensor<2x3xbf16>) -> tensor<2x3xf32>
  %d = stablehlo.dot_general %x, %c, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %ix = stablehlo.convert %i : (tensor<1x4x4x1xbf16>) -> tensor<1x4x4x1xf32>
  %kx = stablehlo.convert %k : (tensor<2x2x1x1xbf16>) -> tensor<2x2x1x1xf32>
  %r = stablehlo.convolution(%ix, %kx) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32>
  return %d, %r : tensor<2x2xf32>, tensor<1x3x3x1xf32>
}

// -----

// Check that a compare of two bf16 -> f32 converts compares the bf16 values, and that a
// compare with one converted operand or a TOTALORDER compare is left alone.
// CHECK-LABEL: func.func @compare
// CHECK: %[[C:.*]] = stablehlo.compare LT, %arg0, %arg1 : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xi1>
// CHECK: stablehlo.compare LT, %{{.*}}, %arg2 : (tensor<4xf32>, tensor<4xf32>)
// CHECK: stablehlo.compare LT, %{{.*}}, %{{.*}}, TOTALORDER : (tensor<4xf32>, tensor<4xf32>)
func.func @compare(%a: tensor<4xbf16>, %b: tensor<4xbf16>, %f: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %x = stablehlo.convert %a : (tensor<4xbf16>) -> tensor<4xf32>
  %y = stablehlo.convert %b : (tensor<4xbf16>) -> tensor<4xf32>
  %c = stablehlo.compare LT, %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %d = stablehlo.compare LT, %x, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %e = stablehlo.compare LT, %x, %y, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %c, %d, %e : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// Check that the f32 -> bf16 convert of a dot's result is not folded (IREE would round the
// operands and accumulate in bf16), nor a convert into an element-wise op.
// CHECK-LABEL: func.func @not_output
// CHECK: %[[D:.*]] = stablehlo.dot_general %arg0, %arg1, {{.*}} -> tensor<2x2xf32>
// CHECK: %[[R:.*]] = stablehlo.convert %[[D]] : (tensor<2x2xf32>) -> tensor<2x2xbf16>
// CHECK: %[[X:.*]] = stablehlo.convert %arg2 : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK: stablehlo.add %[[X]], %[[X]] : tensor<4xf32>
func.func @not_output(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>, %h: tensor<4xbf16>) -> (tensor<2x2xbf16>, tensor<4xf32>) {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %r = stablehlo.convert %d : (tensor<2x2xf32>) -> tensor<2x2xbf16>
  %x = stablehlo.convert %h : (tensor<4xbf16>) -> tensor<4xf32>
  %s = stablehlo.add %x, %x : tensor<4xf32>
  return %r, %s : tensor<2x2xbf16>, tensor<4xf32>
}

// -----

// Check that a dot whose result is not f32 keeps its converts (bf16 -> f64 converts are not folded).
// CHECK-LABEL: func.func @f64_result
// CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, {{.*}} : (tensor<2x3xf64>, tensor<3x2xf64>) -> tensor<2x2xf64>
func.func @f64_result(%a: tensor<2x3xbf16>, %b: tensor<3x2xbf16>) -> tensor<2x2xf64> {
  %x = stablehlo.convert %a : (tensor<2x3xbf16>) -> tensor<2x3xf64>
  %y = stablehlo.convert %b : (tensor<3x2xbf16>) -> tensor<3x2xf64>
  %d = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<2x3xf64>, tensor<3x2xf64>) -> tensor<2x2xf64>
  return %d : tensor<2x2xf64>
}
