// RUN: %hlo-opt %s -p conditional-code-motion --split-input-file | filecheck %s

// Check that a convert(reshape(.)) chain that ends both branches leaves them whole: the
// branches return the values before it (XLA MoveConvertOut).
// CHECK-LABEL: func.func @chain
// CHECK: %[[IF:.*]] = "stablehlo.if"(%arg0)
// CHECK: %[[A:.*]] = stablehlo.add %arg1, %arg2
// CHECK-NEXT: stablehlo.return %[[A]] : tensor<4xf32>
// CHECK: %[[M:.*]] = stablehlo.multiply %arg1, %arg2
// CHECK-NEXT: stablehlo.return %[[M]] : tensor<4xf32>
// CHECK: }) : (tensor<i1>) -> tensor<4xf32>
// CHECK: %[[R:.*]] = stablehlo.reshape %[[IF]] : (tensor<4xf32>) -> tensor<2x2xf32>
// CHECK: %[[C:.*]] = stablehlo.convert %[[R]] : (tensor<2x2xf32>) -> tensor<2x2xbf16>
// CHECK: return %[[C]]
func.func @chain(%p: tensor<i1>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<2x2xbf16> {
  %r = "stablehlo.if"(%p) ({
    %a = stablehlo.add %x, %y : tensor<4xf32>
    %s = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<2x2xf32>
    %c = stablehlo.convert %s : (tensor<2x2xf32>) -> tensor<2x2xbf16>
    stablehlo.return %c : tensor<2x2xbf16>
  }, {
    %m = stablehlo.multiply %x, %y : tensor<4xf32>
    %s = stablehlo.reshape %m : (tensor<4xf32>) -> tensor<2x2xf32>
    %c = stablehlo.convert %s : (tensor<2x2xf32>) -> tensor<2x2xbf16>
    stablehlo.return %c : tensor<2x2xbf16>
  }) : (tensor<i1>) -> tensor<2x2xbf16>
  return %r : tensor<2x2xbf16>
}

// -----

// Check that a binary op moves out of a three-way case: an outer operand is read as it is,
// identical constants are copied out, and inner operands become results.
// CHECK-LABEL: func.func @case_operands
// CHECK: %[[CASE:.*]]:2 = "stablehlo.case"(%arg0)
// CHECK: }) : (tensor<i32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK: %[[ONE:.*]] = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK: %[[M:.*]] = stablehlo.multiply %[[CASE]]#0, %[[ONE]]
// CHECK: %[[S:.*]] = stablehlo.subtract %[[CASE]]#1, %arg1
// CHECK: return %[[M]], %[[S]]
func.func @case_operands(%k: tensor<i32>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = "stablehlo.case"(%k) ({
    %a = stablehlo.add %x, %y : tensor<4xf32>
    %one = stablehlo.constant dense<1.0> : tensor<4xf32>
    %b = stablehlo.multiply %a, %one : tensor<4xf32>
    %c = stablehlo.subtract %a, %x : tensor<4xf32>
    stablehlo.return %b, %c : tensor<4xf32>, tensor<4xf32>
  }, {
    %a = stablehlo.abs %x : tensor<4xf32>
    %one = stablehlo.constant dense<1.0> : tensor<4xf32>
    %b = stablehlo.multiply %a, %one : tensor<4xf32>
    %n = stablehlo.negate %y : tensor<4xf32>
    %c = stablehlo.subtract %n, %x : tensor<4xf32>
    stablehlo.return %b, %c : tensor<4xf32>, tensor<4xf32>
  }, {
    %one = stablehlo.constant dense<1.0> : tensor<4xf32>
    %b = stablehlo.multiply %y, %one : tensor<4xf32>
    %c = stablehlo.subtract %y, %x : tensor<4xf32>
    stablehlo.return %b, %c : tensor<4xf32>, tensor<4xf32>
  }) : (tensor<i32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Check that the same constant returned by every branch leaves without a new result.
// CHECK-LABEL: func.func @constant_result
// CHECK: %[[IF:.*]] = "stablehlo.if"(%arg0)
// CHECK: }) : (tensor<i1>) -> tensor<2xf32>
// CHECK: %[[C:.*]] = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
// CHECK: return %[[IF]], %[[C]]
func.func @constant_result(%p: tensor<i1>, %x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xi32>) {
  %r:2 = "stablehlo.if"(%p) ({
    %c = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    %n = stablehlo.negate %x : tensor<2xf32>
    stablehlo.return %n, %c : tensor<2xf32>, tensor<2xi32>
  }, {
    %c = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    %e = stablehlo.exponential %x : tensor<2xf32>
    stablehlo.return %e, %c : tensor<2xf32>, tensor<2xi32>
  }) : (tensor<i1>) -> (tensor<2xf32>, tensor<2xi32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xi32>
}

// -----

// Check that ops that differ (names, attributes, operand types) stay in their branches.
// CHECK-LABEL: func.func @not_identical
// CHECK: "stablehlo.if"
// CHECK: stablehlo.negate
// CHECK: stablehlo.compare  LT
// CHECK: stablehlo.convert %{{.*}} : (tensor<2xi32>) -> tensor<2xf32>
// CHECK: stablehlo.exponential
// CHECK: stablehlo.compare  GT
// CHECK: stablehlo.convert %{{.*}} : (tensor<2xi64>) -> tensor<2xf32>
// CHECK: }) : (tensor<i1>) -> (tensor<2xf32>, tensor<2xi1>, tensor<2xf32>)
func.func @not_identical(%p: tensor<i1>, %x: tensor<2xf32>, %i: tensor<2xi32>, %j: tensor<2xi64>)
    -> (tensor<2xf32>, tensor<2xi1>, tensor<2xf32>) {
  %r:3 = "stablehlo.if"(%p) ({
    %n = stablehlo.negate %x : tensor<2xf32>
    %c = stablehlo.compare LT, %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
    %v = stablehlo.convert %i : (tensor<2xi32>) -> tensor<2xf32>
    stablehlo.return %n, %c, %v : tensor<2xf32>, tensor<2xi1>, tensor<2xf32>
  }, {
    %e = stablehlo.exponential %x : tensor<2xf32>
    %c = stablehlo.compare GT, %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
    %v = stablehlo.convert %j : (tensor<2xi64>) -> tensor<2xf32>
    stablehlo.return %e, %c, %v : tensor<2xf32>, tensor<2xi1>, tensor<2xf32>
  }) : (tensor<i1>) -> (tensor<2xf32>, tensor<2xi1>, tensor<2xf32>)
  return %r#0, %r#1, %r#2 : tensor<2xf32>, tensor<2xi1>, tensor<2xf32>
}

// -----

// Check that an op the branch reads elsewhere, a side-effecting call and a captured value
// stay where they are.
// CHECK-LABEL: func.func @stays
// CHECK: "stablehlo.if"
// CHECK: %[[A:.*]] = stablehlo.abs %arg1
// CHECK: stablehlo.custom_call @effect(%[[A]])
// CHECK: stablehlo.return %[[A]], %{{.*}}, %arg1
// CHECK: %[[B:.*]] = stablehlo.abs %arg1
// CHECK: stablehlo.custom_call @effect(%[[B]])
// CHECK: stablehlo.return %[[B]], %{{.*}}, %arg1
func.func @stays(%p: tensor<i1>, %x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %r:3 = "stablehlo.if"(%p) ({
    %a = stablehlo.abs %x : tensor<2xf32>
    %e = stablehlo.custom_call @effect(%a) {has_side_effect = true} : (tensor<2xf32>) -> tensor<2xf32>
    stablehlo.return %a, %e, %x : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
  }, {
    %b = stablehlo.abs %x : tensor<2xf32>
    %e = stablehlo.custom_call @effect(%b) {has_side_effect = true} : (tensor<2xf32>) -> tensor<2xf32>
    stablehlo.return %b, %e, %x : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
  }) : (tensor<i1>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  return %r#0, %r#1, %r#2 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// Check that a conditional nested in a branch is handled first, then the outer one.
// CHECK-LABEL: func.func @nested
// CHECK: %[[OUT:.*]] = "stablehlo.case"(%arg1)
// CHECK: "stablehlo.if"(%arg0)
// CHECK-NOT: stablehlo.sqrt
// CHECK: }) : (tensor<i32>) -> tensor<2xf32>
// CHECK: %[[S:.*]] = stablehlo.sqrt %[[OUT]]
// CHECK: return %[[S]]
func.func @nested(%p: tensor<i1>, %k: tensor<i32>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %r = "stablehlo.case"(%k) ({
    %i = "stablehlo.if"(%p) ({
      %n = stablehlo.negate %x : tensor<2xf32>
      %s = stablehlo.sqrt %n : tensor<2xf32>
      stablehlo.return %s : tensor<2xf32>
    }, {
      %s = stablehlo.sqrt %x : tensor<2xf32>
      stablehlo.return %s : tensor<2xf32>
    }) : (tensor<i1>) -> tensor<2xf32>
    stablehlo.return %i : tensor<2xf32>
  }, {
    %t = stablehlo.tanh %x : tensor<2xf32>
    %s = stablehlo.sqrt %t : tensor<2xf32>
    stablehlo.return %s : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// Check that complex constants (whose attribute the bindings cannot read) stay in their
// branches, and that an add of them moves out with a new result per operand.
// CHECK-LABEL: func.func @complex_constants
// CHECK: %[[IF:.*]]:2 = "stablehlo.if"(%arg0)
// CHECK: stablehlo.constant dense<(1.000000e+00,2.000000e+00)>
// CHECK: stablehlo.return
// CHECK: stablehlo.constant dense<(1.000000e+00,2.000000e+00)>
// CHECK: stablehlo.return
// CHECK: }) : (tensor<i1>) -> (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>)
// CHECK: %[[A:.*]] = stablehlo.add %[[IF]]#0, %[[IF]]#1 : tensor<2xcomplex<f32>>
// CHECK: return %[[A]]
func.func @complex_constants(%p: tensor<i1>, %x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %r = "stablehlo.if"(%p) ({
    %c = stablehlo.constant dense<(1.0,2.0)> : tensor<2xcomplex<f32>>
    %n = stablehlo.negate %x : tensor<2xcomplex<f32>>
    %a = stablehlo.add %n, %c : tensor<2xcomplex<f32>>
    stablehlo.return %a : tensor<2xcomplex<f32>>
  }, {
    %c = stablehlo.constant dense<(1.0,2.0)> : tensor<2xcomplex<f32>>
    %e = stablehlo.exponential %x : tensor<2xcomplex<f32>>
    %a = stablehlo.add %e, %c : tensor<2xcomplex<f32>>
    stablehlo.return %a : tensor<2xcomplex<f32>>
  }) : (tensor<i1>) -> tensor<2xcomplex<f32>>
  return %r : tensor<2xcomplex<f32>>
}
