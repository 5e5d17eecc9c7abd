// RUN: rm -f %t.vmfb
// RUN: %exitcode %hlo-compile %s -o %t.vmfb 2>&1 | filecheck %s
// RUN: %exitcode %hlo-run %s 2>&1 | filecheck %s --check-prefix=RUNNER
// RUN: not %python -c "import os, sys; sys.exit(not os.path.exists(sys.argv[1]))" %t.vmfb

// Check that an input without a function (this file has only comments) is an input
// error of the tools, exit code 3, not an IREE failure to write the vmfb, and that no
// output file is left behind.
// CHECK: hlo-compile: error: {{.*}}hlo_compile_no_function.mlir: the module has no public function to compile (is the input empty?).
// CHECK: exit code: 3
// RUNNER: hlo-run: error: {{.*}}hlo_compile_no_function.mlir: the module has no public function to compile
// RUNNER: exit code: 3
