# RUN: %python %s | filecheck %s
"""Builder output of dialect_ops.control_flow: Call, While, Conditional, Map (one TEST per case)."""

import numpy as np

from hlo_mlir import (
    Call,
    Conditional,
    ConstantR0,
    ConvertElementType,
    GetTupleElement,
    Map,
    Parameter,
    PrimitiveType,
    Shape,
    Tuple,
    While,
)

from harness import computation, test

square = computation("square", ["f32[3]"], lambda b, p: p * p)
sumsq = computation("sumsq", ["f32[3]", "f32[3]"],
                    lambda b, u, v: Call(b, square, [u]) + Call(b, square, [v]))

# Check that two calls of one computation share one private function, after @main.
# CHECK-LABEL: TEST: call_twice
# CHECK: func.func @main
# CHECK: %[[A:.*]] = call @square(%arg0) : (tensor<3xf32>) -> tensor<3xf32>
# CHECK: call @square(%[[A]])
# CHECK: func.func private @square(%arg0: tensor<3xf32>) -> tensor<3xf32>
# CHECK-NOT: func.func private
test("call_twice", lambda b: Call(b, square, [Call(b, square, [Parameter(b, 0, Shape.parse("f32[3]"))])]))

# Check that a callee's own callees come along, private, before it.
# CHECK-LABEL: TEST: call_nested
# CHECK: func.func @main
# CHECK: call @sumsq(%arg0, %arg0) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
# CHECK: func.func private @square(
# CHECK: func.func private @sumsq(%arg0: tensor<3xf32>, %arg1: tensor<3xf32>) -> tensor<3xf32>
# CHECK: call @square(%arg0)
test("call_nested", lambda b: Call(b, sumsq, [Parameter(b, 0, Shape.parse("f32[3]"))] * 2))

# CHECK-LABEL: TEST: call_no_operands
# CHECK: call @one() : () -> tensor<f32>
# CHECK: func.func private @one() -> tensor<f32>
test("call_no_operands", lambda b: Call(b, computation("one", [], lambda c: c.lift(1.0))))


# --- While -----------------------------------------------------------------------------------------
state = "(s32[], f32[3])"
below_ten = computation("below_ten", [state], lambda b, t: GetTupleElement(t, 0) < np.int32(10))
step = computation("step", [state], lambda b, t: Tuple(b, [GetTupleElement(t, 0) + np.int32(1),
                                                           GetTupleElement(t, 1) * 2.0]))

# Check that a tuple loop state is carried as its leaves: the regions read block arguments
# (no get_tuple_element of a rebuilt tuple remains), the body returns leaves, and the
# results are packed into a tuple again.
# CHECK-LABEL: TEST: while_tuple_state
# CHECK: %[[W:.*]]:2 = stablehlo.while(%[[I:.*]] = %arg0, %[[X:.*]] = %arg1) : tensor<i32>, tensor<3xf32>
# CHECK-NEXT: cond {
# CHECK-NOT: get_tuple_element
# CHECK: %[[C:.*]] = stablehlo.compare LT, %[[I]], %{{.*}}, SIGNED
# CHECK-NEXT: stablehlo.return %[[C]] : tensor<i1>
# CHECK-NEXT: } do {
# CHECK-NOT: tuple
# CHECK: %[[I1:.*]] = stablehlo.add %[[I]], %{{.*}} : tensor<i32>
# CHECK: %[[X1:.*]] = stablehlo.multiply %[[X]], %{{.*}} : tensor<3xf32>
# CHECK-NEXT: stablehlo.return %[[I1]], %[[X1]] : tensor<i32>, tensor<3xf32>
# CHECK-NEXT: }
# CHECK-NEXT: %[[T:.*]] = stablehlo.tuple %[[W]]#0, %[[W]]#1 : tuple<tensor<i32>, tensor<3xf32>>
# CHECK-NEXT: return %[[T]]
test("while_tuple_state", lambda b: While(below_ten, step, Tuple(
    b, [Parameter(b, 0, Shape.parse("s32[]")), Parameter(b, 1, Shape.parse("f32[3]"))])))

# Check that a nested tuple parameter is read into leaves before the loop and that a body
# returning part of its state unchanged returns those block arguments.
# CHECK-LABEL: TEST: while_nested_tuple_parameter
# CHECK: %[[A:.*]] = stablehlo.get_tuple_element %arg0[0]
# CHECK: %[[B:.*]] = stablehlo.get_tuple_element %arg0[1]
# CHECK: %[[A0:.*]] = stablehlo.get_tuple_element %[[A]][0]
# CHECK: %[[A1:.*]] = stablehlo.get_tuple_element %[[A]][1]
# CHECK: %[[W:.*]]:3 = stablehlo.while(%[[I:.*]] = %[[A0]], %[[F:.*]] = %[[A1]], %[[V:.*]] = %[[B]])
# CHECK: } do {
# CHECK: %[[V1:.*]] = stablehlo.negate %[[V]]
# CHECK-NEXT: stablehlo.return %[[I]], %[[F]], %[[V1]] : tensor<i32>, tensor<f32>, tensor<2xf32>
# CHECK: %[[IN:.*]] = stablehlo.tuple %[[W]]#0, %[[W]]#1
# CHECK-NEXT: stablehlo.tuple %[[IN]], %[[W]]#2
nested = "((s32[], f32[]), f32[2])"
test("while_nested_tuple_parameter", lambda b: While(
    computation("nested_cond", [nested],
                lambda c, t: GetTupleElement(GetTupleElement(t, 0), 0) < np.int32(3)),
    computation("nested_body", [nested],
                lambda c, t: Tuple(c, [GetTupleElement(t, 0), -GetTupleElement(t, 1)])),
    Parameter(b, 0, Shape.parse(nested))))

