// RUN: %exitcode %hlo-opt %s -p dce --verify-each 2>&1 | filecheck %s
// RUN: %hlo-opt %s -p dce | filecheck %s --check-prefix=PLAIN
// RUN: %hlo-opt %s -p dce,hlo-trivial-scheduler,hlo-verifier | filecheck %s --check-prefix=RESCHEDULED

// Check that --verify-each runs hlo-verifier after every pass: dce erases the dead add
// that the stored schedule names, and the error names the pass (exit code 4, like MLIR's
// verifier); without the flag only MLIR's verifier runs and the stale schedule passes,
// and rescheduling after dce makes the schedule valid again.
// CHECK: error: pass 'dce' produced IR that breaks XLA's invariants (hlo-verifier)
// CHECK: 'builtin.module' op the stored schedule (schedule) requires instructions of computation 'main' (not of nested regions); got 'dead'
// CHECK: exit code: 4
// PLAIN: hlo.schedule = {main = ["dead", "live"]}
// RESCHEDULED: hlo.schedule = {main = ["live"]}
module attributes {hlo.schedule = {main = ["dead", "live"]}} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %d = stablehlo.add %x, %x {hlo.name = "dead"} : tensor<4xf32>
    %l = stablehlo.multiply %x, %x {hlo.name = "live"} : tensor<4xf32>
    return %l : tensor<4xf32>
  }
}
