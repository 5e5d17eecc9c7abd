# RUN: %python %s | filecheck %s
"""Builder output of dialect_ops.slicing: Slice, SliceInDim, ConcatInDim, Pad (one TEST per case)."""

from hlo_mlir import ConcatInDim, MakeEdgePaddingConfig, Pad, Parameter, Shape, Slice, SliceInDim

from harness import test

# CHECK-LABEL: TEST: slice
# CHECK: stablehlo.slice %arg0 [2:4, 1:3] : (tensor<5x4xf32>) -> tensor<2x2xf32>
test("slice", lambda b: Slice(Parameter(b, 0, Shape.parse("f32[5,4]")), [2, 1], [4, 3], [1, 1]))

# CHECK-LABEL: TEST: slice_strides
# CHECK: stablehlo.slice %arg0 [0:5:2, 1:4:3] : (tensor<5x4xi32>) -> tensor<3x1xi32>
test("slice_strides", lambda b: Slice(Parameter(b, 0, Shape.parse("s32[5,4]")), [0, 1], [5, 4], [2, 3]))

# CHECK-LABEL: TEST: slice_empty
# CHECK: stablehlo.slice %arg0 [3:3, 0:4] : (tensor<5x4xf32>) -> tensor<0x4xf32>
test("slice_empty", lambda b: Slice(Parameter(b, 0, Shape.parse("f32[5,4]")), [3, 0], [3, 4], [1, 1]))

# CHECK-LABEL: TEST: slice_in_dim
# CHECK: stablehlo.slice %arg0 [0:5, 1:4:2] : (tensor<5x4xui8>) -> tensor<5x2xui8>
test("slice_in_dim", lambda b: SliceInDim(Parameter(b, 0, Shape.parse("u8[5,4]")), 1, 4, 2, 1))

# CHECK-LABEL: TEST: concat
# CHECK: stablehlo.concatenate %arg0, %arg1, %arg0, dim = 0
# CHECK-SAME: (tensor<3x2xf32>, tensor<1x2xf32>, tensor<3x2xf32>) -> tensor<7x2xf32>
test("concat", lambda b: ConcatInDim(b, [x := Parameter(b, 0, Shape.parse("f32[3,2]")),
                                         Parameter(b, 1, Shape.parse("f32[1,2]")), x], 0))


def _pad(b, config):
    return Pad(Parameter(b, 0, Shape.parse("f32[3,4]")), Parameter(b, 1, Shape.parse("f32[]")), config)


# Check that negative edge padding is emitted as is (StableHLO pad takes it natively).
# CHECK-LABEL: TEST: pad
# CHECK: stablehlo.pad %arg0, %arg1, low = [-1, 2], high = [2, -3], interior = [1, 0]
# CHECK-SAME: (tensor<3x4xf32>, tensor<f32>) -> tensor<6x3xf32>
test("pad", lambda b: _pad(b, [(-1, 2, 1), (2, -3, 0)]))

# CHECK-LABEL: TEST: pad_edge_config
# CHECK: stablehlo.pad %arg0, %arg1, low = [1, 0], high = [0, 2], interior = [0, 0]
# CHECK-SAME: (tensor<3x4xf32>, tensor<f32>) -> tensor<4x6xf32>
test("pad_edge_config", lambda b: _pad(b, MakeEdgePaddingConfig([(1, 0), (0, 2)])))
