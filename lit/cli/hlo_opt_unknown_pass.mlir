// Check that an unknown pass name fails with usage exit code 2 and lists the valid passes and presets.
// RUN: %exitcode %hlo-opt %s -p algsimp,nosuchpass 2>&1 | filecheck %s
// CHECK: hlo-opt: error: pipeline spec 'algsimp,nosuchpass' (at offset 18): unknown pass 'nosuchpass'
// CHECK-SAME: valid passes: algsimp, {{.*}}constant-folding, {{.*}}cse, {{.*}}dce
// CHECK-SAME: presets: O0, O1, O2
// CHECK: exit code: 2

// Check that a mistyped pass name ends with the closest valid name.
// RUN: %exitcode %hlo-opt %s -p cse,algsmp 2>&1 | filecheck %s --check-prefix=SUGGEST
// SUGGEST: hlo-opt: error: pipeline spec 'cse,algsmp' (at offset 10): unknown pass 'algsmp'; valid passes:
// SUGGEST-SAME: ; did you mean 'algsimp'?
// SUGGEST-NEXT: exit code: 2

// Check that a bad option name lists the valid options, and a bad value names the expected type.
// RUN: not %hlo-opt %s -p "algsimp{max-iter=3}" 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION: pass 'algsimp' has no option 'max-iter'; valid options: max-iterations; did you mean 'max-iterations'?
// RUN: not %hlo-opt %s -p "constant-folding{max-elements=many}" 2>&1 | filecheck %s --check-prefix=VALUE
// VALUE: option 'max-elements' of pass 'constant-folding' requires an integer; got 'many'.

// Check that a malformed fixed-point group is a usage error.
// RUN: %exitcode %hlo-opt %s -p "fixed-point{max-iterations=2}(algsimp" 2>&1 | filecheck %s --check-prefix=GROUP
// GROUP: error: pipeline spec
// GROUP: exit code: 2

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
