# RUN: %python %s | filecheck %s
"""Builder output of dialect_ops.tuple_ops: Tuple, GetTupleElement (one TEST per case)."""

from hlo_mlir import GetTupleElement, Parameter, Shape, Tuple

from harness import test

# CHECK-LABEL: TEST: nested_tuple
# CHECK: %[[I:.*]] = stablehlo.tuple %arg1 : tuple<tensor<2xi32>>
# CHECK: stablehlo.tuple %arg0, %[[I]] : tuple<tensor<3xf32>, tuple<tensor<2xi32>>>
test("nested_tuple", lambda b: Tuple(b, [Parameter(b, 0, Shape.parse("f32[3]")),
                                         Tuple(b, [Parameter(b, 1, Shape.parse("s32[2]"))])]))

# CHECK-LABEL: TEST: empty_tuple
# CHECK: stablehlo.tuple{{ *}}: tuple<>
test("empty_tuple", lambda b: Tuple(b, []))

# CHECK-LABEL: TEST: get_tuple_element
# CHECK: func.func @main(%arg0: tuple<tensor<3xf32>, tuple<tensor<2xi32>, tensor<i1>>>) -> tensor<i1>
# CHECK: %[[E:.*]] = stablehlo.get_tuple_element %arg0[1]
# CHECK-SAME: (tuple<tensor<3xf32>, tuple<tensor<2xi32>, tensor<i1>>>) -> tuple<tensor<2xi32>, tensor<i1>>
# CHECK: stablehlo.get_tuple_element %[[E]][1] : (tuple<tensor<2xi32>, tensor<i1>>) -> tensor<i1>
test("get_tuple_element", lambda b: GetTupleElement(GetTupleElement(
    Parameter(b, 0, Shape.parse("(f32[3], (s32[2], pred[]))")), 1), 1))
