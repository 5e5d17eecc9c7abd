"""Op-class modules for the dialects IREE's Python bindings have none for.

Whenever the MLIR bindings wrap an operation they import ``<prefix>.<dialect>`` (for
``stablehlo.add``: ``iree.compiler.dialects.stablehlo``) to find its op class, and they
remember only a module they found. IREE ships no StableHLO or CHLO op classes
(ARCHITECTURE.md, decision 2), so each wrap retried both failing imports: 4x the pass
pipelines' time. ``hlo_mlir.context.register_dialect_modules`` adds this package to the
bindings' search prefixes, after IREE's: the bindings find these modules once and stop
searching, and a module IREE may ship one day comes first. They define no op classes, so
ops of these dialects stay generic ``OpView`` objects.
"""
