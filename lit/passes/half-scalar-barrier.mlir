// RUN: %hlo-opt %s -p half-scalar-barrier --split-input-file | filecheck %s

// Check that a bf16 reduce init computed from constants is read through a barrier, the
// reduced input directly.
// CHECK-LABEL: func.func @reduce_init
// CHECK: %[[V:.*]] = stablehlo.convert
// CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %[[V]] : tensor<bf16>
// CHECK-NEXT: stablehlo.reduce(%arg0 init: %[[B]])
func.func @reduce_init(%x: tensor<4xbf16>) -> tensor<bf16> {
  %c = stablehlo.constant dense<5.000000e-01> : tensor<f32>
  %n = stablehlo.negate %c : tensor<f32>
  %v = stablehlo.convert %n : (tensor<f32>) -> tensor<bf16>
  %s = stablehlo.reduce(%x init: %v) applies stablehlo.add across dimensions = [0] : (tensor<4xbf16>, tensor<bf16>) -> tensor<bf16>
  return %s : tensor<bf16>
}

// -----

// Check that an f16 padding value and the rank-0 bounds of a clamp of a vector are fenced.
// CHECK-LABEL: func.func @pad_and_clamp
// CHECK: %[[V:.*]] = stablehlo.convert
// CHECK: %[[P:.*]] = stablehlo.optimization_barrier %[[V]] : tensor<f16>
// CHECK-NEXT: stablehlo.pad %arg0, %[[P]]
// CHECK: %[[LO:.*]] = stablehlo.optimization_barrier %[[V]] : tensor<f16>
// CHECK-NEXT: %[[HI:.*]] = stablehlo.optimization_barrier %[[V]] : tensor<f16>
// CHECK-NEXT: stablehlo.clamp %[[LO]], %arg0, %[[HI]]
func.func @pad_and_clamp(%x: tensor<3xf16>) -> (tensor<4xf16>, tensor<3xf16>) {
  %c = stablehlo.constant dense<5.000000e-01> : tensor<f32>
  %n = stablehlo.negate %c : tensor<f32>
  %v = stablehlo.convert %n : (tensor<f32>) -> tensor<f16>
  %p = stablehlo.pad %x, %v, low = [1], high = [0], interior = [0] : (tensor<3xf16>, tensor<f16>) -> tensor<4xf16>
  %k = stablehlo.clamp %v, %x, %v : (tensor<f16>, tensor<3xf16>, tensor<f16>) -> tensor<3xf16>
  return %p, %k : tensor<4xf16>, tensor<3xf16>
}

// -----

// Check that a value computed by a region op over constants (a reduce) is fenced, and
// so is one computed from constants inside a loop body.
// CHECK-LABEL: func.func @through_regions
// CHECK: %[[S:.*]] = stablehlo.reduce
// CHECK: %[[B:.*]] = stablehlo.optimization_barrier %[[S]] : tensor<bf16>
// CHECK-NEXT: stablehlo.pad %arg0, %[[B]]
// CHECK: stablehlo.while
// CHECK: %[[V:.*]] = stablehlo.convert
// CHECK-NEXT: %[[W:.*]] = stablehlo.optimization_barrier %[[V]] : tensor<bf16>
// CHECK-NEXT: stablehlo.reduce(%{{.*}} init: %[[W]])
func.func @through_regions(%x: tensor<3xbf16>) -> (tensor<4xbf16>, tensor<3xbf16>) {
  %c = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.5]> : tensor<4xbf16>
  %z = stablehlo.constant dense<0.0> : tensor<bf16>
  %s = stablehlo.reduce(%c init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4xbf16>, tensor<bf16>) -> tensor<bf16>
  %p = stablehlo.pad %x, %s, low = [0], high = [1], interior = [0] : (tensor<3xbf16>, tensor<bf16>) -> tensor<4xbf16>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %w:2 = stablehlo.while(%i = %i0, %y = %x) : tensor<i32>, tensor<3xbf16>
  cond {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %h = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %n = stablehlo.negate %h : tensor<f32>
    %v = stablehlo.convert %n : (tensor<f32>) -> tensor<bf16>
    %r = stablehlo.reduce(%y init: %v) applies stablehlo.add across dimensions = [0] : (tensor<3xbf16>, tensor<bf16>) -> tensor<bf16>
    %b = stablehlo.broadcast_in_dim %r, dims = [] : (tensor<bf16>) -> tensor<3xbf16>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %b : tensor<i32>, tensor<3xbf16>
  }
  return %p, %w#1 : tensor<4xbf16>, tensor<3xbf16>
}

// -----

// Check that constants, barriers, f32 values, values a parameter flows into (also as a
// capture of a region op), reduced inputs, clamps of scalars and
// broadcasts are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-1: stablehlo.optimization_barrier
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: return
func.func @left_alone(%x: tensor<4xbf16>, %a: tensor<bf16>, %f: tensor<4xf32>) -> (tensor<bf16>, tensor<bf16>, tensor<f32>, tensor<bf16>, tensor<bf16>, tensor<4xbf16>, tensor<bf16>, tensor<bf16>) {
  %k = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
  %s1 = stablehlo.reduce(%x init: %k) applies stablehlo.add across dimensions = [0] : (tensor<4xbf16>, tensor<bf16>) -> tensor<bf16>
  %c = stablehlo.constant dense<5.000000e-01> : tensor<f32>
  %n = stablehlo.negate %c : tensor<f32>
  %v = stablehlo.convert %n : (tensor<f32>) -> tensor<bf16>
  %o = stablehlo.optimization_barrier %v : tensor<bf16>
  %s2 = stablehlo.reduce(%x init: %o) applies stablehlo.add across dimensions = [0] : (tensor<4xbf16>, tensor<bf16>) -> tensor<bf16>
  %s3 = stablehlo.reduce(%f init: %n) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %m = stablehlo.add %v, %a : tensor<bf16>
  %s4 = stablehlo.reduce(%x init: %m) applies stablehlo.add across dimensions = [0] : (tensor<4xbf16>, tensor<bf16>) -> tensor<bf16>
  %vx = stablehlo.broadcast_in_dim %v, dims = [] : (tensor<bf16>) -> tensor<4xbf16>
  %z = stablehlo.constant dense<0.0> : tensor<bf16>
  %s5 = stablehlo.reduce(%vx init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4xbf16>, tensor<bf16>) -> tensor<bf16>
  %e = stablehlo.add %vx, %x : tensor<4xbf16>
  %s6 = stablehlo.clamp %v, %a, %v : (tensor<bf16>, tensor<bf16>, tensor<bf16>) -> tensor<bf16>
  %i = stablehlo.constant dense<0> : tensor<i32>
  %cap = "stablehlo.case"(%i) ({
    %g = stablehlo.add %v, %a : tensor<bf16>
    stablehlo.return %g : tensor<bf16>
  }) : (tensor<i32>) -> tensor<bf16>
  %s7 = stablehlo.reduce(%x init: %cap) applies stablehlo.add across dimensions = [0] : (tensor<4xbf16>, tensor<bf16>) -> tensor<bf16>
  return %s1, %s2, %s3, %s4, %s5, %e, %s6, %s7 : tensor<bf16>, tensor<bf16>, tensor<f32>, tensor<bf16>, tensor<bf16>, tensor<4xbf16>, tensor<bf16>, tensor<bf16>
}
