"""CHLO has no Python op classes here: this module only ends the bindings' search (see the package)."""
