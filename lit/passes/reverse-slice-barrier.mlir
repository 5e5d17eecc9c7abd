// RUN: %hlo-opt %s -p reverse-slice-barrier --split-input-file | filecheck %s

// Check that a reverse of a rank-3 slice keeping one element of the minor dimension reads
// the slice through a barrier.
// CHECK-LABEL: func.func @slice
// CHECK: %[[S:.*]] = stablehlo.slice %arg0 [0:2, 0:3, 1:2]
// CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %[[S]] : tensor<2x3x1xf32>
// CHECK-NEXT: %[[R:.*]] = stablehlo.reverse %[[B]], dims = [0] : tensor<2x3x1xf32>
// CHECK-NEXT: return %[[R]]
func.func @slice(%x: tensor<2x3x2xf32>) -> tensor<2x3x1xf32> {
  %0 = stablehlo.slice %x [0:2, 0:3, 1:2] : (tensor<2x3x2xf32>) -> tensor<2x3x1xf32>
  %1 = stablehlo.reverse %0, dims = [0] : tensor<2x3x1xf32>
  return %1 : tensor<2x3x1xf32>
}

// -----

// Check that a pad (negative padding) and a dynamic_slice are fenced the same way.
// CHECK-LABEL: func.func @pad_and_dynamic_slice
// CHECK: %[[P:.*]] = stablehlo.pad
// CHECK-NEXT: %[[BP:.*]] = stablehlo.optimization_barrier %[[P]] : tensor<6x8x1xf32>
// CHECK-NEXT: stablehlo.reverse %[[BP]], dims = [0, 1, 2]
// CHECK: %[[D:.*]] = stablehlo.dynamic_slice
// CHECK-NEXT: %[[BD:.*]] = stablehlo.optimization_barrier %[[D]] : tensor<2x3x1xf32>
// CHECK-NEXT: stablehlo.reverse %[[BD]], dims = [1]
func.func @pad_and_dynamic_slice(%x: tensor<2x3x2xf32>, %v: tensor<f32>, %i: tensor<i32>) -> (tensor<6x8x1xf32>, tensor<2x3x1xf32>) {
  %0 = stablehlo.pad %x, %v, low = [1, -1, 1], high = [2, 2, -2], interior = [1, 2, 0] : (tensor<2x3x2xf32>, tensor<f32>) -> tensor<6x8x1xf32>
  %1 = stablehlo.reverse %0, dims = [0, 1, 2] : tensor<6x8x1xf32>
  %2 = stablehlo.dynamic_slice %x, %i, %i, %i, sizes = [2, 3, 1] : (tensor<2x3x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x3x1xf32>
  %3 = stablehlo.reverse %2, dims = [1] : tensor<2x3x1xf32>
  return %1, %3 : tensor<6x8x1xf32>, tensor<2x3x1xf32>
}

// -----

// Check that reverses of unit-stride rank-2 slices, of slices whose minor dimension is longer than 1
// or was 1 already, and of other producers are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: return
func.func @left_alone(%x: tensor<2x3x2xf32>, %y: tensor<4x2xf32>, %z: tensor<2x3x1xf32>) -> (tensor<4x1xf32>, tensor<2x3x2xf32>, tensor<1x3x1xf32>, tensor<2x3x1xf32>) {
  %0 = stablehlo.slice %y [0:4, 1:2] : (tensor<4x2xf32>) -> tensor<4x1xf32>
  %1 = stablehlo.reverse %0, dims = [0] : tensor<4x1xf32>
  %2 = stablehlo.slice %x [0:2, 0:3, 0:2] : (tensor<2x3x2xf32>) -> tensor<2x3x2xf32>
  %3 = stablehlo.reverse %2, dims = [0] : tensor<2x3x2xf32>
  %4 = stablehlo.slice %z [0:1, 0:3, 0:1] : (tensor<2x3x1xf32>) -> tensor<1x3x1xf32>
  %5 = stablehlo.reverse %4, dims = [1] : tensor<1x3x1xf32>
  %6 = stablehlo.negate %z : tensor<2x3x1xf32>
  %7 = stablehlo.reverse %6, dims = [0] : tensor<2x3x1xf32>
  return %1, %3, %5, %7 : tensor<4x1xf32>, tensor<2x3x2xf32>, tensor<1x3x1xf32>, tensor<2x3x1xf32>
}

// -----

// Check that reverses of a rank-1 strided slice and of a rank-2 dynamic_slice keeping one
// element of a longer minor dimension read them through a barrier.
// CHECK-LABEL: func.func @strided_rank1_and_rank2_dynamic
// CHECK: %[[S:.*]] = stablehlo.slice %arg0 [5:8:2]
// CHECK-NEXT: %[[BS:.*]] = stablehlo.optimization_barrier %[[S]] : tensor<2xi32>
// CHECK-NEXT: stablehlo.reverse %[[BS]], dims = [0]
// CHECK: %[[D:.*]] = stablehlo.dynamic_slice
// CHECK-NEXT: %[[BD:.*]] = stablehlo.optimization_barrier %[[D]] : tensor<2x1xi32>
// CHECK-NEXT: stablehlo.reverse %[[BD]], dims = [0]
func.func @strided_rank1_and_rank2_dynamic(%x: tensor<8xi32>, %y: tensor<3x4xi32>, %i: tensor<i32>) -> (tensor<2xi32>, tensor<2x1xi32>) {
  %0 = stablehlo.slice %x [5:8:2] : (tensor<8xi32>) -> tensor<2xi32>
  %1 = stablehlo.reverse %0, dims = [0] : tensor<2xi32>
  %2 = stablehlo.dynamic_slice %y, %i, %i, sizes = [2, 1] : (tensor<3x4xi32>, tensor<i32>, tensor<i32>) -> tensor<2x1xi32>
  %3 = stablehlo.reverse %2, dims = [0] : tensor<2x1xi32>
  return %1, %3 : tensor<2xi32>, tensor<2x1xi32>
}

// -----

// Check that a gather and a torch_index_select of a strided slice read it through a
// barrier, the indices as they are.
// CHECK-LABEL: func.func @gathers
// CHECK: %[[S:.*]] = stablehlo.slice %arg0 [5:8:2]
// CHECK-NEXT: %[[B1:.*]] = stablehlo.optimization_barrier %[[S]] : tensor<2xi32>
// CHECK-NEXT: "stablehlo.gather"(%[[B1]], %arg1)
// CHECK: %[[B2:.*]] = stablehlo.optimization_barrier %[[S]] : tensor<2xi32>
// CHECK-NEXT: "stablehlo.torch_index_select"(%[[B2]], %arg2)
func.func @gathers(%x: tensor<8xi32>, %i: tensor<2x1x1xi16>, %j: tensor<2xi16>) -> (tensor<2x1xi32>, tensor<2xi32>) {
  %0 = stablehlo.slice %x [5:8:2] : (tensor<8xi32>) -> tensor<2xi32>
  %1 = "stablehlo.gather"(%0, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<2xi32>, tensor<2x1x1xi16>) -> tensor<2x1xi32>
  %2 = "stablehlo.torch_index_select"(%0, %j) <{batch_dims = 0 : i64, dim = 0 : i64}> : (tensor<2xi32>, tensor<2xi16>) -> tensor<2xi32>
  return %1, %2 : tensor<2x1xi32>, tensor<2xi32>
}

// -----

// Check that a reduce_window IREE makes a postfix scan (window spanning dimension 0,
// padded high by its size minus 1) reads a column dynamic_slice through a barrier.
// CHECK-LABEL: func.func @postfix_scan
// CHECK: %[[D:.*]] = stablehlo.dynamic_slice
// CHECK: %[[B:.*]] = stablehlo.optimization_barrier %[[D]] : tensor<2x1xi32>
// CHECK: "stablehlo.reduce_window"(%[[B]], %{{.*}})
func.func @postfix_scan(%x: tensor<3x4xi32>, %i: tensor<i32>) -> tensor<2x1xi32> {
  %0 = stablehlo.dynamic_slice %x, %i, %i, sizes = [2, 1] : (tensor<3x4xi32>, tensor<i32>, tensor<i32>) -> tensor<2x1xi32>
  %c = stablehlo.constant dense<-2147483648> : tensor<i32>
  %1 = "stablehlo.reduce_window"(%0, %c) <{padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = stablehlo.maximum %a, %b : tensor<i32>
    stablehlo.return %m : tensor<i32>
  }) : (tensor<2x1xi32>, tensor<i32>) -> tensor<2x1xi32>
  return %1 : tensor<2x1xi32>
}

