// RUN: %hlo-compile %s -o %t.vmfb -p cse,dce
// RUN: filecheck %s --input-file %t.vmfb.manifest.json --check-prefix=MANIFEST
// RUN: %hlo-run %t.vmfb --input=3xi32=1,2,3 --output=- --expected_output=3xi32=4,8,12 | filecheck %s
// RUN: not %hlo-compile %s -o %t.bad.vmfb -p no-such-pass 2>&1 | filecheck %s --check-prefix=UNKNOWN

// Check that -p runs a pass pipeline before compiling, records it in the manifest, and
// that the compiled program computes the same numbers; an unknown pass lists the known ones.
// MANIFEST: "passes": "cse,dce"
// CHECK: 3xi32=4 8 12
// CHECK: [SUCCESS] all function outputs matched their expected values.
// UNKNOWN: hlo-compile: error: {{.*}}unknown pass 'no-such-pass'; valid passes: {{.*}}cse
func.func @main(%x: tensor<3xi32>) -> tensor<3xi32> {
  %0 = stablehlo.add %x, %x : tensor<3xi32>
  %1 = stablehlo.add %x, %x : tensor<3xi32>
  %dead = stablehlo.multiply %x, %x : tensor<3xi32>
  %2 = stablehlo.add %0, %1 : tensor<3xi32>
  return %2 : tensor<3xi32>
}
