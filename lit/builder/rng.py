# RUN: %python %s | filecheck %s
"""Builder output of dialect_ops.rng: RngUniform, RngNormal, RngBernoulli, RngBitGenerator."""

import numpy as np

from hlo_mlir import (
    ConstantR0,
    Parameter,
    RandomAlgorithm,
    RngBernoulli,
    RngBitGenerator,
    RngNormal,
    RngUniform,
    Shape,
)

from harness import test

# CHECK-LABEL: TEST: uniform_f32
# CHECK: %[[SHAPE:.*]] = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
# CHECK: stablehlo.rng %arg0, %arg1, %[[SHAPE]], distribution = UNIFORM
# CHECK-SAME: : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<2x3xf32>
test("uniform_f32", lambda b: RngUniform(Parameter(b, 0, Shape.parse("f32[]")),
                                         Parameter(b, 1, Shape.parse("f32[]")), Shape.parse("f32[2,3]")))

# CHECK-LABEL: TEST: uniform_s64_scalar
# CHECK: %[[SHAPE:.*]] = stablehlo.constant dense<> : tensor<0xi64>
# CHECK: stablehlo.rng %{{.*}}, %{{.*}}, %[[SHAPE]], distribution = UNIFORM
# CHECK-SAME: : (tensor<i64>, tensor<i64>, tensor<0xi64>) -> tensor<i64>
test("uniform_s64_scalar", lambda b: RngUniform(ConstantR0(b, np.int64(-5)), ConstantR0(b, np.int64(5)),
                                                Shape.parse("s64[]")))

# CHECK-LABEL: TEST: normal_f16
# CHECK: stablehlo.rng %arg0, %arg1, %{{.*}}, distribution = NORMAL
# CHECK-SAME: : (tensor<f16>, tensor<f16>, tensor<1xi64>) -> tensor<5xf16>
test("normal_f16", lambda b: RngNormal(Parameter(b, 0, Shape.parse("f16[]")),
                                       Parameter(b, 1, Shape.parse("f16[]")), Shape.parse("f16[5]")))

# CHECK-LABEL: TEST: bernoulli
# CHECK: %[[U:.*]] = stablehlo.rng %{{.*}}, %{{.*}}, %{{.*}}, distribution = UNIFORM : {{.*}} -> tensor<4xf32>
# CHECK: %[[M:.*]] = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<4xf32>
# CHECK: %[[LT:.*]] = stablehlo.compare LT, %[[U]], %[[M]], FLOAT
# CHECK: stablehlo.convert %[[LT]] : (tensor<4xi1>) -> tensor<4xui32>
test("bernoulli", lambda b: RngBernoulli(Parameter(b, 0, Shape.parse("f32[]")), Shape.parse("u32[4]")))

# CHECK-LABEL: TEST: bit_generator_philox
# CHECK: %[[S:.*]], %[[BITS:.*]] = stablehlo.rng_bit_generator %arg0, algorithm = PHILOX
# CHECK-SAME: : (tensor<3xui64>) -> (tensor<3xui64>, tensor<2x2xui32>)
# CHECK: stablehlo.tuple %[[S]], %[[BITS]] : tuple<tensor<3xui64>, tensor<2x2xui32>>
test("bit_generator_philox", lambda b: RngBitGenerator(RandomAlgorithm.RNG_PHILOX,
                                                       Parameter(b, 0, Shape.parse("u64[3]")),
                                                       Shape.parse("u32[2,2]")))

# CHECK-LABEL: TEST: bit_generator_default_by_name
# CHECK: stablehlo.rng_bit_generator %arg0, algorithm = DEFAULT
# CHECK-SAME: : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xf64>)
test("bit_generator_default_by_name", lambda b: RngBitGenerator("RNG_DEFAULT",
                                                                Parameter(b, 0, Shape.parse("u64[2]")),
                                                                Shape.parse("f64[3]")))
