"""Crash-proof compiling: IREE runs in a compile worker process, so its crashes, aborts,
``LLVM ERROR`` exits, hangs and out-of-memory kills become CompileErrors that name what
ended it, the target, the flags and a saved reproducer, and this (the test) process
lives on. Also: the up-front checks of llvm-cpu CPU and triple flags, diagnostics, the
in-process opt-in, several threads compiling at once, and no worker left at exit.

The failure modes IREE shows on real inputs come from a flag that keeps crashing it
(``--iree-llvmcpu-target-data-layout=garbage``: ``LLVM ERROR`` then abort) and from
``WorkerPool.test_fault``, which makes the worker die as IREE does (a test kills nothing).
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import hlo_mlir
from hlo_mlir import Add, ConstantR0, Mul, Parameter, Shape, XlaBuilder, compile_worker, compiler, targets
from hlo_mlir.errors import CompileError, InvalidArgumentError

_CUSTOM_CALL = """
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @my_kernel(%a) : (tensor<4xf32>) -> tensor<4xf32> loc("user_model.py":12:3)
  return %0 : tensor<4xf32>
}
"""
# IREE says "LLVM ERROR: unknown specifier 'g'" and aborts.
_CRASHING_FLAG = "--iree-llvmcpu-target-data-layout=garbage"


@pytest.fixture(autouse=True)
def fresh(monkeypatch, tmp_path):
    """Every compile reaches IREE (no cache) and reproducers go to the test's folder."""
    monkeypatch.setenv("HLO_MLIR_CACHE", "0")
    monkeypatch.setenv("HLO_MLIR_REPRO_DIR", str(tmp_path / "repro"))
    monkeypatch.delenv("HLO_MLIR_COMPILE_ISOLATION", raising=False)
    monkeypatch.delenv("HLO_MLIR_COMPILE_TIMEOUT", raising=False)


def _affine(scale: float, offset: float = 1.0):
    b = XlaBuilder("affine")
    x = Parameter(b, 0, Shape.parse("f32[4]"), "x")
    return b.build(Add(Mul(x, ConstantR0(b, np.float32(scale))), ConstantR0(b, np.float32(offset))))


def _check_affine(vmfb: bytes, scale: float, offset: float = 1.0) -> None:
    x = np.arange(4, dtype=np.float32)
    expected = x * np.float32(scale) + np.float32(offset)
    np.testing.assert_array_equal(hlo_mlir.runtime.load(vmfb).main(x), expected)


def _reproducer(error: CompileError) -> str:
    """The reproduce.sh the message names (and check the folder holds the module)."""
    script = str(error).split("Reproduce with: sh ", 1)[1].split(" ", 1)[0]
    folder = os.path.dirname(script)
    assert os.path.isfile(os.path.join(folder, "module.mlirbc"))
    assert os.path.isfile(os.path.join(folder, "stderr.txt"))
    return script


# --- the flag crashes of issue 9 ----------------------------------------------------------------
@pytest.mark.parametrize("flag, cause", [
    ("--iree-llvmcpu-target-cpu=nonexistentcpu", "LLVM ERROR: 64-bit code requested"),
    ("--iree-llvmcpu-target-triple=garbage-triple", r"the compiler crashed with SIGSEGV \(signal 11\)"),
])
def test_flag_that_crashes_iree_is_a_compile_error(flag, cause):
    with pytest.raises(CompileError, match=rf"^{flag} is not a target the pinned IREE can compile for "
                                           rf"\({cause}.*\); known ") as info:
        hlo_mlir.compile(_affine(2.0), flags=[flag])
    assert info.value.target == "llvm-cpu" and flag in info.value.flags
    _check_affine(hlo_mlir.compile(_affine(2.0)), 2.0)  # this process lives and compiles on


@pytest.mark.parametrize("flag, how, said", [
    ("--iree-llvmcpu-target-cpu=nonexistentcpu", "exit status 1", "LLVM ERROR: 64-bit code requested"),
    ("--iree-llvmcpu-target-triple=garbage-triple", r"SIGSEGV \(signal 11\)", ""),
    ("--iree-llvmcpu-target-cpu-features=+avx2", "exit status 1", "If either CPU or CPU-features is `host`"),
])
def test_flag_crash_past_the_check_is_caught_by_the_worker(monkeypatch, flag, how, said):
    # Without the up-front check the same flags reach IREE, and kill only the worker.
    monkeypatch.setattr(targets, "_check_cpu_target", lambda flags, target: None)
    message = rf"^IREE crashed compiling the module: {how} in the compile worker"
    with pytest.raises(CompileError, match=message) as info:
        hlo_mlir.compile(_affine(2.0), flags=[flag])
    assert any(said in d for d in info.value.diagnostics), info.value.diagnostics
    assert flag in open(_reproducer(info.value)).read()
    _check_affine(hlo_mlir.compile(_affine(2.0)), 2.0)


