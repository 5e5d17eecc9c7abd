"""Pass pipelines over StableHLO modules: the registry, pass base classes, presets, and the
passes, one folder per kind: ``simplifiers``, ``expanders`` (XLA's op expanders),
``legalizations`` (what the pinned IREE needs to compute XLA's answers), ``performance``
and ``analyses``; helpers shared by passes (``matchers``, ``regions``, ``values``,
``index_bounds``, ``sort_regions``) sit beside them."""
