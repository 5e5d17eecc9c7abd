"""hlo-compile (argv -> exit code, vmfb, manifest) and hlo_mlir.artifacts (manifest I/O, hash check).

Most runs call ``main([...,"--no-isolate"])`` in process; a few run the real CLI in a
child process to check isolation, crashes, timeouts and Ctrl-C.
"""

from __future__ import annotations

import datetime
import io
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import hlo_mlir
from hlo_mlir import artifacts, runtime
from hlo_mlir.errors import RuntimeCallError
from hlo_mlir.tools.hlo_compile import ExitCode, main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SCALE = """\
func.func @main(%x: tensor<2x2xf32>, %s: tensor<f32>) -> tensor<2x2xf32> {
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
  %0 = stablehlo.multiply %x, %b : tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
"""

BUILDER = """\
import numpy as np
from hlo_mlir import Parameter, Shape, XlaBuilder


def build():
    b = XlaBuilder("axpy")
    x = Parameter(b, 0, Shape.parse("f32[3]"), "x")
    y = Parameter(b, 1, Shape.parse("f32[3]"), "y")
    return b.build(x * 2.0 + y)


def broken():
    b = XlaBuilder("broken")
    x = Parameter(b, 0, Shape.parse("f32[3]"), "x")
    y = Parameter(b, 1, Shape.parse("f32[4]"), "y")
    return b.build(x + y)
"""


def _run_child(*argv, **kwargs) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-m", "hlo_mlir.tools.hlo_compile", *argv], capture_output=True,
                          text=True, env=env, timeout=120, **kwargs)


@pytest.fixture
def scale_mlir(tmp_path):
    path = tmp_path / "scale.mlir"
    path.write_text(SCALE)
    return path


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """One vmfb + manifest compiled by the CLI, shared by the manifest tests."""
    folder = tmp_path_factory.mktemp("compiled")
    (folder / "scale.mlir").write_text(SCALE)
    out = folder / "scale.vmfb"
    argv = [str(folder / "scale.mlir"), "-o", str(out), "-X", "--iree-opt-level=O2", "--no-isolate"]
    assert main(argv) == 0
    return out


def _files(folder) -> list[str]:
    return sorted(os.listdir(folder))


# --- compiling ---------------------------------------------------------------------------------
def test_compile_writes_vmfb_and_manifest_that_load_and_run(compiled):
    vmfb = compiled.read_bytes()
    manifest = artifacts.read_manifest(compiled)
    assert manifest.sha256 == artifacts.sha256_hex(vmfb) and manifest.size == len(vmfb)
    assert manifest.vmfb == "scale.vmfb" and manifest.target == "llvm-cpu"
    # Full flags: input type, the target's defaults, the -X flag replacing the default O3.
    assert manifest.flags[0] == "--iree-input-type=stablehlo"
    assert "--iree-llvmcpu-target-cpu=host" in manifest.flags
    assert "--iree-opt-level=O2" in manifest.flags and "--iree-opt-level=O3" not in manifest.flags
    assert [str(f) for f in manifest.functions] == ["main: (f32[2,2], f32[]) -> (f32[2,2])"]
    assert [str(s) for s in manifest.signature("main").parameter_shapes()] == ["f32[2,2]", "f32[]"]
    assert set(manifest.versions) == {"hlo-mlir", "iree-base-compiler", "iree-base-runtime", "python"}
    assert manifest.versions["iree-base-compiler"] == manifest.versions["iree-base-runtime"] == "3.13.0"
    created = datetime.datetime.fromisoformat(manifest.created.replace("Z", "+00:00"))
    assert abs((datetime.datetime.now(datetime.timezone.utc) - created).total_seconds()) < 600
    assert manifest.source == {"input": "scale.mlir", "passes": "cpu"}  # the llvm-cpu preset

    module = runtime.load(str(compiled))  # checks the manifest's hash
    x = np.array([[1, 2], [3, -4]], np.float32)
    np.testing.assert_array_equal(module.main(x, np.float32(2.5)), x * 2.5)


