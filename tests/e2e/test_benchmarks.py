"""Smoke test of the benchmark suite in quick mode: the JSON has its fields, outputs are
checked against XLA (and a wrong answer is reported as wrong), the compile-time and
pipeline-scaling parts run, and the docs tables render. No timing assertions."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("jax")

from benchmarks import compile_time, docs, measure, pipeline_scaling, suite  # noqa: E402

QUICK = dict(quick=True, rounds=2, min_time=0.001, budget=2.0, progress=None)
NAMES = ["tiny_add", "softmax", "sort_16k"]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    import os

    os.environ["HLO_MLIR_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    return suite.run_suite(NAMES, **QUICK)


def test_suite_records_every_workload_with_checked_outputs(results):
    results = json.loads(json.dumps(results))  # the results are plain JSON
    assert [r["name"] for r in results["workloads"]] == NAMES
    assert results["peaks"]["fp32"]["gflops"] > 0 and results["peaks"]["bandwidth"]["gbs"] > 0
    for r in results["workloads"]:
        assert "error" not in r, r.get("error")
        for driver in suite.DRIVERS:
            check = r["checks"][f"hlo-mlir {driver} vs xla"]
            assert check["ok"] is True and check["max_abs_err"] is not None
        assert r["checks"]["numpy vs xla"]["ok"] is True
        for config in ["hlo-mlir api local-sync", "hlo-mlir api local-task", "hlo-mlir raw local-sync",
                       "hlo-mlir raw local-task", "xla api", "xla raw", "numpy"]:
            assert len(r["samples"][config]) == 2 and r["times"][config] > 0
        assert r["ratio_api"] > 0 and r["ratio_raw"] > 0 and r["best_driver_api"] in suite.DRIVERS
        assert r["compile_seconds"]["hlo-mlir"] > 0 and r["compile_seconds"]["xla"] > 0
        assert suite.checked(r) == "ok"
    assert results["summary"]["wrong"] == [] and results["summary"]["failed"] == []
    assert results["summary"]["ratio_api"] > 0


def test_a_fast_wrong_answer_is_reported_wrong(monkeypatch):
    real_api = measure.Ours.api

    def wrong_api(self, driver):
        fn = real_api(self, driver)
        return lambda *args: np.asarray(fn(*args)) + 1

    monkeypatch.setattr(measure.Ours, "api", wrong_api)
    res = suite.run_suite(["tiny_add"], **QUICK)
    r = res["workloads"][0]
    assert r["checks"]["hlo-mlir local-task vs xla"]["ok"] is False
    assert suite.checked(r).startswith("WRONG: hlo-mlir local-sync vs xla (4 of 4 elements differ")
    assert res["summary"]["wrong"] == ["tiny_add"]


def test_compile_time_and_scaling_and_docs(results, tmp_path):
    ct = compile_time.run_compile_times(["tiny_add"], quick=True, progress=None)
    assert [r["name"] for r in ct["workloads"]] == [compile_time.SMALL_MODULE, "tiny_add"]
    row = ct["workloads"][1]
    for part in ("pipeline", "iree", "iree_in_process", "cold", "cached", "xla"):
        assert row[part]["wall"] > 0
    isolation = ct["isolation"]  # the crash-proof compile's cost, in process vs isolated
    assert isolation["isolated"] > 0 and isolation["in_process"] > 0 and isolation["worker_start"] > 0
    assert "Crash-proof compile" in compile_time.summary_text(ct)
    assert row["cached_identical"] is True
    sc = pipeline_scaling.run_scaling([60, 180])
    assert [r["ops"] for r in sc["sizes"]][0] >= 60 and sc["sizes"][1]["ops"] > sc["sizes"][0]["ops"]
    assert all(r["us_per_op"] > 0 and "O2/algsimp" in r["per_pass_seconds"] for r in sc["sizes"])
    for name, data in (("suite", results), ("compile_time", ct), ("pipeline_scaling", sc)):
        (tmp_path / f"{name}.json").write_text(json.dumps(data))
    doc = tmp_path / "performance.md"
    doc.write_text("# Performance\n\nprose stays\n")
    docs.write_docs(str(tmp_path), str(doc))
    docs.write_docs(str(tmp_path), str(doc))  # idempotent: the generated block is replaced
    text = doc.read_text()
    assert text.count(docs.BEGIN) == 1 and "prose stays" in text
    assert "| tiny_add |" in text and "### Compile time" in text and "### Pass-pipeline scaling" in text


def test_presets_part_counts_ops_checks_answers_and_renders(tmp_path):
    """``python -m benchmarks.presets``: op counts per preset, every preset's answers
    against XLA, time ratios to the first preset, and its table in the docs."""
    from benchmarks import presets

    result = presets.run_presets(["elementwise_chain", "jax_softmax"], ("O0", "cpu"), quick=True, rounds=2,
                                 min_time=0.001, budget=2.0, progress=None)
    result = json.loads(json.dumps(result))
    rows = {r["name"]: r for r in result["workloads"]}
    chain = rows["elementwise_chain"]
    assert chain["ops"]["O0"] == chain["ops"]["input"] > chain["ops"]["cpu"]  # cpu simplifies
    assert all(c["ok"] for r in rows.values() for c in r["checks"].values()) and not presets.failures(result)
    assert chain["ratios"]["O0"] == 1.0 and chain["ratios"]["cpu"] > 0
    (tmp_path / "presets.json").write_text(json.dumps(result))
    doc = tmp_path / "performance.md"
    docs.write_docs(str(tmp_path), str(doc))
    assert "### What the presets do (QUICK" in doc.read_text() and "| jax_softmax |" in doc.read_text()
