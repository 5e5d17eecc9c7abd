"""hlo-run: iree-run-module's value syntax, printing, outputs, expected-output checks,
exit codes, and corrupted or mismatched vmfbs.

Runs call ``main([..., "--no-isolate"])`` in process unless the child process is the point
(isolation from runtime crashes, the real command line).
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from hlo_mlir import artifacts
from hlo_mlir.shape import Shape
from hlo_mlir.tools import hlo_compile, value_specs
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
    assert run(*argv, "--expected_output=2x2xf32=3,6,9,12") == 0
    assert "[SUCCESS] all function outputs matched their expected values." in capsys.readouterr().out
    assert run(*argv, "--expected_output=2x2xf32=3,6,9,12.5") == ExitCode.FAILURE
    out = capsys.readouterr().out
    assert ("[FAILED] result[0]: 1 of 4 element(s) differ (atol=0.0001, rtol=0); first at index [1, 1]: "
            "expected 12.5, got 12.") in out
    # Tolerances: ours and iree-run-module's spelling.
    assert run(*argv, "--expected_output=2x2xf32=3,6,9,12.5", "--atol=0.6") == 0
    assert run(*argv, "--expected_output=2x2xf32=3,6,9,12.5", "--expected_f32_threshold=0.6f") == 0
    assert run(*argv, "--expected_output=2x2xf32=3,6,9,12.5", "--rtol=0.05") == 0
    assert run(*argv, "--expected_output=2x2xi32=3,6,9,12") == ExitCode.FAILURE
    assert "expected 2x2xi32, got 2x2xf32." in capsys.readouterr().out
    assert run(*argv, "--expected_output=(ignored)") == 0
    assert run(*argv, "--expected_output=1", "--expected_output=2") == ExitCode.FAILURE
    assert "2 --expected_output value(s) for 1 result(s)" in capsys.readouterr().out


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
    assert "result[0]" not in out and "result[1]: hal.buffer_view\n3xi32=2 4 6" in out
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
    (["--input=1", "--input=1", "--function=nope"], ExitCode.INPUT, "no function 'nope'; the module has"),
    (["--input=1", "--input=1", "--device=tpu"], ExitCode.USAGE, "invalid choice: 'tpu'"),
    (["--input=1", "--input=1", "--output=o.npy"], ExitCode.USAGE, "--output 0 ('o.npy'): expected @file"),
])
def test_usage_and_input_errors(vmfb, tmp_path, capsys, argv, code, message):
    np.save(tmp_path / "three.npy", np.zeros(3, np.float32))
    assert run(vmfb, *[a.format(npy=tmp_path / "three.npy") for a in argv]) == code
    out, err = capsys.readouterr()
    assert message in err
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
    assert "give the module once" in capsys.readouterr().err


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
    r = _child(vmfb, "--input=2x2xf32=1,2,3,4", "--input=f32=2", "--expected_output=2x2xf32=[2 4][6 8]")
    assert r.returncode == 0, r.stderr
    assert r.stdout == ("EXEC @main\nresult[0]: hal.buffer_view\n2x2xf32=[2 4][6 8]\n"
                        "[SUCCESS] all function outputs matched their expected values.\n")
    r = _child("--help")
    assert r.returncode == 0 and "6    runtime error" in r.stdout and "@x.npy" in r.stdout
