// Check mlir-opt's spellings: --mlir-print-ir-before=/--mlir-print-ir-after= with pass names
// (aliases too), --mlir-print-ir-after-all with --mlir-print-ir-after-change, --mlir-timing,
// --mlir-pass-statistics, and --emit-bytecode read back through stdin.
// RUN: %hlo-opt %s -p algsimp,dce --mlir-print-ir-before=hlo-dce --mlir-print-ir-after=algebraic-simplifier \
// RUN:   2>&1 >/dev/null | filecheck %s --check-prefix=NAMED
// NAMED: // -----// IR Dump After algsimp //----- //
// NAMED-NEXT: module {
// NAMED: // -----// IR Dump Before dce //----- //
// NAMED-NOT: IR Dump

// RUN: %hlo-opt %s -p algsimp,dce --mlir-print-ir-after-all --mlir-print-ir-after-change 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=CHANGED
// CHANGED: IR Dump After algsimp
// CHANGED-NOT: IR Dump After dce

// RUN: %hlo-opt %s -p algsimp --mlir-timing --mlir-pass-statistics 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=REPORT
// REPORT: Pass execution timing report
// REPORT: Pass statistics report
// REPORT: algsimp
// REPORT-NEXT: (S) 1 involution

// RUN: %hlo-opt %s -p algsimp --emit-bytecode -o %t.mlirbc
// RUN: %hlo-opt - < %t.mlirbc | filecheck %s --check-prefix=OUT
// RUN: %hlo-opt %s --emit-bytecode | %hlo-opt -p algsimp | filecheck %s --check-prefix=OUT
// OUT-LABEL: func.func @main
// OUT-NEXT: return %arg0

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %x : tensor<4xf32>
  %1 = stablehlo.negate %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
