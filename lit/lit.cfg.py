"""lit configuration: FileCheck tests for passes, builder output, diagnostics and CLIs.

Substitutions run our tools as a user would, through the current Python:
``%hlo-opt``, ``%hlo-compile``, ``%hlo-run``, ``%python``, ``%exitcode``; ``filecheck`` is the
Python FileCheck from PyPI (no LLVM binaries needed).
"""

# ruff: noqa: F821 - lit defines `config`
import os
import shlex
import sys

import lit.formats

config.name = "hlo-mlir"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".py"]
# builder/harness.py: the helpers the builder scripts import, not a test.
config.excludes = ["lit.cfg.py", "Inputs", "__pycache__", "harness.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, ".lit_out")

root = os.path.dirname(config.test_source_root)
python = shlex.quote(sys.executable)
config.environment["PYTHONPATH"] = root + os.pathsep + os.environ.get("PYTHONPATH", "")
for var in ("HOME", "PATH", "TMPDIR", "OPENBLAS_THREAD_TIMEOUT", "JAX_PLATFORMS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

config.substitutions.append(("%hlo-opt", f"{python} -m hlo_mlir.tools.hlo_opt"))
config.substitutions.append(("%hlo-compile", f"{python} -m hlo_mlir.tools.hlo_compile"))
config.substitutions.append(("%hlo-run", f"{python} -m hlo_mlir.tools.hlo_run"))
config.substitutions.append(("%python", python))
# `%exitcode <command>` runs the command and then prints "exit code: N" (and itself exits 0),
# so tests can check a tool's documented exit codes with FileCheck.
config.substitutions.append((
    "%exitcode",
    f'{python} -c "import subprocess, sys; sys.stdout.flush(); '
    f'code = subprocess.run(sys.argv[1:]).returncode; print(\'exit code:\', code)"'))
filecheck = os.path.join(os.path.dirname(sys.executable), "filecheck")
config.substitutions.append(
    ("filecheck", shlex.quote(filecheck) if os.path.exists(filecheck) else "filecheck"))
