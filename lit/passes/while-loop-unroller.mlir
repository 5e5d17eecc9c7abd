// RUN: %hlo-opt %s -p while-loop-unroller --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p "while-loop-unroller{max-unrolled-ops=8}" --split-input-file \
// RUN:   | filecheck %s --check-prefix=PARTIAL
// RUN: %hlo-opt %s -p "fixed-point(while-loop-unroller{max-unrolled-ops=8},algsimp,constant-folding,cse,dce)" \
// RUN:   --split-input-file | filecheck %s --check-prefix=FIXED

// Check that a small counted loop is fully unrolled, each copy reading its counter as a constant.
// CHECK-LABEL: func.func @full_unroll
// CHECK-NOT: stablehlo.while
// CHECK: %[[C0:.*]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK: %[[F0:.*]] = stablehlo.convert %[[C0]]
// CHECK: %[[V0:.*]] = stablehlo.add %arg0, %[[F0]]
// CHECK: %[[C1:.*]] = stablehlo.constant dense<1> : tensor<i32>
// CHECK: %[[F1:.*]] = stablehlo.convert %[[C1]]
// CHECK: %[[V1:.*]] = stablehlo.add %[[V0]], %[[F1]]
// CHECK: %[[C2:.*]] = stablehlo.constant dense<2> : tensor<i32>
// CHECK: %[[F2:.*]] = stablehlo.convert %[[C2]]
// CHECK: %[[V2:.*]] = stablehlo.add %[[V1]], %[[F2]]
// CHECK: %[[C3:.*]] = stablehlo.constant dense<3> : tensor<i32>
// CHECK: return %[[V2]], %[[C3]]
func.func @full_unroll(%x: tensor<f32>) -> (tensor<f32>, tensor<i32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%v = %x, %i = %c0) : tensor<f32>, tensor<i32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %f = stablehlo.convert %i : (tensor<i32>) -> tensor<f32>
    %v1 = stablehlo.add %v, %f : tensor<f32>
    stablehlo.return %v1, %i1 : tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<i32>
}

// -----

