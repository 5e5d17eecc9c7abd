// RUN: %hlo-opt %s -p "indexed-array-analysis{print=true}" --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=PRINT
// RUN: %hlo-opt %s -p "indexed-array-analysis{print=true}" --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=NONE
// RUN: %hlo-opt %s -p "indexed-array-analysis{print=true,print-constants=true}" --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=VALUES
// RUN: %hlo-opt %s -p indexed-array-analysis --statistics --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=STATS
// RUN: %hlo-opt %s -p indexed-array-analysis --split-input-file | filecheck %s

// The analysis prints one line per value it sees as a gather in disguise, in XLA's notation
// (IndexedArrayAnalysisPrinterPass), and changes nothing: the module is printed as it was.
// Ops are named by their NameLoc; a name starting with "not_" must never be printed (NONE).
// NONE-NOT: %not_

// Check that a gather of rows of a constant is a scalar-indexed constant, and a gather
// from a parameter a scalar-indexed array; the IR stays as written.
// PRINT: %rows = (scalar-indexed-const (constant f32[3,3]) %arg0 0->[0])
// PRINT-NEXT: %param_rows = (scalar-indexed %arg1 %arg0 0->[0])
// STATS: indexed-array-analysis
// STATS: (S) 1 scalar-indexed
// STATS: (S) 1 scalar-indexed-constant
// CHECK-LABEL: func.func @rows
// CHECK: stablehlo.constant
// CHECK-NEXT: "stablehlo.gather"
// CHECK-NEXT: "stablehlo.gather"
// CHECK-NEXT: return
func.func @rows(%i: tensor<5xi32>, %p: tensor<3x3xf32>) -> (tensor<5x3xf32>, tensor<5x3xf32>) {
  %c = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  %g = "stablehlo.gather"(%c, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>} : (tensor<3x3xf32>, tensor<5xi32>) -> tensor<5x3xf32> loc("rows")
  %h = "stablehlo.gather"(%p, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>} : (tensor<3x3xf32>, tensor<5xi32>) -> tensor<5x3xf32> loc("param_rows")
  return %g, %h : tensor<5x3xf32>, tensor<5x3xf32>
}

// -----

// Check that JAX's x[idx] (indices s32[5,1]) is scalar-indexed through a reshape of the
// indices, and that gathers which are not (two indexed dims, a partial slice) are not.
// PRINT: %jax_rows = (scalar-indexed-const (constant s32[3,4]) (reshape %arg0 to s32[5]) 0->[0])
// CHECK-LABEL: func.func @jax
func.func @jax(%i: tensor<5x1xi32>, %j: tensor<5x2xi32>) -> (tensor<5x4xi32>, tensor<5xi32>, tensor<5x2xi32>) {
  %c = stablehlo.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]> : tensor<3x4xi32>
  %g = "stablehlo.gather"(%c, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>} : (tensor<3x4xi32>, tensor<5x1xi32>) -> tensor<5x4xi32> loc("jax_rows")
  %p = "stablehlo.gather"(%c, %j) {dimension_numbers = #stablehlo.gather<offset_dims = [], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>} : (tensor<3x4xi32>, tensor<5x2xi32>) -> tensor<5xi32> loc("not_points")
  %s = "stablehlo.gather"(%c, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 2>} : (tensor<3x4xi32>, tensor<5x1xi32>) -> tensor<5x2xi32> loc("not_partial")
  return %g, %p, %s : tensor<5x4xi32>, tensor<5xi32>, tensor<5x2xi32>
}

// -----

