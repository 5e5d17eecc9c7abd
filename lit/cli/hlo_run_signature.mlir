// RUN: %hlo-compile %s -o %t.vmfb
// RUN: %exitcode %hlo-run %t.vmfb --input=100000000000xf32=1 2>&1 | filecheck %s --check-prefix=HUGE
// RUN: %exitcode %hlo-run %t.vmfb --input=99999999999x99999999999xf32=1 2>&1 | filecheck %s --check-prefix=OVERFLOW
// RUN: %exitcode %hlo-run %t.vmfb --input=4xi32=1 2>&1 | filecheck %s --check-prefix=TYPE
// RUN: %exitcode %hlo-run %t.vmfb --input=4xf32=1 --expected_output=100000000000xf32=1 2>&1 | filecheck %s --check-prefix=EXPECTED

// Check that each --input is checked against the signature before its values are read
// or allocated (a huge shape is a usage error, exit code 2, not a MemoryError), and that
// an expected output of another shape fails without being read.
// HUGE: hlo-run: error: --input 0 ('100000000000xf32=1'): main: argument 0: expected f32[4]; got f32[100000000000].
// HUGE-NEXT: exit code: 2
// OVERFLOW: hlo-run: error: --input 0 ('99999999999x99999999999xf32=1'): main: argument 0: expected f32[4]; got f32[99999999999,99999999999].
// OVERFLOW-NEXT: exit code: 2
// TYPE: main: argument 0: expected f32[4]; got s32[4].
// TYPE-NEXT: exit code: 2
// EXPECTED: [FAILED] result[0]: expected 100000000000xf32, got 4xf32.
// EXPECTED: exit code: 1
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
