# RUN: %python %s | filecheck %s
"""Builder output of dialect_ops.side_effects: tokens, Infeed, Outfeed, Send, Recv and
OptimizationBarrier (one TEST per case)."""

from hlo_mlir import (
    AfterAll,
    ChannelHandle,
    ChannelType,
    CreateToken,
    GetTupleElement,
    Infeed,
    InfeedWithToken,
    OptimizationBarrier,
    Outfeed,
    OutfeedWithToken,
    Parameter,
    Recv,
    RecvFromHost,
    RecvWithToken,
    Send,
    SendToHost,
    Shape,
    Tuple,
)

from harness import test

# CHECK-LABEL: TEST: after_all
# CHECK: %[[A:.*]] = stablehlo.create_token : !stablehlo.token
# CHECK: %[[B:.*]] = stablehlo.create_token : !stablehlo.token
# CHECK: stablehlo.after_all %[[A]], %[[B]], %arg0 : !stablehlo.token
test("after_all",
     lambda b: AfterAll(b, [CreateToken(b), CreateToken(b), Parameter(b, 0, Shape.token_shape())]))

# CHECK-LABEL: TEST: infeed
# CHECK: %[[T:.*]] = stablehlo.create_token
# CHECK: %[[I:.*]]:2 = "stablehlo.infeed"(%[[T]]) <{infeed_config = "cfg", layout = {{\[\[}}1, 0]]}>
# CHECK-SAME: (!stablehlo.token) -> (tensor<2x3xf32>, !stablehlo.token)
# CHECK: return %[[I]]#0 : tensor<2x3xf32>
test("infeed", lambda b: Infeed(b, Shape.parse("f32[2,3]"), "cfg"))

# CHECK-LABEL: TEST: infeed_with_token_of_a_tuple
# CHECK: %[[I:.*]]:3 = "stablehlo.infeed"(%arg0) <{infeed_config = "", layout = {{\[\[}}0], []]}>
# CHECK-SAME: (!stablehlo.token) -> (tensor<4xi32>, tensor<f32>, !stablehlo.token)
# CHECK: %[[D:.*]] = stablehlo.tuple %[[I]]#0, %[[I]]#1 : tuple<tensor<4xi32>, tensor<f32>>
# CHECK: stablehlo.tuple %[[D]], %[[I]]#2 : tuple<tuple<tensor<4xi32>, tensor<f32>>, !stablehlo.token>
test("infeed_with_token_of_a_tuple",
     lambda b: InfeedWithToken(Parameter(b, 0, Shape.token_shape()), Shape.parse("(s32[4], f32[])")))

# CHECK-LABEL: TEST: outfeed
# CHECK: %[[T:.*]] = stablehlo.create_token
# CHECK: "stablehlo.outfeed"(%arg0, %arg1, %[[T]]) <{outfeed_config = "out"}>
# CHECK-SAME: (tensor<3xf32>, tensor<i32>, !stablehlo.token) -> !stablehlo.token
# CHECK: stablehlo.tuple{{ *}}: tuple<>
test("outfeed", lambda b: Outfeed(
    Tuple(b, [Parameter(b, 0, Shape.parse("f32[3]")), Parameter(b, 1, Shape.parse("s32[]"))]),
    Shape.parse("(f32[3], s32[])"), "out"))

# CHECK-LABEL: TEST: outfeed_with_token
# CHECK: "stablehlo.outfeed"(%arg0, %arg1) <{outfeed_config = ""}>
# CHECK-SAME: (tensor<3xf32>, !stablehlo.token) -> !stablehlo.token
test("outfeed_with_token", lambda b: OutfeedWithToken(
    Parameter(b, 0, Shape.parse("f32[3]")), Parameter(b, 1, Shape.token_shape()), Shape.parse("f32[3]"), ""))

# CHECK-LABEL: TEST: send_recv
# CHECK: %[[S:.*]] = "stablehlo.send"(%arg0, %{{[a-z0-9_]+}})
# CHECK-SAME: <{channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>, is_host_transfer = false}>
# CHECK: %[[R:.*]]:2 = "stablehlo.recv"(%[[S]])
# CHECK-SAME: <{channel_handle = #stablehlo.channel_handle<handle = 8, type = 1>, is_host_transfer = false}>
# CHECK-SAME: (!stablehlo.token) -> (tensor<2xui8>, !stablehlo.token)
test("send_recv", lambda b: RecvWithToken(Send(Parameter(b, 0, Shape.parse("f32[3]")), ChannelHandle(7)),
                                          Shape.parse("u8[2]"), ChannelHandle(8)))

# CHECK-LABEL: TEST: recv
# CHECK: %[[R:.*]]:2 = "stablehlo.recv"
# CHECK: return %[[R]]#0 : tensor<2xf32>
test("recv", lambda b: Recv(b, Shape.parse("f32[2]"), ChannelHandle(1)))

# CHECK-LABEL: TEST: host_transfers
# CHECK: "stablehlo.send"(%arg0, %arg1)
# CHECK-SAME: <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 2>, is_host_transfer = true}>
# CHECK: "stablehlo.recv"(%{{[a-z0-9_]+}})
# CHECK-SAME: <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 3>, is_host_transfer = true}>
test("host_transfers", lambda b: RecvFromHost(
    SendToHost(Parameter(b, 0, Shape.parse("f32[3]")), Parameter(b, 1, Shape.token_shape()),
               Shape.parse("f32[3]"), ChannelHandle(2, ChannelType.DEVICE_TO_HOST)),
    Shape.parse("f32[1]"), ChannelHandle(3, ChannelType.HOST_TO_DEVICE)))

# CHECK-LABEL: TEST: optimization_barrier_of_a_tuple
# CHECK: %[[B:.*]]:2 = stablehlo.optimization_barrier %arg0, %arg1 : tensor<3xf32>, !stablehlo.token
# CHECK: stablehlo.tuple %[[B]]#0, %[[B]]#1
test("optimization_barrier_of_a_tuple", lambda b: OptimizationBarrier(
    Tuple(b, [Parameter(b, 0, Shape.parse("f32[3]")), Parameter(b, 1, Shape.token_shape())])))

# CHECK-LABEL: TEST: optimization_barrier_of_a_tuple_parameter
# CHECK: %[[A:.*]] = stablehlo.get_tuple_element %arg0[0]
# CHECK: %[[B:.*]] = stablehlo.get_tuple_element %arg0[1]
# CHECK: stablehlo.optimization_barrier %[[A]], %[[B]] : tensor<3xf32>, tensor<i32>
test("optimization_barrier_of_a_tuple_parameter",
     lambda b: GetTupleElement(OptimizationBarrier(Parameter(b, 0, Shape.parse("(f32[3], s32[])"))), 1))
