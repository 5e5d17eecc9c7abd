// RUN: %hlo-opt %s -p scatter-expander --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p "scatter-expander{mode=simple}" --split-input-file | filecheck %s --check-prefix=SIMPLE
// RUN: %hlo-opt %s -p "scatter-expander{mode=variadic}" --split-input-file | filecheck %s --check-prefix=VARIADIC

// With mode=variadic (iree-legalize's, after scatter-bounds) only the variadic scatter expands.
// VARIADIC-LABEL: func.func @rows
// VARIADIC: stablehlo.scatter
// VARIADIC-LABEL: func.func @variadic
// VARIADIC-NOT: stablehlo.scatter
// VARIADIC: stablehlo.while
// VARIADIC-LABEL: func.func @empty_updates
// VARIADIC: stablehlo.scatter
// VARIADIC-LABEL: func.func @batching
// VARIADIC: stablehlo.scatter

// Check that a row scatter becomes a while loop of 2 trips carrying the operand: the row of
// index i starts the window, the operand window and the update row are combined by a map
// of the update computation, and the result is written back only where the window fits
// (0 <= start <= 4 - 1), else the old window is.
// CHECK-LABEL: func.func @rows
// CHECK-NOT: stablehlo.scatter
// CHECK: %[[W:.*]]:2 = stablehlo.while(%[[I:[a-zA-Z0-9_]+]] = %{{[a-zA-Z0-9_]+}}, %[[X:[a-zA-Z0-9_]+]] = %arg0)
// CHECK: stablehlo.constant dense<2> : tensor<i32>
// CHECK: %[[ROW:.*]] = stablehlo.dynamic_slice %arg1, %[[I]], %{{.*}}, sizes = [1, 1]
// CHECK: %[[S:.*]] = stablehlo.reshape %{{.*}} : (tensor<1xi32>) -> tensor<i32>
// CHECK: %[[GE:.*]] = stablehlo.compare GE, %[[S]]
// CHECK: stablehlo.constant dense<3> : tensor<i32>
// CHECK: %[[LE:.*]] = stablehlo.compare LE, %[[S]]
// CHECK: %[[OK:.*]] = stablehlo.and %[[GE]], %[[LE]]
// CHECK: %[[OLD:.*]] = stablehlo.dynamic_slice %[[X]], %[[S]], %{{.*}}, sizes = [1, 3]
// CHECK: %[[U:.*]] = stablehlo.dynamic_slice %arg2, %[[I]], %{{.*}}, sizes = [1, 3]
// CHECK: %[[NEW:.*]] = "stablehlo.map"(%[[OLD]], %{{.*}})
// CHECK: stablehlo.multiply
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %[[OK]], dims = [] : (tensor<i1>) -> tensor<1x3xi1>
// CHECK: %[[SEL:.*]] = stablehlo.select %[[B]], %[[NEW]], %[[OLD]]
// CHECK: stablehlo.dynamic_update_slice %[[X]], %[[SEL]], %[[S]], %{{.*}}
// CHECK: return %[[W]]#1
// SIMPLE-LABEL: func.func @rows
// SIMPLE: stablehlo.scatter
func.func @rows(%x: tensor<4x3xf32>, %idx: tensor<2x1xi32>, %u: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %r = "stablehlo.scatter"(%x, %idx, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.multiply %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

// Check that a variadic scatter of one index vector (expanded in both modes) maps the
// update computation once per result, each map returning its own result, and that
// unsigned indices need no lower-bound check.
// CHECK-LABEL: func.func @variadic
// CHECK-NOT: stablehlo.scatter
// CHECK: stablehlo.while
// CHECK-NOT: compare GE
// CHECK: stablehlo.compare LE
// CHECK: "stablehlo.map"
// CHECK: stablehlo.return %{{.*}} : tensor<f32>
// CHECK: "stablehlo.map"
// CHECK: stablehlo.return %{{.*}} : tensor<i32>
// SIMPLE-LABEL: func.func @variadic
// SIMPLE-NOT: stablehlo.scatter
// SIMPLE: stablehlo.while
func.func @variadic(%x: tensor<5xf32>, %y: tensor<5xi32>, %idx: tensor<1xui32>, %u: tensor<2xf32>, %v: tensor<2xi32>) -> (tensor<5xf32>, tensor<5xi32>) {
  %r:2 = "stablehlo.scatter"(%x, %y, %idx, %u, %v) ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    %s = stablehlo.add %a, %c : tensor<f32>
    %t = stablehlo.add %b, %d : tensor<i32>
    stablehlo.return %s, %t : tensor<f32>, tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 0>} : (tensor<5xf32>, tensor<5xi32>, tensor<1xui32>, tensor<2xf32>, tensor<2xi32>) -> (tensor<5xf32>, tensor<5xi32>)
  return %r#0, %r#1 : tensor<5xf32>, tensor<5xi32>
}

// -----

// Check that empty updates leave the operand as it is.
// CHECK-LABEL: func.func @empty_updates
// CHECK-NOT: stablehlo.scatter
// CHECK: return %arg0
func.func @empty_updates(%x: tensor<4xf32>, %idx: tensor<0x1xi32>, %u: tensor<0xf32>) -> tensor<4xf32> {
  %r = "stablehlo.scatter"(%x, %idx, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4xf32>, tensor<0x1xi32>, tensor<0xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Check that a batching pair becomes an ordinary index component (an iota of the paired
// index dimension appended to each index vector), its operand dimension a window of 1.
// CHECK-LABEL: func.func @batching
// CHECK-NOT: stablehlo.scatter
// CHECK: %[[POS:.*]] = stablehlo.iota dim = 0 : tensor<2x3x1xi32>
// CHECK: stablehlo.concatenate %arg1, %[[POS]], dim = 2 : (tensor<2x3x1xi32>, tensor<2x3x1xi32>) -> tensor<2x3x2xi32>
// CHECK: stablehlo.while
// CHECK: stablehlo.dynamic_slice %{{.*}}, %{{.*}}, %{{.*}}, sizes = [1, 1]
// SIMPLE-LABEL: func.func @batching
// SIMPLE: stablehlo.scatter
func.func @batching(%x: tensor<2x4xf32>, %idx: tensor<2x3x1xi32>, %u: tensor<2x3xf32>) -> tensor<2x4xf32> {
  %r = "stablehlo.scatter"(%x, %idx, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>} : (tensor<2x4xf32>, tensor<2x3x1xi32>, tensor<2x3xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// Check that a scatter of an operand of dynamic shape is left alone.
// CHECK-LABEL: func.func @dynamic
// CHECK: stablehlo.scatter
func.func @dynamic(%x: tensor<?xf32>, %idx: tensor<2x1xi32>, %u: tensor<2xf32>) -> tensor<?xf32> {
  %r = "stablehlo.scatter"(%x, %idx, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<?xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
