// RUN: %hlo-opt %s -p hlo-memory-scheduler --split-input-file | filecheck %s
// RUN: %hlo-opt %s -p hlo-memory-scheduler --statistics --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=STATS

// Check that two independent big values are computed and consumed one after the other
// (one f32[1024] live at a time instead of two: 12300 -> 8208 bytes), and that the
// new order is stored as the schedule.
// CHECK-LABEL: module attributes {hlo.schedule = {main = ["constant", "exponential", "reduce", "tanh", "reduce.1"]}}
// CHECK: %[[E:.*]] = stablehlo.exponential %arg0
// CHECK-NEXT: stablehlo.reduce(%[[E]]
// CHECK-NEXT: %[[T:.*]] = stablehlo.tanh %arg0
// CHECK-NEXT: stablehlo.reduce(%[[T]]
// STATS: hlo-memory-scheduler
// STATS: (S) 1 blocks-reordered
// STATS: (S) 8208 peak-bytes-after
// STATS: (S) 12300 peak-bytes-before
func.func @main(%x: tensor<1024xf32>) -> (tensor<f32>, tensor<f32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %a = stablehlo.exponential %x : tensor<1024xf32>
  %b = stablehlo.tanh %x : tensor<1024xf32>
  %s = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<1024xf32>, tensor<f32>) -> tensor<f32>
  %t = stablehlo.reduce(%b init: %z) applies stablehlo.add across dimensions = [0] : (tensor<1024xf32>, tensor<f32>) -> tensor<f32>
  return %s, %t : tensor<f32>, tensor<f32>
}

// -----

// Check that side-effecting ops keep their order even where swapping them would free
// memory earlier ...
// CHECK-LABEL: func.func @effects
// CHECK: stablehlo.custom_call @first
// CHECK: stablehlo.custom_call @second
func.func @effects(%x: tensor<1024xf32>, %y: tensor<4xf32>) -> (tensor<1024xf32>, tensor<4xf32>) {
  %big = stablehlo.exponential %x : tensor<1024xf32>
  %a = stablehlo.custom_call @first(%y) {has_side_effect = true} : (tensor<4xf32>) -> tensor<1024xf32>
  %b = stablehlo.custom_call @second(%big) {has_side_effect = true} : (tensor<1024xf32>) -> tensor<4xf32>
  return %a, %b : tensor<1024xf32>, tensor<4xf32>
}

// -----

// ... and that the same ops without side effects are swapped: %big dies before the
// second big buffer is defined.
// CHECK-LABEL: func.func @no_effects
// CHECK: stablehlo.custom_call @second
// CHECK: stablehlo.custom_call @first
func.func @no_effects(%x: tensor<1024xf32>, %y: tensor<4xf32>) -> (tensor<1024xf32>, tensor<4xf32>) {
  %big = stablehlo.exponential %x : tensor<1024xf32>
  %a = stablehlo.custom_call @first(%y) : (tensor<4xf32>) -> tensor<1024xf32>
  %b = stablehlo.custom_call @second(%big) : (tensor<1024xf32>) -> tensor<4xf32>
  return %a, %b : tensor<1024xf32>, tensor<4xf32>
}

// -----

// Check that a chain that is already best keeps its order (only the schedule is added),
// and that ops inside a region are ordered within it.
// CHECK-LABEL: module attributes {hlo.schedule = {chain = ["negate", "while"]}}
// CHECK: stablehlo.negate
// CHECK: stablehlo.while
// CHECK: stablehlo.exponential
// CHECK-NEXT: stablehlo.reduce
// CHECK-NEXT: stablehlo.sine
// CHECK-NEXT: stablehlo.reduce
func.func @chain(%x: tensor<256xf32>) -> tensor<256xf32> {
  %n = stablehlo.negate %x : tensor<256xf32>
  %r = stablehlo.while(%it = %n) : tensor<256xf32>
    cond {
      %z = stablehlo.constant dense<0.0> : tensor<f32>
      %e = stablehlo.exponential %it : tensor<256xf32>
      %s = stablehlo.sine %it : tensor<256xf32>
      %se = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [0] : (tensor<256xf32>, tensor<f32>) -> tensor<f32>
      %ss = stablehlo.reduce(%s init: %z) applies stablehlo.add across dimensions = [0] : (tensor<256xf32>, tensor<f32>) -> tensor<f32>
      %c = stablehlo.compare LT, %se, %ss : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %m = stablehlo.multiply %it, %it : tensor<256xf32>
      stablehlo.return %m : tensor<256xf32>
    }
  return %r : tensor<256xf32>
}
