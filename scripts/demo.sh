#!/usr/bin/env bash
# Sets up ./.venv (python3 -m venv; pip install -e .) and runs the demo:
# build an MLP and a reduction with the XLA builder API, compile with IREE, run, compare
# with numpy. Extra arguments go to the demo (e.g. --seed 3 --driver local-sync).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_venv.sh
ensure_venv .
exec .venv/bin/python -m hlo_mlir.demo "$@"
