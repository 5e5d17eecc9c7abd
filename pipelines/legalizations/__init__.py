"""IREE legalizations: each module registers one pass that rewrites a form the pinned IREE
rejects, crashes on or computes differently from XLA into StableHLO it handles as XLA
does (docs/iree-defects.md). ``hlo_mlir.compile`` runs them in the ``iree-legalize``
preset; ``emulate-replicas``, which changes the entry's signature, runs only when asked."""
