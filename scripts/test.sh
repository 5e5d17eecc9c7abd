#!/usr/bin/env bash
# Runs every test: pytest on tests/, lit on lit/, then the static checks configured in
# pyproject.toml: lint-imports (the layer contracts), ruff check . and mypy. Exits non-zero,
# naming the failed steps, if any of them fails.
#
# 1. Installs Mesa's software Vulkan driver (lavapipe) with apt-get when no Vulkan driver
#    is present, so that the @pytest.mark.vulkan tests run (as root, or through
#    passwordless sudo; otherwise it says so and those tests are skipped). On Debian
#    bookworm it takes Mesa 25 from bookworm-backports, also replacing an installed Mesa 22:
#    Mesa 22.3's lavapipe loses the device under load (docs/iree-defects.md).
# 2. Creates or refreshes ./.venv (python3 -m venv; pip install -e '.[test]').
# 3. pytest tests/ on every core (arguments go to pytest instead: -m slow, or a file; -n 0
#    for one process), then lit lit/ -v, then lint-imports, ruff check . and mypy.
set -uo pipefail
cd "$(dirname "$0")/.."

have_vulkan() {  # a loader and at least one driver manifest (ICD)
  compgen -G '/usr/share/vulkan/icd.d/*.json' >/dev/null || compgen -G '/etc/vulkan/icd.d/*.json' >/dev/null \
    || return 1
  ldconfig -p 2>/dev/null | grep 'libvulkan\.so\.1' >/dev/null  # not -q: SIGPIPE under pipefail
}

# Mesa 22's lavapipe returns VK_ERROR_DEVICE_LOST now and then under CPU load with the
# pinned IREE's timeline semaphores (docs/iree-defects.md); Mesa 25 does not.
lavapipe_too_old() {
  local v
  v=$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null) || return 1
  dpkg --compare-versions "$v" lt 23
}

# bookworm-backports carries Mesa 25; other releases get their own Mesa.
backports_suite() {
  [ -r /etc/os-release ] && . /etc/os-release && [ "${ID:-}" = debian ] \
    && [ "${VERSION_CODENAME:-}" = bookworm ] && echo bookworm-backports
}

ensure_vulkan() {
  have_vulkan && ! lavapipe_too_old && return 0
  if ! command -v apt-get >/dev/null 2>&1; then
    have_vulkan && return 0
    echo "note: no Vulkan driver and no apt-get here; Vulkan tests will be skipped" \
         "(install Mesa's mesa-vulkan-drivers and libvulkan1 to run them)"
    return 0
  fi
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then
      sudo="sudo -n"
    else
      have_vulkan && { echo "warning: Mesa's lavapipe is older than 23 (it can lose the device" \
                            "under load) and updating it needs root"; return 0; }
      echo "note: no Vulkan driver, and installing one needs root (no passwordless sudo);" \
           "Vulkan tests will be skipped (run: sudo apt-get install -y mesa-vulkan-drivers libvulkan1)"
      return 0
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  local pkgs=(mesa-vulkan-drivers libvulkan1) suite release=()
  suite=$(backports_suite)
  if [ -n "$suite" ]; then
    echo "deb http://deb.debian.org/debian $suite main" \
      | $sudo tee /etc/apt/sources.list.d/hlo-mlir-backports.list >/dev/null
    release=(-t "$suite")
  fi
  echo "==> installing Mesa's software Vulkan driver (apt-get install ${release[*]} ${pkgs[*]})"
  if [ -n "$suite" ] || ! $sudo apt-get install -y -qq "${pkgs[@]}" >/dev/null 2>&1; then
    $sudo apt-get update -qq >/dev/null 2>&1
    $sudo apt-get install -y -qq "${release[@]}" "${pkgs[@]}" >/dev/null \
      || echo "warning: apt-get could not install ${pkgs[*]}; Vulkan tests will be skipped"
  fi
  lavapipe_too_old && echo "warning: Mesa's lavapipe is still older than 23; Vulkan tests may lose the device"
  return 0
}

ensure_vulkan
source scripts/_venv.sh
ensure_venv '.[test]' || { echo "error: could not set up .venv" >&2; exit 1; }

export OPENBLAS_THREAD_TIMEOUT=1 JAX_PLATFORMS=cpu
export PATH="$PWD/.venv/bin:$PATH"

[ "$#" -eq 0 ] && set -- tests/  # with only options (-m slow), pytest's testpaths is tests/ too
# One worker per core (pytest-xdist), each test file on one worker so that its module
# fixtures and compiles are shared; `-n 0` among the arguments runs in this process.
echo "==> pytest -n auto --dist loadfile $*"
.venv/bin/python -m pytest -n auto --dist loadfile --durations=15 "$@"
pytest_rc=$?
if [ "$pytest_rc" -eq 5 ]; then
  echo "pytest: no tests were collected (exit 5); not a failure, lit still runs"
  pytest_rc=0
fi

echo "==> lit lit/ -v"
.venv/bin/lit lit/ -v
lit_rc=$?

echo "==> lint-imports (layers point down; pyproject.toml [tool.importlinter])"
.venv/bin/lint-imports
imports_rc=$?

echo "==> ruff check . (pyproject.toml [tool.ruff])"
.venv/bin/ruff check .
ruff_rc=$?

echo "==> mypy (pyproject.toml [tool.mypy])"
.venv/bin/mypy
mypy_rc=$?

echo "==> exit status: pytest $pytest_rc, lit $lit_rc, lint-imports $imports_rc, ruff $ruff_rc, mypy $mypy_rc"
failed=()
for step in pytest:$pytest_rc lit:$lit_rc lint-imports:$imports_rc ruff:$ruff_rc mypy:$mypy_rc; do
  [ "${step##*:}" -eq 0 ] || failed+=("${step%:*}")
done
if [ "${#failed[@]}" -ne 0 ]; then
  echo "FAILED: ${failed[*]}"
  exit 1
fi