def test_compile_runs_pass_pipeline_and_records_it(scale_mlir, tmp_path):
    out = tmp_path / "p.vmfb"
    assert main([str(scale_mlir), "-o", str(out), "-p", "canonicalize,cse", "--no-isolate"]) == 0
    assert artifacts.read_manifest(out).source["passes"] == "canonicalize,cse"


def test_unknown_pass_is_usage_error_listing_passes(scale_mlir, tmp_path, capsys):
    assert main([str(scale_mlir), "-o", str(tmp_path / "x.vmfb"), "-p", "no-such-pass", "--no-isolate"]) == 2
    err = capsys.readouterr().err
    assert "unknown pass 'no-such-pass'" in err and "cse" in err
    assert _files(tmp_path) == ["scale.mlir"]


def test_default_output_name_and_bytecode_input(tmp_path):
    from hlo_mlir.compiler import as_module

    buf = io.BytesIO()
    as_module(SCALE).operation.write_bytecode(buf)
    (tmp_path / "model.mlirbc").write_bytes(buf.getvalue())
    assert main([str(tmp_path / "model.mlirbc"), "--no-isolate", "--no-manifest"]) == 0
    assert _files(tmp_path) == ["model.mlirbc", "model.vmfb"]  # no manifest asked for
    module = runtime.load(str(tmp_path / "model.vmfb"))
    np.testing.assert_array_equal(module.main(np.ones((2, 2), np.float32), np.float32(3)), np.full((2, 2), 3))


def test_python_builder_entry(tmp_path):
    (tmp_path / "axpy.py").write_text(BUILDER)
    out = tmp_path / "axpy.vmfb"
    assert main([str(tmp_path / "axpy.py"), "-o", str(out), "--no-isolate"]) == 0
    manifest = artifacts.read_manifest(out)
    assert manifest.source == {"input": "axpy.py", "passes": "cpu", "entry": "build"}
    assert [str(f) for f in manifest.functions] == ["main: (f32[3], f32[3]) -> (f32[3])"]
    x, y = np.array([1, 2, 3], np.float32), np.array([10, 20, 30], np.float32)
    np.testing.assert_array_equal(runtime.load(str(out)).main(x, y), x * 2 + y)


def test_python_entry_errors(tmp_path, capsys):
    (tmp_path / "axpy.py").write_text(BUILDER)
    assert main([str(tmp_path / "axpy.py"), "--entry", "nope", "--no-isolate"]) == ExitCode.INPUT
    assert "has no function 'nope' (choose one with --entry)" in capsys.readouterr().err
    # A builder error names the op, the shapes and the user's line.
    assert main([str(tmp_path / "axpy.py"), "--entry", "broken", "--no-isolate"]) == ExitCode.INPUT
    err = capsys.readouterr().err
    assert "axpy.py:16: Add requires compatible operand shapes; got f32[3] and f32[4]" in err
    assert "(ShapeError raised by broken() in" in err
    assert _files(tmp_path) == ["axpy.py"]


def test_missing_input_file(tmp_path, capsys):
    assert main([str(tmp_path / "missing.mlir"), "--no-isolate"]) == ExitCode.INPUT
    err = capsys.readouterr().err
    assert f"could not read '{tmp_path / 'missing.mlir'}': No such file or directory." in err


@pytest.mark.parametrize("line, code, message", [
    ("%0 = stablehlo.add %a, %b : tensor<4xf32>", ExitCode.INPUT, "2:26: use of undeclared SSA value name"),
    # As in hlo-opt: a module that parses but fails an op verifier is a verification error.
    ("%0 = stablehlo.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<5xf32>", ExitCode.VERIFY,
     "2:8: 'stablehlo.add' op requires the same shape for all operands and results"),
], ids=["parse", "verify"])
def test_malformed_mlir_names_file_line_and_column(tmp_path, capsys, line, code, message):
    bad = tmp_path / "bad.mlir"
    bad.write_text(f"func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {{\n  {line}\n"
                   "  return %a : tensor<4xf32>\n}\n")
    assert main([str(bad), "--no-isolate"]) == code
    err = capsys.readouterr().err
    assert err.startswith("hlo-compile: error:") and f"{bad}:{message}" in err
    assert _files(tmp_path) == ["bad.mlir"]


