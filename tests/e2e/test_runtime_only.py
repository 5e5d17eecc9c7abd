"""A runtime-only deployment: with ``iree.compiler`` not importable, ``hlo_mlir.runtime``
loads a vmfb, checks it against its manifest and runs it, and so does ``hlo-run``.

The children get a ``sitecustomize.py`` on PYTHONPATH that makes every ``iree.compiler``
import fail, as in a venv with iree-base-runtime but no iree-base-compiler
(docs/deployment.md, "A runtime-only deployment").
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import hlo_mlir
from hlo_mlir import Parameter, Shape, XlaBuilder, artifacts, compiler

# Installed in every child (sitecustomize runs at interpreter start-up).
_NO_COMPILER = '''
import importlib.abc
import sys


class _NoCompiler(importlib.abc.MetaPathFinder):
    """iree.compiler is not installed: a runtime-only deployment."""

    def find_spec(self, name, path=None, target=None):
        if name == "iree.compiler" or name.startswith("iree.compiler."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, _NoCompiler())
'''

# The deployed program: load (manifest and hash checked), run, refuse a changed vmfb.
_DEPLOYED = '''
import sys

import numpy as np

import hlo_mlir.runtime as rt
from hlo_mlir.artifacts import ManifestError

try:
    import iree.compiler  # noqa: F401
    sys.exit("iree.compiler is importable")
except ImportError:
    pass
module = rt.load(sys.argv[1])
assert module.manifest is not None and module.manifest.signature("main").parameters == ("f32[4]", "f32[4]")
np.save(sys.argv[3], module.main(np.arange(4, dtype=np.float32), np.full(4, 2, np.float32)))
try:
    rt.load(sys.argv[2])
    sys.exit("a vmfb that differs from its manifest was loaded")
except ManifestError as e:
    print("refused:", e)
assert not [m for m in sys.modules if m.startswith("iree.compiler")], "iree.compiler was imported"
'''


@pytest.fixture(scope="module")
def deployed(tmp_path_factory):
    """(folder, vmfb path, changed vmfb path, environment of a runtime-only Python)."""
    folder = tmp_path_factory.mktemp("deployed")
    b = XlaBuilder("axpy")
    a, x = (Parameter(b, i, Shape.parse("f32[4]"), n) for i, n in enumerate("ax"))
    computation = b.build(a * x + 1.0)
    vmfb = hlo_mlir.compile(computation)
    for name, data in (("axpy.vmfb", vmfb), ("changed.vmfb", vmfb[:-1] + bytes([vmfb[-1] ^ 1]))):
        manifest = artifacts.make_manifest(vmfb, name, target="llvm-cpu",
                                           flags=compiler.target_flags("llvm-cpu"),
                                           functions=compiler.function_signatures(computation.module))
        artifacts.save(folder / name, vmfb, manifest)
        (folder / name).write_bytes(data)  # changed.vmfb now differs from the SHA-256 in its manifest
    site = folder / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(_NO_COMPILER)
    path = [str(site), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path))
    return folder, folder / "axpy.vmfb", folder / "changed.vmfb", env


def test_runtime_loads_checks_and_runs_without_the_compiler(deployed):
    folder, vmfb, changed, env = deployed
    out = folder / "out.npy"
    proc = subprocess.run([sys.executable, "-c", _DEPLOYED, str(vmfb), str(changed), str(out)], env=env,
                          cwd=folder, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "refused:" in proc.stdout and "does not match its manifest" in proc.stdout
    np.testing.assert_array_equal(np.load(out), np.arange(4, dtype=np.float32) * 2 + 1)


def test_hlo_run_runs_a_vmfb_without_the_compiler(deployed):
    folder, vmfb, _, env = deployed
    proc = subprocess.run([sys.executable, "-m", "hlo_mlir.tools.hlo_run", str(vmfb), "--input=4xf32=0,1,2,3",
                           "--input=4xf32=2,2,2,2", "--expected_output=4xf32=1,3,5,7"], env=env, cwd=folder,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    # The same environment really has no compiler.
    check = subprocess.run([sys.executable, "-c", "import iree.compiler"], env=env, capture_output=True,
                           text=True)
    assert check.returncode != 0 and "No module named 'iree.compiler'" in check.stderr
