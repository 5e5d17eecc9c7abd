"""hlo-run: iree-run-module's flags (checked against the pinned iree-run-module --help),
value syntax, printing, outputs, expected-output checks, exit codes, and corrupted or
mismatched vmfbs.

Runs call ``main([..., "--no-isolate"])`` in process unless the child process is the point
(isolation from runtime crashes, the real command line).
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
import tomllib

import numpy as np
import pytest

from hlo_mlir import artifacts
from hlo_mlir.shape import Shape
from hlo_mlir.tools import hlo_compile, hlo_run, value_specs
from hlo_mlir.tools.hlo_compile import ExitCode
from hlo_mlir.tools.hlo_run import InputSpecError, format_buffer_view, main, parse_value

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MODULE = """\
func.func @main(%x: tensor<2x2xf32>, %s: tensor<f32>) -> tensor<2x2xf32> {
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
  %0 = stablehlo.multiply %x, %b : tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
func.func @logic(%p: tensor<4xi1>, %i: tensor<3xi32>) -> (tensor<4xi1>, tensor<3xi32>) {
  %0 = stablehlo.not %p : tensor<4xi1>
  %1 = stablehlo.add %i, %i : tensor<3xi32>
  return %0, %1 : tensor<4xi1>, tensor<3xi32>
}
func.func @dynamic(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %0 = stablehlo.add %x, %y : tensor<?xf32>
  return %0 : tensor<?xf32>
}
"""


@pytest.fixture(scope="module")
def vmfb(tmp_path_factory):
    folder = tmp_path_factory.mktemp("run")
    (folder / "m.mlir").write_text(MODULE)
    assert hlo_compile.main([str(folder / "m.mlir"), "-o", str(folder / "m.vmfb"), "--no-isolate"]) == 0
    return folder / "m.vmfb"


def run(*argv) -> int:
    return main([*map(str, argv), "--no-isolate"])


def _child(*argv) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hlo_mlir.tools.hlo_run", *map(str, argv)],
                          capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=ROOT), timeout=120)


# --- value syntax ------------------------------------------------------------------------------
@pytest.mark.parametrize("spec, expected", [
    ("2x2xf32=1,2,3,4", np.array([[1, 2], [3, 4]], np.float32)),
    ("2x2xf32=[1 2][3 4]", np.array([[1, 2], [3, 4]], np.float32)),
    ("2x2xf32=[[1, 2], [3, 4]]", np.array([[1, 2], [3, 4]], np.float32)),
    ("f32=5", np.array(5, np.float32)),
    ("2x3xf32=0.5", np.full((2, 3), 0.5, np.float32)),  # splat
    ("2x3xi32=", np.zeros((2, 3), np.int32)),  # no values: zeros
    ("4xi1=1,0,1,1", np.array([True, False, True, True])),
    ("3xi1=true false TRUE", np.array([True, False, True])),
    ("3xsi8=-128,0,127", np.array([-128, 0, 127], np.int8)),
    ("2xui64=18446744073709551615,0x10", np.array([2**64 - 1, 16], np.uint64)),
    ("3xf64=-inf nan 1e-300", np.array([-np.inf, np.nan, 1e-300])),
    ("2xbf16=1.5,-2", np.array([1.5, -2], Shape.parse("bf16[]").dtype)),
    ("2xcomplex<f32>=1+2j,-3j", np.array([1 + 2j, -3j], np.complex64)),
    ("f32[2,2]=1,2,3,4", np.array([[1, 2], [3, 4]], np.float32)),  # XLA shape syntax
])
def test_parse_value_forms(spec, expected):
    got = parse_value(spec)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


def test_bare_value_takes_the_parameter_type():
    got = parse_value("7", like=Shape.parse("s64[3]"))
    assert got.dtype == np.int64 and got.tolist() == [7, 7, 7]
    np.testing.assert_array_equal(parse_value("1 2 3", like=Shape.parse("f16[3]")),
                                  np.array([1, 2, 3], np.float16))


def test_npy_and_binary_files(tmp_path):
    a, b = np.arange(6, dtype=np.int16).reshape(2, 3), np.ones(4, np.float64)
    with open(tmp_path / "two.npy", "wb") as f:
        np.save(f, a)
        np.save(f, b)
    np.arange(8, dtype=np.float32).tofile(tmp_path / "raw.bin")
    files = value_specs.Files()
    two, raw = tmp_path / "two.npy", tmp_path / "raw.bin"
    try:
        np.testing.assert_array_equal(parse_value(f"@{two}", files=files), a)
        np.testing.assert_array_equal(parse_value(f"+{two}", files=files), b)  # the next one
        np.testing.assert_array_equal(parse_value(f"@{two}", files=files), a)  # from the start again
        np.testing.assert_array_equal(parse_value(f"2x2xf32=@{raw}", files=files), [[0, 1], [2, 3]])
        np.testing.assert_array_equal(parse_value(f"4xf32=+{raw}", files=files), [4, 5, 6, 7])
    finally:
        files.close()


@pytest.mark.parametrize("spec, message, code", [
    ("2x2xq32=1", "unknown element type 'q32'", ExitCode.USAGE),
    ("2x2=1,2,3,4", "expected <dims>x<type> like 2x2xf32 before '='; got '2x2'", ExitCode.USAGE),
    ("2x2xf32=1,2,3", "3 values for 2x2xf32, which has 4 elements", ExitCode.USAGE),
    ("2xi32=1,x", "'x' is not a valid int32 value", ExitCode.USAGE),
    ("ui8=256", r"value 256 is out of range for uint8 \[0, 255\]", ExitCode.USAGE),
    ("2xi1=2,0", "'2' is not a valid bool value", ExitCode.USAGE),
    ("5", "a bare value needs the function's signature", ExitCode.USAGE),
    ("@", "expected a file name after '@'", ExitCode.USAGE),
    ("@/no/such.npy", "could not read '/no/such.npy'", ExitCode.INPUT),
])
def test_bad_value_specs(spec, message, code):
    with pytest.raises(InputSpecError, match=message) as info:
        parse_value(spec)
    assert info.value.code == code


def test_format_buffer_view_like_iree():
    assert format_buffer_view(np.array([[1, 2.5], [-3, 1e10]], np.float32)) == "2x2xf32=[1 2.5][-3 1E+10]"
    assert format_buffer_view(np.float64(0.1)) == "f64=0.1"
    assert format_buffer_view(np.array([True, False])) == "2xi1=1 0"
    assert format_buffer_view(np.array([1, 254], np.uint8)) == "2xui8=1 254"
    truncated = format_buffer_view(np.arange(6, dtype=np.int32).reshape(3, 2), max_elements=3)
    assert truncated == "3x2xi32=[0 1][2...][...]"


# --- running -----------------------------------------------------------------------------------
def test_run_prints_results_like_iree_run_module(vmfb, capsys):
    assert run(vmfb, "--input=2x2xf32=1,2,3,4", "--input=f32=0.5") == 0
    assert capsys.readouterr().out == "EXEC @main\nresult[0]: hal.buffer_view\n2x2xf32=[0.5 1][1.5 2]\n"
    # A bare value is typed by the signature; several results print in order.
    assert run(vmfb, "--function=logic", "--input=4xi1=1,0,1,1", "--input=5 6 -7", "--device=local-sync") == 0
    assert capsys.readouterr().out == ("EXEC @logic\nresult[0]: hal.buffer_view\n4xi1=0 1 0 0\n"
                                       "result[1]: hal.buffer_view\n3xi32=10 12 -14\n")


def test_expected_output_match_and_mismatch(vmfb, capsys):
    argv = [vmfb, "--input=2x2xf32=1,2,3,4", "--input=f32=3"]
    # As iree-run-module: with --expected_output only the comparison prints.
    assert run(*argv, "--expected_output=2x2xf32=3,6,9,12") == 0
    success = "[SUCCESS] all function outputs matched their expected values.\n"
    assert capsys.readouterr().out == f"EXEC @main\n{success}"
    assert run(*argv, "--expected_output=2x2xf32=3,6,9,12.5") == ExitCode.FAILURE
    assert capsys.readouterr().out == (
        "EXEC @main\n[FAILED] result[0]: 1 of 4 element(s) differ (atol=0.0001, rtol=1e-05); first at "
        "index [1, 1]: expected 12.5, got 12.\n  expected:\n2x2xf32=[3 6][9 12.5]\n"
        "  actual:\n2x2xf32=[3 6][9 12]\n")
    # Tolerances: iree-run-module's flags, and hlo-run's --atol for every float type.
    assert run(*argv, "--expected_output=2x2xf32=3,6,9,12.5", "--atol=0.6") == 0
    assert run(*argv, "--expected_output=2x2xf32=3,6,9,12.5", "--expected_f32_threshold=0.6f") == 0
    assert run(*argv, "--expected_output=2x2xf32=3,6,9,12.5", "--expected_f16_threshold=0.6") == 1
    assert run(*argv, "--expected_output=2x2xf32=3,6,9,12.5", "--expected_rtol=0.05") == 0
    assert run(*argv, "--expected_output=2x2xf32=3,6,9,12.5", "--rtol=0.05") == 0  # the earlier spelling
    # iree-run-module's default rtol (1e-05): 12.0001 is within 1e-4 + 1.2e-4 of 12.
    assert run(*argv, "--expected_output=2x2xf32=3,6,9,12.0002") == 0
    assert run(*argv, "--expected_output=2x2xf32=3,6,9,12.0002", "--expected_rtol=0") == 1
    capsys.readouterr()
    assert run(*argv, "--expected_output=2x2xf32=3,6,9,12.00001", "--equality_mode=exact") == 1
    assert "1 of 4 element(s) differ (exact); first at index [1, 1]" in capsys.readouterr().out
    assert run(*argv, "--expected_output=2x2xf32=3,6,9,12", "--equality_mode=exact") == 0
    assert run(*argv, "--expected_output=2x2xi32=3,6,9,12") == ExitCode.FAILURE
    assert "expected 2x2xi32, got 2x2xf32." in capsys.readouterr().out
    assert run(*argv, "--expected_output=(ignored)") == 0


def test_expected_output_integers_are_exact(vmfb, capsys):
    argv = [vmfb, "--function=logic", "--input=4xi1=1,0,1,1", "--input=3xi32=1,2,3"]
    assert run(*argv, "--expected_output=4xi1=0,1,0,0", "--expected_output=2,4,6") == 0
    assert run(*argv, "--expected_output=4xi1=0,1,0,1", "--expected_output=2,4,6", "--atol=10") == 1
    assert "[FAILED] result[0]: 1 of 4 element(s) differ; first at index [3]: expected 1, got 0." in \
        capsys.readouterr().out


def test_outputs_to_npy_files(vmfb, tmp_path, capsys):
    argv = [vmfb, "--function=logic", "--input=4xi1=1", "--input=3xi32=1,2,3"]
    assert run(*argv, f"--output=@{tmp_path / 'p.npy'}", "--output=-", f"--output-dir={tmp_path}/all") == 0
    out = capsys.readouterr().out
    assert out == "EXEC @logic\nhal.buffer_view\n3xi32=2 4 6\n"
    np.testing.assert_array_equal(np.load(tmp_path / "p.npy"), [False] * 4)
    np.testing.assert_array_equal(np.load(tmp_path / "all" / "result1.npy"), np.array([2, 4, 6], np.int32))
    assert sorted(os.listdir(tmp_path / "all")) == ["result0.npy", "result1.npy"]
    # "+" appends arrays to one file; an empty spec skips a result.
    assert run(*argv, f"--output=+{tmp_path / 'both.npy'}", f"--output=+{tmp_path / 'both.npy'}") == 0
    assert run(*argv, "--output=", f"--output=+{tmp_path / 'both.npy'}") == 0
    with open(tmp_path / "both.npy", "rb") as f:
        arrays = [np.load(f) for _ in range(3)]
    assert [a.tolist() for a in arrays] == [[False] * 4, [2, 4, 6], [2, 4, 6]]


def test_mlir_input_is_compiled_first(tmp_path, capsys):
    (tmp_path / "m.mlir").write_text(MODULE)
    argv = ["--input=2x2xf32=1", "--input=f32=-2", "--expected_output=2x2xf32=-2"]
    assert run(tmp_path / "m.mlir", *argv) == 0
    assert os.listdir(tmp_path) == ["m.mlir"]  # nothing written


@pytest.mark.parametrize("argv, code, message", [
    (["--input=2x2xf32=1,2,3", "--input=f32=1"], ExitCode.USAGE, "--input 0 ('2x2xf32=1,2,3'): 3 values"),
    (["--input=2x2xf32=1", "--input=f32=1=2"], ExitCode.USAGE, "accepted forms: 2x2xf32=1,2,3,4"),
    # An --input that does not fit the signature is a usage error, checked before any value
    # is read or allocated (a huge shape is no MemoryError).
    (["--input=2x2xf32=1"], ExitCode.USAGE, "main takes 2 input(s) (f32[2,2], f32[]) -> (f32[2,2]); got 1"),
    (["--input=2x2xi32=1", "--input=f32=1"], ExitCode.USAGE,
     "--input 0 ('2x2xi32=1'): main: argument 0: expected f32[2,2]; got s32[2,2]."),
    (["--input=100000000000xf32=1", "--input=f32=1"], ExitCode.USAGE,
     "--input 0 ('100000000000xf32=1'): main: argument 0: expected f32[2,2]; got f32[100000000000]."),
    (["--input=2x2xf32=1", "--input=99999999999x99999999999xf32=1"], ExitCode.USAGE,
     "main: argument 1: expected f32[]; got f32[99999999999,99999999999]."),
    (["--input=@{npy}", "--input=f32=1"], ExitCode.USAGE, "main: argument 0: expected f32[2,2]; got f32[3]."),
    (["--input=1", "--input=1", "--function=mian"], ExitCode.USAGE,
     "--function requires a function of '{vmfb}', one of ['dynamic', 'logic', 'main']; got 'mian'; "
     "did you mean 'main'?"),
    (["--input=1", "--input=1", "--device=tpu"], ExitCode.USAGE,
     "argument --device: expected a driver in ['cuda', 'local-sync', 'local-task', 'vulkan']; got 'tpu'."),
    (["--input=1", "--input=1", "--device=local_sync"], ExitCode.USAGE, "got 'local_sync'; did you mean "
                                                                       "'local-sync'?"),
    (["--input=1", "--input=1", "--device=vulkan://0"], ExitCode.USAGE,
     "argument --device: expected a driver's default device, 'vulkan' or 'vulkan://'; got 'vulkan://0'"),
    (["--input=1", "--input=1", "--expected_output=1", "--expected_output=1"], ExitCode.USAGE,
     "2 --expected_output value(s) for 1 result(s)."),
    (["--input=1", "--input=1", "--output=-", "--output=-"], ExitCode.USAGE,
     "2 --output flag(s) for 1 result(s)."),
    (["--input=1", "--input=1", "--equality_mode=close"], ExitCode.USAGE, "invalid choice: 'close'"),
    (["--input=1", "--input=1", "--output_max_element_count=-1"], ExitCode.USAGE,
     "argument --output_max_element_count: expected a count of 0 or more; got '-1'"),
    (["--input=1", "--input=1", "--module={vmfb}"], ExitCode.USAGE,
     "hlo-run requires one module, as the positional argument or --module; got 2: '{vmfb}', '{vmfb}'."),
    (["--input=1", "--input=1", "--output=o.npy"], ExitCode.USAGE, "--output 0 ('o.npy'): expected @file"),
])
def test_usage_and_input_errors(vmfb, tmp_path, capsys, argv, code, message):
    np.save(tmp_path / "three.npy", np.zeros(3, np.float32))
    assert run(vmfb, *[a.format(npy=tmp_path / "three.npy", vmfb=vmfb) for a in argv]) == code
    out, err = capsys.readouterr()
    assert message.format(vmfb=vmfb) in err
    assert "Traceback" not in err and out == ""  # checked before the run


def test_expected_output_of_another_shape_fails_without_reading_it(vmfb, capsys):
    argv = [vmfb, "--input=2x2xf32=1", "--input=f32=1"]
    assert run(*argv, "--expected_output=100000000000xf32=1") == ExitCode.FAILURE
    out, err = capsys.readouterr()
    assert "[FAILED] result[0]: expected 100000000000xf32, got 2x2xf32." in out and err == ""


@pytest.mark.parametrize("flag, message", [
    ("--output-dir={vmfb}/sub", "cannot use --output-dir '{vmfb}/sub': '{vmfb}' is a file, not a folder."),
    ("--output-dir={vmfb}/a/b", "cannot use --output-dir '{vmfb}/a/b': '{vmfb}' is a file, not a folder."),
    ("--output=@{tmp}", "--output 0: cannot write '{tmp}': it is a folder."),
    ("--output=@{tmp}/no/such/r.npy",
     "--output 0: cannot write '{tmp}/no/such/r.npy': folder '{tmp}/no/such' does not exist."),
])
def test_unusable_output_destinations_fail_before_the_run(vmfb, tmp_path, capsys, flag, message):
    argv = [vmfb, "--input=2x2xf32=1", "--input=f32=1", flag.format(vmfb=vmfb, tmp=tmp_path)]
    assert run(*argv) == ExitCode.INPUT
    out, err = capsys.readouterr()
    assert err == f"hlo-run: error: {message.format(vmfb=vmfb, tmp=tmp_path)}\n"
    assert out == "" and os.listdir(tmp_path) == []


def test_output_dir_that_cannot_be_created_is_an_error(vmfb, tmp_path, capsys):
    # /proc refuses new folders even to root; nothing else is written either.
    argv = [vmfb, "--input=2x2xf32=1", "--input=f32=1", f"--output=@{tmp_path / 'r.npy'}"]
    assert run(*argv, "--output-dir=/proc/hlo-mlir-test") == ExitCode.INPUT
    err = capsys.readouterr().err
    assert err.startswith("hlo-run: error: could not create --output-dir '/proc/hlo-mlir-test': ")
    assert "Traceback" not in err and os.listdir(tmp_path) == []


def test_outputs_are_written_all_or_none(vmfb, tmp_path, capsys):
    # result1.npy is a folder: neither it nor the --output file is written.
    (tmp_path / "dir" / "result0.npy").mkdir(parents=True)
    argv = [vmfb, "--input=2x2xf32=1", "--input=f32=1", f"--output=@{tmp_path / 'r.npy'}",
            f"--output-dir={tmp_path / 'dir'}"]
    assert run(*argv) == ExitCode.INPUT
    assert (f"could not write '{tmp_path / 'dir' / 'result0.npy'}': Is a directory; no output file written."
            in capsys.readouterr().err)
    assert sorted(os.listdir(tmp_path)) == ["dir"] and os.listdir(tmp_path / "dir") == ["result0.npy"]


def test_mlir_without_a_function_is_an_input_error(tmp_path, capsys):
    (tmp_path / "empty.mlir").write_text("")
    assert run(tmp_path / "empty.mlir") == ExitCode.INPUT
    assert f"{tmp_path / 'empty.mlir'}: the module has no public function" in capsys.readouterr().err


def test_compile_crash_of_an_mlir_input_is_reported_as_a_compiler_crash(tmp_path):
    # sitecustomize makes hlo_mlir.compiler.compile segfault in the child, standing in
    # for the IREE compiler crashing on the module.
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(
        "import os, signal\nimport hlo_mlir.compiler\n"
        "hlo_mlir.compiler.compile = lambda *a, **k: os.kill(os.getpid(), signal.SIGSEGV)\n")
    (tmp_path / "m.mlir").write_text(MODULE)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, str(tmp_path / "site")]))
    r = subprocess.run([sys.executable, "-m", "hlo_mlir.tools.hlo_run", str(tmp_path / "m.mlir"), "--input=1",
                        "--input=1"], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == ExitCode.COMPILE, r.stderr
    assert r.stderr.startswith(f"hlo-run: error: the IREE compiler (compiling '{tmp_path / 'm.mlir'}' for "
                               "llvm-cpu) crashed (SIGSEGV) in a child process")
    assert "runtime" not in r.stderr


def test_missing_module_file(tmp_path, capsys):
    assert run(tmp_path / "none.vmfb", "--input=1") == ExitCode.INPUT
    assert "could not read" in capsys.readouterr().err
    assert main([]) == ExitCode.USAGE
    assert "hlo-run requires one module, as the positional argument or --module; got 0." in \
        capsys.readouterr().err


# --- corrupted and mismatched vmfbs ------------------------------------------------------------
def test_truncated_vmfb_is_an_input_error(vmfb, tmp_path, capsys):
    data = vmfb.read_bytes()
    for size in (0, 3, 100, len(data) // 3, len(data) * 2 // 3):
        (tmp_path / "t.vmfb").write_bytes(data[:size])
        assert run(tmp_path / "t.vmfb", "--input=1", "--input=1") == ExitCode.INPUT, size
        err = capsys.readouterr().err
        assert err.startswith(f"hlo-run: error: could not load '{tmp_path / 't.vmfb'}'")
        assert "Traceback" not in err


def test_flipped_bytes_with_manifest_are_refused(vmfb, tmp_path, capsys):
    data = bytearray(vmfb.read_bytes())
    data[len(data) // 2] ^= 0x01
    (tmp_path / "m.vmfb").write_bytes(bytes(data))
    with open(artifacts.manifest_path(vmfb), "rb") as f:
        (tmp_path / "m.vmfb.manifest.json").write_bytes(f.read())
    assert run(tmp_path / "m.vmfb", "--input=1", "--input=1") == ExitCode.INPUT
    err = capsys.readouterr().err
    assert "does not match its manifest" in err
    assert artifacts.sha256_hex(bytes(data)) in err and artifacts.read_manifest(vmfb).sha256 in err


def test_flipped_bytes_without_manifest_never_crash_hlo_run(vmfb, tmp_path):
    """Without a manifest nothing detects every corruption: some flips still run, some fail
    to load, and flipped machine code crashes the runtime. The isolated child turns each
    into a documented exit code with a message, never a signal or a traceback."""
    data = vmfb.read_bytes()
    seen = set()
    for fraction in (0.0, 0.1, 0.25, 0.5, 0.7, 0.85):
        corrupted = bytearray(data)
        start = int(len(data) * fraction)
        for i in range(start, min(start + 64, len(data))):
            corrupted[i] ^= 0xA5
        (tmp_path / "f.vmfb").write_bytes(bytes(corrupted))
        r = _child(tmp_path / "f.vmfb", "--input=1", "--input=1")
        assert r.returncode in (ExitCode.OK, ExitCode.INPUT, ExitCode.RUNTIME), (fraction, r.stderr)
        assert "Traceback" not in r.stderr
        if r.returncode:
            assert r.stderr.startswith("hlo-run: error: ")
        seen.add(r.returncode)
    assert ExitCode.INPUT in seen  # the flatbuffer header at offset 0 is always checked


def test_isolated_run_end_to_end(vmfb):
    r = _child(vmfb, "--input=2x2xf32=1,2,3,4", "--input=f32=2", "--expected_output=2x2xf32=[2 4][6 8]",
               "--output=-")
    assert r.returncode == 0, r.stderr
    assert r.stdout == ("EXEC @main\nhal.buffer_view\n2x2xf32=[2 4][6 8]\n"
                        "[SUCCESS] all function outputs matched their expected values.\n")
    r = _child("--help")
    assert r.returncode == 0 and "6    runtime error" in r.stdout and "@x.npy" in r.stdout


# --- iree-run-module's flags, checked against the pinned binary ----------------------------------
def _iree_run_module() -> str:
    """The pinned iree-base-runtime wheel's iree-run-module binary."""
    from iree._runtime import libs

    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        pins = tomllib.load(f)["project"]["dependencies"]
    assert f"iree-base-runtime=={importlib.metadata.version('iree-base-runtime')}" in pins
    return os.path.join(libs.library_path, "iree-run-module")


@pytest.fixture(scope="module")
def iree_run_module_flags() -> set[str]:
    """The flags the pinned ``iree-run-module --help`` declares: ``--name=default`` lines,
    and ``# --name=...`` for those without a default."""
    r = subprocess.run([_iree_run_module(), "--help"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    flags = set(re.findall(r"^(?:# )?(--[a-z0-9_]+)(?:=|$)", r.stdout, re.M))
    assert {"--module", "--function", "--input", "--output", "--help"} <= flags, flags
    return flags


def _group_flags(title: str) -> set[str]:
    group = next(g for g in hlo_run._parser()._action_groups if g.title == title)
    return {name for action in group._group_actions for name in action.option_strings}


def test_flags_shared_with_iree_run_module_are_spelled_as_it_spells_them(iree_run_module_flags):
    shared = _group_flags(hlo_run.IREE_GROUP)
    assert shared >= {"--module", "--function", "--device", "--input", "--output", "--expected_output",
                      "--output_max_element_count", "--expected_f16_threshold", "--expected_bf16_threshold",
                      "--expected_f32_threshold", "--expected_f64_threshold", "--expected_rtol",
                      "--equality_mode", "--flagfile"}
    assert shared - iree_run_module_flags == set()
    # and the flags --help calls hlo-run's own are indeed not iree-run-module's
    own = _group_flags("hlo-run's own flags (iree-run-module has none of these)")
    assert "--output-dir" in own and own & iree_run_module_flags == set()


def test_help_is_plain_text_about_hlo_run(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "``" not in out and not re.search(r":(class|func|mod):", out)  # no reST markup
    assert "hlo-compile" not in out and "hlo-opt" not in out
    assert "flags of iree-run-module (same spelling and meaning):\n  --module PATH" in out
    assert "hlo-run's own flags (iree-run-module has none of these):" in out
    assert "exit codes:\n  0    success\n  1    failure: outputs differ from --expected_output\n" in out
    # the earlier spellings still work but are not shown
    for hidden in ("--print_max_element_count", "--print-max-element-count", "--expected-output", "--driver"):
        assert hidden not in out
    assert not re.search(r"(?<![\w-])--rtol", out)


def _write_inputs(folder) -> None:
    with open(folder / "x.npy", "wb") as f:
        np.save(f, np.array([[1, 2], [3, 4]], np.float32))
        np.save(f, np.float32(3))
    (folder / "flags.txt").write_text("--function=main\n# a comment\n\n--input=2x2xf32=1 2 3 4\n"
                                      "  --input=f32=3 \n")


_MAIN = ["--function=main", "--input=2x2xf32=1,2,3,4", "--input=f32=3"]  # main returns [[3 6][9 12]]


@pytest.mark.parametrize("flags", [
    [*_MAIN],
    [*_MAIN, "--output_max_element_count=3"],
    [*_MAIN, "--output_max_element_count=0"],
    [*_MAIN, "--output=-"],
    [*_MAIN, "--output="],
    [*_MAIN, "--output=@{out}/r.npy"],
    [*_MAIN, "--output=+{out}/r.npy"],
    [*_MAIN, "--output=@{out}/r.bin"],
    ["--function=main", "--input=@{in}/x.npy", "--input=+{in}/x.npy"],
    ["--flagfile={in}/flags.txt"],
    [*_MAIN, "--device=local-sync"],
    [*_MAIN, "--device=local-task://"],
    [*_MAIN, "--expected_output=2x2xf32=3,6,9,12"],
    [*_MAIN, "--expected_output=(ignored)"],
    # iree-run-module's default tolerances: |12.0002 - 12| <= 1e-4 + 1e-5 * 12.0002
    [*_MAIN, "--expected_output=2x2xf32=3,6,9,12.0002"],
    [*_MAIN, "--expected_output=2x2xf32=3,6,9,12.0002", "--expected_rtol=0"],
    [*_MAIN, "--expected_output=2x2xf32=3,6,9,12.5", "--expected_f32_threshold=0.6"],
    [*_MAIN, "--expected_output=2x2xf32=3,6,9,12.00001", "--equality_mode=exact"],
], ids=lambda flags: " ".join(flags[1:] if flags[0] == "--function=main" else flags))
def test_same_results_as_iree_run_module(vmfb, tmp_path, capsys, flags):
    """hlo-run and the pinned iree-run-module, given the same flags, exit with the same code,
    print the same (when they succeed) and write the same bytes."""
    (tmp_path / "in").mkdir()
    _write_inputs(tmp_path / "in")
    argv = {tool: [f"--module={vmfb}",
                   *(f.format(out=tmp_path / tool, **{"in": tmp_path / "in"}) for f in flags)]
            for tool in ("iree", "hlo")}
    for tool in argv:
        (tmp_path / tool).mkdir()
    iree = subprocess.run([_iree_run_module(), *argv["iree"]], capture_output=True, text=True, timeout=60)
    code = run(*argv["hlo"])
    out = capsys.readouterr().out
    assert code == iree.returncode, iree.stderr
    if code == 0:
        assert out == iree.stdout
    assert sorted(os.listdir(tmp_path / "hlo")) == sorted(os.listdir(tmp_path / "iree"))
    for name in os.listdir(tmp_path / "iree"):
        assert (tmp_path / "hlo" / name).read_bytes() == (tmp_path / "iree" / name).read_bytes(), name


def test_output_to_npy_file_numpy_loads_back(vmfb, tmp_path, capsys):
    argv = ["--module", vmfb, "--function=logic", "--input=4xi1=1,0,1,1", "--input=3xi32=1,2,3"]
    assert run(*argv, f"--output=@{tmp_path / 'p.npy'}", f"--output=@{tmp_path / 'i.bin'}") == 0
    assert capsys.readouterr().out == "EXEC @logic\n"
    loaded = np.load(tmp_path / "p.npy")
    assert loaded.dtype == np.bool_ and loaded.tolist() == [False, True, False, False]
    assert (tmp_path / "i.bin").read_bytes() == np.array([2, 4, 6], np.int32).tobytes()
    assert run(*argv, "--output=", f"--output=+{tmp_path / 'i.bin'}") == 0  # + appends raw bytes too
    assert (tmp_path / "i.bin").read_bytes() == np.array([2, 4, 6, 2, 4, 6], np.int32).tobytes()


def test_output_max_element_count(vmfb, capsys):
    argv = [vmfb, "--input=2x2xf32=1,2,3,4", "--input=f32=1"]
    for flag, printed in [("--output_max_element_count=3", "2x2xf32=[1 2][3...]"),
                          ("--output_max_element_count=0", "2x2xf32=[...][...]"),
                          ("--output_max_element_count=4", "2x2xf32=[1 2][3 4]"),
                          ("--print_max_element_count=1", "2x2xf32=[1...][...]")]:  # the earlier spelling
        assert run(*argv, flag) == 0
        assert capsys.readouterr().out == f"EXEC @main\nresult[0]: hal.buffer_view\n{printed}\n", flag


@pytest.mark.parametrize("function, inputs", [
    ("main", ["2x2xf32=1"]),
    ("main", ["2x2xf32=1", "f32=1", "f32=1"]),
    ("logic", []),
    # a dynamic shape: hlo-run cannot read the signature, IREE counts the arguments
    ("dynamic", ["2xf32=1"]),
    ("dynamic", ["2xf32=1", "2xf32=1", "2xf32=1"]),
])
def test_wrong_number_of_inputs_is_a_usage_error(vmfb, capsys, function, inputs):
    assert run(vmfb, f"--function={function}", *[f"--input={i}" for i in inputs]) == ExitCode.USAGE
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"hlo-run: error: {function} takes 2 input(s)")
    assert err.endswith(f"; got {len(inputs)} --input flag(s).\n")


def test_wrong_number_of_inputs_exit_code_on_the_command_line(vmfb):
    r = _child(vmfb, "--function=dynamic", "--input=2xf32=1")
    assert r.returncode == ExitCode.USAGE
    assert r.stdout == "" and r.stderr == "hlo-run: error: dynamic takes 2 input(s); got 1 --input flag(s).\n"


class _Loaded:
    def __init__(self, *names):
        self.functions = {name: f"<{name}>" for name in names}

    def __getitem__(self, name):
        return self.functions[name]


@pytest.mark.parametrize("names, flag, chosen", [
    (["only"], None, "only"),
    (["f", "main"], None, "main"),
    (["f", "main"], "f", "f"),
])
def test_function_default_is_the_only_one_else_main(names, flag, chosen):
    args = hlo_run.parse_args(["m.vmfb"] + ([f"--function={flag}"] if flag else []))
    assert hlo_run._function(args, _Loaded(*names)) == f"<{chosen}>" and args.function == chosen


@pytest.mark.parametrize("names, flag, code, message", [
    (["f", "g"], None, ExitCode.USAGE,
     "hlo-run requires --function for a module with several functions and no main; got 'm.vmfb' with "
     "['f', 'g']."),
    ([], None, ExitCode.INPUT, "'m.vmfb' exports no function to run."),
    (["forward"], "froward", ExitCode.USAGE,
     "--function requires a function of 'm.vmfb', one of ['forward']; got 'froward'; "
     "did you mean 'forward'?"),
])
def test_function_errors(names, flag, code, message):
    args = hlo_run.parse_args(["m.vmfb"] + ([f"--function={flag}"] if flag else []))
    with pytest.raises(hlo_run.ToolError) as info:
        hlo_run._function(args, _Loaded(*names))
    assert (info.value.code, str(info.value)) == (code, message)


def test_flagfile_errors(tmp_path, capsys):
    assert main(["m.vmfb", f"--flagfile={tmp_path / 'none.txt'}"]) == ExitCode.INPUT
    assert capsys.readouterr().err == ("hlo-run: error: could not read --flagfile "
                                       f"'{tmp_path / 'none.txt'}': No such file or directory.\n")
    (tmp_path / "loop.txt").write_text(f"--flagfile={tmp_path / 'loop.txt'}\n")
    assert main(["m.vmfb", f"--flagfile={tmp_path / 'loop.txt'}"]) == ExitCode.USAGE
    assert "--flagfile requires at most 8 nested flagfiles" in capsys.readouterr().err


@pytest.mark.parametrize("device, message, code, error", [
    # the runtime lacks the driver here: a runtime error
    ("cuda", "could not load the vmfb on driver 'cuda': the IREE runtime has no usable 'cuda' driver here: "
             "Error creating driver: UNAVAILABLE; CUDA driver library 'libcuda.so' not available",
     ExitCode.RUNTIME, "could not load 'm.vmfb': could not load the vmfb on driver 'cuda': the IREE runtime "
                       "has no usable 'cuda' driver here"),
    # --device names a driver the vmfb was not compiled for: a usage error, said in one line
    ("vulkan", "could not load the vmfb on driver 'vulkan' (the vmfb was compiled for a target that driver "
               "'vulkan' cannot run): Error creating vm context with modules: <vm>:0: INCOMPATIBLE; "
               "HAL device `__device_0` not found or unavailable: #hal.device.target<\"local\", "
               "[#hal.executable.target<\"llvm-cpu\", \"embedded-elf-x86_64\", {cpu = \"znver4\"}>]>; ",
     ExitCode.USAGE, "--device 'vulkan' cannot run 'm.vmfb', compiled for llvm-cpu; run it without --device, "
                     "or compile it for vulkan-spirv."),
    (None, "could not load the vmfb: Error creating vm module: FlatBuffer verification failed",
     ExitCode.INPUT, "could not load 'm.vmfb': could not load the vmfb: Error creating vm module: "
                     "FlatBuffer"),
])
def test_load_errors_get_the_exit_code_of_their_cause(device, message, code, error):
    args = hlo_run.parse_args(["m.vmfb"] + ([f"--device={device}"] if device else []))
    e = hlo_run._load_error(args, message)
    assert e.code == code and str(e).startswith(error)
