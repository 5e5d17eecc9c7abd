"""Analyses: passes and functions that read a module and change nothing (checks, and what
a module needs from the compiler, e.g. ``libm_flags.required_flags``)."""
