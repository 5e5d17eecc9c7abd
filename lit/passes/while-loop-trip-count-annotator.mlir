// RUN: %hlo-opt %s -p while-loop-trip-count-annotator --split-input-file | filecheck %s

// Check that a counted loop gets its trip count (XLA WhileLoopTripCountAnnotator).
// CHECK-LABEL: func.func @counted
// CHECK: stablehlo.while
// CHECK-SAME: attributes {hlo_mlir.known_trip_count = 10 : i64}
func.func @counted(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4xf32>
  cond {
    %n = stablehlo.constant dense<10> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %v1 = stablehlo.multiply %v, %v : tensor<4xf32>
    stablehlo.return %i1, %v1 : tensor<i32>, tensor<4xf32>
  }
  return %r#1 : tensor<4xf32>
}

// -----

// Check that a count-down loop and one that never runs are counted, and that a stale
// annotation is corrected.
// CHECK-LABEL: func.func @down_and_zero
// CHECK: stablehlo.while
// CHECK-SAME: attributes {hlo_mlir.known_trip_count = 5 : i64}
// CHECK: stablehlo.while
// CHECK-SAME: attributes {hlo_mlir.known_trip_count = 0 : i64}
func.func @down_and_zero(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c9 = stablehlo.constant dense<9> : tensor<i64>
  %r:2 = stablehlo.while(%i = %c9, %v = %x) : tensor<i64>, tensor<4xf32>
  cond {
    %z = stablehlo.constant dense<0> : tensor<i64>
    %p = stablehlo.compare GE, %i, %z, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %step = stablehlo.constant dense<-2> : tensor<i64>
    %i1 = stablehlo.add %step, %i : tensor<i64>
    %v1 = stablehlo.negate %v : tensor<4xf32>
    stablehlo.return %i1, %v1 : tensor<i64>, tensor<4xf32>
  }
  %t = stablehlo.while(%v = %x) : tensor<4xf32> attributes {hlo_mlir.known_trip_count = 7 : i64}
  cond {
    %f = stablehlo.constant dense<false> : tensor<i1>
    stablehlo.return %f : tensor<i1>
  } do {
    stablehlo.return %v : tensor<4xf32>
  }
  return %r#1, %t : tensor<4xf32>, tensor<4xf32>
}

// -----

// Check that loops without a static count get no annotation: a run-time bound, and a
// counter that would wrap around before meeting its bound.
// CHECK-LABEL: func.func @unknown
// CHECK-NOT: known_trip_count
// CHECK: return
func.func @unknown(%n: tensor<i32>) -> (tensor<i32>, tensor<i8>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.while(%i = %c0) : tensor<i32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1 : tensor<i32>
  }
  %b0 = stablehlo.constant dense<1> : tensor<i8>
  %s = stablehlo.while(%j = %b0) : tensor<i8>
  cond {
    %b = stablehlo.constant dense<2> : tensor<i8>
    %q = stablehlo.compare NE, %j, %b, SIGNED : (tensor<i8>, tensor<i8>) -> tensor<i1>
    stablehlo.return %q : tensor<i1>
  } do {
    %two = stablehlo.constant dense<2> : tensor<i8>
    %j1 = stablehlo.add %j, %two : tensor<i8>
    stablehlo.return %j1 : tensor<i8>
  }
  return %r, %s : tensor<i32>, tensor<i8>
}

// -----

// Check that a loop nested in a body is annotated too.
// CHECK-LABEL: func.func @nested
// CHECK: stablehlo.while
// CHECK-SAME: attributes {hlo_mlir.known_trip_count = 3 : i64}
// CHECK: stablehlo.while
// CHECK-SAME: attributes {hlo_mlir.known_trip_count = 4 : i64}
func.func @nested(%x: tensor<f32>) -> tensor<f32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<f32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %z = stablehlo.constant dense<0> : tensor<i32>
    %w:2 = stablehlo.while(%j = %z, %u = %v) : tensor<i32>, tensor<f32>
    cond {
      %m = stablehlo.constant dense<4> : tensor<i32>
      %q = stablehlo.compare LT, %j, %m, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %q : tensor<i1>
    } do {
      %one2 = stablehlo.constant dense<1> : tensor<i32>
      %j1 = stablehlo.add %j, %one2 : tensor<i32>
      %u1 = stablehlo.add %u, %u : tensor<f32>
      stablehlo.return %j1, %u1 : tensor<i32>, tensor<f32>
    }
    stablehlo.return %i1, %w#1 : tensor<i32>, tensor<f32>
  }
  return %r#1 : tensor<f32>
}
