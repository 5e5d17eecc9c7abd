"""``hlo-opt --verify-semantics -p gpu`` over the end-to-end test modules (issues 4 and 11).

The spine's end-to-end tests run with ``HLO_MLIR_DUMP_DIR`` set, which makes
``tests.oracle.check`` save every module it checks; then ``hlo-opt`` runs the ``gpu``
preset (``O2`` and the backend rewrites of ``cpu`` and ``gpu``) over each one, compiling
and running the module before and after every pass that changes it on random inputs,
and must report no difference. Slow: it compiles each module several times. The
default run covers the same path on the op samples' modules in ``test_verify_semantics.py``.
"""

from __future__ import annotations

import glob
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPINE_TESTS = ["tests/e2e/test_elementwise.py", "tests/e2e/test_constant.py", "tests/e2e/test_shape_ops.py",
               "tests/e2e/test_slicing.py", "tests/e2e/test_tuple_ops.py", "tests/e2e/test_linalg.py",
               "tests/e2e/test_reduction.py", "tests/e2e/test_call.py"]


@pytest.mark.slow
def test_o2_preserves_semantics_of_every_spine_module(tmp_path):
    env = dict(os.environ, HLO_MLIR_DUMP_DIR=str(tmp_path), PYTHONPATH=ROOT)
    collected = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                                *SPINE_TESTS], cwd=ROOT, env=env, capture_output=True, text=True)
    assert collected.returncode == 0, collected.stdout[-3000:]
    modules = sorted(glob.glob(str(tmp_path / "*.mlir")))
    assert len(modules) > 50, f"only {len(modules)} modules were dumped"
    from hlo_mlir.tools import hlo_opt

    failures = []
    for path in modules:  # hlo-opt's own main(), in process: the CLI without its start-up cost
        code = hlo_opt.main([path, "-p", "gpu", "--verify-semantics", "-o", os.devnull])
        if code != 0:
            failures.append(f"{os.path.basename(path)}: exit {code} (stderr above)")
    print(f"hlo-opt --verify-semantics -p gpu: {len(modules) - len(failures)}/{len(modules)} modules agree")
    assert not failures, "\n".join(failures)