// Check that the trip count of NE, GT with a negative step, a reversed compare (GE) and an
// unsigned counter counting down (add of 2^32 - 1) is exact: 3, 4, 4 and 3 copies.
// CHECK-LABEL: func.func @directions
// CHECK-NOT: stablehlo.while
// CHECK-COUNT-3: stablehlo.multiply
// CHECK-NOT: stablehlo.multiply
// CHECK: %[[NE:.*]] = stablehlo.constant dense<6> : tensor<i32>
// CHECK-COUNT-4: stablehlo.multiply
// CHECK-NOT: stablehlo.multiply
// CHECK: %[[GT:.*]] = stablehlo.constant dense<-2> : tensor<i32>
// CHECK-COUNT-4: stablehlo.multiply
// CHECK-NOT: stablehlo.multiply
// CHECK: %[[GE:.*]] = stablehlo.constant dense<-1> : tensor<i64>
// CHECK-COUNT-3: stablehlo.multiply
// CHECK-NOT: stablehlo.multiply
// CHECK: %[[UGT:.*]] = stablehlo.constant dense<0> : tensor<ui32>
// CHECK: return {{.*}}, %[[NE]], %[[GT]], %[[GE]], %[[UGT]]
func.func @directions(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<i32>, tensor<i32>, tensor<i64>, tensor<ui32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r0:2 = stablehlo.while(%v = %x, %i = %c0) : tensor<4xf32>, tensor<i32>
  cond {
    %n = stablehlo.constant dense<6> : tensor<i32>
    %p = stablehlo.compare NE, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %two = stablehlo.constant dense<2> : tensor<i32>
    %i1 = stablehlo.add %i, %two : tensor<i32>
    %v1 = stablehlo.multiply %v, %v : tensor<4xf32>
    stablehlo.return %v1, %i1 : tensor<4xf32>, tensor<i32>
  }
  %c10 = stablehlo.constant dense<10> : tensor<i32>
  %r1:2 = stablehlo.while(%v = %r0#0, %i = %c10) : tensor<4xf32>, tensor<i32>
  cond {
    %n = stablehlo.constant dense<0> : tensor<i32>
    %p = stablehlo.compare GT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %step = stablehlo.constant dense<-3> : tensor<i32>
    %i1 = stablehlo.add %step, %i : tensor<i32>
    %v1 = stablehlo.multiply %v, %v : tensor<4xf32>
    stablehlo.return %v1, %i1 : tensor<4xf32>, tensor<i32>
  }
  %c3 = stablehlo.constant dense<3> : tensor<i64>
  %r2:2 = stablehlo.while(%v = %r1#0, %i = %c3) : tensor<4xf32>, tensor<i64>
  cond {
    %n = stablehlo.constant dense<0> : tensor<i64>
    %p = stablehlo.compare LE, %n, %i, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %step = stablehlo.constant dense<-1> : tensor<i64>
    %i1 = stablehlo.add %i, %step : tensor<i64>
    %v1 = stablehlo.multiply %v, %v : tensor<4xf32>
    stablehlo.return %v1, %i1 : tensor<4xf32>, tensor<i64>
  }
  %u3 = stablehlo.constant dense<3> : tensor<ui32>
  %r3:2 = stablehlo.while(%v = %r2#0, %i = %u3) : tensor<4xf32>, tensor<ui32>
  cond {
    %n = stablehlo.constant dense<0> : tensor<ui32>
    %p = stablehlo.compare GT, %i, %n, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %step = stablehlo.constant dense<4294967295> : tensor<ui32>
    %i1 = stablehlo.add %i, %step : tensor<ui32>
    %v1 = stablehlo.multiply %v, %v : tensor<4xf32>
    stablehlo.return %v1, %i1 : tensor<4xf32>, tensor<ui32>
  }
  return %r3#0, %r0#1, %r1#1, %r2#1, %r3#1 : tensor<4xf32>, tensor<i32>, tensor<i32>, tensor<i64>, tensor<ui32>
}

// -----

// Check that a loop whose trip count divides is unrolled by the largest fitting divisor:
// 12 trips, 2 ops per body, at most 8 ops: factor 4, no peeling, the condition unchanged;
// the loop's known_trip_count (12 no longer) is dropped.
// PARTIAL-LABEL: func.func @partial_divisor
// PARTIAL-NOT: stablehlo.multiply
// PARTIAL: stablehlo.while(%[[V:.*]] = %arg0, %[[I:.*]] = %c) : tensor<4xf32>, tensor<i32> attributes {hlo_mlir.unroll_factor = 4 : i64}
// PARTIAL: stablehlo.compare LT, %[[I]], %{{.*}}, SIGNED
// PARTIAL: } do {
// PARTIAL-COUNT-4: stablehlo.multiply
// PARTIAL-NOT: stablehlo.multiply
// PARTIAL: %[[F:.*]] = stablehlo.constant dense<4> : tensor<i32>
// PARTIAL: %[[NEXT:.*]] = stablehlo.add %[[I]], %[[F]]
// PARTIAL: stablehlo.return %{{.*}}, %[[NEXT]]
// FIXED-LABEL: func.func @partial_divisor
// FIXED: stablehlo.while{{.*}}attributes {hlo_mlir.unroll_factor = 4 : i64}
// FIXED-COUNT-4: stablehlo.multiply
// FIXED-NOT: stablehlo.multiply
// FIXED-NOT: stablehlo.while
// FIXED: return
func.func @partial_divisor(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%v = %x, %i = %c0) : tensor<4xf32>, tensor<i32>
    attributes {hlo_mlir.known_trip_count = 12 : i64}
  cond {
    %n = stablehlo.constant dense<12> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %v1 = stablehlo.multiply %v, %v : tensor<4xf32>
    stablehlo.return %v1, %i1 : tensor<4xf32>, tensor<i32>
  }
  return %r#0 : tensor<4xf32>
}

// -----

// Check that a prime trip count is unrolled by the largest fitting factor after peeling the
// remainder: 7 trips counting up from 5 with LE 11: factor 3, one copy before the loop,
// which then starts at 6; each copy in the body reads i + k for its counter.
// PARTIAL-LABEL: func.func @partial_peeled
// PARTIAL: %[[P:.*]] = stablehlo.multiply %arg0, %{{.*}}
// PARTIAL: %[[START:.*]] = stablehlo.constant dense<6> : tensor<i32>
// PARTIAL: stablehlo.while(%[[V:.*]] = %[[P]], %[[I:.*]] = %[[START]]) {{.*}} attributes {hlo_mlir.unroll_factor = 3 : i64}
// PARTIAL: stablehlo.compare LE, %[[I]]
// PARTIAL: } do {
// PARTIAL: stablehlo.multiply %[[V]], %[[I]]
// PARTIAL: %[[K1:.*]] = stablehlo.constant dense<1> : tensor<i32>
// PARTIAL: %[[I1:.*]] = stablehlo.add %[[I]], %[[K1]]
// PARTIAL: stablehlo.multiply %{{.*}}, %[[I1]]
// PARTIAL: %[[K2:.*]] = stablehlo.constant dense<2> : tensor<i32>
// PARTIAL: %[[I2:.*]] = stablehlo.add %[[I]], %[[K2]]
// PARTIAL: stablehlo.multiply %{{.*}}, %[[I2]]
// PARTIAL: %[[K3:.*]] = stablehlo.constant dense<3> : tensor<i32>
// PARTIAL: %[[NEXT:.*]] = stablehlo.add %[[I]], %[[K3]]
// PARTIAL: stablehlo.return %{{.*}}, %[[NEXT]]
// FIXED-LABEL: func.func @partial_peeled
// FIXED: stablehlo.multiply
// FIXED: stablehlo.while{{.*}}attributes {hlo_mlir.unroll_factor = 3 : i64}
// FIXED-COUNT-3: stablehlo.multiply
// FIXED-NOT: stablehlo.multiply
// FIXED: return
func.func @partial_peeled(%x: tensor<i32>) -> tensor<i32> {
  %c5 = stablehlo.constant dense<5> : tensor<i32>
  %r:2 = stablehlo.while(%v = %x, %i = %c5) : tensor<i32>, tensor<i32>
  cond {
    %n = stablehlo.constant dense<11> : tensor<i32>
    %p = stablehlo.compare LE, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %v1 = stablehlo.multiply %v, %i : tensor<i32>
    stablehlo.return %v1, %i1 : tensor<i32>, tensor<i32>
  }
  return %r#0 : tensor<i32>
}

// -----

// Check that nested loops unroll inner first, then the outer copies the unrolled inner.
// CHECK-LABEL: func.func @nested
// CHECK-NOT: stablehlo.while
// CHECK-COUNT-6: stablehlo.multiply
// CHECK-NOT: stablehlo.multiply
// CHECK: return
func.func @nested(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%v = %x, %i = %c0) : tensor<4xf32>, tensor<i32>
  cond {
    %n = stablehlo.constant dense<2> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %z = stablehlo.constant dense<0> : tensor<i32>
    %s:2 = stablehlo.while(%w = %v, %j = %z) : tensor<4xf32>, tensor<i32>
    cond {
      %m = stablehlo.constant dense<3> : tensor<i32>
      %q = stablehlo.compare LT, %j, %m, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %q : tensor<i1>
    } do {
      %j1 = stablehlo.add %j, %one : tensor<i32>
      %w1 = stablehlo.multiply %w, %v : tensor<4xf32>
      stablehlo.return %w1, %j1 : tensor<4xf32>, tensor<i32>
    }
    stablehlo.return %s#0, %i1 : tensor<4xf32>, tensor<i32>
  }
  return %r#0 : tensor<4xf32>
}

// -----

// Check that loops are left alone when the trip count is unknown (a parameter bound), the
// counter would wrap (ui8 up to LE 255), an NE bound is never met (step 2 from 0 to 5),
// the body has side effects, a large tensor or complex values, or the loop was unrolled before.
// CHECK-LABEL: func.func @refusals
// CHECK-COUNT-7: stablehlo.while
func.func @refusals(%x: tensor<4xf32>, %n: tensor<i32>, %big: tensor<256x257xf32>, %z: tensor<4xcomplex<f64>>)
    -> (tensor<4xf32>, tensor<ui8>, tensor<i32>, tensor<4xf32>, tensor<256x257xf32>, tensor<4xf32>,
        tensor<4xcomplex<f64>>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r0:2 = stablehlo.while(%v = %x, %i = %c0) : tensor<4xf32>, tensor<i32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %v1 = stablehlo.multiply %v, %v : tensor<4xf32>
    stablehlo.return %v1, %i1 : tensor<4xf32>, tensor<i32>
  }
  %u250 = stablehlo.constant dense<250> : tensor<ui8>
  %r1 = stablehlo.while(%i = %u250) : tensor<ui8>
  cond {
    %m = stablehlo.constant dense<255> : tensor<ui8>
    %p = stablehlo.compare LE, %i, %m, UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<ui8>
    %i1 = stablehlo.add %i, %one : tensor<ui8>
    stablehlo.return %i1 : tensor<ui8>
  }
  %r2 = stablehlo.while(%i = %c0) : tensor<i32>
  cond {
    %m = stablehlo.constant dense<5> : tensor<i32>
    %p = stablehlo.compare NE, %i, %m, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %two = stablehlo.constant dense<2> : tensor<i32>
    %i1 = stablehlo.add %i, %two : tensor<i32>
    stablehlo.return %i1 : tensor<i32>
  }
  %r3:2 = stablehlo.while(%v = %x, %i = %c0) : tensor<4xf32>, tensor<i32>
  cond {
    %m = stablehlo.constant dense<2> : tensor<i32>
    %p = stablehlo.compare LT, %i, %m, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %v1 = stablehlo.custom_call @effect(%v) {has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
    stablehlo.return %v1, %i1 : tensor<4xf32>, tensor<i32>
  }
  %r4:2 = stablehlo.while(%v = %big, %i = %c0) : tensor<256x257xf32>, tensor<i32>
  cond {
    %m = stablehlo.constant dense<2> : tensor<i32>
    %p = stablehlo.compare LT, %i, %m, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %v1 = stablehlo.multiply %v, %v : tensor<256x257xf32>
    stablehlo.return %v1, %i1 : tensor<256x257xf32>, tensor<i32>
  }
  %r5:2 = stablehlo.while(%v = %x, %i = %c0) : tensor<4xf32>, tensor<i32> attributes {hlo_mlir.unroll_factor = 2 : i64}
  cond {
    %m = stablehlo.constant dense<2> : tensor<i32>
    %p = stablehlo.compare LT, %i, %m, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %two = stablehlo.constant dense<2> : tensor<i32>
    %i1 = stablehlo.add %i, %two : tensor<i32>
    %v1 = stablehlo.multiply %v, %v : tensor<4xf32>
    stablehlo.return %v1, %i1 : tensor<4xf32>, tensor<i32>
  }
  %r6:2 = stablehlo.while(%v = %z, %i = %c0) : tensor<4xcomplex<f64>>, tensor<i32>
  cond {
    %m = stablehlo.constant dense<2> : tensor<i32>
    %p = stablehlo.compare LT, %i, %m, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %v1 = stablehlo.multiply %v, %v : tensor<4xcomplex<f64>>
    stablehlo.return %v1, %i1 : tensor<4xcomplex<f64>>, tensor<i32>
  }
  return %r0#0, %r1, %r2, %r3#0, %r4#0, %r5#0, %r6#0 : tensor<4xf32>, tensor<ui8>, tensor<i32>, tensor<4xf32>,
      tensor<256x257xf32>, tensor<4xf32>, tensor<4xcomplex<f64>>
}
