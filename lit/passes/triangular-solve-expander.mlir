// RUN: %hlo-opt %s -p triangular-solve-expander --split-input-file | filecheck %s

// Check that a batched left-side lower solve masks the lower triangle of a and runs forward
// substitution: row i of x is (b[i] - a[i] @ x) / a[i, i].
// CHECK-LABEL: func.func @left_lower
// CHECK-NOT: stablehlo.triangular_solve
// CHECK: %[[ROWS:.*]] = stablehlo.iota dim = 1 : tensor<2x3x3xi32>
// CHECK: %[[COLS:.*]] = stablehlo.iota dim = 2 : tensor<2x3x3xi32>
// CHECK: %[[MASK:.*]] = stablehlo.compare GE, %[[ROWS]], %[[COLS]], SIGNED
// CHECK: %[[L:.*]] = stablehlo.select %[[MASK]], %arg0, %{{.*}}
// CHECK: %[[W:.*]]:2 = stablehlo.while(%[[I:.*]] = %{{.*}}, %[[X:.*]] = %{{.*}}) : tensor<i32>, tensor<2x3x4xf32>
// CHECK: %[[B:.*]] = stablehlo.dynamic_slice %arg1, %{{.*}}, %[[I]], %{{.*}}, sizes = [2, 1, 4]
// CHECK: %[[A:.*]] = stablehlo.dynamic_slice %[[L]], %{{.*}}, %[[I]], %{{.*}}, sizes = [2, 1, 3]
// CHECK: %[[AX:.*]] = stablehlo.dot_general %[[A]], %[[X]], batching_dims = [0] x [0], contracting_dims = [2] x [1]
// CHECK: %[[R:.*]] = stablehlo.subtract %[[B]], %[[AX]]
// CHECK: %[[D:.*]] = stablehlo.dynamic_slice %[[L]], %{{.*}}, %[[I]], %[[I]], sizes = [2, 1, 1]
// CHECK: %[[Q:.*]] = stablehlo.divide %[[R]], %{{.*}}
// CHECK: %[[X1:.*]] = stablehlo.dynamic_update_slice %[[X]], %[[Q]], %{{.*}}, %[[I]], %{{.*}}
// CHECK: stablehlo.return %{{.*}}, %[[X1]]
// CHECK: return %[[W]]#1
func.func @left_lower(%a: tensor<2x3x3xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %r = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false,
      transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x3x3xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}

// -----

// Check that x a = b with a upper becomes a^T x^T = b^T with a^T lower; the unit diagonal
// is not read (strictly lower mask, no division).
// CHECK-LABEL: func.func @right_upper_unit
// CHECK: %[[AT:.*]] = stablehlo.transpose %arg0, dims = [1, 0]
// CHECK: %[[BT:.*]] = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK: %[[MASK:.*]] = stablehlo.compare GT
// CHECK: stablehlo.select %[[MASK]], %[[AT]]
// CHECK: %[[W:.*]]:2 = stablehlo.while
// CHECK-NOT: stablehlo.divide
// CHECK: %[[X:.*]] = stablehlo.transpose %[[W]]#1, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
// CHECK: return %[[X]]
func.func @right_upper_unit(%a: tensor<3x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = "stablehlo.triangular_solve"(%a, %b) {left_side = false, lower = false, unit_diagonal = true,
      transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// Check that a left-side upper solve of the adjoint of a lower a conjugates a^T (upper),
// masks its upper triangle and runs backward substitution, without reversing anything.
// CHECK-LABEL: func.func @left_lower_adjoint
// CHECK: %[[AT:.*]] = stablehlo.transpose %arg0, dims = [1, 0]
// CHECK: stablehlo.negate
// CHECK: %[[AH:.*]] = stablehlo.complex
// CHECK: %[[MASK:.*]] = stablehlo.compare LE
// CHECK: %[[U:.*]] = stablehlo.select %[[MASK]], %[[AH]]
// CHECK: %[[W:.*]]:2 = stablehlo.while
// CHECK: stablehlo.dynamic_slice %arg1
// CHECK: stablehlo.dynamic_slice %[[U]]
// CHECK-NOT: stablehlo.reverse
// CHECK: return %[[W]]#1
func.func @left_lower_adjoint(%a: tensor<3x3xcomplex<f32>>, %b: tensor<3x1xcomplex<f32>>) -> tensor<3x1xcomplex<f32>> {
  %r = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false,
      transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<3x3xcomplex<f32>>, tensor<3x1xcomplex<f32>>) -> tensor<3x1xcomplex<f32>>
  return %r : tensor<3x1xcomplex<f32>>
}

// -----

// Check that an upper solve of one unbatched column walks the rows backward, j = m - 1 - i,
// and reverses neither a nor b (IREE fails to compile the reversed b in the loop:
// docs/iree-defects.md).
// CHECK-LABEL: func.func @left_upper_one_column
// CHECK-NOT: stablehlo.reverse
// CHECK: %[[MASK:.*]] = stablehlo.compare LE
// CHECK: %[[U:.*]] = stablehlo.select %[[MASK]], %arg0
// CHECK: %[[W:.*]]:2 = stablehlo.while(%[[I:.*]] = %{{.*}}, %[[X:.*]] = %{{.*}}) : tensor<i32>, tensor<2x1xf32>
// CHECK: %[[LAST:.*]] = stablehlo.constant dense<1> : tensor<i32>
// CHECK: %[[J:.*]] = stablehlo.subtract %[[LAST]], %[[I]] : tensor<i32>
// CHECK: %[[B:.*]] = stablehlo.dynamic_slice %arg1, %[[J]], %{{.*}}, sizes = [1, 1]
// CHECK: %[[A:.*]] = stablehlo.dynamic_slice %[[U]], %[[J]], %{{.*}}, sizes = [1, 2]
// CHECK: %[[AX:.*]] = stablehlo.dot_general %[[A]], %[[X]], contracting_dims = [1] x [0]
// CHECK: %[[R:.*]] = stablehlo.subtract %[[B]], %[[AX]]
// CHECK: %[[D:.*]] = stablehlo.dynamic_slice %[[U]], %[[J]], %[[J]], sizes = [1, 1]
// CHECK: %[[Q:.*]] = stablehlo.divide %[[R]], %[[D]]
// CHECK: stablehlo.dynamic_update_slice %[[X]], %[[Q]], %[[J]], %{{.*}}
// CHECK-NOT: stablehlo.reverse
// CHECK: return %[[W]]#1
func.func @left_upper_one_column(%a: tensor<2x2xf32>, %b: tensor<2x1xf32>) -> tensor<2x1xf32> {
  %r = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = false, unit_diagonal = false,
      transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  return %r : tensor<2x1xf32>
}

// -----

// Check that other ops are left alone.
// CHECK-LABEL: func.func @no_solve
// CHECK-NEXT: stablehlo.dot_general
// CHECK-NEXT: return
func.func @no_solve(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
