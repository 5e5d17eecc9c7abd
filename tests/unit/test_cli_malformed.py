"""Malformed inputs to hlo-opt, hlo-compile and hlo-run: each is a one-line
``<tool>: error: ...`` with its documented exit code, never a traceback, and no file
is left behind.

The tools run in process (``main(argv)``, ``--no-isolate``) in a folder of prepared
files: garbage bytes, non-UTF-8 text, folders where files belong, missing files,
Python build scripts that misbehave, and bad flags and value specs.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from hlo_mlir.tools import ExitCode, hlo_compile, hlo_opt, hlo_run

ADD = """func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""
SCRIPTS = {
    "syntax.py": "def build(:\n",
    "none.py": "def build():\n    return None\n",
    "text.py": "def build():\n    return 'not mlir'\n",
    "generator_exit.py": "def build():\n    raise GeneratorExit\n",
    "recursion.py": "def f():\n    return f()\ndef build():\n    return f()\n",
    "not_callable.py": "build = 5\n",
    "needs_argument.py": "def build(x):\n    return x\n",
}
TOOLS = {"hlo-opt": hlo_opt.main, "hlo-compile": hlo_compile.main, "hlo-run": hlo_run.main}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """Prepared inputs; add.vmfb is compiled once."""
    root = tmp_path_factory.mktemp("malformed")
    rng = np.random.default_rng(9)
    (root / "add.mlir").write_text(ADD)
    (root / "garbage.bin").write_bytes(rng.integers(0, 256, 3000, dtype=np.uint8).tobytes())
    (root / "garbage.mlir").write_bytes((root / "garbage.bin").read_bytes())
    (root / "latin1.mlir").write_bytes(ADD.replace("}\n", "} // caf\xe9\n", 1).encode("latin-1"))
    (root / "not_npy.npy").write_bytes(b"hello")
    for name, text in SCRIPTS.items():
        (root / name).write_text(text)
    for name in ("a_folder", "folder.mlir", "folder.vmfb"):
        (root / name).mkdir()
    cwd = os.getcwd()
    os.chdir(root)
    try:
        assert hlo_compile.main(["add.mlir", "-o", "add.vmfb", "--no-isolate"]) == 0
    finally:
        os.chdir(cwd)
    return root


