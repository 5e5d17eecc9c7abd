// Check that --list-passes shows every pass with its summary, aliases and options, the presets and groups.
// RUN: %hlo-opt --list-passes | filecheck %s
// CHECK: Passes:
// CHECK: algsimp {{ +}}Algebraic simplification{{.*}} (also: algebraic-simplifier)
// CHECK-NEXT: max-iterations=int (default 10)
// CHECK: constant-folding {{ +}}Constant folding
// CHECK: max-elements=int (default 65536)
// CHECK: cse {{ +}}Common-subexpression elimination
// CHECK: dce {{ +}}Dead-code elimination{{.*}} (also: hlo-dce)
// CHECK: Presets:
// CHECK: O0
// CHECK: O1
// CHECK: O2 {{.*}}: inline,map-inliner,zero-sized-hlo-elimination,fixed-point{max-iterations=8}(algsimp,constant-folding,cse,dce,conditional-simplifier,{{.*}},tree-reduction-rewriter)
// CHECK: cpu {{.*}}: O2,transpose-folding,dce
// CHECK: gpu {{.*}}: O2,transpose-folding,conditional-to-select,
// CHECK: Groups:
// CHECK: fixed-point{max-iterations=N}(...)