// Check that a reshape passing the gathered dim through folds into the constant
// (XLA ReshapeOfGather0), one that splits it does not (ReshapeOfGatherNoFold0: a reshape
// of the indexed array), and a gather of that gather gathers the indices (GatherOfGather).
// PRINT: %gather = (scalar-indexed-const (constant s32[3,4]) %arg0 0->[0])
// PRINT-NEXT: %split = (scalar-indexed-const (constant s32[3,2,2]) %arg0 0->[0])
// PRINT-NEXT: %again = (scalar-indexed-const (constant s32[3,4]) (scalar-indexed %arg0 %arg1 0->[0]) 0->[0])
// PRINT-NEXT: %gather.1 = (scalar-indexed-const (constant s32[3,4]) %arg2 0->[0,2])
// PRINT-NEXT: %no_fold = (reshape (scalar-indexed-const (constant s32[3,4]) %arg2 0->[0,2]) to s32[5,2,2,2,3])
// STATS: (S) 1 reshaped
// STATS: (S) 4 scalar-indexed-constant
// CHECK-LABEL: func.func @reshapes
// CHECK: stablehlo.reshape
func.func @reshapes(%i: tensor<5xi32>, %k: tensor<2xi32>, %m: tensor<5x6xi32>) -> (tensor<5x2x2xi32>, tensor<2x4xi32>, tensor<5x2x2x2x3xi32>) {
  %c = stablehlo.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]> : tensor<3x4xi32>
  %g = "stablehlo.gather"(%c, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>} : (tensor<3x4xi32>, tensor<5xi32>) -> tensor<5x4xi32>
  %r = stablehlo.reshape %g : (tensor<5x4xi32>) -> tensor<5x2x2xi32> loc("split")
  %gg = "stablehlo.gather"(%g, %k) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>} : (tensor<5x4xi32>, tensor<2xi32>) -> tensor<2x4xi32> loc("again")
  %g2 = "stablehlo.gather"(%c, %m) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 4>} : (tensor<3x4xi32>, tensor<5x6xi32>) -> tensor<5x4x6xi32>
  %n = stablehlo.reshape %g2 : (tensor<5x4x6xi32>) -> tensor<5x2x2x2x3xi32> loc("no_fold")
  return %r, %gg, %n : tensor<5x2x2xi32>, tensor<2x4xi32>, tensor<5x2x2x2x3xi32>
}

// -----

// Check that an element-wise op with a broadcast constant folds into the gathered constant
// (XLA AddBroadcastedScalarWithGather, AddBroadcastedVectorWithGather), that negate does
// too, and that a broadcast varying along the gathered dim (AddBroadcastedVectorWithGather_Negative)
// and a transcendental op (not folded exactly) leave the op unknown.
// PRINT: %gather = (scalar-indexed-const (constant s32[3,4]) %arg0 0->[0])
// PRINT-NEXT: %plus_five = (scalar-indexed-const (constant s32[3,4]) %arg0 0->[0])
// PRINT-NEXT: %plus_row = (scalar-indexed-const (constant s32[3,4]) %arg0 0->[0])
// PRINT-NEXT: %negated = (scalar-indexed-const (constant s32[3,4]) %arg0 0->[0])
// VALUES: %plus_five = (scalar-indexed-const (constant s32[3,4] {{[{][{]}}6, 7, 8, 9}, {10, 11, 12, 13}, {14, 15, 16, 17}}) %arg0 0->[0])
// VALUES-NEXT: %plus_row = (scalar-indexed-const (constant s32[3,4] {{[{][{]}}11, 13, 15, 17}, {15, 17, 19, 21}, {19, 21, 23, 25}}) %arg0 0->[0])
// VALUES-NEXT: %negated = (scalar-indexed-const (constant s32[3,4] {{[{][{]}}-1, -2, -3, -4}, {-5, -6, -7, -8}, {-9, -10, -11, -12}}) %arg0 0->[0])
// CHECK-LABEL: func.func @elementwise
// CHECK-COUNT-3: stablehlo.add
func.func @elementwise(%i: tensor<5xi32>, %x: tensor<5x4xf32>) -> (tensor<5x4xi32>, tensor<5x4xi32>, tensor<5x4xi32>, tensor<5x4xi32>, tensor<5x4xf32>) {
  %c = stablehlo.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]> : tensor<3x4xi32>
  %five = stablehlo.constant dense<5> : tensor<i32>
  %row = stablehlo.constant dense<[10, 11, 12, 13]> : tensor<4xi32>
  %col = stablehlo.constant dense<[10, 11, 12, 13, 14]> : tensor<5xi32>
  %g = "stablehlo.gather"(%c, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>} : (tensor<3x4xi32>, tensor<5xi32>) -> tensor<5x4xi32>
  %b5 = stablehlo.broadcast_in_dim %five, dims = [] : (tensor<i32>) -> tensor<5x4xi32>
  %a = stablehlo.add %g, %b5 : tensor<5x4xi32> loc("plus_five")
  %br = stablehlo.broadcast_in_dim %row, dims = [1] : (tensor<4xi32>) -> tensor<5x4xi32>
  %b = stablehlo.add %br, %g : tensor<5x4xi32> loc("plus_row")
  %bc = stablehlo.broadcast_in_dim %col, dims = [0] : (tensor<5xi32>) -> tensor<5x4xi32>
  %n = stablehlo.add %g, %bc : tensor<5x4xi32> loc("not_plus_column")
  %ng = stablehlo.negate %g : tensor<5x4xi32> loc("negated")
  %f = stablehlo.constant dense<0.5> : tensor<3x4xf32>
  %gf = "stablehlo.gather"(%f, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>} : (tensor<3x4xf32>, tensor<5xi32>) -> tensor<5x4xf32> loc("float_rows")
  %t = stablehlo.tanh %gf : tensor<5x4xf32> loc("not_tanh")
  return %a, %b, %n, %ng, %t : tensor<5x4xi32>, tensor<5x4xi32>, tensor<5x4xi32>, tensor<5x4xi32>, tensor<5x4xf32>
}

