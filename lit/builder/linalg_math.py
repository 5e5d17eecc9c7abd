# RUN: %python %s | filecheck %s
"""Builder output of Cholesky and TriangularSolve (one TEST per case)."""

from hlo_mlir import Cholesky, Parameter, Shape, TriangularSolve, TriangularSolveOptions

from harness import test

# CHECK-LABEL: TEST: cholesky_lower
# CHECK: stablehlo.cholesky %arg0, lower = true : tensor<2x3x3xf32>
test("cholesky_lower", lambda b: Cholesky(Parameter(b, 0, Shape.parse("f32[2,3,3]"))))

# CHECK-LABEL: TEST: cholesky_upper_complex
# CHECK: %[[R:.*]] = stablehlo.cholesky %arg0 : tensor<4x4xcomplex<f64>>
# CHECK: return %[[R]]
test("cholesky_upper_complex", lambda b: Cholesky(Parameter(b, 0, Shape.parse("c128[4,4]")), lower=False))

# CHECK-LABEL: TEST: triangular_solve_right_adjoint
# CHECK: "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = false, lower = true,
# CHECK-SAME: transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = true}>
# CHECK-SAME: (tensor<2x3x3xcomplex<f32>>, tensor<2x5x3xcomplex<f32>>) -> tensor<2x5x3xcomplex<f32>>
test("triangular_solve_right_adjoint", lambda b: TriangularSolve(
    Parameter(b, 0, Shape.parse("c64[2,3,3]")), Parameter(b, 1, Shape.parse("c64[2,5,3]")),
    left_side=False, lower=True, unit_diagonal=True, transpose_a=TriangularSolveOptions.Transpose.ADJOINT))

# CHECK-LABEL: TEST: triangular_solve_string_transpose
# CHECK: "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = false,
# CHECK-SAME: transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}>
test("triangular_solve_string_transpose", lambda b: TriangularSolve(
    Parameter(b, 0, Shape.parse("f32[3,3]")), Parameter(b, 1, Shape.parse("f32[3,2]")),
    True, False, False, "TRANSPOSE"))
