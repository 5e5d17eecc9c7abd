"""Expander passes (XLA ``OpExpanderPass`` subclasses): each module registers one pass that
rewrites ops the backend lacks into simpler StableHLO."""