@pytest.mark.parametrize("flags", [
    ["--iree-llvmcpu-target-cpu-features=+avx2"],  # with the default CPU, host: LLVM ERROR
    ["--iree-llvmcpu-target-cpu=generic", "--iree-llvmcpu-target-cpu-features=host"],  # SIGSEGV
    ["--iree-llvmcpu-target-cpu=znver4", "--iree-llvmcpu-target-cpu-features=host"],  # SIGSEGV
])
def test_host_cpu_with_explicit_features_is_refused(flags):
    with pytest.raises(CompileError, match=r"^llvm-cpu requires --iree-llvmcpu-target-cpu and "
                                           r"--iree-llvmcpu-target-cpu-features to be both host or not host "
                                           r"\(the default CPU is host: name a CPU to give features\); got "):
        hlo_mlir.compile(_affine(2.0), flags=flags)


def test_known_cpu_and_triple_values_pass_without_a_probe(monkeypatch):
    monkeypatch.setattr(targets, "_probe", lambda flags: pytest.fail(f"probed {flags}"))
    for flags in (["--iree-llvmcpu-target-cpu=znver4"], ["--iree-llvmcpu-target-cpu=generic"],
                  ["--iree-llvmcpu-target-triple=aarch64-unknown-linux-gnu"],
                  ["--iree-llvmcpu-target-triple=x86_64-unknown-linux-gnu",
                   "--iree-llvmcpu-target-cpu=x86-64-v3"]):
        compiler.target_flags("llvm-cpu", flags)


def test_crash_in_iree_is_a_compile_error_with_a_reproducer():
    with pytest.raises(CompileError) as info:
        hlo_mlir.compile(_affine(2.0), flags=[_CRASHING_FLAG])
    e = info.value
    text = str(e)
    assert text.startswith("IREE crashed compiling the module: SIGABRT (signal 6) in the compile worker "
                           "(a child process; this process is unaffected). Reproduce with: sh "), text
    assert "\n  target: llvm-cpu\n" in text and _CRASHING_FLAG in e.flags
    assert "LLVM ERROR: unknown specifier 'g'" in e.diagnostics
    script = _reproducer(e)
    assert script.startswith(os.environ["HLO_MLIR_REPRO_DIR"])
    command = open(script).read()
    assert "iree-compile " in command and _CRASHING_FLAG in command and "module.mlirbc" in command
    # The saved command reproduces the crash outside Python.
    rerun = subprocess.run(["sh", script], capture_output=True, text=True, timeout=300)
    assert rerun.returncode != 0 and "LLVM ERROR: unknown specifier 'g'" in rerun.stderr
    _check_affine(hlo_mlir.compile(_affine(3.0)), 3.0)  # a new worker replaces the one that died


@pytest.mark.parametrize("fault, how", [
    ("segv", r"SIGSEGV \(signal 11\)"),
    ("abort", r"SIGABRT \(signal 6\)"),
    ("exit", "exit status 1"),
    ("kill", r"SIGKILL \(signal 9\); the kernel's out-of-memory killer ends processes this way"),
])
def test_every_way_the_worker_dies_is_a_compile_error(monkeypatch, fault, how):
    monkeypatch.setattr(compile_worker.WorkerPool, "test_fault", fault)
    with pytest.raises(CompileError, match=rf"^IREE crashed compiling the module: {how} in the compile worker"
                                           rf"(?s:.*)target: llvm-cpu") as info:
        hlo_mlir.compile(_affine(2.0))
    assert os.path.isfile(_reproducer(info.value))
    if fault in ("abort", "exit"):
        assert "LLVM ERROR: injected by a test" in info.value.diagnostics
    monkeypatch.setattr(compile_worker.WorkerPool, "test_fault", None)
    _check_affine(hlo_mlir.compile(_affine(2.0)), 2.0)


def test_timeout_stops_the_compile(monkeypatch):
    monkeypatch.setattr(compile_worker.WorkerPool, "test_fault", "hang")
    before = compile_worker.default_pool().live_workers()
    with pytest.raises(CompileError, match=r"^IREE did not finish compiling the module: it ran past the "
                                           r"0.5 s timeout and was stopped\. Reproduce with: sh "):
        hlo_mlir.compile(_affine(2.0), timeout=0.5)
    assert compile_worker.default_pool().live_workers() <= before  # the hung worker is gone
    monkeypatch.setenv("HLO_MLIR_COMPILE_TIMEOUT", "0.5")
    with pytest.raises(CompileError, match="ran past the 0.5 s timeout"):
        hlo_mlir.compile(_affine(2.0))


