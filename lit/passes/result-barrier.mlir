// RUN: %hlo-opt %s -p result-barrier --split-input-file | filecheck %s

// Check that a returned parameter and a computed result each leave through their own
// barrier, after the sort that IREE would otherwise run in the parameter's buffer.
// CHECK-LABEL: func.func @main
// CHECK: %[[S:.*]] = "stablehlo.sort"(%arg0)
// CHECK: %[[B0:.*]] = stablehlo.optimization_barrier %[[S]] : tensor<5xf32>
// CHECK: %[[B1:.*]] = stablehlo.optimization_barrier %arg0 : tensor<5xf32>
// CHECK: return %[[B0]], %[[B1]]
func.func @main(%x: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>) {
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64, is_stable = false} : (tensor<5xf32>) -> tensor<5xf32>
  return %0, %x : tensor<5xf32>, tensor<5xf32>
}

// -----

// Check that one value returned twice gets one barrier per result, and that a view of a
// parameter (IREE exports a reshape from the parameter's buffer) is fenced too.
// CHECK-LABEL: func.func @twice
// CHECK: %[[R:.*]] = stablehlo.reshape %arg0
// CHECK: %[[B0:.*]] = stablehlo.optimization_barrier %arg0
// CHECK: %[[B1:.*]] = stablehlo.optimization_barrier %arg0
// CHECK: %[[B2:.*]] = stablehlo.optimization_barrier %[[R]]
// CHECK: return %[[B0]], %[[B1]], %[[B2]]
func.func @twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<2x2xf32>) {
  %r = stablehlo.reshape %x : (tensor<4xf32>) -> tensor<2x2xf32>
  return %x, %x, %r : tensor<4xf32>, tensor<4xf32>, tensor<2x2xf32>
}

// -----

// Check that the elements of a returned tuple are fenced and the tuple rebuilt, and
// that a whole tuple parameter is taken apart, fenced element by element and rebuilt.
// CHECK-LABEL: func.func @tuples
// CHECK-DAG: %[[A:.*]] = stablehlo.get_tuple_element %arg0[0]
// CHECK-DAG: %[[BA:.*]] = stablehlo.optimization_barrier %[[A]] : tensor<4xf32>
// CHECK-DAG: %[[T:.*]] = stablehlo.tuple %[[BA]]
// CHECK-DAG: %[[E0:.*]] = stablehlo.get_tuple_element %arg0[0]
// CHECK-DAG: %[[E1:.*]] = stablehlo.get_tuple_element %arg0[1]
// CHECK-DAG: %[[F0:.*]] = stablehlo.optimization_barrier %[[E0]] : tensor<4xf32>
// CHECK-DAG: %[[F1:.*]] = stablehlo.optimization_barrier %[[E1]] : tensor<i32>
// CHECK-DAG: %[[P:.*]] = stablehlo.tuple %[[F0]], %[[F1]]
// CHECK: return %[[T]], %[[P]]
func.func @tuples(%p: tuple<tensor<4xf32>, tensor<i32>>) -> (tuple<tensor<4xf32>>, tuple<tensor<4xf32>, tensor<i32>>) {
  %a = stablehlo.get_tuple_element %p[0] : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<4xf32>
  %t = stablehlo.tuple %a : tuple<tensor<4xf32>>
  return %t, %p : tuple<tensor<4xf32>>, tuple<tensor<4xf32>, tensor<i32>>
}

// -----

// Check that constants, results already behind a barrier and tokens are left alone,
// so a second run changes nothing.
// CHECK-LABEL: func.func @left_alone
// CHECK: %[[C:.*]] = stablehlo.constant
// CHECK: %[[B:.*]] = stablehlo.optimization_barrier %arg0
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: return %[[C]], %[[B]], %arg1
func.func @left_alone(%x: tensor<4xf32>, %t: !stablehlo.token) -> (tensor<4xf32>, tensor<4xf32>, !stablehlo.token) {
  %c = stablehlo.constant dense<1.0> : tensor<4xf32>
  %b = stablehlo.optimization_barrier %x : tensor<4xf32>
  return %c, %b, %t : tensor<4xf32>, tensor<4xf32>, !stablehlo.token
}

// -----

// Check that private functions (not exported by IREE) are left alone.
// CHECK-LABEL: func.func private @helper
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: return %arg0
func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
