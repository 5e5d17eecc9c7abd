"""The README's first command runs this demo: it must build, optimize, compile, run and match."""

from hlo_mlir import demo


def test_demo_matches_numpy(capsys):
    assert demo.main(["--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "MLP (x: f32[4,8], w0: f32[8,16], b0: f32[16], w1: f32[16,3], b1: f32[3]) -> f32[4,3]" in out
    assert "O2: " in out and "stablehlo.dot_general" in out
    assert "OK: largest difference from numpy" in out