@pytest.mark.parametrize("value", ["abc", "0", "-3"])
def test_bad_timeout_variable_is_named(monkeypatch, value):
    monkeypatch.setenv("HLO_MLIR_COMPILE_TIMEOUT", value)
    with pytest.raises(InvalidArgumentError, match=rf"HLO_MLIR_COMPILE_TIMEOUT requires a positive number of "
                                                   rf"seconds; got '{value}'\."):
        hlo_mlir.compile(_affine(2.0))


# --- diagnostics and the in-process opt-in ------------------------------------------------------
@pytest.mark.parametrize("isolate", [True, False])
def test_iree_diagnostics_reach_the_compile_error(isolate):
    with pytest.raises(CompileError) as info:
        hlo_mlir.compile(_CUSTOM_CALL, legalize=False, isolate=isolate)
    assert str(info.value).startswith("IREE failed to compile the module.")
    assert any(d.startswith("error: user_model.py:12:3: failed to legalize operation 'stablehlo.custom_call'")
               for d in info.value.diagnostics), info.value.diagnostics


def test_what_iree_prints_still_reaches_the_user(capsys):
    cpu = "x86-64-v3" if platform.machine() == "x86_64" else "generic"
    vmfb = hlo_mlir.compile(_affine(2.0), flags=[f"--iree-llvmcpu-target-cpu={cpu}",
                                                 "--iree-llvmcpu-target-cpu-features=+nosuchfeature"])
    _check_affine(vmfb, 2.0)
    assert "'+nosuchfeature' is not a recognized feature" in capsys.readouterr().err


@pytest.mark.parametrize("how", ["argument", "environment"])
def test_in_process_compile_is_an_opt_in(monkeypatch, how):
    for method in ("compile", "prestart"):
        monkeypatch.setattr(compile_worker.WorkerPool, method, lambda *a, **k: pytest.fail("used a worker"))
    if how == "environment":
        monkeypatch.setenv("HLO_MLIR_COMPILE_ISOLATION", "0")
        vmfb = hlo_mlir.compile(_affine(5.0))
    else:
        vmfb = hlo_mlir.compile(_affine(5.0), isolate=False)
    _check_affine(vmfb, 5.0)


def test_isolated_and_in_process_compiles_agree():
    assert hlo_mlir.compile(_affine(7.0), isolate=True) == hlo_mlir.compile(_affine(7.0), isolate=False)


# --- threads and process hygiene ----------------------------------------------------------------
def test_threads_compile_at_once():
    results: dict[int, bytes] = {}
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            results[i] = hlo_mlir.compile(_affine(float(i + 2), float(i)))
        except BaseException as e:  # noqa: BLE001 - collected, asserted below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not errors, errors
    for i in range(4):
        _check_affine(results[i], float(i + 2), float(i))
    assert compile_worker.default_pool().live_workers() <= 4


_ADD = """func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}"""


def _worker_pids_of_child(body: str) -> list[int]:
    """Runs ``body`` in a child Python (``text`` is a small module, ``compile_worker``
    imported, cache off); returns the worker pids it prints."""
    script = ("import os, threading, time\nos.environ['HLO_MLIR_CACHE'] = '0'\nimport hlo_mlir\n"
              f"from hlo_mlir import compile_worker\ntext = {_ADD!r}\n{body}")
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300,
                         check=True)
    pids = [int(p) for p in out.stdout.split()]
    assert pids, out
    return pids


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie waiting for its reaper counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def test_no_worker_outlives_its_process():
    pids = _worker_pids_of_child("hlo_mlir.compile(text)\nprint(*compile_worker.default_pool().pids())\n")
    assert all(_gone(pid) for pid in pids)  # ended at exit, before the child did


def test_worker_ends_when_its_parent_dies_mid_compile():
    # The parent leaves without any clean-up (os._exit) while its worker is stuck in a
    # compile: the worker notices it has no parent and ends.
    pids = _worker_pids_of_child(
        "compile_worker.WorkerPool.test_fault = 'hang'\n"
        "threading.Thread(target=hlo_mlir.compile, args=(text,), daemon=True).start()\n"
        "while not compile_worker.default_pool().pids():\n"
        "    time.sleep(0.05)\n"
        "time.sleep(1.0)\n"
        "print(*compile_worker.default_pool().pids(), flush=True)\n"
        "os._exit(0)\n")
    deadline = time.monotonic() + 15
    while not all(_gone(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert all(_gone(pid) for pid in pids)


def test_shutdown_ends_every_worker():
    pool = compile_worker.WorkerPool()
    pool.prestart()
    outcome, _, _ = pool.compile(b"not bytecode", ["--iree-not-a-flag"])
    assert outcome.status == "flags" and pool.live_workers() == 1
    pool.shutdown()
    assert pool.live_workers() == 0
