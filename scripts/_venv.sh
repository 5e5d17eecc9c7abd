# Sourced by scripts/demo.sh and scripts/test.sh: creates or refreshes ./.venv.
#
#   ensure_venv SPEC    e.g. ensure_venv . or ensure_venv '.[test]'
#
# The venv is made with `python3 -m venv`; `pip install -e SPEC` runs again only when
# pyproject.toml or SPEC changed since the last successful install (a stamp file in
# .venv records both), so a second run starts in seconds.

ensure_venv() {
  local spec="$1" venv=".venv"
  if ! "$venv/bin/python" -c "import sys" >/dev/null 2>&1; then
    echo "==> creating $venv with $(command -v python3) ($(python3 --version 2>&1))"
    rm -rf "$venv"
    python3 -m venv "$venv" || { echo "error: 'python3 -m venv' failed (on Debian: apt-get install python3-venv)" >&2; return 1; }
  fi
  local stamp="$venv/.hlo-mlir-installed${spec//[^a-z]/_}" want
  want="$(cat pyproject.toml; echo "spec=$spec")"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    return 0
  fi
  echo "==> installing hlo-mlir ($spec) into $venv (first time: a few minutes)"
  export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_PROGRESS_BAR=off
  "$venv/bin/python" -m pip install -q --upgrade pip || return 1
  "$venv/bin/python" -m pip install -q -e "$spec" || return 1
  printf '%s' "$want" > "$stamp"
}
