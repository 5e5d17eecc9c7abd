"""hlo-opt and hlo-compile as mlir-opt users expect them (issue 13): MLIR text and bytecode
in, ``-`` for stdin, ``--emit-bytecode`` out; mlir-opt's flag spellings with the short
forms as aliases; plain-text ``--help`` whose epilog speaks of its own tool; one exit-code
table; ``--list-passes`` columns that hold long names; and input-kind sniffing: a file of
the wrong kind is one line naming what it is and which tool takes it, exit code 3.

The tools run in process (``main(argv)``; hlo-compile and hlo-run with ``--no-isolate``).
Three IREE compiles in all (a vmfb for the sniffing tests, bytecode on hlo-compile's stdin,
MLIR text without an .mlir name through hlo-run).
"""

from __future__ import annotations

import io
import os
import re
import sys
import zipfile
from typing import ClassVar

import numpy as np
import pytest

from hlo_mlir.context import as_module, bytecode
from hlo_mlir.tools import EXIT_CODES_HELP, ExitCode, exit_codes_help, hlo_compile, hlo_opt, hlo_run
from hlo_mlir.tools.input_kind import HEAD_BYTES, InputKind, sniff, sniff_file, wrong_kind
from pipelines import registry
from pipelines.pass_base import Pass

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# negate(negate(x)) -> x (algsimp's involution rule); dce has nothing left to do.
MODULE = """\
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %x : tensor<4xf32>
  %1 = stablehlo.negate %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
"""
BUILD_SCRIPT = """\
from hlo_mlir import Parameter, Shape, XlaBuilder


def build():
    b = XlaBuilder("twice")
    x = Parameter(b, 0, Shape.parse("f32[4]"), "x")
    return b.build(x + x)
"""