@pytest.mark.parametrize("argv, message", [
    (["--target", "tpu"], "invalid choice: 'tpu'"),
    (["-X", "iree-opt-level=O2"], "compile requires flags of the form --name[=value]"),
    (["-X", "--iree-no-such-flag=1"], "IREE rejected the compile flags"),
])
def test_bad_options_are_usage_errors(scale_mlir, tmp_path, capsys, argv, message):
    assert main([str(scale_mlir), "-o", str(tmp_path / "x.vmfb"), "--no-isolate", *argv]) == ExitCode.USAGE
    assert message in capsys.readouterr().err
    assert _files(tmp_path) == ["scale.mlir"]


@pytest.mark.parametrize("text", ["", "// only a comment\n", "module {\n}\n",
                                  "func.func private @f(%a: tensor<4xf32>) -> tensor<4xf32>\n"],
                         ids=["empty", "comment", "empty-module", "declaration"])
def test_input_without_a_function_is_an_input_error(tmp_path, capsys, text):
    (tmp_path / "empty.mlir").write_text(text)
    assert main([str(tmp_path / "empty.mlir"), "--no-isolate"]) == ExitCode.INPUT
    err = capsys.readouterr().err
    assert f"{tmp_path / 'empty.mlir'}: the module has no public function to compile" in err
    assert _files(tmp_path) == ["empty.mlir"]


@pytest.mark.parametrize("folder", ["o.vmfb", "o.vmfb.manifest.json"])
def test_output_or_manifest_path_that_is_a_folder_writes_nothing(scale_mlir, tmp_path, capsys, folder):
    out = tmp_path / "out"
    (out / folder).mkdir(parents=True)
    assert main([str(scale_mlir), "-o", str(out / "o.vmfb"), "--no-isolate"]) == ExitCode.INPUT
    assert f"cannot write '{out / folder}': it is a folder." in capsys.readouterr().err
    assert _files(out) == [folder] and _files(out / folder) == []


def test_vmfb_and_manifest_are_written_both_or_neither(tmp_path, monkeypatch):
    # The second rename fails (a folder appears, the disk fills): the first is undone, and
    # the error names the file that could not be written.
    (tmp_path / "a.vmfb").write_bytes(b"old vmfb")
    (tmp_path / "a.vmfb.manifest.json").write_bytes(b"old manifest")
    replace, calls = os.replace, []

    def second_fails(src, dst):
        calls.append(dst)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        replace(src, dst)

    monkeypatch.setattr(os, "replace", second_fails)
    with pytest.raises(OSError) as info:
        artifacts.write_all_atomic([(tmp_path / "a.vmfb", b"new vmfb"),
                                    (tmp_path / "a.vmfb.manifest.json", b"new")])
    assert info.value.filename == str(tmp_path / "a.vmfb.manifest.json")
    monkeypatch.setattr(os, "replace", replace)
    assert (tmp_path / "a.vmfb").read_bytes() == b"old vmfb"
    assert (tmp_path / "a.vmfb.manifest.json").read_bytes() == b"old manifest"
    assert _files(tmp_path) == ["a.vmfb", "a.vmfb.manifest.json"]  # no temporary or backup left
    # Files that did not exist before are removed again.
    calls.clear()
    monkeypatch.setattr(os, "replace", second_fails)
    with pytest.raises(OSError):
        artifacts.write_all_atomic([(tmp_path / "b.vmfb", b"new"),
                                    (tmp_path / "b.vmfb.manifest.json", b"new")])
    assert _files(tmp_path) == ["a.vmfb", "a.vmfb.manifest.json"]


