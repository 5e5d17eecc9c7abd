"""Command-line tools: hlo-opt, hlo-compile, hlo-run."""
