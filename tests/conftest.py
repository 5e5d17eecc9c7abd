"""Shared pytest setup: markers, Vulkan detection, a private compile cache.

Markers (declared in pyproject.toml): ``slow`` suites are deselected by default
(run them with ``-m slow`` or ``-m ''``); ``vulkan`` tests compile for vulkan-spirv
and run on IREE's ``vulkan`` driver. They are skipped only when the machine has no
Vulkan driver (ICD) at all; ``scripts/test.sh`` installs Mesa's llvmpipe so that CI
runs them. A machine with an ICD whose device fails is a failure, not a skip.
"""

from __future__ import annotations

import atexit
import ctypes
import functools
import glob
import os
import shutil
import tempfile

import pytest

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "1")

# The tests use a compile cache of their own (removed at exit), never the user's.
if "HLO_MLIR_CACHE_DIR" not in os.environ:
    os.environ["HLO_MLIR_CACHE_DIR"] = tempfile.mkdtemp(prefix="hlo-mlir-test-cache-")
    atexit.register(shutil.rmtree, os.environ["HLO_MLIR_CACHE_DIR"], True)

# Where the Vulkan loader looks for driver manifests (Linux).
_ICD_DIRS = ("/usr/share/vulkan/icd.d", "/usr/local/share/vulkan/icd.d", "/etc/vulkan/icd.d")


@functools.cache
def vulkan_missing_reason() -> str | None:
    """Why Vulkan tests cannot run here, or None when a loader and an ICD exist."""
    try:
        ctypes.CDLL("libvulkan.so.1")
    except OSError:
        return ("no Vulkan loader (libvulkan.so.1); install it with "
                "`apt-get install -y mesa-vulkan-drivers libvulkan1` (scripts/test.sh does)")
    explicit = [p for var in ("VK_DRIVER_FILES", "VK_ICD_FILENAMES")
                for p in os.environ.get(var, "").split(os.pathsep) if p]
    data_dirs = os.environ.get("XDG_DATA_DIRS", "").split(os.pathsep)
    dirs = list(_ICD_DIRS) + [os.path.join(d, "vulkan", "icd.d") for d in data_dirs if d]
    manifests = [p for p in explicit if os.path.exists(p)] + [
        p for d in dirs for p in glob.glob(os.path.join(d, "*.json"))]
    if not manifests:
        return ("no Vulkan driver (ICD manifest) found in " + ", ".join(_ICD_DIRS)
                + "; install Mesa's llvmpipe with `apt-get install -y mesa-vulkan-drivers`")
    return None


def pytest_collection_modifyitems(config, items):
    reason = vulkan_missing_reason()
    if reason is None:
        return
    skip = pytest.mark.skip(reason=reason)
    for item in items:
        if "vulkan" in item.keywords:
            item.add_marker(skip)
