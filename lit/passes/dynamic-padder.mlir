// RUN: %hlo-opt %s -p dynamic-padder --split-input-file | filecheck %s

// Check that a bounded tensor read by element-wise ops, sizes and reduces over its
// dynamic dimension becomes its static operand: the sizes are the size given and the
// static size, and each reduce reads its init value in the padding (iota < size).
// CHECK-LABEL: func.func @padded
// CHECK-NOT: set_dimension_size
// CHECK-NOT: get_dimension_size
// CHECK: %[[E:.*]] = stablehlo.exponential %arg0 : tensor<4x3xf32>
// CHECK: %[[F:.*]] = stablehlo.add %[[E]], %arg0 : tensor<4x3xf32>
// CHECK: %[[C3:.*]] = stablehlo.constant dense<3> : tensor<i32>
// CHECK: %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %[[IOTA:.*]] = stablehlo.iota dim = 0 : tensor<4x3xi32>
// CHECK: %[[N:.*]] = stablehlo.broadcast_in_dim %arg1, dims = []
// CHECK: %[[VALID:.*]] = stablehlo.compare LT, %[[IOTA]], %[[N]], SIGNED
// CHECK: %[[PAD:.*]] = stablehlo.broadcast_in_dim %[[Z]], dims = []
// CHECK: %[[M:.*]] = stablehlo.select %[[VALID]], %[[F]], %[[PAD]]
// CHECK: %[[S:.*]] = stablehlo.reduce(%[[M]] init: %[[Z]]) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x3xf32>, tensor<f32>)
// CHECK: stablehlo.select
// CHECK: %[[T:.*]] = stablehlo.reduce({{.*}}) applies stablehlo.maximum across dimensions = [0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK: return %arg1, %[[C3]], %[[S]], %[[T]]
func.func @padded(%x: tensor<4x3xf32>, %n: tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<f32>, tensor<3xf32>) {
  %d = stablehlo.set_dimension_size %x, %n, dim = 0 : (tensor<4x3xf32>, tensor<i32>) -> tensor<?x3xf32, #stablehlo.bounds<4, ?>>
  %e = stablehlo.exponential %d : tensor<?x3xf32, #stablehlo.bounds<4, ?>>
  %f = stablehlo.add %e, %d : tensor<?x3xf32, #stablehlo.bounds<4, ?>>
  %g0 = stablehlo.get_dimension_size %f, dim = 0 : (tensor<?x3xf32, #stablehlo.bounds<4, ?>>) -> tensor<i32>
  %g1 = stablehlo.get_dimension_size %f, dim = 1 : (tensor<?x3xf32, #stablehlo.bounds<4, ?>>) -> tensor<i32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%f init: %z) applies stablehlo.add across dimensions = [0, 1]
      : (tensor<?x3xf32, #stablehlo.bounds<4, ?>>, tensor<f32>) -> tensor<f32>
  %m = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %t = stablehlo.reduce(%e init: %m) applies stablehlo.maximum across dimensions = [0]
      : (tensor<?x3xf32, #stablehlo.bounds<4, ?>>, tensor<f32>) -> tensor<3xf32>
  return %g0, %g1, %s, %t : tensor<i32>, tensor<i32>, tensor<f32>, tensor<3xf32>
}

// -----

// Check that a compare of the bounded value changes the element type and stays static, and
// that an integer sum with init 0 masks with 0.
// CHECK-LABEL: func.func @count_positive
// CHECK: %[[P:.*]] = stablehlo.compare GT, %arg0, %{{.*}} : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
// CHECK: %[[I:.*]] = stablehlo.convert %[[P]] : (tensor<5xi1>) -> tensor<5xi32>
// CHECK: stablehlo.select %{{.*}}, %[[I]], %{{.*}} : tensor<5xi1>, tensor<5xi32>
// CHECK-NOT: set_dimension_size
func.func @count_positive(%x: tensor<5xi32>, %n: tensor<i32>) -> tensor<i32> {
  %d = stablehlo.set_dimension_size %x, %n, dim = 0 : (tensor<5xi32>, tensor<i32>) -> tensor<?xi32, #stablehlo.bounds<5>>
  %p = stablehlo.compare GT, %d, %d : (tensor<?xi32, #stablehlo.bounds<5>>, tensor<?xi32, #stablehlo.bounds<5>>) -> tensor<?xi1, #stablehlo.bounds<5>>
  %i = stablehlo.convert %p : (tensor<?xi1, #stablehlo.bounds<5>>) -> tensor<?xi32, #stablehlo.bounds<5>>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %s = stablehlo.reduce(%i init: %z) applies stablehlo.add across dimensions = [0]
      : (tensor<?xi32, #stablehlo.bounds<5>>, tensor<i32>) -> tensor<i32>
  return %s : tensor<i32>
}

// -----

// Check what stays dynamic: a bounded value returned, read by a transpose, reduced with
// an init that would count once per padding element (add with 1.0), reduced over
// another dimension only.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-4: stablehlo.set_dimension_size
func.func @kept(%x: tensor<4x3xf32>, %n: tensor<i32>)
    -> (tensor<?x3xf32, #stablehlo.bounds<4, ?>>, tensor<3x?xf32, #stablehlo.bounds<?, 4>>, tensor<f32>, tensor<?xf32, #stablehlo.bounds<4>>) {
  %a = stablehlo.set_dimension_size %x, %n, dim = 0 : (tensor<4x3xf32>, tensor<i32>) -> tensor<?x3xf32, #stablehlo.bounds<4, ?>>
  %b = stablehlo.set_dimension_size %x, %n, dim = 0 : (tensor<4x3xf32>, tensor<i32>) -> tensor<?x3xf32, #stablehlo.bounds<4, ?>>
  %t = stablehlo.transpose %b, dims = [1, 0] : (tensor<?x3xf32, #stablehlo.bounds<4, ?>>) -> tensor<3x?xf32, #stablehlo.bounds<?, 4>>
  %c = stablehlo.set_dimension_size %x, %n, dim = 0 : (tensor<4x3xf32>, tensor<i32>) -> tensor<?x3xf32, #stablehlo.bounds<4, ?>>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %s = stablehlo.reduce(%c init: %one) applies stablehlo.add across dimensions = [0, 1]
      : (tensor<?x3xf32, #stablehlo.bounds<4, ?>>, tensor<f32>) -> tensor<f32>
  %d = stablehlo.set_dimension_size %x, %n, dim = 0 : (tensor<4x3xf32>, tensor<i32>) -> tensor<?x3xf32, #stablehlo.bounds<4, ?>>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%d init: %z) applies stablehlo.add across dimensions = [1]
      : (tensor<?x3xf32, #stablehlo.bounds<4, ?>>, tensor<f32>) -> tensor<?xf32, #stablehlo.bounds<4>>
  return %a, %t, %s, %r : tensor<?x3xf32, #stablehlo.bounds<4, ?>>, tensor<3x?xf32, #stablehlo.bounds<?, 4>>, tensor<f32>, tensor<?xf32, #stablehlo.bounds<4>>
}