// -----

// Check that a dot of gathered rows with a constant is a gather of the dot of the constants
// (XLA DotOpBasic_0), and a dot contracting the gathered dim is not (DotOpNegative).
// VALUES: %rows_times_m = (scalar-indexed-const (constant s32[3,3] {{[{][{]}}70, 80, 90}, {158, 184, 210}, {246, 288, 330}}) %arg0 0->[0])
// CHECK-LABEL: func.func @dots
// CHECK: stablehlo.dot_general
func.func @dots(%i: tensor<5xi32>, %j: tensor<2xi32>) -> (tensor<5x3xi32>, tensor<3x3xi32>) {
  %c = stablehlo.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]> : tensor<3x4xi32>
  %m = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]> : tensor<4x3xi32>
  %g = "stablehlo.gather"(%c, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>} : (tensor<3x4xi32>, tensor<5xi32>) -> tensor<5x4xi32>
  %d = stablehlo.dot_general %g, %m, contracting_dims = [1] x [0] : (tensor<5x4xi32>, tensor<4x3xi32>) -> tensor<5x3xi32> loc("rows_times_m")
  %cols = "stablehlo.gather"(%c, %j) {dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 3, 1>} : (tensor<3x4xi32>, tensor<2xi32>) -> tensor<3x2xi32>
  %k = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %e = stablehlo.dot_general %cols, %k, contracting_dims = [1] x [0] : (tensor<3x2xi32>, tensor<2x3xi32>) -> tensor<3x3xi32> loc("not_contracted")
  return %d, %e : tensor<5x3xi32>, tensor<3x3xi32>
}

// -----

// Check that a transpose moving the gathered dim keeps the form ([extension]), and that
// plain ops on parameters are not reported.
// PRINT: %moved = (scalar-indexed %arg1 %arg0 0->[1])
// CHECK-LABEL: func.func @transposes
func.func @transposes(%i: tensor<5xi32>, %p: tensor<3x4xf32>, %x: tensor<4xf32>) -> (tensor<4x5xf32>, tensor<4xf32>) {
  %g = "stablehlo.gather"(%p, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>} : (tensor<3x4xf32>, tensor<5xi32>) -> tensor<5x4xf32>
  %t = stablehlo.transpose %g, dims = [1, 0] : (tensor<5x4xf32>) -> tensor<4x5xf32> loc("moved")
  %y = stablehlo.tanh %x : tensor<4xf32> loc("not_plain")
  return %t, %y : tensor<4x5xf32>, tensor<4xf32>
}
