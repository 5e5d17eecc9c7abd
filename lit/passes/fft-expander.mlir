// RUN: %hlo-opt %s -p fft-expander --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p "fft-expander{max-direct-length=2}" --split-input-file | filecheck %s --check-prefix=SPLIT

// Check that a 2-axis FFT becomes a DFT product along the innermost axis (length 6 is not a
// power of two: real and imaginary parts times cos/sin matrices) and a native 1-D FFT of
// length 4 along the other axis, moved last by transposes.
// CHECK-LABEL: func.func @two_axes
// CHECK: %[[RE:.*]] = stablehlo.real %arg0
// CHECK: %[[IM:.*]] = stablehlo.imag %arg0
// CHECK: %[[COS:.*]] = stablehlo.constant dense<{{\[\[}}1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00], [1.000000e+00, 5.000000e-01
// CHECK: stablehlo.dot_general %[[RE]], %[[COS]], contracting_dims = [2] x [0] : (tensor<2x4x6xf32>, tensor<6x6xf32>) -> tensor<2x4x6xf32>
// CHECK: %[[B:.*]]:2 = stablehlo.optimization_barrier
// CHECK: %[[C:.*]] = stablehlo.complex %[[B]]#0, %[[B]]#1 : tensor<2x4x6xcomplex<f32>>
// CHECK: %[[T:.*]] = stablehlo.transpose %[[C]], dims = [0, 2, 1]
// CHECK: %[[F:.*]] = stablehlo.fft %[[T]], type = FFT, length = [4] : (tensor<2x6x4xcomplex<f32>>) -> tensor<2x6x4xcomplex<f32>>
// CHECK: %[[R:.*]] = stablehlo.transpose %[[F]], dims = [0, 2, 1]
// CHECK: return %[[R]]
// SPLIT-LABEL: func.func @two_axes
// SPLIT: stablehlo.reshape %arg0 : (tensor<2x4x6xcomplex<f32>>) -> tensor<2x4x2x3xcomplex<f32>>
// SPLIT: stablehlo.fft %{{.*}}, type = FFT, length = [2] : (tensor<2x4x3x2xcomplex<f32>>)
// SPLIT: stablehlo.reshape %{{.*}} : (tensor<2x4x3x2xcomplex<f32>>) -> tensor<2x4x6xcomplex<f32>>
// SPLIT: stablehlo.fft %{{.*}}, type = FFT, length = [4] : (tensor<2x6x4xcomplex<f32>>)
func.func @two_axes(%x: tensor<2x4x6xcomplex<f32>>) -> tensor<2x4x6xcomplex<f32>> {
  %r = stablehlo.fft %x, type = FFT, length = [4, 6] : (tensor<2x4x6xcomplex<f32>>) -> tensor<2x4x6xcomplex<f32>>
  return %r : tensor<2x4x6xcomplex<f32>>
}

// -----

// Check that an f64 IRFFT (IREE fails on f64 transforms) is one product per part with the
// real-output matrices: weights 1/n for DC and Nyquist, 2/n for the others.
// CHECK-LABEL: func.func @irfft_f64
// CHECK-NOT: stablehlo.fft
// CHECK: %[[RE:.*]] = stablehlo.real %arg0
// CHECK: %[[IM:.*]] = stablehlo.imag %arg0
// CHECK: %[[A:.*]] = stablehlo.constant dense<{{\[\[}}2.500000e-01, 2.500000e-01, 2.500000e-01, 2.500000e-01], [5.000000e-01
// CHECK: %[[X:.*]] = stablehlo.dot_general %[[RE]], %[[A]], contracting_dims = [1] x [0] : (tensor<2x3xf64>, tensor<3x4xf64>) -> tensor<2x4xf64>
// CHECK: %[[Y:.*]] = stablehlo.dot_general %[[IM]]
// CHECK: %[[S:.*]] = stablehlo.add %[[X]], %[[Y]]
// CHECK: return %[[S]]
// SPLIT-LABEL: func.func @irfft_f64
// SPLIT: stablehlo.reverse
// SPLIT: stablehlo.concatenate %arg0
// SPLIT: %[[R:.*]] = stablehlo.real %{{.*}} : (tensor<2x4xcomplex<f64>>) -> tensor<2x4xf64>
// SPLIT-NEXT: return %[[R]]
func.func @irfft_f64(%x: tensor<2x3xcomplex<f64>>) -> tensor<2x4xf64> {
  %r = stablehlo.fft %x, type = IRFFT, length = [4] : (tensor<2x3xcomplex<f64>>) -> tensor<2x4xf64>
  return %r : tensor<2x4xf64>
}

// -----

// Check that an RFFT over an empty batch is a zero constant.
// CHECK-LABEL: func.func @empty
// CHECK: %[[Z:.*]] = stablehlo.broadcast_in_dim %{{.*}}, dims = [] : (tensor<f32>) -> tensor<0x5xf32>
// CHECK: %[[C:.*]] = stablehlo.complex %[[Z]], %[[Z]]
// CHECK: return %[[C]]
func.func @empty(%x: tensor<0x8xf32>) -> tensor<0x5xcomplex<f32>> {
  %r = stablehlo.fft %x, type = RFFT, length = [8] : (tensor<0x8xf32>) -> tensor<0x5xcomplex<f32>>
  return %r : tensor<0x5xcomplex<f32>>
}

// -----

// Check that a 1-D power-of-two transform over f32 / complex<f32>, which IREE compiles, stays.
// CHECK-LABEL: func.func @native
// CHECK-NEXT: stablehlo.fft %arg0, type = RFFT, length = [16]
// CHECK-NEXT: return
func.func @native(%x: tensor<3x16xf32>) -> tensor<3x9xcomplex<f32>> {
  %r = stablehlo.fft %x, type = RFFT, length = [16] : (tensor<3x16xf32>) -> tensor<3x9xcomplex<f32>>
  return %r : tensor<3x9xcomplex<f32>>
}
