// RUN: %hlo-opt %s -p reshape-mover --split-input-file | filecheck %s

// Check that equivalent reshapes move below the add (XLA EquivalentReshapesMoved).
// CHECK-LABEL: func.func @equivalent_reshapes
// CHECK: %[[A:.*]] = stablehlo.add %arg0, %arg1 : tensor<1x8x1x7xf32>
// CHECK: %[[R:.*]] = stablehlo.reshape %[[A]] : (tensor<1x8x1x7xf32>) -> tensor<8x7xf32>
// CHECK: return %[[R]]
func.func @equivalent_reshapes(%x: tensor<1x8x1x7xf32>, %y: tensor<1x8x1x7xf32>) -> tensor<8x7xf32> {
  %a = stablehlo.reshape %x : (tensor<1x8x1x7xf32>) -> tensor<8x7xf32>
  %b = stablehlo.reshape %y : (tensor<1x8x1x7xf32>) -> tensor<8x7xf32>
  %s = stablehlo.add %a, %b : tensor<8x7xf32>
  return %s : tensor<8x7xf32>
}

// -----

// Check that reshapes of a predicate and of values move below a select, the result keeping
// its element type (XLA SinkReshapeBelowSelect).
// CHECK-LABEL: func.func @select
// CHECK: %[[S:.*]] = stablehlo.select %arg0, %arg1, %arg2 : tensor<6xi1>, tensor<6xf32>
// CHECK: %[[R:.*]] = stablehlo.reshape %[[S]] : (tensor<6xf32>) -> tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @select(%p: tensor<6xi1>, %x: tensor<6xf32>, %y: tensor<6xf32>) -> tensor<2x3xf32> {
  %rp = stablehlo.reshape %p : (tensor<6xi1>) -> tensor<2x3xi1>
  %rx = stablehlo.reshape %x : (tensor<6xf32>) -> tensor<2x3xf32>
  %ry = stablehlo.reshape %y : (tensor<6xf32>) -> tensor<2x3xf32>
  %s = stablehlo.select %rp, %rx, %ry : tensor<2x3xi1>, tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}

// -----

// Check that a non-splat constant gets the inverse reshape, for constant folding
// (XLA SinkReshapeBelowSelectWithConstant), and a rank-0 predicate stays as it is.
// CHECK-LABEL: func.func @constant_operand
// CHECK: %[[C:.*]] = stablehlo.constant dense<{{.*}}> : tensor<2x3xf32>
// CHECK: %[[RC:.*]] = stablehlo.reshape %[[C]] : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK: %[[S:.*]] = stablehlo.select %arg0, %arg1, %[[RC]] : tensor<i1>, tensor<6xf32>
// CHECK: stablehlo.reshape %[[S]] : (tensor<6xf32>) -> tensor<2x3xf32>
func.func @constant_operand(%p: tensor<i1>, %x: tensor<6xf32>) -> tensor<2x3xf32> {
  %rx = stablehlo.reshape %x : (tensor<6xf32>) -> tensor<2x3xf32>
  %c = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %s = stablehlo.select %p, %rx, %c : tensor<i1>, tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}

// -----

// Check that a transpose moves across a scalar broadcast and a splat constant (they become
// a broadcast and a splat of the other shape) and down a chain in later sweeps
// (XLA SinkTransposeAcrossBroadcastScalar).
// CHECK-LABEL: func.func @transpose_chain
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<20x8xf32>
// CHECK: %[[M:.*]] = stablehlo.multiply %arg0, %[[B]] : tensor<20x8xf32>
// CHECK: %[[C:.*]] = stablehlo.constant dense<2.000000e+00> : tensor<20x8xf32>
// CHECK: %[[N:.*]] = stablehlo.multiply %[[M]], %[[C]] : tensor<20x8xf32>
// CHECK: %[[E:.*]] = stablehlo.exponential %[[N]] : tensor<20x8xf32>
// CHECK: %[[T:.*]] = stablehlo.transpose %[[E]], dims = [1, 0]
// CHECK: return %[[T]]
func.func @transpose_chain(%x: tensor<20x8xf32>, %y: tensor<f32>) -> tensor<8x20xf32> {
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<20x8xf32>) -> tensor<8x20xf32>
  %b = stablehlo.broadcast_in_dim %y, dims = [] : (tensor<f32>) -> tensor<8x20xf32>
  %c = stablehlo.constant dense<2.0> : tensor<8x20xf32>
  %m = stablehlo.multiply %t, %b : tensor<8x20xf32>
  %n = stablehlo.multiply %m, %c : tensor<8x20xf32>
  %e = stablehlo.exponential %n : tensor<8x20xf32>
  return %e : tensor<8x20xf32>
}

// -----

