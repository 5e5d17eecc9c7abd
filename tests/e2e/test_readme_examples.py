"""The README's Python examples run as written: every ```python block, in order, in one
namespace (a later block may use an earlier one's names), from a scratch directory. The
examples check their own numbers (numpy's assert_allclose against numpy and JAX)."""

from __future__ import annotations

import os
import re

os.environ.setdefault("JAX_PLATFORMS", "cpu")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def _python_blocks() -> list[str]:
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        return _PYTHON_BLOCK.findall(f.read())


def test_readme_python_examples_run(tmp_path, monkeypatch, capsys):
    blocks = _python_blocks()
    titles = [b.splitlines()[0] for b in blocks]
    assert len(blocks) >= 4, titles  # the tour, run_pipeline, the MLP, JAX
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__readme__"}
    for i, block in enumerate(blocks):
        exec(compile(block, f"README.md python block {i + 1}", "exec"), namespace)  # noqa: S102
    out = capsys.readouterr().out
    # The MLP example printed its program shape; the JAX one its flattened parameters.
    assert "(x: f32[4,8], w0: f32[8,16], b0: f32[16], w1: f32[16,3], b1: f32[3]) -> f32[4,3]" in out
    assert "(p0: f32[16], p1: f32[3], p2: f32[8,16], p3: f32[16,3], p4: f32[4,8]) -> f32[4,3]" in out
    assert namespace["fast"].cache_size() == 1  # the JAX example's second call compiled nothing