def _stdin(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def _one_error_line(err: str, tool: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{tool}: error: "), err
    return lines[0][len(f"{tool}: error: "):]


@pytest.fixture
def folder(tmp_path, monkeypatch):
    (tmp_path / "m.mlir").write_text(MODULE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A Python build script without a .py name (known by its content) compiled by
    hlo-compile: the vmfb the sniffing tests use."""
    root = tmp_path_factory.mktemp("built")
    (root / "twice.build").write_text(BUILD_SCRIPT)
    vmfb = root / "twice.vmfb"
    assert hlo_compile.main([str(root / "twice.build"), "-o", str(vmfb), "--no-isolate"]) == 0
    return vmfb


# --- bytecode in and out, stdin ------------------------------------------------------------------
def test_emit_bytecode_round_trips_through_hlo_opt(folder, capsys):
    assert hlo_opt.main(["m.mlir", "-p", "algsimp", "--emit-bytecode", "-o", "out.mlirbc"]) == 0
    data = (folder / "out.mlirbc").read_bytes()
    assert data.startswith(b"ML\xefR")
    assert sniff_file("out.mlirbc") is InputKind.MLIR_BYTECODE
    capsys.readouterr()
    assert hlo_opt.main(["out.mlirbc"]) == 0  # bytecode in, text out
    from_bytecode = capsys.readouterr().out
    assert hlo_opt.main(["m.mlir", "-p", "algsimp"]) == 0
    assert from_bytecode == capsys.readouterr().out
    assert "stablehlo.negate" not in from_bytecode and "return %arg0" in from_bytecode


def test_emit_bytecode_to_a_pipe_and_bytecode_from_stdin(folder, capsysbinary, monkeypatch):
    assert hlo_opt.main(["m.mlir", "--emit-bytecode"]) == 0  # stdout is not a terminal here
    data = capsysbinary.readouterr().out
    assert data.startswith(b"ML\xefR") and data == bytecode(as_module(MODULE))
    _stdin(monkeypatch, data)
    assert hlo_opt.main(["-", "-p", "algsimp,dce"]) == 0
    out = capsysbinary.readouterr().out.decode()
    assert "func.func @main" in out and "stablehlo.negate" not in out


def test_emit_bytecode_refuses_a_terminal(folder, capsys, monkeypatch):
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert hlo_opt.main(["m.mlir", "--emit-bytecode"]) == ExitCode.USAGE
    out, err = capsys.readouterr()
    assert out == ""
    assert _one_error_line(err, "hlo-opt") == (
        "--emit-bytecode writes binary data, not to a terminal; give -o FILE or pipe the output.")
    assert hlo_opt.main(["m.mlir", "--emit-bytecode", "-o", "file.mlirbc"]) == 0  # a file is fine
    assert (folder / "file.mlirbc").read_bytes().startswith(b"ML\xefR")


def test_text_from_stdin_with_dash_or_no_argument(folder, capsys, monkeypatch):
    for argv in (["-"], []):
        _stdin(monkeypatch, MODULE.encode())
        assert hlo_opt.main([*argv, "-p", "algsimp"]) == 0
        assert "return %arg0" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["m.mlir", "--emit-bytecode", "--split-input-file"],
     "--emit-bytecode requires one module; got --split-input-file (bytecode has no '// -----' separator)."),
    (["m.mlirbc", "--split-input-file"],
     "--split-input-file requires MLIR text; got MLIR bytecode (m.mlirbc)."),
    (["m.mlirbc", "--verify-diagnostics"],
     "--verify-diagnostics requires MLIR text; got MLIR bytecode (m.mlirbc)."),
])
def test_bytecode_flag_combinations_are_usage_errors(folder, capsys, argv, message):
    (folder / "m.mlirbc").write_bytes(bytecode(as_module(MODULE)))
    assert hlo_opt.main(argv) == ExitCode.USAGE
    out, err = capsys.readouterr()
    assert out == "" and _one_error_line(err, "hlo-opt") == message


def test_hlo_compile_reads_bytecode_from_stdin(folder, capsys, monkeypatch):
    _stdin(monkeypatch, bytecode(as_module(MODULE)))
    assert hlo_compile.main(["-", "-o", "m.vmfb", "--no-manifest", "--no-isolate"]) == 0
    assert sniff_file("m.vmfb") is InputKind.VMFB


# --- mlir-opt's flag names, and the short forms as aliases ---------------------------------------
# As MLIR spells them (mlir/lib/Pass/PassManagerOptions.cpp, mlir/lib/Support/Timing.cpp,
# mlir/lib/IR/AsmPrinter.cpp, mlir/lib/Tools/mlir-opt/MlirOptMain.cpp).
MLIR_FLAGS = ["--mlir-print-ir-before-all", "--mlir-print-ir-after-all", "--mlir-print-ir-before",
              "--mlir-print-ir-after", "--mlir-print-ir-after-change", "--mlir-timing",
              "--mlir-pass-statistics", "--mlir-print-debuginfo"]
ALIASES = {"--print-ir-before-all": "--mlir-print-ir-before-all",
           "--print-ir-after-all": "--mlir-print-ir-after-all",
           "--print-ir-before": "--mlir-print-ir-before", "--print-ir-after": "--mlir-print-ir-after",
           "--print-ir-after-change": "--mlir-print-ir-after-change", "--timing": "--mlir-timing",
           "--statistics": "--mlir-pass-statistics", "--pass-statistics": "--mlir-pass-statistics",
           "--print-debuginfo": "--mlir-print-debuginfo"}
OPT_ONLY = {"--emit-bytecode", "--split-input-file", "--verify-diagnostics", "--list-passes",
            "--pass-pipeline"}


def _options(parser) -> dict[str, str]:
    return {name: action.dest for action in parser._actions for name in action.option_strings}


def test_hlo_opt_spells_every_flag_as_mlir_opt_with_aliases():
    options = _options(hlo_opt._build_parser())
    assert set(MLIR_FLAGS) | OPT_ONLY <= set(options)
    for alias, flag in ALIASES.items():
        assert options[alias] == options[flag], alias


def test_hlo_compile_takes_the_pipeline_flags():
    options = _options(hlo_compile._parser())
    assert set(MLIR_FLAGS) <= set(options)  # --mlir-timing times every stage (hlo_mlir.timing)
    for alias, flag in ALIASES.items():
        if alias != "--timing":
            assert options[alias] == options[flag], alias


def _dumps(err: str) -> list[str]:
    return re.findall(r"// -----// IR Dump (\w+ [\w-]+) //----- //", err)


@pytest.mark.parametrize("flags, dumps", [
    (["--mlir-print-ir-before-all"], ["Before algsimp", "Before dce"]),
    (["--mlir-print-ir-after-all"], ["After algsimp", "After dce"]),
    (["--mlir-print-ir-before=dce"], ["Before dce"]),
    (["--mlir-print-ir-after=algebraic-simplifier,hlo-dce"], ["After algsimp", "After dce"]),  # aliases
    (["--mlir-print-ir-after=dce", "--mlir-print-ir-before=algsimp"], ["Before algsimp", "After dce"]),
    (["--mlir-print-ir-after-change"], ["After algsimp"]),
    (["--mlir-print-ir-after-all", "--mlir-print-ir-after-change"], ["After algsimp"]),  # as MLIR
    (["--mlir-print-ir-after=dce", "--mlir-print-ir-after-change"], []),  # dce changed nothing
])
def test_ir_dumps(folder, capsys, flags, dumps):
    for spelled in (flags, [re.sub("^--mlir-", "--", f) for f in flags]):  # and the aliases
        assert hlo_opt.main(["m.mlir", "-p", "algsimp,dce", *spelled]) == 0
        assert _dumps(capsys.readouterr().err) == dumps, spelled


@pytest.mark.parametrize("flags", [["--mlir-timing"], ["--timing"]])
def test_timing_report(folder, capsys, flags):
    assert hlo_opt.main(["m.mlir", "-p", "algsimp", *flags]) == 0
    err = capsys.readouterr().err
    assert "... Pass execution timing report ..." in err and re.search(r"\(\s*[\d.]+%\)  algsimp", err)


@pytest.mark.parametrize("flag", ["--mlir-pass-statistics", "--pass-statistics", "--statistics"])
def test_statistics_report(folder, capsys, flag):
    assert hlo_opt.main(["m.mlir", "-p", "algsimp", flag]) == 0
    err = capsys.readouterr().err
    assert "... Pass statistics report ..." in err and "(S)      1 involution" in err


@pytest.mark.parametrize("flag", ["--mlir-print-debuginfo", "--print-debuginfo"])
def test_debuginfo(folder, capsys, flag):
    assert hlo_opt.main(["m.mlir", flag]) == 0
    assert "loc(" in capsys.readouterr().out
    assert hlo_opt.main(["m.mlir"]) == 0
    assert "loc(" not in capsys.readouterr().out


@pytest.mark.parametrize("tool", ["hlo-opt", "hlo-compile"])
def test_unknown_pass_to_print_is_a_usage_error(folder, capsys, tool):
    argv = ["m.mlir", "-p", "algsimp", "--mlir-print-ir-after=algsimp,algsmp"]
    main = hlo_opt.main if tool == "hlo-opt" else hlo_compile.main
    assert main(argv + ([] if tool == "hlo-opt" else ["--no-isolate"])) == ExitCode.USAGE
    message = _one_error_line(capsys.readouterr().err, tool)
    assert message.startswith("unknown pass 'algsmp'; valid passes: ")
    assert message.endswith("did you mean 'algsimp'?")
    assert sorted(os.listdir(folder)) == ["m.mlir"]  # no vmfb, no manifest


def test_hlo_compile_prints_ir_after_a_pass(folder, capsys):
    argv = ["m.mlir", "-o", "m.vmfb", "-p", "algsimp", "--mlir-print-ir-after=algsimp",
            "--mlir-pass-statistics", "--no-isolate", "--no-manifest"]
    assert hlo_compile.main(argv) == 0
    err = capsys.readouterr().err
    assert _dumps(err) == ["After algsimp"] and "(S)      1 involution" in err
    assert "stablehlo.negate" not in err[err.index("IR Dump After algsimp"):]


# --- --help, the exit-code table, --list-passes --------------------------------------------------
@pytest.mark.parametrize("tool", ["hlo-opt", "hlo-compile"])
def test_help_is_plain_text_and_speaks_of_its_tool(capsys, tool):
    main = {"hlo-opt": hlo_opt.main, "hlo-compile": hlo_compile.main}[tool]
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for markup in ("``", ":func:", ":class:", ":mod:", ".. "):
        assert markup not in out, markup
    assert out.rstrip().endswith(exit_codes_help(tool)) and "docs/deployment.md" in out
    assert "hlo-run" not in out and "--expected_output" not in out  # another tool's business
    other = {"hlo-opt": "hlo-compile", "hlo-compile": "hlo-opt"}[tool]
    assert f"{other}'s" not in out


def test_exit_code_table_per_tool_and_documented_once():
    for code in ExitCode:
        assert re.search(rf"^  {int(code):<4} ", EXIT_CODES_HELP, re.MULTILINE), code
    opt, compile_ = exit_codes_help("hlo-opt"), exit_codes_help("hlo-compile")
    assert "  5 " not in opt and "  6 " not in opt and "  6 " not in compile_  # codes they never return
    assert "hlo-run" not in opt + compile_ and "(hlo-run)" in EXIT_CODES_HELP
    # docs/deployment.md holds the same table, row for row (each --help wraps its rows).
    with open(os.path.join(ROOT, "docs", "deployment.md")) as f:
        docs = f.read()
    table = docs[docs.index("## Exit codes"):]
    documented = dict(re.findall(r"^\| (\d+) \| (.*) \|$", table, re.MULTILINE))
    row = re.compile(r"^  (\d+) +(.*?)(?=\n  \d|\n  \(|\Z)", re.MULTILINE | re.DOTALL)  # a code, wrapped text
    shown = dict(row.findall(EXIT_CODES_HELP))
    assert set(documented) == set(shown) == {str(int(code)) for code in ExitCode}
    for code, text in shown.items():
        assert documented[code] == " ".join(text.split()), code
    with open(os.path.join(ROOT, "README.md")) as f:
        assert "docs/deployment.md#exit-codes" in f.read()


class _LongNamedPass(Pass):
    """A pass whose name is longer than the name column."""

    name: ClassVar[str] = "a-test-pass-with-a-name-much-longer-than-the-column-allows"

    def run(self, module) -> bool:
        return False


def test_list_passes_columns_hold_long_names():
    registry.register(_LongNamedPass)
    try:
        text = hlo_opt.list_passes()
    finally:
        registry.unregister(_LongNamedPass.name)
    lines = text.splitlines()
    i = lines.index(f"  {_LongNamedPass.name}")  # a line of its own ...
    summary_column = len(lines[i + 1]) - len(lines[i + 1].lstrip())
    assert lines[i + 1].strip() == _LongNamedPass.summary()  # ... its summary below, aligned
    rows = [line for line in lines if re.match(r"  [\w{}().=-]+  +\S", line)]  # name, spaces, summary
    assert len(rows) > 100
    for line in rows:
        name = line.split()[0]
        assert line.index(" " + line[2 + len(name):].strip()) + 1 == summary_column, line
    assert max(len(line.split()[0]) for line in rows) < summary_column - 2


# --- the kind of an input ------------------------------------------------------------------------
def _npy() -> bytes:
    buf = io.BytesIO()
    np.save(buf, np.arange(4, dtype=np.float32))
    return buf.getvalue()


def _bare_vmfb() -> bytes:
    """A size-prefixed FlatBuffer with IREE's identifier, as IREE writes without the ZIP."""
    return (100).to_bytes(4, "little") + (12).to_bytes(4, "little") + b"IREE" + bytes(88)


def test_sniff_each_kind(built):
    vmfb = built.read_bytes()
    assert zipfile.is_zipfile(built)  # how IREE 3.13 writes a vmfb
    cases = [
        (MODULE.encode(), "m.mlir", InputKind.MLIR_TEXT),
        (MODULE.encode(), "-", InputKind.MLIR_TEXT),
        (b'#loc = loc("x.py":1:2)\n' + MODULE.encode(), "m.txt", InputKind.MLIR_TEXT),
        (b"", "empty.mlir", InputKind.MLIR_TEXT),
        (bytecode(as_module(MODULE)), "m.bin", InputKind.MLIR_BYTECODE),
        (vmfb, "twice.vmfb", InputKind.VMFB),
        (vmfb, "renamed.mlir", InputKind.VMFB),  # the content decides
        (_bare_vmfb(), "bare", InputKind.VMFB),
        (BUILD_SCRIPT.encode(), "model.py", InputKind.PYTHON),
        (BUILD_SCRIPT.encode(), "model.build", InputKind.PYTHON),
        (b"#!/usr/bin/env python3\nprint(1)\n", "script", InputKind.PYTHON),
        (b'"""A docstring."""\nx = 1\n', "-", InputKind.PYTHON),
        (b"# a comment\n\nimport numpy\n", "m.mlir", InputKind.MLIR_TEXT),  # an .mlir name wins over content
        (b"x = 1\n", "model.py", InputKind.PYTHON),
        (_npy(), "x.npy", InputKind.NUMPY),
        (_npy(), "x.mlir", InputKind.NUMPY),
        (bytes(range(256)) * 4, "m.mlir", InputKind.UNKNOWN),
        (b"valid UTF-8 \x00 with NUL", "m.mlir", InputKind.UNKNOWN),
        (MODULE.replace("}\n", "} // caf\xe9\n", 1).encode("latin-1"), "m.mlir", InputKind.UNKNOWN),
    ]
    for data, name, kind in cases:
        assert sniff(data[:HEAD_BYTES], name) is kind, (name, data[:20])


def test_sniff_keeps_a_character_cut_by_the_head():
    text = ("// " + "// caf\u00e9 " * 1000).encode()  # the head ends inside a 2-byte character
    assert len(text) > HEAD_BYTES and text[:HEAD_BYTES].decode("utf-8", "replace").endswith("\ufffd")
    assert sniff(text[:HEAD_BYTES], "long.mlir") is InputKind.MLIR_TEXT


PYTHON_ADVICE = "hlo-compile takes it (calling its build function, or the one --entry names)."
NPY = "x.npy is a numpy array (.npy); it is a value: hlo-run MODULE --input=@x.npy."
NOISE = "noise.bin is not UTF-8 text (byte 128), nor MLIR bytecode, an IREE module (vmfb) or a numpy array; "
WRONG_KIND = [
    ("hlo-opt", "twice.vmfb", "twice.vmfb is an IREE module (vmfb); run it with hlo-run."),
    ("hlo-opt", "model.py", "model.py is Python source; " + PYTHON_ADVICE),
    ("hlo-opt", "x.npy", NPY),
    ("hlo-opt", "noise.bin", NOISE + "hlo-opt reads MLIR text or bytecode."),
    ("hlo-compile", "twice.vmfb", "twice.vmfb is an IREE module (vmfb); run it with hlo-run."),
    ("hlo-compile", "x.npy", NPY),
    ("hlo-compile", "noise.bin",
     NOISE + "hlo-compile reads MLIR text or bytecode, or a Python build script."),
    ("hlo-run", "model.py", "model.py is Python source; " + PYTHON_ADVICE),
    ("hlo-run", "x.npy", NPY),
    ("hlo-run", "nul.bin", "nul.bin is binary data of an unknown kind (not MLIR text or bytecode, an "
                           "IREE module or a numpy array); hlo-run runs a vmfb, or MLIR text or bytecode "
                           "(compiled first)."),
]


@pytest.mark.parametrize("tool, name, message", WRONG_KIND, ids=[f"{t}-{n}" for t, n, _ in WRONG_KIND])
def test_wrong_kind_is_one_line_naming_the_tool_that_takes_it(built, folder, capsys, tool, name, message):
    (folder / "twice.vmfb").write_bytes(built.read_bytes())
    (folder / "model.py").write_text(BUILD_SCRIPT)
    (folder / "x.npy").write_bytes(_npy())
    (folder / "noise.bin").write_bytes(bytes(range(256)))
    (folder / "nul.bin").write_bytes(b"\x00" * 64)
    before = sorted(os.listdir(folder))
    main = {"hlo-opt": hlo_opt.main, "hlo-compile": hlo_compile.main, "hlo-run": hlo_run.main}[tool]
    argv = [name] + ([] if tool == "hlo-opt" else ["-o", "out.vmfb"] if tool == "hlo-compile" else [])
    assert main(argv + ([] if tool == "hlo-opt" else ["--no-isolate"])) == ExitCode.INPUT
    out, err = capsys.readouterr()
    assert out == "" and _one_error_line(err, tool) == message
    assert sorted(os.listdir(folder)) == before
    kind = sniff_file(name)
    assert wrong_kind(tool, name, kind, open(name, "rb").read()) == message


def test_wrong_kind_on_stdin(built, capsys, monkeypatch):
    _stdin(monkeypatch, built.read_bytes())
    assert hlo_opt.main(["-"]) == ExitCode.INPUT
    assert _one_error_line(capsys.readouterr().err, "hlo-opt") == (
        "<stdin> is an IREE module (vmfb); run it with hlo-run.")


def test_hlo_run_knows_mlir_and_vmfb_by_content(built, folder, capsys):
    """MLIR text under another name is compiled first, a vmfb under any name runs."""
    (folder / "m.txt").write_text(MODULE)
    assert hlo_run.main(["m.txt", "--input=4xf32=1,2,3,4", "--no-isolate"]) == 0
    assert "4xf32=1 2 3 4" in capsys.readouterr().out
    (folder / "twice.bin").write_bytes(built.read_bytes())
    assert hlo_run.main(["twice.bin", "--input=4xf32=1,2,3,4", "--no-isolate"]) == 0
    assert "4xf32=2 4 6 8" in capsys.readouterr().out


def test_every_tool_accepts_its_kinds():
    assert wrong_kind("hlo-opt", "m.mlir", InputKind.MLIR_TEXT) is None
    assert wrong_kind("hlo-opt", "m.mlirbc", InputKind.MLIR_BYTECODE) is None
    assert wrong_kind("hlo-compile", "m.py", InputKind.PYTHON) is None
    assert wrong_kind("hlo-run", "m.vmfb", InputKind.VMFB) is None
    assert wrong_kind("hlo-run", "m.mlirbc", InputKind.MLIR_BYTECODE) is None