// Check that a transpose that keeps a broadcast's dimensions in order moves
// (XLA TransposeOfBroadcastIsAllowed).
// CHECK-LABEL: func.func @transpose_of_broadcast
// CHECK: %[[B:.*]] = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<2xf32>) -> tensor<3x2xf32>
// CHECK: %[[A:.*]] = stablehlo.add %[[B]], %arg1 : tensor<3x2xf32>
// CHECK: stablehlo.transpose %[[A]], dims = [1, 0]
func.func @transpose_of_broadcast(%x: tensor<2xf32>, %y: tensor<3x2xf32>) -> tensor<2x3xf32> {
  %a = stablehlo.broadcast_in_dim %x, dims = [0] : (tensor<2xf32>) -> tensor<2x3xf32>
  %b = stablehlo.transpose %y, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %s = stablehlo.add %a, %b : tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}

// -----

// Check that every user of a moved reshape moves with it: three adds sharing reshapes
// (XLA ReshapeNoUsersOutsideCandidatesSink1).
// CHECK-LABEL: func.func @shared_reshapes
// CHECK-NOT: stablehlo.reshape %arg
// CHECK-DAG: stablehlo.add %arg0, %{{.*}} : tensor<20x8xf32>
// CHECK-DAG: stablehlo.add %arg0, %arg2 : tensor<20x8xf32>
// CHECK-DAG: stablehlo.add %arg2, %arg3 : tensor<20x8xf32>
// CHECK-NOT: stablehlo.reshape %arg
func.func @shared_reshapes(%x0: tensor<20x8xf32>, %s: tensor<f32>, %x2: tensor<20x8xf32>, %x3: tensor<20x8xf32>)
    -> (tensor<8x20xf32>, tensor<8x20xf32>, tensor<8x20xf32>) {
  %r0 = stablehlo.reshape %x0 : (tensor<20x8xf32>) -> tensor<8x20xf32>
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<8x20xf32>
  %r1 = stablehlo.reshape %x2 : (tensor<20x8xf32>) -> tensor<8x20xf32>
  %r2 = stablehlo.reshape %x3 : (tensor<20x8xf32>) -> tensor<8x20xf32>
  %a0 = stablehlo.add %r0, %b : tensor<8x20xf32>
  %a1 = stablehlo.add %r0, %r1 : tensor<8x20xf32>
  %a2 = stablehlo.add %r1, %r2 : tensor<8x20xf32>
  return %a0, %a1, %a2 : tensor<8x20xf32>, tensor<8x20xf32>, tensor<8x20xf32>
}

// -----

// Check that nothing moves when one user of a shared reshape cannot move: it would be
// computed twice (XLA ReshapeWithUsersOutsideCandidatesNotSink).
// CHECK-LABEL: func.func @user_outside
// CHECK-COUNT-2: stablehlo.reshape %arg
// CHECK: stablehlo.add %{{.*}}, %{{.*}} : tensor<8x20xf32>
// CHECK: stablehlo.add %{{.*}}, %{{.*}} : tensor<8x20xf32>
// CHECK: stablehlo.add %{{.*}}, %arg3 : tensor<8x20xf32>
func.func @user_outside(%x0: tensor<20x8xf32>, %s: tensor<f32>, %x2: tensor<20x8xf32>, %x4: tensor<8x20xf32>)
    -> (tensor<8x20xf32>, tensor<8x20xf32>, tensor<8x20xf32>) {
  %r0 = stablehlo.reshape %x0 : (tensor<20x8xf32>) -> tensor<8x20xf32>
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<8x20xf32>
  %r1 = stablehlo.reshape %x2 : (tensor<20x8xf32>) -> tensor<8x20xf32>
  %a0 = stablehlo.add %r0, %b : tensor<8x20xf32>
  %a1 = stablehlo.add %r0, %r1 : tensor<8x20xf32>
  %a2 = stablehlo.add %r1, %x4 : tensor<8x20xf32>
  return %a0, %a1, %a2 : tensor<8x20xf32>, tensor<8x20xf32>, tensor<8x20xf32>
}

// -----

// Check that reshapes from different shapes stay (XLA ReshapesWithDifferentInputShapesNotMoved).
// CHECK-LABEL: func.func @different_sources
// CHECK: stablehlo.reshape %arg0
// CHECK: stablehlo.reshape %arg1
// CHECK: stablehlo.add %{{.*}}, %{{.*}} : tensor<8x7xf32>
func.func @different_sources(%x: tensor<1x8x1x7xf32>, %y: tensor<1x8x7x1xf32>) -> tensor<8x7xf32> {
  %a = stablehlo.reshape %x : (tensor<1x8x1x7xf32>) -> tensor<8x7xf32>
  %b = stablehlo.reshape %y : (tensor<1x8x7x1xf32>) -> tensor<8x7xf32>
  %s = stablehlo.add %a, %b : tensor<8x7xf32>
  return %s : tensor<8x7xf32>
}

// -----

// Check that a reshape beside a plain argument stays (XLA OneParameterAndOneReshapeNotMoved).
// CHECK-LABEL: func.func @parameter_operand
// CHECK: %[[R:.*]] = stablehlo.reshape %arg0
// CHECK: stablehlo.add %[[R]], %arg1 : tensor<8x7xf32>
func.func @parameter_operand(%x: tensor<1x8x1x7xf32>, %y: tensor<8x7xf32>) -> tensor<8x7xf32> {
  %a = stablehlo.reshape %x : (tensor<1x8x1x7xf32>) -> tensor<8x7xf32>
  %s = stablehlo.add %a, %y : tensor<8x7xf32>
  return %s : tensor<8x7xf32>
}

