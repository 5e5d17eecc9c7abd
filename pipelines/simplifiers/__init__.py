"""Simplifier passes (XLA ``xla/hlo/transforms/simplifiers``): each module registers one pass."""
