// RUN: %hlo-compile %s -o %t.vmfb
// RUN: not %hlo-run %t.vmfb --input=2x2xf32=1,2,3 2>&1 | filecheck %s --check-prefix=SYNTAX
// RUN: not %hlo-run %t.vmfb --input=2x2xf32=1 --input=2x2xf32=1 2>&1 | filecheck %s --check-prefix=COUNT
// RUN: not %hlo-run %t.vmfb --input=2x2xf32=1 --expected_output=2x2xf32=1,2,3,5 | filecheck %s --check-prefix=MISMATCH
// RUN: %python -c "import sys; p = sys.argv[1]; d = bytearray(open(p, 'rb').read()); d[len(d) // 2] ^= 1; open(p, 'wb').write(bytes(d))" %t.vmfb
// RUN: not %hlo-run %t.vmfb --input=2x2xf32=1 2>&1 | filecheck %s --check-prefix=HASH
// RUN: %python -c "import sys; p = sys.argv[1]; d = open(p, 'rb').read(); open(p, 'wb').write(d[:100])" %t.vmfb
// RUN: rm %t.vmfb.manifest.json
// RUN: not %hlo-run %t.vmfb --input=2x2xf32=1 2>&1 | filecheck %s --check-prefix=TRUNCATED

// Check the error paths: bad --input syntax lists the accepted forms; the input count is
// checked against the signature; a wrong result prints [FAILED] with the first difference;
// a vmfb changed after compiling is refused by its manifest; a truncated one fails to load.
// SYNTAX: hlo-run: error: --input 0 ('2x2xf32=1,2,3'): 3 values for 2x2xf32, which has 4 elements
// SYNTAX-NEXT: accepted forms: 2x2xf32=1,2,3,4 | 2x2xf32=[1 2][3 4] | f32=5
// COUNT: hlo-run: error: main takes 1 input(s) (f32[2,2]) -> (f32[2,2]); got 2 --input flag(s).
// MISMATCH: [FAILED] result[0]: 3 of 4 element(s) differ (atol=0.0001, rtol=1e-05); first at index [0, 1]: expected 2, got 1.
// HASH: hlo-run: error: could not load {{.*}}: vmfb {{.*}} does not match its manifest {{.*}}: SHA-256 of the file is [[ACTUAL:[0-9a-f]+]], the manifest records [[RECORDED:[0-9a-f]+]].
// TRUNCATED: hlo-run: error: could not load {{.*}}: could not load the vmfb: {{.*}}FlatBuffer
func.func @main(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  return %x : tensor<2x2xf32>
}
