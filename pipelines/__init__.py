"""Pass pipelines over StableHLO modules: the registry, pass base classes, presets,
simplifiers and expanders, and the IREE legalizations ``hlo_mlir.compile`` runs."""