# Check that an array state needs no tuples at all.
# CHECK-LABEL: TEST: while_array_state
# CHECK: %[[W:.*]] = stablehlo.while(%[[X:.*]] = %arg0) : tensor<f32>
# CHECK: stablehlo.compare LT, %[[X]]
# CHECK: %[[Y:.*]] = stablehlo.multiply %[[X]]
# CHECK-NEXT: stablehlo.return %[[Y]] : tensor<f32>
# CHECK: return %[[W]] : tensor<f32>
test("while_array_state", lambda b: While(computation("small", ["f32[]"], lambda c, x: x < np.float32(100)),
                                          computation("double", ["f32[]"], lambda c, x: x * np.float32(2)),
                                          Parameter(b, 0, Shape.parse("f32[]"))))

# --- Conditional -----------------------------------------------------------------------------------
# Check that the predicate form is stablehlo.if with the true branch first, each branch reading
# its own operand captured from above, tuple results returned as leaves.
# CHECK-LABEL: TEST: conditional_predicate
# CHECK: %[[R:.*]]:2 = "stablehlo.if"(%arg0) ({
# CHECK-NEXT: %[[N:.*]] = stablehlo.negate %arg1 : tensor<2xf32>
# CHECK-NEXT: stablehlo.return %[[N]], %arg2 : tensor<2xf32>, tensor<i32>
# CHECK-NEXT: }, {
# CHECK-NEXT: %[[Z:.*]] = stablehlo.constant dense<0> : tensor<i32>
# CHECK-NEXT: stablehlo.return %arg3, %[[Z]] : tensor<2xf32>, tensor<i32>
# CHECK-NEXT: }) : (tensor<i1>) -> (tensor<2xf32>, tensor<i32>)
# CHECK-NEXT: stablehlo.tuple %[[R]]#0, %[[R]]#1
pair = "(f32[2], s32[])"
test("conditional_predicate", lambda b: Conditional(
    Parameter(b, 0, Shape.parse("pred[]")),
    Tuple(b, [Parameter(b, 1, Shape.parse("f32[2]")), Parameter(b, 2, Shape.parse("s32[]"))]),
    computation("negate_first", [pair],
                lambda c, t: Tuple(c, [-GetTupleElement(t, 0), GetTupleElement(t, 1)])),
    Parameter(b, 3, Shape.parse("f32[2]")),
    computation("with_zero", ["f32[2]"], lambda c, v: Tuple(c, [v, ConstantR0(c, np.int32(0))]))))

# Check that the indexed form is stablehlo.case, one region per branch in order (the case op
# runs the last region for an out-of-range index, as XLA does).
# CHECK-LABEL: TEST: conditional_indexed
# CHECK: %[[R:.*]] = "stablehlo.case"(%arg0) ({
# CHECK-NEXT: stablehlo.add %arg1, %arg1
# CHECK: }, {
# CHECK-NEXT: stablehlo.multiply %arg1, %arg1
# CHECK: }, {
# CHECK-NEXT: stablehlo.negate %arg2
# CHECK: }) : (tensor<i32>) -> tensor<f32>
# CHECK-NEXT: return %[[R]]
test("conditional_indexed", lambda b: Conditional(
    Parameter(b, 0, Shape.parse("s32[]")),
    [computation("twice", ["f32[]"], lambda c, x: x + x),
     computation("square", ["f32[]"], lambda c, x: x * x),
     computation("negate", ["f32[]"], lambda c, x: -x)],
    [Parameter(b, 1, Shape.parse("f32[]"))] * 2 + [Parameter(b, 2, Shape.parse("f32[]"))]))

# --- Map -------------------------------------------------------------------------------------------
# Check that Map inlines the scalar computation into stablehlo.map over all dimensions and
# broadcasts a scalar operand first, as XLA's builder does.
# CHECK-LABEL: TEST: map_scalar_operand
# CHECK: %[[A:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
# CHECK-NEXT: %[[R:.*]] = "stablehlo.map"(%arg0, %[[A]]) <{dimensions = array<i64: 0, 1>}> ({
# CHECK-NEXT: ^bb0(%[[X:.*]]: tensor<f32>, %[[Y:.*]]: tensor<f32>):
# CHECK-NEXT: %[[M:.*]] = stablehlo.multiply %[[X]], %[[Y]] : tensor<f32>
# CHECK-NEXT: %[[S:.*]] = stablehlo.add %[[M]], %[[X]] : tensor<f32>
# CHECK-NEXT: stablehlo.return %[[S]] : tensor<f32>
# CHECK-NEXT: }) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
test("map_scalar_operand", lambda b: Map(
    b, [Parameter(b, 0, Shape.parse("f32[2,3]")), Parameter(b, 1, Shape.parse("f32[]"))],
    computation("fma", ["f32[]", "f32[]"], lambda c, x, y: x * y + x), [0, 1]))

# Check that the result takes the computation's element type.
# CHECK-LABEL: TEST: map_to_pred
# CHECK: "stablehlo.map"(%arg0, %arg1) <{dimensions = array<i64: 0>}>
# CHECK: ^bb0(%{{.*}}: tensor<i32>, %{{.*}}: tensor<f32>):
# CHECK: }) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xi1>
test("map_to_pred", lambda b: Map(
    b, [Parameter(b, 0, Shape.parse("s32[4]")), Parameter(b, 1, Shape.parse("f32[4]"))],
    computation("less", ["s32[]", "f32[]"], lambda c, i, x: ConvertElementType(i, PrimitiveType.F32) < x),
    [0]))
