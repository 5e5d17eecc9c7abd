// RUN: %hlo-opt %s -p reduce-window-padding --split-input-file | filecheck %s

// Check that an unsigned window's padding becomes a pad with the init value.
// CHECK-LABEL: func.func @unsigned_padding
// CHECK: %[[P:.*]] = stablehlo.pad %arg0, %[[I:.*]], low = [0, 0], high = [0, 1], interior = [0, 0] : (tensor<4x2xui8>, tensor<ui8>) -> tensor<4x3xui8>
// CHECK: "stablehlo.reduce_window"(%[[P]], %[[I]])
// CHECK-SAME: padding = dense<0> : tensor<2x2xi64>
// CHECK: (tensor<4x3xui8>, tensor<ui8>) -> tensor<4x2xui8>
func.func @unsigned_padding(%x: tensor<4x2xui8>) -> tensor<4x2xui8> {
  %one = stablehlo.constant dense<1> : tensor<ui8>
  %r = "stablehlo.reduce_window"(%x, %one) <{padding = dense<[[0, 0], [0, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 2>}> ({
  ^bb0(%a: tensor<ui8>, %b: tensor<ui8>):
    %m = stablehlo.multiply %a, %b : tensor<ui8>
    stablehlo.return %m : tensor<ui8>
  }) : (tensor<4x2xui8>, tensor<ui8>) -> tensor<4x2xui8>
  return %r : tensor<4x2xui8>
}

// -----

// Check that a PRED window with base dilation pads interior elements too.
// CHECK-LABEL: func.func @pred_base_dilation
// CHECK: stablehlo.pad %arg0, %{{.*}}, low = [1], high = [0], interior = [1] : (tensor<3xi1>, tensor<i1>) -> tensor<6xi1>
// CHECK: base_dilations = array<i64: 1>
func.func @pred_base_dilation(%x: tensor<3xi1>) -> tensor<5xi1> {
  %t = stablehlo.constant dense<true> : tensor<i1>
  %r = "stablehlo.reduce_window"(%x, %t) <{base_dilations = array<i64: 2>, padding = dense<[[1, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<i1>, %b: tensor<i1>):
    %m = stablehlo.and %a, %b : tensor<i1>
    stablehlo.return %m : tensor<i1>
  }) : (tensor<3xi1>, tensor<i1>) -> tensor<5xi1>
  return %r : tensor<5xi1>
}

// -----

// Check that a signed window and an unpadded unsigned window are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: stablehlo.pad
// CHECK: padding = dense<{{\[\[}}0, 0], [0, 1]]>
// CHECK-NOT: stablehlo.pad
func.func @left_alone(%x: tensor<4x2xi8>, %y: tensor<4x2xui8>) -> (tensor<4x2xi8>, tensor<4x1xui8>) {
  %one = stablehlo.constant dense<1> : tensor<i8>
  %r = "stablehlo.reduce_window"(%x, %one) <{padding = dense<[[0, 0], [0, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 2>}> ({
  ^bb0(%a: tensor<i8>, %b: tensor<i8>):
    %m = stablehlo.multiply %a, %b : tensor<i8>
    stablehlo.return %m : tensor<i8>
  }) : (tensor<4x2xi8>, tensor<i8>) -> tensor<4x2xi8>
  %uone = stablehlo.constant dense<1> : tensor<ui8>
  %s = "stablehlo.reduce_window"(%y, %uone) <{window_dimensions = array<i64: 1, 2>}> ({
  ^bb0(%a: tensor<ui8>, %b: tensor<ui8>):
    %m = stablehlo.multiply %a, %b : tensor<ui8>
    stablehlo.return %m : tensor<ui8>
  }) : (tensor<4x2xui8>, tensor<ui8>) -> tensor<4x1xui8>
  return %r, %s : tensor<4x2xi8>, tensor<4x1xui8>
}
