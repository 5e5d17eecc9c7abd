# RUN: %python %s | filecheck %s
"""HloModule structure edits as IR (one TEST per case)."""

from hlo_mlir import Parameter, Shape, XlaBuilder
from hlo_mlir.module import HloModule

CALLS = """
module @calls {
  func.func private @double(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @unused(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.negate %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = call @double(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
"""


def test(name, module):
    print(f"TEST: {name}")
    print(module)


def axpy():
    b = XlaBuilder("axpy")
    return b.build(Parameter(b, 0, Shape.parse("f32[4]"), "x") * 2.0)


# Check that every instruction gets a unique XLA-style name.
# CHECK-LABEL: TEST: names
# CHECK: stablehlo.constant {hlo.name = "constant"}
# CHECK: stablehlo.broadcast_in_dim {{.*}}{hlo.name = "broadcast_in_dim"}
# CHECK: stablehlo.multiply {{.*}}{hlo.name = "multiply"}
test("names", axpy().get_hlo_module())

# Check that unreachable computations go and the schedule is stored on the module.
# CHECK-LABEL: TEST: remove_unused_and_schedule
# CHECK: module @calls attributes {hlo.schedule = {double = ["add"], main = ["call"]}}
# CHECK-NOT: @unused
# CHECK: func.func private @double
# CHECK: func.func @main
module = HloModule.parse(CALLS)
module.remove_unused_computations()
module.set_schedule({c.name: c.instructions() for c in module.computations()})
test("remove_unused_and_schedule", module)

# Check that an added computation is private, renamed away from existing names, and that
# calls follow a replacement.
# CHECK-LABEL: TEST: add_and_replace
# CHECK-NOT: func.func private @double(
# CHECK: func.func @main
# CHECK-NEXT: call @axpy(%arg0)
# CHECK: func.func private @axpy(
module = HloModule.parse(CALLS)
module.replace_computations({"double": module.add_embedded_computation(axpy())})
test("add_and_replace", module)