// -----

// Check that a prefix scan (padded low), a windowed reduce_window of a strided slice, a
// gather of a slice whose innermost non-unit dimension is contiguous and a reverse of a
// rank-2 dynamic_slice of contiguous rows are left alone.
// CHECK-LABEL: func.func @strided_left_alone
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: return
func.func @strided_left_alone(%x: tensor<3x4xi32>, %i: tensor<i32>, %y: tensor<4x4xi32>, %j: tensor<3x2xi32>) -> (tensor<2x1xi32>, tensor<1x1xi32>, tensor<3xi32>, tensor<2x2xi32>) {
  %0 = stablehlo.dynamic_slice %x, %i, %i, sizes = [2, 1] : (tensor<3x4xi32>, tensor<i32>, tensor<i32>) -> tensor<2x1xi32>
  %c = stablehlo.constant dense<-2147483648> : tensor<i32>
  %1 = "stablehlo.reduce_window"(%0, %c) <{padding = dense<[[1, 0], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = stablehlo.maximum %a, %b : tensor<i32>
    stablehlo.return %m : tensor<i32>
  }) : (tensor<2x1xi32>, tensor<i32>) -> tensor<2x1xi32>
  %2 = "stablehlo.reduce_window"(%0, %c) <{window_dimensions = array<i64: 2, 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = stablehlo.maximum %a, %b : tensor<i32>
    stablehlo.return %m : tensor<i32>
  }) : (tensor<2x1xi32>, tensor<i32>) -> tensor<1x1xi32>
  %3 = stablehlo.slice %y [0:4, 1:3] : (tensor<4x4xi32>) -> tensor<4x2xi32>
  %4 = "stablehlo.gather"(%3, %j) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x2xi32>, tensor<3x2xi32>) -> tensor<3xi32>
  %5 = stablehlo.dynamic_slice %x, %i, %i, sizes = [2, 2] : (tensor<3x4xi32>, tensor<i32>, tensor<i32>) -> tensor<2x2xi32>
  %6 = stablehlo.reverse %5, dims = [0, 1] : tensor<2x2xi32>
  return %1, %2, %4, %6 : tensor<2x1xi32>, tensor<1x1xi32>, tensor<3xi32>, tensor<2x2xi32>
}

