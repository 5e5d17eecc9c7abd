#!/usr/bin/env bash
# Runs every benchmark (runtime suite vs XLA CPU, compile times, pipeline scaling) and
# regenerates the tables in docs/performance.md. Arguments go to `python -m benchmarks`
# (e.g. --quick, --only matmul_f32_2048,tiny_add, --parts suite).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_venv.sh
ensure_venv '.[test]'
export OPENBLAS_THREAD_TIMEOUT=1 JAX_PLATFORMS=cpu
PYTHONPATH="$PWD" exec .venv/bin/python -m benchmarks --write-docs "$@"
