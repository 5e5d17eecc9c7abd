// Check -o (output written only on success), stdin input, --print-ir-after-change, --timing,
// --statistics and --mlir-print-debuginfo.
// RUN: %hlo-opt %s -p algsimp,dce -o %t.mlir && filecheck %s --check-prefix=OUT < %t.mlir
// OUT-LABEL: func.func @main
// OUT-NEXT: return %arg0

// RUN: %hlo-opt - -p algsimp < %s | filecheck %s --check-prefix=OUT

// RUN: %hlo-opt %s -p algsimp,dce --print-ir-after-change 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// AFTER: // -----// IR Dump After algsimp //----- //
// AFTER-NOT: IR Dump After dce

// RUN: %hlo-opt %s -p "fixed-point{max-iterations=3}(algsimp,dce)" --timing --statistics 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=REPORT
// REPORT: Pass execution timing report
// REPORT: algsimp
// REPORT: Total
// REPORT: Pass statistics report
// REPORT: algsimp
// REPORT-NEXT: (S) 1 involution

// RUN: %hlo-opt %s --mlir-print-debuginfo | filecheck %s --check-prefix=LOC
// LOC: loc(

// RUN: not %hlo-opt %s -p nosuchpass -o %t.unwritten.mlir
// RUN: not test -e %t.unwritten.mlir

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %x : tensor<4xf32>
  %1 = stablehlo.negate %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
