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

// -----

// Check that select(not p, a, b) -> select(p, b, a), and a select of a plain predicate is kept.
// CHECK-LABEL: func.func @select_of_not
// CHECK-NOT: stablehlo.not
// CHECK: %[[S:.*]] = stablehlo.select %arg0, %arg2, %arg1
// CHECK: %[[T:.*]] = stablehlo.select %arg0, %arg1, %arg2
// CHECK: return %[[S]], %[[T]]
func.func @select_of_not(%p: tensor<i1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %n = stablehlo.not %p : tensor<i1>
  %0 = stablehlo.select %n, %a, %b : tensor<i1>, tensor<4xf32>
  %1 = stablehlo.select %p, %a, %b : tensor<i1>, tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Check that pow(x, 0) -> 1, pow(x, 2) -> x * x and pow(x, -1) -> 1 / x for floats.
// CHECK-LABEL: func.func @power_of_constant
// CHECK-NOT: stablehlo.power
// CHECK-DAG: %[[ONE:.*]] = stablehlo.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-DAG: %[[SQ:.*]] = stablehlo.multiply %arg0, %arg0
// CHECK-DAG: %[[INV:.*]] = stablehlo.divide %{{.*}}, %arg0
// CHECK: return %[[ONE]], %[[SQ]], %[[INV]]
func.func @power_of_constant(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %c0 = stablehlo.constant dense<0.0> : tensor<3xf32>
  %c2 = stablehlo.constant dense<2.0> : tensor<3xf32>
  %cm1 = stablehlo.constant dense<-1.0> : tensor<3xf32>
  %0 = stablehlo.power %x, %c0 : tensor<3xf32>
  %1 = stablehlo.power %x, %c2 : tensor<3xf32>
  %2 = stablehlo.power %x, %cm1 : tensor<3xf32>
  return %0, %1, %2 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// Check that pow(x, 0.5), integer pow(x, -1) and complex pow(z, 2) are kept (not exact), and
// integer pow(x, 2) -> x * x.
// CHECK-LABEL: func.func @power_of_constant_kept
// CHECK: stablehlo.power %arg0
// CHECK: stablehlo.power %arg1
// CHECK: %[[SQ:.*]] = stablehlo.multiply %arg1, %arg1
// CHECK: stablehlo.power %arg2
func.func @power_of_constant_kept(%x: tensor<3xf32>, %i: tensor<3xi32>, %z: tensor<3xcomplex<f32>>)
    -> (tensor<3xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xcomplex<f32>>) {
  %half = stablehlo.constant dense<0.5> : tensor<3xf32>
  %im1 = stablehlo.constant dense<-1> : tensor<3xi32>
  %i2 = stablehlo.constant dense<2> : tensor<3xi32>
  %two = stablehlo.constant dense<(2.0, 0.0)> : tensor<3xcomplex<f32>>
  %0 = stablehlo.power %x, %half : tensor<3xf32>
  %1 = stablehlo.power %i, %im1 : tensor<3xi32>
  %2 = stablehlo.power %i, %i2 : tensor<3xi32>
  %3 = stablehlo.power %z, %two : tensor<3xcomplex<f32>>
  return %0, %1, %2, %3 : tensor<3xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xcomplex<f32>>
}

// -----

// Check that convert(convert(x)) -> convert(x) when the middle type holds every value of x's
// type (i8 -> f16, f16 -> f32, and back to the source type), and is kept otherwise
// (f32 -> f16 rounds, i32 -> f32 rounds, i8 -> u8 wraps).
// CHECK-LABEL: func.func @convert_of_convert
// CHECK: %[[A:.*]] = stablehlo.convert %arg0 : (tensor<4xi8>) -> tensor<4xf64>
// CHECK: %[[B1:.*]] = stablehlo.convert %arg2 : (tensor<4xf32>) -> tensor<4xf16>
// CHECK: %[[B:.*]] = stablehlo.convert %[[B1]] : (tensor<4xf16>) -> tensor<4xf64>
// CHECK: %[[C1:.*]] = stablehlo.convert %arg3 : (tensor<4xi32>) -> tensor<4xf32>
// CHECK: %[[C:.*]] = stablehlo.convert %[[C1]] : (tensor<4xf32>) -> tensor<4xi32>
// CHECK: %[[D1:.*]] = stablehlo.convert %arg0 : (tensor<4xi8>) -> tensor<4xui8>
// CHECK: %[[D:.*]] = stablehlo.convert %[[D1]] : (tensor<4xui8>) -> tensor<4xi32>
// CHECK: return %[[A]], %arg1, %[[B]], %[[C]], %[[D]]
func.func @convert_of_convert(%x: tensor<4xi8>, %h: tensor<4xf16>, %f: tensor<4xf32>, %i: tensor<4xi32>)
    -> (tensor<4xf64>, tensor<4xf16>, tensor<4xf64>, tensor<4xi32>, tensor<4xi32>) {
  %0 = stablehlo.convert %x : (tensor<4xi8>) -> tensor<4xf16>
  %1 = stablehlo.convert %0 : (tensor<4xf16>) -> tensor<4xf64>
  %2 = stablehlo.convert %h : (tensor<4xf16>) -> tensor<4xf32>
  %3 = stablehlo.convert %2 : (tensor<4xf32>) -> tensor<4xf16>
  %4 = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xf16>
  %5 = stablehlo.convert %4 : (tensor<4xf16>) -> tensor<4xf64>
  %6 = stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xf32>
  %7 = stablehlo.convert %6 : (tensor<4xf32>) -> tensor<4xi32>
  %8 = stablehlo.convert %x : (tensor<4xi8>) -> tensor<4xui8>
  %9 = stablehlo.convert %8 : (tensor<4xui8>) -> tensor<4xi32>
  return %1, %3, %5, %7, %9 : tensor<4xf64>, tensor<4xf16>, tensor<4xf64>, tensor<4xi32>, tensor<4xi32>
}

// -----

// Check that min(max(x, lo), hi) -> clamp(lo, x, hi) for any bounds (the definition of clamp),
// and that max(min(x, hi), lo) -> clamp only for constant bounds lo <= hi (kept for lo > hi).
// CHECK-LABEL: func.func @min_max_to_clamp
// CHECK-DAG: %[[A:.*]] = stablehlo.clamp %arg1, %arg0, %arg2
// CHECK-DAG: %[[LO:.*]] = stablehlo.constant dense<-1.000000e+00>
// CHECK-DAG: %[[HI:.*]] = stablehlo.constant dense<2.000000e+00>
// CHECK-DAG: %[[B:.*]] = stablehlo.clamp %[[LO]], %arg0, %[[HI]]
// CHECK-DAG: %[[M:.*]] = stablehlo.minimum %arg0, %[[LO]]
// CHECK-DAG: %[[C:.*]] = stablehlo.maximum %[[M]], %[[HI]]
// CHECK: return %[[A]], %[[B]], %[[C]]
func.func @min_max_to_clamp(%x: tensor<4xf32>, %lo: tensor<4xf32>, %hi: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.maximum %x, %lo : tensor<4xf32>
  %1 = stablehlo.minimum %hi, %0 : tensor<4xf32>
  %clo = stablehlo.constant dense<-1.0> : tensor<4xf32>
  %chi = stablehlo.constant dense<2.0> : tensor<4xf32>
  %2 = stablehlo.minimum %x, %chi : tensor<4xf32>
  %3 = stablehlo.maximum %2, %clo : tensor<4xf32>
  %4 = stablehlo.minimum %x, %clo : tensor<4xf32>
  %5 = stablehlo.maximum %4, %chi : tensor<4xf32>
  return %1, %3, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Check that max(min(x, -0.0), +0.0) is kept: +0.0 > -0.0, so it is +0.0, and the clamp -0.0.
// CHECK-LABEL: func.func @max_of_min_signed_zero_kept
// CHECK: stablehlo.minimum
// CHECK: stablehlo.maximum
// CHECK-NOT: stablehlo.clamp
func.func @max_of_min_signed_zero_kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %pz = stablehlo.constant dense<0.0> : tensor<4xf32>
  %nz = stablehlo.constant dense<-0.0> : tensor<4xf32>
  %0 = stablehlo.minimum %x, %nz : tensor<4xf32>
  %1 = stablehlo.maximum %0, %pz : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Check that slice(slice(x)) -> one slice with composed starts and strides, also for an empty result.
// CHECK-LABEL: func.func @slice_of_slice
// CHECK: %[[A:.*]] = stablehlo.slice %arg0 [3:10:6, 1:4] : (tensor<12x6xf32>) -> tensor<2x3xf32>
// CHECK: %[[B:.*]] = stablehlo.slice %arg0 [12:12, 0:6] : (tensor<12x6xf32>) -> tensor<0x6xf32>
// CHECK: return %[[A]], %[[B]]
func.func @slice_of_slice(%x: tensor<12x6xf32>) -> (tensor<2x3xf32>, tensor<0x6xf32>) {
  %0 = stablehlo.slice %x [1:12:2, 1:5] : (tensor<12x6xf32>) -> tensor<6x4xf32>
  %1 = stablehlo.slice %0 [1:6:3, 0:3] : (tensor<6x4xf32>) -> tensor<2x3xf32>
  %2 = stablehlo.slice %x [6:12, 0:6] : (tensor<12x6xf32>) -> tensor<6x6xf32>
  %3 = stablehlo.slice %2 [6:6, 0:6] : (tensor<6x6xf32>) -> tensor<0x6xf32>
  return %1, %3 : tensor<2x3xf32>, tensor<0x6xf32>
}

// -----

// Check that a slice inside one operand of a concatenate slices that operand, and a slice
// across two operands is kept.
// CHECK-LABEL: func.func @slice_of_concatenate
// CHECK: %[[C:.*]] = stablehlo.concatenate %arg0, %arg1, dim = 0
// CHECK: %[[A:.*]] = stablehlo.slice %arg1 [0:3:2, 0:2]
// CHECK: %[[B:.*]] = stablehlo.slice %[[C]] [1:4, 0:2]
// CHECK: return %[[A]], %[[B]]
func.func @slice_of_concatenate(%x: tensor<2x2xi32>, %y: tensor<3x2xi32>) -> (tensor<2x2xi32>, tensor<3x2xi32>) {
  %0 = stablehlo.concatenate %x, %y, dim = 0 : (tensor<2x2xi32>, tensor<3x2xi32>) -> tensor<5x2xi32>
  %1 = stablehlo.slice %0 [2:5:2, 0:2] : (tensor<5x2xi32>) -> tensor<2x2xi32>
  %2 = stablehlo.slice %0 [1:4, 0:2] : (tensor<5x2xi32>) -> tensor<3x2xi32>
  return %1, %2 : tensor<2x2xi32>, tensor<3x2xi32>
}

// -----

// Check that a slice of a pad that takes only operand elements (here on the interior grid)
// slices the operand, one that takes only edge padding is a broadcast of the padding value,
// and one that takes both is kept.
// CHECK-LABEL: func.func @slice_of_pad
// CHECK-DAG: %[[A:.*]] = stablehlo.slice %arg0 [1:3, 0:2] : (tensor<3x2xf32>) -> tensor<2x2xf32>
// CHECK-DAG: %[[B:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<1x3xf32>
// CHECK-DAG: %[[P:.*]] = stablehlo.pad %arg0, %arg1
// CHECK-DAG: %[[C:.*]] = stablehlo.slice %[[P]] [0:2, 0:3]
// CHECK: return %[[A]], %[[B]], %[[C]]
func.func @slice_of_pad(%x: tensor<3x2xf32>, %v: tensor<f32>) -> (tensor<2x2xf32>, tensor<1x3xf32>, tensor<2x3xf32>) {
  %p = stablehlo.pad %x, %v, low = [1, 0], high = [2, 1], interior = [0, 1] : (tensor<3x2xf32>, tensor<f32>) -> tensor<6x4xf32>
  %0 = stablehlo.slice %p [2:4, 0:3:2] : (tensor<6x4xf32>) -> tensor<2x2xf32>
  %1 = stablehlo.slice %p [5:6, 0:3] : (tensor<6x4xf32>) -> tensor<1x3xf32>
  %2 = stablehlo.slice %p [0:2, 0:3] : (tensor<6x4xf32>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<2x2xf32>, tensor<1x3xf32>, tensor<2x3xf32>
}

// -----

// Check that pad(pad(x, v), v) with non-negative edges and no outer interior padding is one
// pad, and is kept for different padding values or a negative edge.
// CHECK-LABEL: func.func @pad_of_pad
// CHECK: %[[I:.*]] = stablehlo.pad %arg0, %arg1, low = [1], high = [0], interior = [1]
// CHECK: %[[A:.*]] = stablehlo.pad %arg0, %arg1, low = [3], high = [1], interior = [1] : (tensor<3xf32>, tensor<f32>) -> tensor<9xf32>
// CHECK: %[[B:.*]] = stablehlo.pad %[[I]], %arg2, low = [2], high = [1]
// CHECK: %[[J:.*]] = stablehlo.pad %arg0, %arg1, low = [-1], high = [0]
// CHECK: %[[C:.*]] = stablehlo.pad %[[J]], %arg1, low = [2], high = [1]
// CHECK: return %[[A]], %[[B]], %[[C]]
func.func @pad_of_pad(%x: tensor<3xf32>, %v: tensor<f32>, %w: tensor<f32>) -> (tensor<9xf32>, tensor<9xf32>, tensor<5xf32>) {
  %0 = stablehlo.pad %x, %v, low = [1], high = [0], interior = [1] : (tensor<3xf32>, tensor<f32>) -> tensor<6xf32>
  %1 = stablehlo.pad %0, %v, low = [2], high = [1], interior = [0] : (tensor<6xf32>, tensor<f32>) -> tensor<9xf32>
  %2 = stablehlo.pad %0, %w, low = [2], high = [1], interior = [0] : (tensor<6xf32>, tensor<f32>) -> tensor<9xf32>
  %3 = stablehlo.pad %x, %v, low = [-1], high = [0], interior = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<2xf32>
  %4 = stablehlo.pad %3, %v, low = [2], high = [1], interior = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<5xf32>
  return %1, %2, %4 : tensor<9xf32>, tensor<9xf32>, tensor<5xf32>
}

// -----

// Check that a concatenate of a concatenate along the same dimension is flattened, and along
// another dimension kept.
// CHECK-LABEL: func.func @concatenate_of_concatenate
// CHECK: %[[A:.*]] = stablehlo.concatenate %arg0, %arg1, %arg0, dim = 0 : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<6x2xf32>
// CHECK: %[[I:.*]] = stablehlo.concatenate %arg0, %arg1, dim = 1
// CHECK: %[[B:.*]] = stablehlo.concatenate %[[I]], %[[I]], dim = 0
// CHECK: return %[[A]], %[[B]]
func.func @concatenate_of_concatenate(%x: tensor<2x2xf32>, %y: tensor<2x2xf32>) -> (tensor<6x2xf32>, tensor<4x4xf32>) {
  %0 = stablehlo.concatenate %x, %y, dim = 0 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  %1 = stablehlo.concatenate %0, %x, dim = 0 : (tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<6x2xf32>
  %2 = stablehlo.concatenate %x, %y, dim = 1 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x4xf32>
  %3 = stablehlo.concatenate %2, %2, dim = 0 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  return %1, %3 : tensor<6x2xf32>, tensor<4x4xf32>
}

// -----

// Check that empty operands of a concatenate are dropped (one left: the operand itself), and an
// operand empty only in another dimension... cannot exist; all-empty concatenates are kept.
// CHECK-LABEL: func.func @concatenate_drop_empty
// CHECK: %[[A:.*]] = stablehlo.concatenate %arg0, %arg0, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK: %[[E:.*]] = stablehlo.concatenate %arg1, %arg1, dim = 0
// CHECK: return %[[A]], %arg0, %[[E]]
func.func @concatenate_drop_empty(%x: tensor<2x3xf32>, %e: tensor<0x3xf32>) -> (tensor<4x3xf32>, tensor<2x3xf32>, tensor<0x3xf32>) {
  %0 = stablehlo.concatenate %x, %e, %x, dim = 0 : (tensor<2x3xf32>, tensor<0x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %1 = stablehlo.concatenate %e, %x, dim = 0 : (tensor<0x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = stablehlo.concatenate %e, %e, dim = 0 : (tensor<0x3xf32>, tensor<0x3xf32>) -> tensor<0x3xf32>
  return %0, %1, %2 : tensor<4x3xf32>, tensor<2x3xf32>, tensor<0x3xf32>
}

// -----

// Check that neighbouring slices of one operand are joined into one slice, and slices that
// are not neighbours (a gap, or other columns) are kept.
// CHECK-LABEL: func.func @concatenate_adjacent_slices
// CHECK: %[[A:.*]] = stablehlo.slice %arg0 [1:6, 0:3] : (tensor<6x4xf32>) -> tensor<5x3xf32>
// CHECK: %[[G:.*]] = stablehlo.concatenate
// CHECK: return %[[A]], %[[G]]
func.func @concatenate_adjacent_slices(%x: tensor<6x4xf32>) -> (tensor<5x3xf32>, tensor<4x3xf32>) {
  %0 = stablehlo.slice %x [1:3, 0:3] : (tensor<6x4xf32>) -> tensor<2x3xf32>
  %1 = stablehlo.slice %x [3:4, 0:3] : (tensor<6x4xf32>) -> tensor<1x3xf32>
  %2 = stablehlo.slice %x [4:6, 0:3] : (tensor<6x4xf32>) -> tensor<2x3xf32>
  %3 = stablehlo.concatenate %0, %1, %2, dim = 0 : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<5x3xf32>
  %4 = stablehlo.slice %x [4:6, 1:4] : (tensor<6x4xf32>) -> tensor<2x3xf32>
  %5 = stablehlo.concatenate %0, %4, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %3, %5 : tensor<5x3xf32>, tensor<4x3xf32>
}

// -----

// Check that a transpose of a broadcast is a broadcast when the operand's dimensions stay in
// order, and is kept when the transpose reorders them.
// CHECK-LABEL: func.func @transpose_of_broadcast
// CHECK: %[[A:.*]] = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [0, 2]
// CHECK: %[[T:.*]] = stablehlo.transpose %[[B]], dims = [2, 1, 0]
// CHECK: return %[[A]], %[[T]]
func.func @transpose_of_broadcast(%x: tensor<4xf32>, %y: tensor<2x5xf32>) -> (tensor<4x3xf32>, tensor<5x3x2xf32>) {
  %0 = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %2 = stablehlo.broadcast_in_dim %y, dims = [0, 2] : (tensor<2x5xf32>) -> tensor<2x3x5xf32>
  %3 = stablehlo.transpose %2, dims = [2, 1, 0] : (tensor<2x3x5xf32>) -> tensor<5x3x2xf32>
  return %1, %3 : tensor<4x3xf32>, tensor<5x3x2xf32>
}

// -----

// Check that a reshape of a broadcast of one element is a broadcast of that element, and a
// reshape of a broadcast of a vector is kept.
// CHECK-LABEL: func.func @reshape_of_scalar_broadcast
// CHECK: %[[S:.*]] = stablehlo.reshape %arg0 : (tensor<1x1xi32>) -> tensor<i32>
// CHECK: %[[A:.*]] = stablehlo.broadcast_in_dim %[[S]], dims = [] : (tensor<i32>) -> tensor<6xi32>
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %arg1
// CHECK: %[[R:.*]] = stablehlo.reshape %[[B]]
// CHECK: return %[[A]], %[[R]]
func.func @reshape_of_scalar_broadcast(%x: tensor<1x1xi32>, %y: tensor<3xi32>) -> (tensor<6xi32>, tensor<6xi32>) {
  %0 = stablehlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<1x1xi32>) -> tensor<2x3xi32>
  %1 = stablehlo.reshape %0 : (tensor<2x3xi32>) -> tensor<6xi32>
  %2 = stablehlo.broadcast_in_dim %y, dims = [1] : (tensor<3xi32>) -> tensor<2x3xi32>
  %3 = stablehlo.reshape %2 : (tensor<2x3xi32>) -> tensor<6xi32>
  return %1, %3 : tensor<6xi32>, tensor<6xi32>
}

// -----

// Check that a dynamic_slice with constant starts is a slice, each start clamped into
// [0, dim - size] (-3 -> 0, 9 -> 2), and one with a run-time start is kept.
// CHECK-LABEL: func.func @dynamic_slice_constant_indices
// CHECK: %[[A:.*]] = stablehlo.slice %arg0 [0:2, 2:5] : (tensor<4x5xf32>) -> tensor<2x3xf32>
// CHECK: %[[B:.*]] = stablehlo.dynamic_slice %arg0, %arg1
// CHECK: return %[[A]], %[[B]]
func.func @dynamic_slice_constant_indices(%x: tensor<4x5xf32>, %i: tensor<i32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %c = stablehlo.constant dense<-3> : tensor<i32>
  %d = stablehlo.constant dense<9> : tensor<i32>
  %0 = stablehlo.dynamic_slice %x, %c, %d, sizes = [2, 3] : (tensor<4x5xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  %1 = stablehlo.dynamic_slice %x, %i, %c, sizes = [2, 3] : (tensor<4x5xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Check that a dynamic_update_slice with an update as large as the operand is the update, one
// with an empty update is the operand, and a partial update is kept.
// CHECK-LABEL: func.func @dynamic_update_slice_whole_or_empty
// CHECK: %[[C:.*]] = stablehlo.dynamic_update_slice %arg0, %arg3
// CHECK: return %arg1, %arg0, %[[C]]
func.func @dynamic_update_slice_whole_or_empty(%x: tensor<2x3xf32>, %u: tensor<2x3xf32>, %e: tensor<0x3xf32>, %p: tensor<1x3xf32>, %i: tensor<i32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = stablehlo.dynamic_update_slice %x, %u, %i, %i : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  %1 = stablehlo.dynamic_update_slice %x, %e, %i, %i : (tensor<2x3xf32>, tensor<0x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  %2 = stablehlo.dynamic_update_slice %x, %p, %i, %i : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Check that a reduce of an empty operand is a broadcast of its init value.
// CHECK-LABEL: func.func @reduce_of_empty
// CHECK-NOT: stablehlo.reduce
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<3xf32>
// CHECK: return %[[B]]
func.func @reduce_of_empty(%x: tensor<0x3xf32>, %init: tensor<f32>) -> tensor<3xf32> {
  %0 = stablehlo.reduce(%x init: %init) applies stablehlo.add across dimensions = [0] : (tensor<0x3xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Check that reduced dimensions of size 1 are reshaped away: a reduction over the rest
// remains; over nothing else it is a reshape when the init is the identity (-0.0 for a float
// add), and kept for an init of +0.0 (which turns -0.0 into +0.0).
// CHECK-LABEL: func.func @reduce_degenerate_dims
// CHECK: %[[R:.*]] = stablehlo.reshape %arg0 : (tensor<1x3x4xf32>) -> tensor<3x4xf32>
// CHECK: %[[A:.*]] = stablehlo.reduce(%[[R]] init: %{{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK: %[[B:.*]] = stablehlo.reshape %arg1 : (tensor<3x1xf32>) -> tensor<3xf32>
// CHECK: %[[C:.*]] = stablehlo.reduce(%arg1
// CHECK: return %[[A]], %[[B]], %[[C]]
func.func @reduce_degenerate_dims(%x: tensor<1x3x4xf32>, %y: tensor<3x1xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %nz = stablehlo.constant dense<-0.0> : tensor<f32>
  %pz = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %nz) applies stablehlo.add across dimensions = [0, 2] : (tensor<1x3x4xf32>, tensor<f32>) -> tensor<3xf32>
  %1 = stablehlo.reduce(%y init: %nz) applies stablehlo.add across dimensions = [1] : (tensor<3x1xf32>, tensor<f32>) -> tensor<3xf32>
  %2 = stablehlo.reduce(%y init: %pz) applies stablehlo.add across dimensions = [1] : (tensor<3x1xf32>, tensor<f32>) -> tensor<3xf32>
  return %0, %1, %2 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// Check that a reduce of a reduce with one reducer is one reduce for integers and float max,
// and kept for a float add (reassociating a float sum rounds differently).
// CHECK-LABEL: func.func @reduce_of_reduce
// CHECK: %[[A:.*]] = stablehlo.reduce(%arg0 init: %{{.*}}) applies stablehlo.add across dimensions = [0, 2] : (tensor<2x3x4xi32>, tensor<i32>) -> tensor<3xi32>
// CHECK: %[[B:.*]] = stablehlo.reduce(%arg1 init: %{{.*}}) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
// CHECK: %[[I:.*]] = stablehlo.reduce(%arg1 init: %{{.*}}) applies stablehlo.add across dimensions = [0]
// CHECK: %[[C:.*]] = stablehlo.reduce(%[[I]] init: %{{.*}}) applies stablehlo.add across dimensions = [0]
// CHECK: return %[[A]], %[[B]], %[[C]]
func.func @reduce_of_reduce(%x: tensor<2x3x4xi32>, %y: tensor<2x3xf32>) -> (tensor<3xi32>, tensor<f32>, tensor<f32>) {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %m = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %nz = stablehlo.constant dense<-0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [2] : (tensor<2x3x4xi32>, tensor<i32>) -> tensor<2x3xi32>
  %1 = stablehlo.reduce(%0 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<2x3xi32>, tensor<i32>) -> tensor<3xi32>
  %2 = stablehlo.reduce(%y init: %m) applies stablehlo.maximum across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %3 = stablehlo.reduce(%2 init: %m) applies stablehlo.maximum across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
  %4 = stablehlo.reduce(%y init: %nz) applies stablehlo.add across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  %5 = stablehlo.reduce(%4 init: %nz) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
  return %1, %3, %5 : tensor<3xi32>, tensor<f32>, tensor<f32>
}

// -----

// Check that a dot or convolution that sums over no elements is zero, and one that sums over
// elements is kept.
// CHECK-LABEL: func.func @contraction_over_nothing
// CHECK-DAG: %[[Z:.*]] = stablehlo.constant dense<0> : tensor<2x3xi32>
// CHECK-DAG: %[[F:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<1x4x4x2xf32>
// CHECK-DAG: %[[D:.*]] = stablehlo.dot_general %arg2, %arg3
// CHECK: return %[[Z]], %[[F]], %[[D]]
func.func @contraction_over_nothing(%a: tensor<2x0xi8>, %b: tensor<0x3xi8>, %c: tensor<2x1xi8>, %d: tensor<1x3xi8>,
    %img: tensor<1x4x4x0xf32>, %k: tensor<1x1x0x2xf32>) -> (tensor<2x3xi32>, tensor<1x4x4x2xf32>, tensor<2x3xi32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x0xi8>, tensor<0x3xi8>) -> tensor<2x3xi32>
  %1 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x0xf32>, tensor<1x1x0x2xf32>) -> tensor<1x4x4x2xf32>
  %2 = stablehlo.dot_general %c, %d, contracting_dims = [1] x [0] : (tensor<2x1xi8>, tensor<1x3xi8>) -> tensor<2x3xi32>
  return %0, %1, %2 : tensor<2x3xi32>, tensor<1x4x4x2xf32>, tensor<2x3xi32>
}

// -----

// Check that a reduce of a reduce of 65536 elements per result or more is kept: the
// tree-reduction-rewriter splits long reductions into such pairs, and merging would undo it.
// CHECK-LABEL: func.func @reduce_of_reduce_long_kept
// CHECK: %[[I:.*]] = stablehlo.reduce(%arg0 init: %{{.*}}) applies stablehlo.add across dimensions = [1]
// CHECK: stablehlo.reduce(%[[I]] init: %{{.*}}) applies stablehlo.add across dimensions = [0]
func.func @reduce_of_reduce_long_kept(%x: tensor<16x4096xi32>) -> tensor<i32> {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<16x4096xi32>, tensor<i32>) -> tensor<16xi32>
  %1 = stablehlo.reduce(%0 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<16xi32>, tensor<i32>) -> tensor<i32>
  return %1 : tensor<i32>
}

// -----

// Check that not(compare) is the inverse compare: EQ -> NE for floats too (NE is true for
// NaN), LT -> GE for integers and TOTALORDER floats; kept for a FLOAT LT (NaN: both false).
// CHECK-LABEL: func.func @not_of_compare
// CHECK-DAG: %[[A:.*]] = stablehlo.compare NE, %arg0, %arg1, FLOAT
// CHECK-DAG: %[[B:.*]] = stablehlo.compare GE, %arg2, %arg3, SIGNED
// CHECK-DAG: %[[C:.*]] = stablehlo.compare GE, %arg0, %arg1, TOTALORDER
// CHECK-DAG: %[[L:.*]] = stablehlo.compare LT, %arg0, %arg1, FLOAT
// CHECK-DAG: %[[D:.*]] = stablehlo.not %[[L]]
// CHECK: return %[[A]], %[[B]], %[[C]], %[[D]]
func.func @not_of_compare(%x: tensor<4xf32>, %y: tensor<4xf32>, %i: tensor<4xi32>, %j: tensor<4xi32>)
    -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = stablehlo.compare EQ, %x, %y, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = stablehlo.not %0 : tensor<4xi1>
  %2 = stablehlo.compare LT, %i, %j, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %3 = stablehlo.not %2 : tensor<4xi1>
  %4 = stablehlo.compare LT, %x, %y, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %5 = stablehlo.not %4 : tensor<4xi1>
  %6 = stablehlo.compare LT, %x, %y, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %7 = stablehlo.not %6 : tensor<4xi1>
  return %1, %3, %5, %7 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// Check that f(f(x)) -> f(x) for abs, floor, round and real sign, and that complex sign of
// sign and floor of ceil are kept.
// CHECK-LABEL: func.func @idempotent_unary
// CHECK: %[[A:.*]] = stablehlo.abs %arg0
// CHECK-NOT: stablehlo.abs %[[A]]
// CHECK: %[[F:.*]] = stablehlo.floor %arg0
// CHECK: %[[R:.*]] = stablehlo.round_nearest_even %arg0
// CHECK: %[[S:.*]] = stablehlo.sign %arg0
// CHECK: %[[Z:.*]] = stablehlo.sign %arg1
// CHECK: %[[ZZ:.*]] = stablehlo.sign %[[Z]]
// CHECK: %[[C:.*]] = stablehlo.ceil %arg0
// CHECK: %[[FC:.*]] = stablehlo.floor %[[C]]
// CHECK: return %[[A]], %[[F]], %[[R]], %[[S]], %[[ZZ]], %[[FC]]
func.func @idempotent_unary(%x: tensor<4xf32>, %z: tensor<4xcomplex<f32>>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xcomplex<f32>>, tensor<4xf32>) {
  %0 = stablehlo.abs %x : tensor<4xf32>
  %1 = stablehlo.abs %0 : tensor<4xf32>
  %2 = stablehlo.floor %x : tensor<4xf32>
  %3 = stablehlo.floor %2 : tensor<4xf32>
  %4 = stablehlo.round_nearest_even %x : tensor<4xf32>
  %5 = stablehlo.round_nearest_even %4 : tensor<4xf32>
  %6 = stablehlo.sign %x : tensor<4xf32>
  %7 = stablehlo.sign %6 : tensor<4xf32>
  %8 = stablehlo.sign %z : tensor<4xcomplex<f32>>
  %9 = stablehlo.sign %8 : tensor<4xcomplex<f32>>
  %10 = stablehlo.ceil %x : tensor<4xf32>
  %11 = stablehlo.floor %10 : tensor<4xf32>
  return %1, %3, %5, %7, %9, %11 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xcomplex<f32>>, tensor<4xf32>
}

// -----

// Check that a slice of a broadcast is a broadcast of a slice (a broadcasting size-1
// dimension stays whole), and that a slice of a broadcast of a scalar is a broadcast.
// CHECK-LABEL: func.func @slice_of_broadcast
// CHECK: %[[S:.*]] = stablehlo.slice %arg0 [1:3, 0:1] : (tensor<4x1xf32>) -> tensor<2x1xf32>
// CHECK: %[[A:.*]] = stablehlo.broadcast_in_dim %[[S]], dims = [0, 2] : (tensor<2x1xf32>) -> tensor<2x3x2xf32>
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<2xf32>
// CHECK: return %[[A]], %[[B]]
func.func @slice_of_broadcast(%x: tensor<4x1xf32>, %s: tensor<f32>) -> (tensor<2x3x2xf32>, tensor<2xf32>) {
  %0 = stablehlo.broadcast_in_dim %x, dims = [0, 2] : (tensor<4x1xf32>) -> tensor<4x5x6xf32>
  %1 = stablehlo.slice %0 [1:3, 0:5:2, 2:4] : (tensor<4x5x6xf32>) -> tensor<2x3x2xf32>
  %2 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %3 = stablehlo.slice %2 [1:5:2] : (tensor<8xf32>) -> tensor<2xf32>
  return %1, %3 : tensor<2x3x2xf32>, tensor<2xf32>
}

// -----

// Check that a transpose that only moves size-1 dimensions is a reshape, and one that
// reorders larger dimensions is kept.
// CHECK-LABEL: func.func @transpose_of_unit_dims
// CHECK: %[[A:.*]] = stablehlo.reshape %arg0 : (tensor<1x3x1x4xf32>) -> tensor<3x1x4x1xf32>
// CHECK: %[[B:.*]] = stablehlo.transpose %arg0, dims = [3, 0, 1, 2]
// CHECK: return %[[A]], %[[B]]
func.func @transpose_of_unit_dims(%x: tensor<1x3x1x4xf32>) -> (tensor<3x1x4x1xf32>, tensor<4x1x3x1xf32>) {
  %0 = stablehlo.transpose %x, dims = [1, 0, 3, 2] : (tensor<1x3x1x4xf32>) -> tensor<3x1x4x1xf32>
  %1 = stablehlo.transpose %x, dims = [3, 0, 1, 2] : (tensor<1x3x1x4xf32>) -> tensor<4x1x3x1xf32>
  return %0, %1 : tensor<3x1x4x1xf32>, tensor<4x1x3x1xf32>
}

// -----

// Check that abs(-x) -> abs(x).
// CHECK-LABEL: func.func @abs_of_negate
// CHECK-NOT: stablehlo.negate
// CHECK: %[[A:.*]] = stablehlo.abs %arg0
// CHECK: return %[[A]]
func.func @abs_of_negate(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = stablehlo.negate %x : tensor<4xi32>
  %1 = stablehlo.abs %0 : tensor<4xi32>
  return %1 : tensor<4xi32>
}

// -----

// Check that x / 4.0 -> x * 0.25 and x / -0.5 -> x * -2.0, and that a division by 3.0, by a
// power of two whose reciprocal overflows f16 (2^-16), or of integers is kept.
// CHECK-LABEL: func.func @divide_by_power_of_two
// CHECK-DAG: %[[Q:.*]] = stablehlo.constant dense<2.500000e-01> : tensor<4xf32>
// CHECK-DAG: %[[A:.*]] = stablehlo.multiply %arg0, %[[Q]]
// CHECK-DAG: %[[M:.*]] = stablehlo.constant dense<-2.000000e+00> : tensor<4xbf16>
// CHECK-DAG: %[[B:.*]] = stablehlo.multiply %arg1, %[[M]]
// CHECK-DAG: %[[C:.*]] = stablehlo.divide %arg0, %{{.*}} : tensor<4xf32>
// CHECK-DAG: %[[D:.*]] = stablehlo.divide %arg2, %{{.*}} : tensor<4xf16>
// CHECK-DAG: %[[E:.*]] = stablehlo.divide %arg3, %{{.*}} : tensor<4xi32>
// CHECK: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]]
func.func @divide_by_power_of_two(%x: tensor<4xf32>, %b: tensor<4xbf16>, %h: tensor<4xf16>, %i: tensor<4xi32>)
    -> (tensor<4xf32>, tensor<4xbf16>, tensor<4xf32>, tensor<4xf16>, tensor<4xi32>) {
  %four = stablehlo.constant dense<4.0> : tensor<4xf32>
  %mhalf = stablehlo.constant dense<-0.5> : tensor<4xbf16>
  %three = stablehlo.constant dense<3.0> : tensor<4xf32>
  %tiny = stablehlo.constant dense<1.52587890625e-05> : tensor<4xf16>
  %two = stablehlo.constant dense<2> : tensor<4xi32>
  %0 = stablehlo.divide %x, %four : tensor<4xf32>
  %1 = stablehlo.divide %b, %mhalf : tensor<4xbf16>
  %2 = stablehlo.divide %x, %three : tensor<4xf32>
  %3 = stablehlo.divide %h, %tiny : tensor<4xf16>
  %4 = stablehlo.divide %i, %two : tensor<4xi32>
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xbf16>, tensor<4xf32>, tensor<4xf16>, tensor<4xi32>
}
