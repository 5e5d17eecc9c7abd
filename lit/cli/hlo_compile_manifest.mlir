// RUN: rm -f %t.vmfb %t.vmfb.manifest.json
// RUN: %hlo-compile %s -o %t.vmfb -X --iree-opt-level=O2 -v | filecheck %s --check-prefix=WROTE
// RUN: filecheck %s --input-file %t.vmfb.manifest.json --check-prefix=MANIFEST
// RUN: %hlo-run %t.vmfb --input=2x2xf32=1,2,3,4 --input=f32=2 | filecheck %s --check-prefix=OUT

// Check that hlo-compile writes the vmfb and, beside it, a manifest with the SHA-256, the
// target, the full flags (defaults plus -X), the XLA signature and the versions; and
// that hlo-run loads the result (checking the manifest) and runs it.

// WROTE: wrote {{.*}}.vmfb ({{[0-9]+}} bytes) and {{.*}}.vmfb.manifest.json

// MANIFEST: "format": "hlo-mlir.manifest",
// MANIFEST: "sha256": "{{[0-9a-f]+}}",
// MANIFEST: "target": "llvm-cpu",
// MANIFEST: "flags": [
// MANIFEST-NEXT: "--iree-input-type=stablehlo",
// MANIFEST: "--iree-llvmcpu-target-cpu=host",
// MANIFEST-NOT: "--iree-opt-level=O3"
// MANIFEST: "--iree-opt-level=O2"
// MANIFEST: "name": "main",
// MANIFEST-NEXT: "parameters": [
// MANIFEST-NEXT: "f32[2,2]",
// MANIFEST-NEXT: "f32[]"
// MANIFEST: "results": [
// MANIFEST-NEXT: "f32[2,2]"
// MANIFEST: "iree-base-compiler": "3.13.0",
// MANIFEST-NEXT: "iree-base-runtime": "3.13.0",
// MANIFEST: "created": "{{[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z}}",
// MANIFEST: "input": "hlo_compile_manifest.mlir",

// OUT: EXEC @main
// OUT-NEXT: result[0]: hal.buffer_view
// OUT-NEXT: 2x2xf32=[2 4][6 8]
func.func @main(%x: tensor<2x2xf32>, %s: tensor<f32>) -> tensor<2x2xf32> {
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
  %0 = stablehlo.multiply %x, %b : tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