// -----

// Check that a gather of a rank-2 pad whose negative padding crops a buffer padded in its
// minor dimension (low 1 there) reads the pad through a barrier (seed 20261127 program 5453).
// CHECK-LABEL: func.func @gather_of_cropped_pad
// CHECK: %[[P:.*]] = stablehlo.pad %arg0
// CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %[[P]] : tensor<17x1xi1>
// CHECK-NEXT: "stablehlo.gather"(%[[B]], %arg1)
func.func @gather_of_cropped_pad(%x: tensor<7x1xi1>, %i: tensor<3x2x2xui16>) -> tensor<3x6x1x2xi1> {
  %c = stablehlo.constant dense<true> : tensor<i1>
  %0 = stablehlo.pad %x, %c, low = [-1, 1], high = [-1, -1], interior = [2, 0] : (tensor<7x1xi1>, tensor<i1>) -> tensor<17x1xi1>
  %1 = "stablehlo.gather"(%0, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [1, 0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 6, 1>}> : (tensor<17x1xi1>, tensor<3x2x2xui16>) -> tensor<3x6x1x2xi1>
  return %1 : tensor<3x6x1x2xi1>
}

// -----

// Check that a reverse of that rank-2 pad, a gather of a pad with no negative padding, and a
// gather of a cropped pad whose minor dimension is not padded (contiguous rows) are left alone.
// CHECK-LABEL: func.func @pads_left_alone
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: return
func.func @pads_left_alone(%x: tensor<7x1xi1>, %i: tensor<3x2x2xui16>) -> (tensor<17x1xi1>, tensor<3x6x1x2xi1>, tensor<3x6x1x2xi1>) {
  %c = stablehlo.constant dense<true> : tensor<i1>
  %0 = stablehlo.pad %x, %c, low = [-1, 1], high = [-1, -1], interior = [2, 0] : (tensor<7x1xi1>, tensor<i1>) -> tensor<17x1xi1>
  %1 = stablehlo.reverse %0, dims = [0] : tensor<17x1xi1>
  %2 = stablehlo.pad %x, %c, low = [1, 0], high = [1, 0], interior = [1, 0] : (tensor<7x1xi1>, tensor<i1>) -> tensor<15x1xi1>
  %3 = "stablehlo.gather"(%2, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [1, 0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 6, 1>}> : (tensor<15x1xi1>, tensor<3x2x2xui16>) -> tensor<3x6x1x2xi1>
  %4 = stablehlo.pad %x, %c, low = [-1, 0], high = [-1, 0], interior = [2, 0] : (tensor<7x1xi1>, tensor<i1>) -> tensor<17x1xi1>
  %5 = "stablehlo.gather"(%4, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [1, 0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 6, 1>}> : (tensor<17x1xi1>, tensor<3x2x2xui16>) -> tensor<3x6x1x2xi1>
  return %1, %3, %5 : tensor<17x1xi1>, tensor<3x6x1x2xi1>, tensor<3x6x1x2xi1>
}
