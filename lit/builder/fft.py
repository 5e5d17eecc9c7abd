# RUN: %python %s | filecheck %s
"""Builder output of Fft (one TEST per case)."""

from hlo_mlir import Fft, FftType, Parameter, Shape

from harness import test

# CHECK-LABEL: TEST: fft_3d
# CHECK: stablehlo.fft %arg0, type = FFT, length = [2, 3, 4]
# CHECK-SAME: : (tensor<5x2x3x4xcomplex<f32>>) -> tensor<5x2x3x4xcomplex<f32>>
test("fft_3d", lambda b: Fft(Parameter(b, 0, Shape.parse("c64[5,2,3,4]")), FftType.FFT, [2, 3, 4]))

# CHECK-LABEL: TEST: ifft
# CHECK: stablehlo.fft %arg0, type = IFFT, length = [8] : (tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>>
test("ifft", lambda b: Fft(Parameter(b, 0, Shape.parse("c128[8]")), "IFFT", [8]))

# CHECK-LABEL: TEST: rfft_odd
# CHECK: stablehlo.fft %arg0, type = RFFT, length = [4, 7] : (tensor<4x7xf32>) -> tensor<4x4xcomplex<f32>>
test("rfft_odd", lambda b: Fft(Parameter(b, 0, Shape.parse("f32[4,7]")), FftType.RFFT, [4, 7]))

# CHECK-LABEL: TEST: irfft_even
# CHECK: stablehlo.fft %arg0, type = IRFFT, length = [16] : (tensor<2x9xcomplex<f64>>) -> tensor<2x16xf64>
test("irfft_even", lambda b: Fft(Parameter(b, 0, Shape.parse("c128[2,9]")), FftType.IRFFT, [16]))
