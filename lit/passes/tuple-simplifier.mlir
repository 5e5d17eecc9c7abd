// RUN: %hlo-opt %s -p tuple-simplifier --split-input-file | filecheck %s

// Check that get_tuple_element of a tuple is the element, through nested tuples (XLA
// TupleSimplifierTest GteOfTuple, GteOfTupleChain), and the tuples then go.
// CHECK-LABEL: func.func @element_of_tuple
// CHECK-NOT: stablehlo.tuple
// CHECK-NOT: stablehlo.get_tuple_element
// CHECK: return %arg1, %arg0
func.func @element_of_tuple(%x: tensor<2xf32>, %y: tensor<i32>) -> (tensor<i32>, tensor<2xf32>) {
  %t = stablehlo.tuple %x, %y : tuple<tensor<2xf32>, tensor<i32>>
  %u = stablehlo.tuple %t, %x : tuple<tuple<tensor<2xf32>, tensor<i32>>, tensor<2xf32>>
  %a = stablehlo.get_tuple_element %u[0] : (tuple<tuple<tensor<2xf32>, tensor<i32>>, tensor<2xf32>>) -> tuple<tensor<2xf32>, tensor<i32>>
  %b = stablehlo.get_tuple_element %a[1] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<i32>
  %c = stablehlo.get_tuple_element %t[0] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<2xf32>
  return %b, %c : tensor<i32>, tensor<2xf32>
}

// -----

// Check that a tuple of a tuple's elements in order is that tuple (XLA RemoveWholeTuple).
// CHECK-LABEL: func.func @whole_tuple
// CHECK-NOT: stablehlo.tuple
// CHECK: return %arg0
func.func @whole_tuple(%t: tuple<tensor<2xf32>, tensor<i32>>) -> tuple<tensor<2xf32>, tensor<i32>> {
  %a = stablehlo.get_tuple_element %t[0] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<2xf32>
  %b = stablehlo.get_tuple_element %t[1] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<i32>
  %u = stablehlo.tuple %a, %b : tuple<tensor<2xf32>, tensor<i32>>
  return %u : tuple<tensor<2xf32>, tensor<i32>>
}

// -----

// Check that tuples of elements out of order, of a prefix, of two tuples or of the empty
// list stay (XLA RemoveWholeTuple needs every element of one tuple, in order).
// CHECK-LABEL: func.func @not_whole
// CHECK-COUNT-4: stablehlo.tuple
func.func @not_whole(%t: tuple<tensor<f32>, tensor<f32>>, %s: tuple<tensor<f32>, tensor<f32>>,
                     %w: tuple<tensor<f32>, tensor<f32>, tensor<f32>>)
    -> (tuple<tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>>, tuple<>) {
  %t0 = stablehlo.get_tuple_element %t[0] : (tuple<tensor<f32>, tensor<f32>>) -> tensor<f32>
  %t1 = stablehlo.get_tuple_element %t[1] : (tuple<tensor<f32>, tensor<f32>>) -> tensor<f32>
  %s1 = stablehlo.get_tuple_element %s[1] : (tuple<tensor<f32>, tensor<f32>>) -> tensor<f32>
  %w0 = stablehlo.get_tuple_element %w[0] : (tuple<tensor<f32>, tensor<f32>, tensor<f32>>) -> tensor<f32>
  %w1 = stablehlo.get_tuple_element %w[1] : (tuple<tensor<f32>, tensor<f32>, tensor<f32>>) -> tensor<f32>
  %swapped = stablehlo.tuple %t1, %t0 : tuple<tensor<f32>, tensor<f32>>
  %mixed = stablehlo.tuple %t0, %s1 : tuple<tensor<f32>, tensor<f32>>
  %prefix = stablehlo.tuple %w0, %w1 : tuple<tensor<f32>, tensor<f32>>
  %empty = stablehlo.tuple : tuple<>
  return %swapped, %mixed, %prefix, %empty : tuple<tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>>, tuple<>
}
