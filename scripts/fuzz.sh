#!/usr/bin/env bash
# The differential fuzzer: random builder programs compiled by hlo-mlir and compared with
# XLA CPU (docs/fuzzing.md). Arguments go to `python -m tests.fuzz`, e.g.
#   scripts/fuzz.sh --seed 1 --count 200                 a short run
#   scripts/fuzz.sh --seed 7 --count 10000 --jobs 2      the nightly run
#   scripts/fuzz.sh --seed 7 --only 4123                 one program again, printed
# Exit status: 0 no findings, 1 findings (written under --out, default ./fuzz-findings), 2 usage.
set -euo pipefail
export HLO_MLIR_FUZZ_CWD="$PWD"  # a relative --out is the caller's, not the checkout's
cd "$(dirname "$0")/.."
source scripts/_venv.sh
ensure_venv '.[test]'
export OPENBLAS_THREAD_TIMEOUT=1 JAX_PLATFORMS=cpu
PYTHONPATH="$PWD" exec .venv/bin/python -m tests.fuzz "$@"
