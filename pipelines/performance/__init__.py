"""Performance rewrites: each module registers one pass that keeps the values and changes
how the pinned IREE computes them, where its own lowering is measurably slow
(docs/performance.md). ``hlo_mlir.compile`` runs them in the ``iree-legalize`` preset."""