def test_unwritable_output_folder_is_an_input_error(scale_mlir, capsys):
    # /proc refuses new files even to root (the tests may run as root, where a chmod'ed
    # folder stays writable).
    assert main([str(scale_mlir), "-o", "/proc/hlo-mlir-test.vmfb", "--no-isolate"]) == ExitCode.INPUT
    err = capsys.readouterr().err
    assert err.startswith("hlo-compile: error: could not write '/proc/hlo-mlir-test.vmfb': ")
    assert "no output written" in err and "Traceback" not in err


def test_stdin_needs_output(capsys):
    assert main(["-", "--no-isolate"]) == ExitCode.USAGE
    assert "reading stdin requires -o/--output" in capsys.readouterr().err


def test_help_documents_exit_codes(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for line in ("2    usage error", "3    input error", "4    verification error", "5    compile error",
                 "130  interrupted"):
        assert line in out


# --- atomic output, interrupts, crashes ----------------------------------------------------------
def test_interrupted_compile_leaves_no_output(scale_mlir, tmp_path, monkeypatch, capsys):
    out = tmp_path / "scale.vmfb"
    out.write_bytes(b"old build")  # an earlier build stays as it was

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(hlo_mlir.compiler, "compile", interrupted)
    assert main([str(scale_mlir), "-o", str(out), "--no-isolate"]) == ExitCode.INTERRUPTED
    assert "interrupted; no output written" in capsys.readouterr().err
    assert _files(tmp_path) == ["scale.mlir", "scale.vmfb"] and out.read_bytes() == b"old build"


def test_interrupt_while_writing_leaves_no_partial_file(tmp_path, monkeypatch):
    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        artifacts.write_atomic(tmp_path / "a.vmfb", b"x" * 1000)
    assert _files(tmp_path) == []  # neither the file nor its temporary


def test_writing_to_a_device_or_pipe_writes_into_it(tmp_path):
    """`hlo-compile -o /dev/null` as root renamed the vmfb's temporary over /dev/null, making
    it a regular file (found while regenerating docs/coverage.md). A path that is not a
    regular file is written in place; a FIFO stands in for the device here."""
    import stat
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    artifacts.write_all_atomic([(tmp_path / "a.vmfb", b"vmfb"), (fifo, b"through the pipe")])
    reader.join(timeout=30)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and got == [b"through the pipe"]
    assert (tmp_path / "a.vmfb").read_bytes() == b"vmfb"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.vmfb", "pipe"]  # no temporaries left


def test_sigint_to_isolated_compile_stops_child_and_writes_nothing(tmp_path):
    # The entry signals that it started, then stands in for a long compile.
    (tmp_path / "slow.py").write_text(
        "import pathlib, time\n"
        f"def build():\n    pathlib.Path({str(tmp_path / 'started')!r}).touch()\n    time.sleep(60)\n")
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.Popen([sys.executable, "-m", "hlo_mlir.tools.hlo_compile", str(tmp_path / "slow.py"),
                             "-o", str(tmp_path / "slow.vmfb")], env=env, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (tmp_path / "started").exists():
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)  # to the parent only: it must stop the child
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == ExitCode.INTERRUPTED
    assert "interrupted; no output written" in err and "Traceback" not in err
    assert _files(tmp_path) == ["slow.py", "started"]


def test_compiler_crash_in_child_is_reported(tmp_path):
    # The build returns a computation and replaces hlo_mlir.compiler.compile (in the child)
    # with a segfault, standing in for the IREE compiler crashing on an input.
    (tmp_path / "crash.py").write_text(
        "import os, signal\nimport hlo_mlir.compiler\nfrom hlo_mlir import Parameter, Shape, XlaBuilder\n"
        "def build():\n"
        "    hlo_mlir.compiler.compile = lambda *a, **k: os.kill(os.getpid(), signal.SIGSEGV)\n"
        "    b = XlaBuilder('m')\n    return b.build(Parameter(b, 0, Shape.parse('f32[2]'), 'x'))\n")
    r = _run_child(str(tmp_path / "crash.py"), "-o", str(tmp_path / "crash.vmfb"))
    assert r.returncode == ExitCode.COMPILE, r.stderr
    assert (f"hlo-compile: error: the IREE compiler (compiling '{tmp_path / 'crash.py'}' for llvm-cpu) "
            "crashed (SIGSEGV) in a child process; no output written. This is an IREE defect") in r.stderr
    assert _files(tmp_path) == ["crash.py"]


def test_crash_in_the_users_build_script_is_not_blamed_on_iree(tmp_path):
    (tmp_path / "segv.py").write_text(
        "import os, signal\ndef build():\n    os.kill(os.getpid(), signal.SIGSEGV)\n")
    r = _run_child(str(tmp_path / "segv.py"), "-o", str(tmp_path / "segv.vmfb"))
    assert r.returncode == ExitCode.INPUT
    assert (f"hlo-compile: error: the build script '{tmp_path / 'segv.py'}' (running build()) "
            "crashed (SIGSEGV) in a child process; no output written. The user's Python code (or a library "
            "it calls) crashed, not the IREE compiler") in r.stderr
    assert "Traceback" not in r.stderr and _files(tmp_path) == ["segv.py"]


@pytest.mark.parametrize("script", ["import sys\ndef build():\n    sys.exit(0)\n",
                                    "import sys\nsys.exit(0)\n",
                                    "def build():\n    raise SystemExit\n"],
                         ids=["in-build", "at-import", "raise"])
def test_build_script_that_exits_is_an_error(tmp_path, capsys, script):
    (tmp_path / "exits.py").write_text(script)
    assert main([str(tmp_path / "exits.py"), "--no-isolate"]) == ExitCode.INPUT
    assert "the build script exited (sys.exit(" in capsys.readouterr().err
    assert ") before build() returned a computation." in _run_child(str(tmp_path / "exits.py")).stderr
    assert _files(tmp_path) == ["exits.py"]


@pytest.mark.parametrize("where, code, what", [
    ("build", ExitCode.INPUT, "the build script '{path}' (running build())"),
    # The build replaces hlo_mlir.compiler.compile with a sleep: a hanging compile.
    ("compile", ExitCode.COMPILE, "the IREE compiler (compiling '{path}' for llvm-cpu)"),
])
def test_timeout_stops_a_hanging_build_or_compile(tmp_path, where, code, what):
    hang = "    time.sleep(60)\n" if where == "build" else (
        "    hlo_mlir.compiler.compile = lambda *a, **k: time.sleep(60)\n"
        "    b = XlaBuilder('m')\n    return b.build(Parameter(b, 0, Shape.parse('f32[2]'), 'x'))\n")
    (tmp_path / "hang.py").write_text(
        "import time\nimport hlo_mlir.compiler\nfrom hlo_mlir import Parameter, Shape, XlaBuilder\n"
        f"def build():\n{hang}")
    start = time.monotonic()
    r = _run_child(str(tmp_path / "hang.py"), "--timeout", "2")
    assert r.returncode == code and time.monotonic() - start < 30
    what = what.format(path=tmp_path / "hang.py")
    assert f"hlo-compile: error: {what} did not finish within 2 s; stopped it. No output written." in r.stderr
    assert _files(tmp_path) == ["hang.py"]


def test_isolated_cli_compiles(scale_mlir, tmp_path):
    r = _run_child(str(scale_mlir), "-o", str(tmp_path / "iso.vmfb"), "-v")
    assert r.returncode == 0, r.stderr
    assert f"wrote {tmp_path / 'iso.vmfb'}" in r.stdout
    vmfb = (tmp_path / "iso.vmfb").read_bytes()
    assert artifacts.check_manifest(str(tmp_path / "iso.vmfb"), vmfb) is not None
    assert oct(os.stat(tmp_path / "iso.vmfb").st_mode & 0o777) != oct(0o600)  # not mkstemp's private mode


# --- manifests ---------------------------------------------------------------------------------
def test_manifest_hash_mismatch_is_refused(compiled, tmp_path):
    vmfb = bytearray(compiled.read_bytes())
    vmfb[len(vmfb) // 2] ^= 0xFF
    copy = tmp_path / "scale.vmfb"
    copy.write_bytes(bytes(vmfb))
    with open(artifacts.manifest_path(compiled), "rb") as f:
        (tmp_path / "scale.vmfb.manifest.json").write_bytes(f.read())
    recorded = artifacts.read_manifest(compiled).sha256
    with pytest.raises(RuntimeCallError, match="does not match its manifest") as info:
        runtime.load(str(copy))
    assert recorded in str(info.value) and artifacts.sha256_hex(bytes(vmfb)) in str(info.value)


def test_check_manifest_without_manifest_is_none(compiled, tmp_path):
    (tmp_path / "lone.vmfb").write_bytes(compiled.read_bytes())
    assert artifacts.check_manifest(str(tmp_path / "lone.vmfb"), compiled.read_bytes()) is None
    assert artifacts.check_manifest(str(compiled), compiled.read_bytes()).target == "llvm-cpu"


@pytest.mark.parametrize("edit, message", [
    (lambda text: text[:-10], "not valid JSON"),
    (lambda text: json.dumps({**json.loads(text), "format": "other"}), "field 'format' must be"),
    (lambda text: json.dumps({k: v for k, v in json.loads(text).items() if k != "sha256"}),
     "missing field 'sha256'"),
    (lambda text: json.dumps({**json.loads(text), "size": "big"}), "field 'size' must be an integer"),
    (lambda text: json.dumps({**json.loads(text), "sha256": "abc"}), "64 lowercase hex digits"),
    (lambda text: json.dumps({**json.loads(text), "functions": [{"name": "main"}]}),
     r"\(functions\[0\]\): missing field 'parameters'"),
    (lambda text: json.dumps({**json.loads(text), "format_version": 99}), "format_version 99"),
    (lambda text: json.dumps({**json.loads(text), "source": 5}), "field 'source' must be an object; got 5"),
    (lambda text: json.dumps({**json.loads(text), "versions": {"iree": 3}}),
     "field 'versions' must map names"),
    (lambda text: json.dumps({**json.loads(text), "functions": [7]}), r"\(functions\[0\]\): missing field"),
    (lambda text: "[1, 2]", "expected a JSON object; got list"),
])
def test_malformed_manifest_is_a_clear_error(compiled, tmp_path, edit, message):
    (tmp_path / "m.vmfb").write_bytes(compiled.read_bytes())
    with open(artifacts.manifest_path(compiled)) as f:
        text = f.read()
    (tmp_path / "m.vmfb.manifest.json").write_text(edit(text))
    with pytest.raises(artifacts.ManifestError, match=message):
        runtime.load(str(tmp_path / "m.vmfb"))


def test_manifest_round_trip_and_save(tmp_path):
    functions = (artifacts.FunctionSignature("main", ("(f32[2], s32[])",), ("pred[]",)),)
    m = artifacts.make_manifest(b"vmfb bytes", str(tmp_path / "x.vmfb"), target="cuda",
                                flags=["--iree-hal-target-device=cuda"], functions=functions)
    artifacts.save(tmp_path / "x.vmfb", b"vmfb bytes", m)
    back = artifacts.read_manifest(tmp_path / "x.vmfb.manifest.json")
    assert back == m
    assert [str(s) for s in back.signature("main").parameter_shapes()] == ["(f32[2], s32[])"]
    with pytest.raises(artifacts.ManifestError, match=r"no function 'other'; it has \['main'\]"):
        back.signature("other")
    with pytest.raises(artifacts.ManifestError, match="SHA-256 values differ"):
        artifacts.save(tmp_path / "x.vmfb", b"other bytes", m)
    # Saving without a manifest removes the stale one, which would no longer match.
    artifacts.save(tmp_path / "x.vmfb", b"other bytes", None)
    assert _files(tmp_path) == ["x.vmfb"]
