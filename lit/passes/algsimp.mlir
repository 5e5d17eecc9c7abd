// RUN: %hlo-opt %s -p algsimp --split-input-file | filecheck %s

// Check that x * 1 -> x, with the constant on either side (multiply is commutative).
// CHECK-LABEL: func.func @multiply_by_one
// CHECK-NOT: stablehlo.multiply
// CHECK: return %arg0, %arg0
func.func @multiply_by_one(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %one = stablehlo.constant dense<1.0> : tensor<4xf32>
  %0 = stablehlo.multiply %x, %one : tensor<4xf32>
  %1 = stablehlo.multiply %one, %x : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Check that x + (-0.0) -> x for floats, through a scalar broadcast of the constant.
// CHECK-LABEL: func.func @add_negative_zero
// CHECK-NOT: stablehlo.add
// CHECK: return %arg0
func.func @add_negative_zero(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %z = stablehlo.constant dense<-0.0> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  %0 = stablehlo.add %x, %b : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Check that x + (+0.0) is kept for floats (-0.0 + 0.0 is +0.0, not -0.0).
// CHECK-LABEL: func.func @add_positive_zero_float_kept
// CHECK: %[[Z:.*]] = stablehlo.constant dense<0.000000e+00>
// CHECK: stablehlo.add %arg0, %[[Z]]
func.func @add_positive_zero_float_kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<4xf32>
  %0 = stablehlo.add %z, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Check that x + 0 -> x for integers.
// CHECK-LABEL: func.func @add_zero_int
// CHECK-NOT: stablehlo.add
// CHECK: return %arg0
func.func @add_zero_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  %z = stablehlo.constant dense<0> : tensor<4xi32>
  %0 = stablehlo.add %x, %z : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Check that x * 0 is kept for floats (inf * 0 is NaN) but folds to 0 for integers.
// CHECK-LABEL: func.func @multiply_by_zero
// CHECK-DAG: %[[F:.*]] = stablehlo.multiply %arg0, %{{.*}} : tensor<4xf32>
// CHECK-DAG: %[[I:.*]] = stablehlo.constant dense<0> : tensor<4xi32>
// CHECK-NOT: stablehlo.multiply %arg1
// CHECK: return %[[F]], %[[I]]
func.func @multiply_by_zero(%x: tensor<4xf32>, %y: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %zf = stablehlo.constant dense<0.0> : tensor<4xf32>
  %zi = stablehlo.constant dense<0> : tensor<4xi32>
  %0 = stablehlo.multiply %x, %zf : tensor<4xf32>
  %1 = stablehlo.multiply %y, %zi : tensor<4xi32>
  return %0, %1 : tensor<4xf32>, tensor<4xi32>
}

// -----

// Check that x - 0.0 -> x and x / 1 -> x, but 0.0 - x is kept (it is not -x for x = +0.0).
// CHECK-LABEL: func.func @subtract_divide_identities
// CHECK: %[[S:.*]] = stablehlo.subtract %{{.*}}, %arg0
// CHECK: return %arg0, %arg0, %[[S]]
func.func @subtract_divide_identities(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<4xf32>
  %one = stablehlo.constant dense<1.0> : tensor<4xf32>
  %0 = stablehlo.subtract %x, %zero : tensor<4xf32>
  %1 = stablehlo.divide %x, %one : tensor<4xf32>
  %2 = stablehlo.subtract %zero, %x : tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Check that (-0.0) - x -> -x for floats and 0 - x -> -x for integers.
// CHECK-LABEL: func.func @subtract_from_zero
// CHECK-NOT: stablehlo.subtract
// CHECK-DAG: %[[F:.*]] = stablehlo.negate %arg0 : tensor<4xf32>
// CHECK-DAG: %[[I:.*]] = stablehlo.negate %arg1 : tensor<4xi32>
// CHECK: return %[[F]], %[[I]]
func.func @subtract_from_zero(%x: tensor<4xf32>, %y: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %zf = stablehlo.constant dense<-0.0> : tensor<4xf32>
  %zi = stablehlo.constant dense<0> : tensor<4xi32>
  %0 = stablehlo.subtract %zf, %x : tensor<4xf32>
  %1 = stablehlo.subtract %zi, %y : tensor<4xi32>
  return %0, %1 : tensor<4xf32>, tensor<4xi32>
}

// -----

// Check that the constant operand of a commutative op moves to the right.
// CHECK-LABEL: func.func @constant_to_right
// CHECK: %[[C:.*]] = stablehlo.constant dense<2.000000e+00>
// CHECK: stablehlo.add %arg0, %[[C]]
func.func @constant_to_right(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<2.0> : tensor<4xf32>
  %0 = stablehlo.add %c, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Check that -(-x) -> x.
// CHECK-LABEL: func.func @negate_of_negate
// CHECK-NOT: stablehlo.negate
// CHECK: return %arg0
func.func @negate_of_negate(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = stablehlo.negate %x : tensor<4xi32>
  %1 = stablehlo.negate %0 : tensor<4xi32>
  return %1 : tensor<4xi32>
}

// -----

// Check that x - (-y) -> x + y and x + (-y) -> x - y.
// CHECK-LABEL: func.func @negate_operands
// CHECK-NOT: stablehlo.negate
// CHECK-DAG: %[[A:.*]] = stablehlo.add %arg0, %arg1
// CHECK-DAG: %[[S:.*]] = stablehlo.subtract %arg0, %arg1
// CHECK: return %[[A]], %[[S]]
func.func @negate_operands(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %n = stablehlo.negate %y : tensor<4xf32>
  %0 = stablehlo.subtract %x, %n : tensor<4xf32>
  %1 = stablehlo.add %x, %n : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Check that x * -1 -> -x.
// CHECK-LABEL: func.func @multiply_by_minus_one
// CHECK-NOT: stablehlo.multiply
// CHECK: %[[N:.*]] = stablehlo.negate %arg0
// CHECK: return %[[N]]
func.func @multiply_by_minus_one(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<-1.0> : tensor<4xf32>
  %0 = stablehlo.multiply %c, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Check that x - x -> 0 for integers and is kept for floats (inf - inf is NaN).
// CHECK-LABEL: func.func @subtract_self
// CHECK-DAG: %[[F:.*]] = stablehlo.subtract %arg0, %arg0 : tensor<4xf32>
// CHECK-DAG: %[[Z:.*]] = stablehlo.constant dense<0> : tensor<4xi32>
// CHECK: return %[[F]], %[[Z]]
func.func @subtract_self(%x: tensor<4xf32>, %y: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0 = stablehlo.subtract %x, %x : tensor<4xf32>
  %1 = stablehlo.subtract %y, %y : tensor<4xi32>
  return %0, %1 : tensor<4xf32>, tensor<4xi32>
}

// -----

// Check that comparing an integer with itself folds (EQ/GE/LE true, NE/GT/LT false).
// CHECK-LABEL: func.func @compare_self_int
// CHECK-DAG: %[[T:.*]] = stablehlo.constant dense<true> : tensor<4xi1>
// CHECK-DAG: %[[F:.*]] = stablehlo.constant dense<false> : tensor<4xi1>
// CHECK-NOT: stablehlo.compare
// CHECK: return %[[T]], %[[F]]
func.func @compare_self_int(%x: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = stablehlo.compare GE, %x, %x, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %1 = stablehlo.compare NE, %x, %x, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// -----

// Check that a float compared with itself folds only under TOTALORDER (NaN == NaN is false).
// CHECK-LABEL: func.func @compare_self_float
// CHECK-DAG: %[[K:.*]] = stablehlo.compare EQ, %arg0, %arg0, FLOAT
// CHECK-DAG: %[[T:.*]] = stablehlo.constant dense<true> : tensor<4xi1>
// CHECK-NOT: TOTALORDER
// CHECK: return %[[K]], %[[T]]
func.func @compare_self_float(%y: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = stablehlo.compare EQ, %y, %y, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = stablehlo.compare EQ, %y, %y, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// -----

// Check that max(x, x) -> x, max(x, -inf) -> x, and min(x, INT_MIN) -> INT_MIN for integers.
// CHECK-LABEL: func.func @max_min
// CHECK-NOT: stablehlo.maximum
// CHECK-NOT: stablehlo.minimum
// CHECK: %[[M:.*]] = stablehlo.constant dense<-2147483648>
// CHECK: return %arg0, %arg0, %[[M]]
func.func @max_min(%x: tensor<4xf32>, %y: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>) {
  %inf = stablehlo.constant dense<0xFF800000> : tensor<4xf32>
  %imin = stablehlo.constant dense<-2147483648> : tensor<4xi32>
  %0 = stablehlo.maximum %x, %x : tensor<4xf32>
  %1 = stablehlo.maximum %inf, %x : tensor<4xf32>
  %2 = stablehlo.minimum %y, %imin : tensor<4xi32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>
}

// -----

// Check that max(x, +inf) is kept for floats (max(NaN, +inf) is NaN).
// CHECK-LABEL: func.func @max_inf_kept
// CHECK: stablehlo.maximum
func.func @max_inf_kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %inf = stablehlo.constant dense<0x7F800000> : tensor<4xf32>
  %0 = stablehlo.maximum %x, %inf : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Check the PRED identities and absorbing elements: x and true -> x, x or true -> true, x xor x -> false.
// CHECK-LABEL: func.func @pred_logic
// CHECK-DAG: %[[T:.*]] = stablehlo.constant dense<true>
// CHECK-DAG: %[[F:.*]] = stablehlo.constant dense<false>
// CHECK: return %arg0, %[[T]], %[[F]]
func.func @pred_logic(%p: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %t = stablehlo.constant dense<true> : tensor<4xi1>
  %0 = stablehlo.and %p, %t : tensor<4xi1>
  %1 = stablehlo.or %t, %p : tensor<4xi1>
  %2 = stablehlo.xor %p, %p : tensor<4xi1>
  return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// Check that not(not x) -> x and select with equal branches or a constant predicate -> a branch.
// CHECK-LABEL: func.func @not_select
// CHECK-NOT: stablehlo.not
// CHECK-NOT: stablehlo.select
// CHECK: return %arg0, %arg1, %arg2
func.func @not_select(%p: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) {
  %f = stablehlo.constant dense<false> : tensor<i1>
  %0 = stablehlo.not %p : tensor<4xi1>
  %1 = stablehlo.not %0 : tensor<4xi1>
  %2 = stablehlo.select %p, %a, %a : tensor<4xi1>, tensor<4xf32>
  %3 = stablehlo.select %f, %a, %b : tensor<i1>, tensor<4xf32>
  return %1, %2, %3 : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Check that no-op shape ops vanish: same-type reshape, convert, slice; identity transpose, broadcast;
// single-operand concatenate.
// CHECK-LABEL: func.func @noop_shape_ops
// CHECK-NOT: stablehlo.reshape
// CHECK-NOT: stablehlo.convert
// CHECK-NOT: stablehlo.transpose
// CHECK-NOT: stablehlo.broadcast_in_dim
// CHECK-NOT: stablehlo.slice
// CHECK-NOT: stablehlo.concatenate
// CHECK: return %arg0
func.func @noop_shape_ops(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = stablehlo.convert %0 : tensor<2x3xf32>
  %2 = stablehlo.transpose %1, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = stablehlo.slice %3 [0:2, 0:3] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = stablehlo.concatenate %4, dim = 0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %5 : tensor<2x3xf32>
}

// -----

// Check that reshape(reshape x) and transpose(transpose x) compose into one op.
// CHECK-LABEL: func.func @compose_shape_ops
// CHECK: %[[R:.*]] = stablehlo.reshape %arg0 : (tensor<2x3x4xf32>) -> tensor<24xf32>
// CHECK: %[[T:.*]] = stablehlo.transpose %arg0, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK: return %[[R]], %[[T]]
func.func @compose_shape_ops(%x: tensor<2x3x4xf32>) -> (tensor<24xf32>, tensor<4x2x3xf32>) {
  %0 = stablehlo.reshape %x : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %1 = stablehlo.reshape %0 : (tensor<6x4xf32>) -> tensor<24xf32>
  %2 = stablehlo.transpose %x, dims = [1, 2, 0] : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %3 = stablehlo.transpose %2, dims = [1, 2, 0] : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
  return %1, %3 : tensor<24xf32>, tensor<4x2x3xf32>
}

// -----

// Check that broadcast_in_dim of broadcast_in_dim composes its dimensions.
// CHECK-LABEL: func.func @broadcast_of_broadcast
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<3xf32>) -> tensor<5x2x3xf32>
// CHECK: return %[[B]]
func.func @broadcast_of_broadcast(%x: tensor<3xf32>) -> tensor<5x2x3xf32> {
  %0 = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [1, 2] : (tensor<2x3xf32>) -> tensor<5x2x3xf32>
  return %1 : tensor<5x2x3xf32>
}

// -----

// Check that real shape changes and type conversions are kept.
// CHECK-LABEL: func.func @real_shape_ops_kept
// CHECK: stablehlo.reshape
// CHECK: stablehlo.convert
// CHECK: stablehlo.transpose
// CHECK: stablehlo.slice
func.func @real_shape_ops_kept(%x: tensor<2x3xf32>) -> (tensor<6xf32>, tensor<2x3xf64>, tensor<3x2xf32>, tensor<1x3xf32>) {
  %0 = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<6xf32>
  %1 = stablehlo.convert %x : (tensor<2x3xf32>) -> tensor<2x3xf64>
  %2 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %3 = stablehlo.slice %x [1:2, 0:3] : (tensor<2x3xf32>) -> tensor<1x3xf32>
  return %0, %1, %2, %3 : tensor<6xf32>, tensor<2x3xf64>, tensor<3x2xf32>, tensor<1x3xf32>
}

// -----

// Check that an element of a tuple built in place is the tuple's operand (XLA's TupleSimplifier);
// the tuple itself dies once nothing else reads it.
// CHECK-LABEL: func.func @tuple_element_of_tuple
// CHECK-NOT: stablehlo.get_tuple_element
// CHECK: return %arg1, %arg0 : tensor<3xi32>, tensor<2xf32>
func.func @tuple_element_of_tuple(%x: tensor<2xf32>, %y: tensor<3xi32>) -> (tensor<3xi32>, tensor<2xf32>) {
  %t = stablehlo.tuple %x, %y : tuple<tensor<2xf32>, tensor<3xi32>>
  %0 = stablehlo.get_tuple_element %t[1] : (tuple<tensor<2xf32>, tensor<3xi32>>) -> tensor<3xi32>
  %1 = stablehlo.get_tuple_element %t[0] : (tuple<tensor<2xf32>, tensor<3xi32>>) -> tensor<2xf32>
  return %0, %1 : tensor<3xi32>, tensor<2xf32>
}

// -----

// Check that a rank-0 dynamic_slice is its operand and a rank-0 dynamic_update_slice its
// update (generic form: the pretty form of a rank-0 dynamic_slice does not parse), and that
// ranked ones are kept.
// CHECK-LABEL: func.func @rank0_dynamic_slice
// CHECK-NOT: sizes = []
// CHECK-NOT: stablehlo.dynamic_update_slice
// CHECK: %[[D:.*]] = stablehlo.dynamic_slice %arg2, %arg3, sizes = [2]
// CHECK-NOT: stablehlo.dynamic_update_slice
// CHECK: return %arg0, %arg1, %[[D]]
func.func @rank0_dynamic_slice(%x: tensor<f32>, %u: tensor<f32>, %v: tensor<3xf32>, %i: tensor<i32>) -> (tensor<f32>, tensor<f32>, tensor<2xf32>) {
  %0 = "stablehlo.dynamic_slice"(%x) <{slice_sizes = array<i64>}> : (tensor<f32>) -> tensor<f32>
  %1 = "stablehlo.dynamic_update_slice"(%x, %u) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %2 = stablehlo.dynamic_slice %v, %i, sizes = [2] : (tensor<3xf32>, tensor<i32>) -> tensor<2xf32>
  return %0, %1, %2 : tensor<f32>, tensor<f32>, tensor<2xf32>
}

// -----

// Check that a scatter of zero-element updates is its input, and one with updates is kept.
// CHECK-LABEL: func.func @empty_scatter
// CHECK: %[[S:.*]] = "stablehlo.scatter"(%arg0, %arg3, %arg4)
// CHECK: return %arg0, %[[S]]
func.func @empty_scatter(%x: tensor<5xi32>, %i: tensor<0x1xi32>, %u: tensor<0xi32>, %j: tensor<1x1xi32>, %v: tensor<1xi32>) -> (tensor<5xi32>, tensor<5xi32>) {
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5xi32>, tensor<0x1xi32>, tensor<0xi32>) -> tensor<5xi32>
  %1 = "stablehlo.scatter"(%x, %j, %v) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5xi32>, tensor<1x1xi32>, tensor<1xi32>) -> tensor<5xi32>
  return %0, %1 : tensor<5xi32>, tensor<5xi32>
}

// -----

// Check that a pad of a zero-element operand is a broadcast of the padding value, and a pad of elements is kept.
// CHECK-LABEL: func.func @empty_pad
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f16>) -> tensor<3x5x1xf16>
// CHECK: %[[P:.*]] = stablehlo.pad %arg2, %arg1
// CHECK: return %[[B]], %[[P]]
func.func @empty_pad(%x: tensor<1x2x0xf16>, %v: tensor<f16>, %y: tensor<1x2x1xf16>) -> (tensor<3x5x1xf16>, tensor<3x5x2xf16>) {
  %0 = stablehlo.pad %x, %v, low = [0, 0, 2], high = [2, 1, -1], interior = [0, 2, 0] : (tensor<1x2x0xf16>, tensor<f16>) -> tensor<3x5x1xf16>
  %1 = stablehlo.pad %y, %v, low = [0, 0, 2], high = [2, 1, -1], interior = [0, 2, 0] : (tensor<1x2x1xf16>, tensor<f16>) -> tensor<3x5x2xf16>
  return %0, %1 : tensor<3x5x1xf16>, tensor<3x5x2xf16>
}

// -----

// Check that a pad that pads nothing (rank 0, or all paddings 0) is its operand, and that a
// pad of the same type that shifts its operand (low -1, high 1) is kept.
// CHECK-LABEL: func.func @nop_pad
// CHECK: %[[S:.*]] = stablehlo.pad %arg2, %arg1, low = [-1], high = [1]
// CHECK: return %arg0, %arg2, %[[S]]
func.func @nop_pad(%x: tensor<f64>, %v: tensor<f64>, %y: tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>, tensor<3xf64>) {
  %0 = stablehlo.pad %x, %v, low = [], high = [], interior = [] : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %1 = stablehlo.pad %y, %v, low = [0], high = [0], interior = [0] : (tensor<3xf64>, tensor<f64>) -> tensor<3xf64>
  %2 = stablehlo.pad %y, %v, low = [-1], high = [1], interior = [0] : (tensor<3xf64>, tensor<f64>) -> tensor<3xf64>
  return %0, %1, %2 : tensor<f64>, tensor<3xf64>, tensor<3xf64>
}
