// RUN: %hlo-opt %s -p hlo-element-type-converter --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p "hlo-element-type-converter{from-type=f16 to-type=f32}" --split-input-file | filecheck %s --check-prefix=F16

// Check that element-wise ops compute in f32 between converts at the function boundary
// (the signature stays) and that a compare keeps its i1 result.
// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: (%arg0: tensor<4xbf16>, %arg1: tensor<4xbf16>) -> (tensor<4xbf16>, tensor<4xi1>)
// CHECK-DAG: %[[Y:.*]] = stablehlo.convert %arg1 : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK-DAG: %[[X:.*]] = stablehlo.convert %arg0 : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK: %[[E:.*]] = stablehlo.exponential %[[X]] : tensor<4xf32>
// CHECK: %[[S:.*]] = stablehlo.add %[[E]], %[[Y]] : tensor<4xf32>
// CHECK: %[[C:.*]] = stablehlo.compare LT, %[[S]], %[[X]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK: %[[R:.*]] = stablehlo.convert %[[S]] : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK: return %[[R]], %[[C]]
// F16-LABEL: func.func @elementwise
// F16-NOT: f32
// F16: return
func.func @elementwise(%x: tensor<4xbf16>, %y: tensor<4xbf16>) -> (tensor<4xbf16>, tensor<4xi1>) {
  %e = stablehlo.exponential %x : tensor<4xbf16>
  %s = stablehlo.add %e, %y : tensor<4xbf16>
  %c = stablehlo.compare LT, %s, %x : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xi1>
  return %s, %c : tensor<4xbf16>, tensor<4xi1>
}

// -----

// Check that a convert to bf16 disappears (the value stays f32) and one from bf16 reads f32.
// CHECK-LABEL: func.func @converts
// CHECK-NOT: bf16
// CHECK: %[[N:.*]] = stablehlo.negate %arg0 : tensor<4xf32>
// CHECK: %[[I:.*]] = stablehlo.convert %[[N]] : (tensor<4xf32>) -> tensor<4xi32>
// CHECK: return %[[I]]
func.func @converts(%x: tensor<4xf32>) -> tensor<4xi32> {
  %b = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xbf16>
  %n = stablehlo.negate %b : tensor<4xbf16>
  %i = stablehlo.convert %n : (tensor<4xbf16>) -> tensor<4xi32>
  return %i : tensor<4xi32>
}

// -----

// Check that ops of fixed types keep bf16 with converts around them: a constant, a
// bitcast_convert and a custom_call.
// CHECK-LABEL: func.func @fixed
// CHECK: %[[X:.*]] = stablehlo.convert %arg0 : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK: %[[K:.*]] = stablehlo.constant dense<2.000000e+00> : tensor<4xbf16>
// CHECK: %[[K32:.*]] = stablehlo.convert %[[K]] : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK: %[[M:.*]] = stablehlo.multiply %[[X]], %[[K32]] : tensor<4xf32>
// CHECK: %[[MB:.*]] = stablehlo.convert %[[M]] : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK: %[[B:.*]] = stablehlo.bitcast_convert %[[MB]] : (tensor<4xbf16>) -> tensor<4xi16>
// CHECK: %[[MB2:.*]] = stablehlo.convert %[[M]] : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK: %[[U:.*]] = stablehlo.custom_call @foo(%[[MB2]]) : (tensor<4xbf16>) -> tensor<4xbf16>
// CHECK: %[[U32:.*]] = stablehlo.convert %[[U]] : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK: %[[A:.*]] = stablehlo.abs %[[U32]] : tensor<4xf32>
// CHECK: %[[R:.*]] = stablehlo.convert %[[A]] : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK: return %[[B]], %[[R]]
func.func @fixed(%x: tensor<4xbf16>) -> (tensor<4xi16>, tensor<4xbf16>) {
  %k = stablehlo.constant dense<2.0> : tensor<4xbf16>
  %m = stablehlo.multiply %x, %k : tensor<4xbf16>
  %b = stablehlo.bitcast_convert %m : (tensor<4xbf16>) -> tensor<4xi16>
  %u = stablehlo.custom_call @foo(%m) : (tensor<4xbf16>) -> tensor<4xbf16>
  %a = stablehlo.abs %u : tensor<4xbf16>
  return %b, %a : tensor<4xi16>, tensor<4xbf16>
}