// -----

// Check that reshapes of constants are trivial and never moved (XLA DontSinkReshapesOfConstants).
// CHECK-LABEL: func.func @reshapes_of_constants
// CHECK: stablehlo.select %arg0, %{{.*}}, %{{.*}} : tensor<3x2xi1>, tensor<3x2xf32>
func.func @reshapes_of_constants(%p: tensor<3x2xi1>) -> tensor<3x2xf32> {
  %c0 = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %c1 = stablehlo.constant dense<[[6.0, 5.0, 4.0], [3.0, 2.0, 1.0]]> : tensor<2x3xf32>
  %r0 = stablehlo.reshape %c0 : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %r1 = stablehlo.reshape %c1 : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %s = stablehlo.select %p, %r0, %r1 : tensor<3x2xi1>, tensor<3x2xf32>
  return %s : tensor<3x2xf32>
}

// -----

// Check that a reshape beside a rank-1 broadcast stays (XLA ReshapeOfRank1BroadcastIsNotTrivial),
// and that a transpose that reorders a broadcast's dimensions stays (XLA TransposeReordersBroadcastDims).
// CHECK-LABEL: func.func @broadcasts_not_trivial
// CHECK: stablehlo.add %{{.*}}, %{{.*}} : tensor<2x3xf32>
// CHECK: stablehlo.add %{{.*}}, %{{.*}} : tensor<2x3x5xf32>
func.func @broadcasts_not_trivial(%x: tensor<2xf32>, %y: tensor<6xf32>, %u: tensor<2x3xf32>, %v: tensor<3x2x5xf32>)
    -> (tensor<2x3xf32>, tensor<2x3x5xf32>) {
  %a = stablehlo.broadcast_in_dim %x, dims = [0] : (tensor<2xf32>) -> tensor<2x3xf32>
  %b = stablehlo.reshape %y : (tensor<6xf32>) -> tensor<2x3xf32>
  %s = stablehlo.add %a, %b : tensor<2x3xf32>
  %c = stablehlo.broadcast_in_dim %u, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3x5xf32>
  %d = stablehlo.transpose %v, dims = [1, 0, 2] : (tensor<3x2x5xf32>) -> tensor<2x3x5xf32>
  %t = stablehlo.add %c, %d : tensor<2x3x5xf32>
  return %s, %t : tensor<2x3xf32>, tensor<2x3x5xf32>
}

// -----

// Check that a rank-0 select predicate that is itself a reshape does not decide the shape.
// CHECK-LABEL: func.func @scalar_predicate_reshape
// CHECK: %[[P:.*]] = stablehlo.reshape %arg0 : (tensor<1xi1>) -> tensor<i1>
// CHECK: stablehlo.select %[[P]], %{{.*}}, %{{.*}} : tensor<i1>, tensor<2xf32>
func.func @scalar_predicate_reshape(%p: tensor<1xi1>) -> tensor<2xf32> {
  %rp = stablehlo.reshape %p : (tensor<1xi1>) -> tensor<i1>
  %c0 = stablehlo.constant dense<1.0> : tensor<2xf32>
  %c1 = stablehlo.constant dense<2.0> : tensor<2xf32>
  %s = stablehlo.select %rp, %c0, %c1 : tensor<i1>, tensor<2xf32>
  return %s : tensor<2xf32>
}

// -----

// Check that a complex splat constant (whose attribute the bindings cannot read) gets the
// inverse transpose instead of a new splat.
// CHECK-LABEL: func.func @complex_constant
// CHECK: %[[C:.*]] = stablehlo.constant dense<(1.000000e+00,2.000000e+00)> : tensor<3x2xcomplex<f32>>
// CHECK: %[[T:.*]] = stablehlo.transpose %[[C]], dims = [1, 0]
// CHECK: %[[A:.*]] = stablehlo.add %arg0, %[[T]] : tensor<2x3xcomplex<f32>>
// CHECK: stablehlo.transpose %[[A]], dims = [1, 0]
func.func @complex_constant(%x: tensor<2x3xcomplex<f32>>) -> tensor<3x2xcomplex<f32>> {
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xcomplex<f32>>) -> tensor<3x2xcomplex<f32>>
  %c = stablehlo.constant dense<(1.0,2.0)> : tensor<3x2xcomplex<f32>>
  %a = stablehlo.add %t, %c : tensor<3x2xcomplex<f32>>
  return %a : tensor<3x2xcomplex<f32>>
}

// -----

// Check that reshapes and transposes that move nothing are never moved (algsimp removes them).
// CHECK-LABEL: func.func @nop_rearranges
// CHECK: %[[R:.*]] = stablehlo.reshape %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[T:.*]] = stablehlo.transpose %arg1, dims = [0, 1]
// CHECK: stablehlo.add %[[R]], %[[T]] : tensor<2x3xf32>
func.func @nop_rearranges(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %t = stablehlo.transpose %y, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = stablehlo.add %r, %t : tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}