C, R, O = "hlo-compile", "hlo-run", "hlo-opt"
USAGE, INPUT = ExitCode.USAGE, ExitCode.INPUT
CASES = [
    # hlo-compile: inputs
    (C, ["garbage.mlir"], INPUT, "garbage.mlir is not UTF-8 text (byte 1), nor MLIR bytecode, an IREE "
                                 "module (vmfb) or a numpy array; hlo-compile reads MLIR text or bytecode, "
                                 "or a Python build script."),
    (C, ["latin1.mlir"], INPUT, "latin1.mlir is not UTF-8 text (byte "),
    (C, ["add.vmfb"], INPUT, "add.vmfb is an IREE module (vmfb); run it with hlo-run."),
    (C, ["folder.mlir", "-o", "x.vmfb"], INPUT, "could not read 'folder.mlir': Is a directory."),
    (C, ["missing.mlir"], INPUT, "could not read 'missing.mlir': No such file or directory."),
    (C, ["syntax.py"], INPUT,
     "invalid syntax (syntax.py, line 1) (SyntaxError raised by build() in syntax.py)"),
    (C, ["none.py"], INPUT,
     "compile requires an XlaComputation, HloModule, ir.Module, MLIR text or bytecode; got NoneType."),
    (C, ["text.py"], INPUT, "could not parse MLIR input"),
    (C, ["generator_exit.py"], INPUT, "GeneratorExit raised by build() in generator_exit.py"),
    (C, ["recursion.py"], INPUT, "maximum recursion depth exceeded (RecursionError raised by build()"),
    (C, ["not_callable.py"], INPUT, "not_callable.py has no function 'build' (choose one with --entry)."),
    (C, ["needs_argument.py"], INPUT, "build() missing 1 required positional argument: 'x' (TypeError"),
    # hlo-compile: outputs and flags
    (C, ["add.mlir", "-o", "a_folder"], INPUT, "cannot write 'a_folder': it is a folder."),
    (C, ["add.mlir", "-o", "no/such/x.vmfb"], INPUT, "cannot write 'no/such/x.vmfb': folder"),
    (C, ["add.mlir", "-o", ""], USAGE, "-o/--output requires a file name; got an empty one."),
    (C, ["add.mlir", "--timeout", "-1"], USAGE, "argument --timeout: expected a positive number of seconds"),
    (C, ["add.mlir", "--timeout", "nan"], USAGE, "argument --timeout: expected a positive number of seconds"),
    (C, ["add.mlir", "--bogus"], USAGE, "unrecognized arguments: --bogus"),
    (C, ["add.mlir", "-o", "x.vmfb", "-X", "garbage"], USAGE,
     "compile requires flags of the form --name[=value]"),
    (C, ["add.mlir", "-o", "x.vmfb", "-p", "algsimp{"], USAGE, "unclosed '{' in pass options."),
    # hlo-run: modules
    (R, ["garbage.bin", "--input=1"], INPUT,
     "garbage.bin is not UTF-8 text (byte 1), nor MLIR bytecode, an IREE module (vmfb) or a numpy array; "
     "hlo-run runs a vmfb, or MLIR text or bytecode (compiled first)."),
    (R, ["syntax.py", "--input=1"], INPUT,
     "syntax.py is Python source; hlo-compile takes it (calling its build function, or the one --entry "
     "names)."),
    (R, ["add.mlir.vmfb", "--input=1"], INPUT, "could not read 'add.mlir.vmfb': No such file or directory."),
    (R, ["folder.vmfb"], INPUT, "could not read 'folder.vmfb': is a folder."),
    (R, ["garbage.mlir", "--input=1"], INPUT, "garbage.mlir is not UTF-8 text (byte 1), nor MLIR bytecode"),
    (R, ["add.mlir", "--input=1", "-X", "--iree-no-such-flag"], USAGE, "IREE rejected the compile flags"),
    # hlo-run: --input syntax and files
    (R, ["add.vmfb", "--input=="], USAGE, "expected <dims>x<type> like 2x2xf32 before '='; got ''."),
    (R, ["add.vmfb", "--input=2x=1"], USAGE, "expected <dims>x<type> like 2x2xf32 before '='; got '2x'."),
    (R, ["add.vmfb", "--input=-1xf32=1"], USAGE,
     "expected <dims>x<type> like 2x2xf32 before '='; got '-1xf32'."),
    (R, ["add.vmfb", "--input=4xq7=1"], USAGE, "unknown element type 'q7'"),
    (R, ["add.vmfb", "--input=4xf32=1,2,\udcff"], USAGE,
     "'\\udcff' is not a valid float32 value."),  # non-UTF-8 argv
    (R, ["add.vmfb", "--input=@a_folder"], INPUT, "could not read 'a_folder': Is a directory."),
    (R, ["add.vmfb", "--input=4xf32=+missing.bin"], INPUT, "could not read 'missing.bin': No such file"),
    (R, ["add.vmfb", "--input=@not_npy.npy"], INPUT, "could not read an array from 'not_npy.npy'"),
    (R, ["add.vmfb", "--input=4xi1=1"], USAGE, "main: argument 0: expected f32[4]; got pred[4]."),
    # hlo-run: flags and outputs
    (R, ["add.vmfb", "--input=4xf32=1", "--print_max_element_count=-1"], USAGE,
     "expected a count of 0 or more"),
    (R, ["add.vmfb", "--input=4xf32=1", "--timeout=0"], USAGE, "expected a positive number of seconds"),
    (R, ["add.vmfb", "--input=4xf32=1", "--atol=x"], USAGE, "argument --atol: invalid float value: 'x'"),
    (R, ["add.vmfb", "--input=4xf32=1", "--output=x.npy"], USAGE, "--output 0 ('x.npy'): expected @file"),
    (R, ["add.vmfb", "--input=4xf32=1", "--output=-", "--output=-"], USAGE,
     "2 --output flag(s) for 1 result(s)."),
    (R, ["add.vmfb", "--input=4xf32=1", "--output=@a_folder"], INPUT,
     "--output 0: cannot write 'a_folder': it is"),
    (R, ["add.vmfb", "--input=4xf32=1", "--output-dir=add.vmfb/sub"], INPUT,
     "cannot use --output-dir 'add.vmfb/sub': "),
    # hlo-opt
    (O, ["garbage.mlir"], INPUT, "garbage.mlir is not UTF-8 text (byte 1), nor MLIR bytecode"),
    (O, ["latin1.mlir"], INPUT, "latin1.mlir is not UTF-8 text (byte 134), nor MLIR bytecode, an IREE module "
                                "(vmfb) or a numpy array; hlo-opt reads MLIR text or bytecode."),
    (O, ["add.vmfb"], INPUT, "add.vmfb is an IREE module (vmfb); run it with hlo-run."),
    (O, ["syntax.py"], INPUT, "syntax.py is Python source; hlo-compile takes it"),
    (O, ["a_folder"], INPUT, "cannot read a_folder: Is a directory"),
    (O, ["missing.mlir"], INPUT, "cannot read missing.mlir: No such file or directory"),
    (O, ["add.mlir", "-o", "a_folder"], INPUT, "cannot write a_folder: Is a directory"),
    (O, ["add.mlir", "-p", "nope"], USAGE, "unknown pass 'nope'"),
]


@pytest.mark.parametrize("tool, argv, code, message", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_malformed_input_is_a_clear_error(folder, capsys, monkeypatch, tool, argv, code, message):
    monkeypatch.chdir(folder)
    before = sorted(os.listdir(folder))
    argv = argv + ([] if tool == O else ["--no-isolate"])
    assert TOOLS[tool](argv) == code
    out, err = capsys.readouterr()
    assert message in err, err
    assert "Traceback" not in err
    assert any(line.startswith((f"{tool}: error: ", "usage: ")) for line in err.splitlines()), err
    assert sorted(os.listdir(folder)) == before  # nothing written, no temporary left


def test_hlo_opt_reports_malformed_bytecode(folder, capsys, monkeypatch, tmp_path):
    (tmp_path / "m.mlirbc").write_bytes(b"ML\xefR" + bytes(range(128, 200)))
    assert hlo_opt.main([str(tmp_path / "m.mlirbc")]) == INPUT
    err = capsys.readouterr().err
    assert f"{tmp_path / 'm.mlirbc'}:0:0: error: bytecode version " in err and "Traceback" not in err
