# RUN: %python %s | filecheck %s
"""Builder output of dialect_ops.control_flow: Call (one TEST per case)."""

from hlo_mlir import Call, Parameter, Shape, XlaBuilder


def test(name, build):
    print(f"TEST: {name}")
    b = XlaBuilder(name)
    print(b.build(build(b)))


def computation(name, shapes, fn):
    b = XlaBuilder(name)
    return b.build(fn(b, *[Parameter(b, i, Shape.parse(s)) for i, s in enumerate(shapes)]))


square = computation("square", ["f32[3]"], lambda b, p: p * p)
sumsq = computation("sumsq", ["f32[3]", "f32[3]"],
                    lambda b, u, v: Call(b, square, [u]) + Call(b, square, [v]))

# Check that two calls of one computation share one private function.
# CHECK-LABEL: TEST: call_twice
# CHECK: func.func private @square(%arg0: tensor<3xf32>) -> tensor<3xf32>
# CHECK-NOT: func.func private
# CHECK: func.func @main
# CHECK: %[[A:.*]] = call @square(%arg0) : (tensor<3xf32>) -> tensor<3xf32>
# CHECK: call @square(%[[A]])
test("call_twice", lambda b: Call(b, square, [Call(b, square, [Parameter(b, 0, Shape.parse("f32[3]"))])]))

# Check that a callee's own callees come along, private, before it.
# CHECK-LABEL: TEST: call_nested
# CHECK: func.func private @square(
# CHECK: func.func private @sumsq(%arg0: tensor<3xf32>, %arg1: tensor<3xf32>) -> tensor<3xf32>
# CHECK: call @square(%arg0)
# CHECK: func.func @main
# CHECK: call @sumsq(%arg0, %arg0) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
test("call_nested", lambda b: Call(b, sumsq, [Parameter(b, 0, Shape.parse("f32[3]"))] * 2))

# CHECK-LABEL: TEST: call_no_operands
# CHECK: func.func private @one() -> tensor<f32>
# CHECK: call @one() : () -> tensor<f32>
test("call_no_operands", lambda b: Call(b, computation("one", [], lambda c: c.lift(1.0))))
