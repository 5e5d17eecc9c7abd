// RUN: %hlo-opt %s -p float-to-int-saturation --split-input-file | filecheck %s

// Check that f32 -> i32 compares with -2^31 and 2^31 (2^31 - 1 is not an f32), converts only
// in-range values (NaN reads 0) and selects MIN and MAX for the rest.
// CHECK-LABEL: func.func @f32_to_i32
// CHECK-DAG: %[[LOC:.*]] = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
// CHECK-DAG: %[[HIC:.*]] = stablehlo.constant dense<2.14748365E+9> : tensor<f32>
// CHECK-DAG: %[[LO:.*]] = stablehlo.broadcast_in_dim %[[LOC]], dims = []
// CHECK-DAG: %[[HI:.*]] = stablehlo.broadcast_in_dim %[[HIC]], dims = []
// CHECK: %[[GT:.*]] = stablehlo.compare GT, %arg0, %[[LO]], FLOAT
// CHECK: %[[LT:.*]] = stablehlo.compare LT, %arg0, %[[HI]], FLOAT
// CHECK: %[[IN:.*]] = stablehlo.and %[[GT]], %[[LT]]
// CHECK: %[[SAFE:.*]] = stablehlo.select %[[IN]], %arg0, %{{.*}} : tensor<3xi1>, tensor<3xf32>
// CHECK: %[[C:.*]] = stablehlo.convert %[[SAFE]] {hlo_mlir.in_bounds} : (tensor<3xf32>) -> tensor<3xi32>
// CHECK: %[[LE:.*]] = stablehlo.compare LE, %arg0, %[[LO]], FLOAT
// CHECK: stablehlo.constant dense<-2147483648> : tensor<i32>
// CHECK: %[[S1:.*]] = stablehlo.select %[[LE]], %{{.*}}, %[[C]]
// CHECK: %[[GE:.*]] = stablehlo.compare GE, %arg0, %[[HI]], FLOAT
// CHECK: stablehlo.constant dense<2147483647> : tensor<i32>
// CHECK: %[[R:.*]] = stablehlo.select %[[GE]], %{{.*}}, %[[S1]]
// CHECK: return %[[R]]
func.func @f32_to_i32(%x: tensor<3xf32>) -> tensor<3xi32> {
  %0 = stablehlo.convert %x : (tensor<3xf32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// Check that a bound beyond the source type's range becomes inf (f16 against 2^64), and
// that unsigned types saturate at 0.
// CHECK-LABEL: func.func @f16_to_ui64
// CHECK-DAG: stablehlo.constant dense<0.000000e+00> : tensor<f16>
// CHECK-DAG: stablehlo.constant dense<0x7C00> : tensor<f16>
// CHECK: stablehlo.convert %{{.*}} {hlo_mlir.in_bounds} : (tensor<2xf16>) -> tensor<2xui64>
// CHECK: stablehlo.constant dense<0> : tensor<ui64>
// CHECK: stablehlo.constant dense<18446744073709551615> : tensor<ui64>
func.func @f16_to_ui64(%x: tensor<2xf16>) -> tensor<2xui64> {
  %0 = stablehlo.convert %x : (tensor<2xf16>) -> tensor<2xui64>
  return %0 : tensor<2xui64>
}

// -----

// Check that bf16 -> i8 uses -128 and 128.
// CHECK-LABEL: func.func @bf16_to_i8
// CHECK-DAG: stablehlo.constant dense<-1.280000e+02> : tensor<bf16>
// CHECK-DAG: stablehlo.constant dense<1.280000e+02> : tensor<bf16>
// CHECK: stablehlo.convert %{{.*}} {hlo_mlir.in_bounds} : (tensor<4xbf16>) -> tensor<4xi8>
// CHECK: stablehlo.constant dense<-128> : tensor<i8>
// CHECK: stablehlo.constant dense<127> : tensor<i8>
func.func @bf16_to_i8(%x: tensor<4xbf16>) -> tensor<4xi8> {
  %0 = stablehlo.convert %x : (tensor<4xbf16>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// Check that other converts are left alone: int -> float, float -> PRED, float -> float,
// int -> int, a convert this pass already guarded, and quantized element types.
// CHECK-LABEL: func.func @not_float_to_int
// CHECK-NOT: stablehlo.select
// CHECK-NOT: stablehlo.compare
// CHECK: stablehlo.convert %arg1 : (tensor<2xi32>) -> tensor<2xf32>
// CHECK: stablehlo.convert %arg0 : (tensor<2xf32>) -> tensor<2xi1>
// CHECK: stablehlo.convert %arg0 : (tensor<2xf32>) -> tensor<2xf64>
// CHECK: stablehlo.convert %arg1 : (tensor<2xi32>) -> tensor<2xi8>
// CHECK: stablehlo.convert %arg0 {hlo_mlir.in_bounds} : (tensor<2xf32>) -> tensor<2xi16>
// CHECK: stablehlo.uniform_quantize %arg0
func.func @not_float_to_int(%x: tensor<2xf32>, %i: tensor<2xi32>) -> (tensor<2xf32>, tensor<2xi1>, tensor<2xf64>, tensor<2xi8>, tensor<2xi16>, tensor<2x!quant.uniform<i8:f32, 0.5>>) {
  %0 = stablehlo.convert %i : (tensor<2xi32>) -> tensor<2xf32>
  %1 = stablehlo.convert %x : (tensor<2xf32>) -> tensor<2xi1>
  %2 = stablehlo.convert %x : (tensor<2xf32>) -> tensor<2xf64>
  %3 = stablehlo.convert %i : (tensor<2xi32>) -> tensor<2xi8>
  %4 = stablehlo.convert %x {hlo_mlir.in_bounds} : (tensor<2xf32>) -> tensor<2xi16>
  %5 = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.5>>
  return %0, %1, %2, %3, %4, %5 : tensor<2xf32>, tensor<2xi1>, tensor<2xf64>, tensor<2xi8>, tensor<2xi16>, tensor<2x!quant.uniform<i8:f32, 0.5>>
}
