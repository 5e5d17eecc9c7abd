// RUN: %hlo-opt %s -p complex-source-barriers --split-input-file | filecheck %s

// Check that a dot result converted to complex is read through a barrier.
// CHECK-LABEL: func.func @convert_of_dot
// CHECK: %[[D:.*]] = stablehlo.dot_general %arg0, %arg1
// CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %[[D]] : tensor<8x2xf32>
// CHECK-NEXT: %[[C:.*]] = stablehlo.convert %[[B]] : (tensor<8x2xf32>) -> tensor<8x2xcomplex<f32>>
// CHECK-NEXT: return %[[C]]
func.func @convert_of_dot(%a: tensor<8x2xf32>, %b: tensor<2x2xf32>) -> tensor<8x2xcomplex<f32>> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x2xf32>, tensor<2x2xf32>) -> tensor<8x2xf32>
  %1 = stablehlo.convert %0 : (tensor<8x2xf32>) -> tensor<8x2xcomplex<f32>>
  return %1 : tensor<8x2xcomplex<f32>>
}

// -----

// Check that a convolution result reached through element-wise and layout ops is fenced
// where it becomes complex, and that the real operand from a parameter is not.
// CHECK-LABEL: func.func @complex_of_convolution
// CHECK: %[[E:.*]] = stablehlo.exponential
// CHECK-NEXT: %[[T:.*]] = stablehlo.transpose %[[E]]
// CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %[[T]] : tensor<1x2x1xf32>
// CHECK-NEXT: %[[C:.*]] = stablehlo.complex %[[B]], %arg2 : tensor<1x2x1xcomplex<f32>>
// CHECK-NEXT: return %[[C]]
func.func @complex_of_convolution(%x: tensor<2x2x1xf32>, %w: tensor<1x1x3xf32>, %y: tensor<1x2x1xf32>) -> tensor<1x2x1xcomplex<f32>> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [0, b, f]x[o, i, 0]->[f, b, 0], window = {stride = [2], pad = [[0, 1]], lhs_dilate = [1], rhs_dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x2x1xf32>, tensor<1x1x3xf32>) -> tensor<1x2x1xf32>
  %1 = stablehlo.exponential %0 : tensor<1x2x1xf32>
  %2 = stablehlo.transpose %1, dims = [2, 1, 0] : (tensor<1x2x1xf32>) -> tensor<1x2x1xf32>
  %3 = stablehlo.complex %2, %y : tensor<1x2x1xcomplex<f32>>
  return %3 : tensor<1x2x1xcomplex<f32>>
}

// -----

// Check that the real constants a complex value is made of are read through barriers,
// a complex iota is fenced itself, and a second run adds nothing.
// RUN: %hlo-opt %s -p complex-source-barriers,complex-source-barriers --split-input-file | filecheck %s --check-prefix=TWICE
// CHECK-LABEL: func.func @constants
// CHECK-DAG: %[[RE:.*]] = stablehlo.constant dense<[5.000000e-01, 4.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[IM:.*]] = stablehlo.constant dense<[-2.500000e+00, 1.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[BRE:.*]] = stablehlo.optimization_barrier %[[RE]] : tensor<2xf32>
// CHECK-DAG: %[[BIM:.*]] = stablehlo.optimization_barrier %[[IM]] : tensor<2xf32>
// CHECK: %[[C:.*]] = stablehlo.complex %[[BRE]], %[[BIM]] : tensor<2xcomplex<f32>>
// CHECK: %[[I:.*]] = stablehlo.iota dim = 0 : tensor<2xcomplex<f32>>
// CHECK-NEXT: %[[BI:.*]] = stablehlo.optimization_barrier %[[I]] : tensor<2xcomplex<f32>>
// CHECK: stablehlo.add %{{.*}}, %[[BI]]
// TWICE-LABEL: func.func @constants
// TWICE-COUNT-3: stablehlo.optimization_barrier
// TWICE-NOT: stablehlo.optimization_barrier
// TWICE: return
func.func @constants() -> tensor<2xcomplex<f32>> {
  %re = stablehlo.constant dense<[5.000000e-01, 4.000000e+00]> : tensor<2xf32>
  %im = stablehlo.constant dense<[-2.500000e+00, 1.000000e+00]> : tensor<2xf32>
  %0 = stablehlo.complex %re, %im : tensor<2xcomplex<f32>>
  %1 = stablehlo.sqrt %0 : tensor<2xcomplex<f32>>
  %i = stablehlo.iota dim = 0 : tensor<2xcomplex<f32>>
  %2 = stablehlo.add %1, %i : tensor<2xcomplex<f32>>
  return %2 : tensor<2xcomplex<f32>>
}

// -----

// Check that complex values made from parameters (also through a real op, or a reduce of
// a dot), complex values of complex ones and real dots are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: stablehlo.optimization_barrier
// CHECK: return
func.func @left_alone(%a: tensor<4xf32>, %b: tensor<4x4xf32>, %c: tensor<4xcomplex<f32>>) -> (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>, tensor<4xf32>) {
  %0 = stablehlo.exponential %a : tensor<4xf32>
  %1 = stablehlo.convert %0 : (tensor<4xf32>) -> tensor<4xcomplex<f32>>
  %2 = stablehlo.negate %c : tensor<4xcomplex<f32>>
  %d = stablehlo.dot_general %b, %b, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %r = stablehlo.reduce(%d init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
  %3 = stablehlo.complex %r, %a : tensor<4xcomplex<f32>>
  %4 = stablehlo.add %a, %r : tensor<4xf32>
  return %1, %2, %3, %4 : tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>, tensor<4xf32>
}

// -----

// Check that a complex-making op in a map body (a scalar computation) is left alone: IREE
// cannot bufferize a barrier there.
// CHECK-LABEL: func.func @map_body
// CHECK-NOT: stablehlo.optimization_barrier
func.func @map_body(%p: tensor<5xi1>) -> tensor<5xcomplex<f32>> {
  %0 = "stablehlo.map"(%p) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<i1>):
    %c = stablehlo.constant dense<7> : tensor<i32>
    %z = stablehlo.convert %c : (tensor<i32>) -> tensor<complex<f32>>
    stablehlo.return %z : tensor<complex<f32>>
  }) : (tensor<5xi1>) -> tensor<5xcomplex<f32>>
  return %0 : tensor<5xcomplex<f32>>
}