// -----

// Check that a reduce and a while loop change with their regions' block arguments.
// CHECK-LABEL: func.func @regions
// CHECK: stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
// CHECK: stablehlo.while(%{{.*}} = %{{.*}}, %[[V:.*]] = %{{.*}}) : tensor<i32>, tensor<f32>
// CHECK: stablehlo.add %[[V]], %[[V]] : tensor<f32>
// CHECK: %[[R:.*]] = stablehlo.convert %{{.*}}#1 : (tensor<f32>) -> tensor<bf16>
// CHECK: return %[[R]] : tensor<bf16>
func.func @regions(%x: tensor<4xbf16>) -> tensor<bf16> {
  %z = stablehlo.constant dense<0.0> : tensor<bf16>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4xbf16>, tensor<bf16>) -> tensor<bf16>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %w:2 = stablehlo.while(%i = %i0, %v = %r) : tensor<i32>, tensor<bf16>
   cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    %d = stablehlo.add %v, %v : tensor<bf16>
    stablehlo.return %j, %d : tensor<i32>, tensor<bf16>
  }
  return %w#1 : tensor<bf16>
}

// -----

// Check that a function without bf16 is left alone.
// CHECK-LABEL: func.func @no_bf16
// CHECK-NEXT: %[[N:.*]] = stablehlo.negate %arg0 : tensor<4xf32>
// CHECK-NEXT: return %[[N]]
func.func @no_bf16(%x: tensor<4xf32>) -> tensor<4xf32> {
  %n = stablehlo.negate %x : tensor<4xf32>
  return %n : tensor<4xf32>
}

// -----

// Check that a callee converts at its own boundary and the call keeps bf16.
// CHECK-LABEL: func.func private @callee
// CHECK-SAME: (%arg0: tensor<4xbf16>) -> tensor<4xbf16>
// CHECK: stablehlo.negate %{{.*}} : tensor<4xf32>
// CHECK-LABEL: func.func @caller
// CHECK: %[[S:.*]] = stablehlo.sqrt %{{.*}} : tensor<4xf32>
// CHECK: %[[SB:.*]] = stablehlo.convert %[[S]] : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK: call @callee(%[[SB]]) : (tensor<4xbf16>) -> tensor<4xbf16>
func.func private @callee(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %n = stablehlo.negate %x : tensor<4xbf16>
  return %n : tensor<4xbf16>
}
func.func @caller(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %s = stablehlo.sqrt %x : tensor<4xbf16>
  %c = func.call @callee(%s) : (tensor<4xbf16>) -> tensor<4xbf16>
  return %c : tensor<4xbf16>
}

// -----

// Check that from-type=f16 converts f16 ops (and leaves bf16 ones alone).
// F16-LABEL: func.func @half
// F16: %[[X:.*]] = stablehlo.convert %arg0 : (tensor<4xf16>) -> tensor<4xf32>
// F16: %[[T:.*]] = stablehlo.tanh %[[X]] : tensor<4xf32>
// F16: %[[R:.*]] = stablehlo.convert %[[T]] : (tensor<4xf32>) -> tensor<4xf16>
// F16: return %[[R]]
// CHECK-LABEL: func.func @half
// CHECK-NEXT: stablehlo.tanh %arg0 : tensor<4xf16>
func.func @half(%x: tensor<4xf16>) -> tensor<4xf16> {
  %t = stablehlo.tanh %x : tensor<4xf16>
  return %t : tensor<4xf16>
}
