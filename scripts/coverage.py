"""Generates docs/coverage.md: every spec op with builder / verifies / compiles / runs.

Usage: python scripts/coverage.py [--out docs/coverage.md] [--ops Add,Dot]

For each op of the spec (../shared/spec/000_*.txt, plus the ops only older editions
name) it looks for a builder function in ``hlo_mlir`` and a sample in
``tests/op_samples``; the sample is built and verified, compiled for llvm-cpu, run,
and compared with its numpy reference and with XLA CPU on the same module. Each
sample runs in a forked child, so a compiler crash is reported, not fatal.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

# The spec's ops, in the spec's order (000 = current edition; * = older editions only).
SPEC_OPS = """
AfterAll AllGather AllReduce AllToAll BatchNormGrad BatchNormInference BatchNormTraining
BitcastConvertType Broadcast BroadcastInDim Call Cholesky Clamp Collapse CollectivePermute
ConcatInDim Conditional Conv ConvWithGeneralPadding ConvertElementType CrossReplicaSum* CustomCall
Dot DotGeneral DynamicSlice DynamicUpdateSlice
Add Sub Mul Div Rem Max Min Pow Atan2 Complex And Or Xor Not ShiftLeft ShiftRightArithmetic ShiftRightLogical
Eq Ne Ge Gt Le Lt EqTotalOrder NeTotalOrder GeTotalOrder GtTotalOrder LeTotalOrder LtTotalOrder
Abs Ceil Cos Exp Floor Imag IsFinite Log LogicalNot Logistic PopulationCount Neg Real Rsqrt Sign Sin
Sqrt Cbrt Tan Tanh Round RoundNearestEven
Fft Gather GetDimensionSize SetDimensionSize GetTupleElement Infeed Outfeed Iota Map
OptimizationBarrier Pad Recv Reduce ReducePrecision ReduceScatter ReduceWindow ReplicaId Reshape Rev
RngBernoulli* RngBitGenerator RngNormal RngUniform Scatter Select SelectAndScatter Send Slice Sort
Transpose TriangularSolve Tuple While
""".split()


def _run_one(name: str, conn) -> None:
    """Child process: build -> verify -> compile -> run -> compare for one op."""
    result = {"sample": False, "verifies": None, "compiles": None, "runs": None, "xla": None, "note": ""}
    try:
        import numpy as np  # noqa: F401

        import hlo_mlir
        from tests import oracle
        from tests.op_samples import all_samples

        samples = all_samples()
        if name not in samples:
            conn.send(result)
            return
        result["sample"] = True
        sample = samples[name]()
        result["note"] = sample.known_gap
        try:
            sample.computation.verify()
            result["verifies"] = True
        except Exception as e:  # noqa: BLE001
            result.update(verifies=False, note=_short(e))
            conn.send(result)
            return
        try:
            vmfb = hlo_mlir.compile(sample.computation, **sample.run_kwargs.get("compile", {}))
            result["compiles"] = True
        except Exception as e:  # noqa: BLE001
            result.update(compiles=False, note=sample.known_gap or _short(e))
            conn.send(result)
            return
        try:
            got = hlo_mlir.runtime.load(vmfb).main(*sample.args)
            oracle.assert_close(got, sample.expected, sample.rtol, sample.atol, name)
            result["runs"] = True
        except Exception as e:  # noqa: BLE001
            result.update(runs=False, note=sample.known_gap or _short(e))
        if sample.no_xla:
            result["note"] = result["note"] or f"XLA n/a: {sample.no_xla}"
            conn.send(result)
            return
        try:
            theirs = oracle.run_xla(sample.computation, *sample.args)
            oracle.assert_close(theirs, sample.expected, sample.rtol, sample.atol, name)
            result["xla"] = True
        except Exception as e:  # noqa: BLE001
            result["xla"] = False
            result["note"] = result["note"] or "XLA: " + _short(e)
    except Exception:  # noqa: BLE001
        result["note"] = _short(traceback.format_exc().splitlines()[-1])
    conn.send(result)


def _short(e) -> str:
    text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return text[:140].replace("|", "/")


def _mark(value) -> str:
    return {True: "yes", False: "**no**", None: "-"}[value]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "coverage.md"))
    parser.add_argument("--ops", default="", help="comma-separated subset of ops")
    args = parser.parse_args(argv)
    import hlo_mlir

    ops = [o for o in SPEC_OPS if not args.ops or o.rstrip("*") in args.ops.split(",")]
    ctx = mp.get_context("fork")
    rows = []
    for spec_name in ops:
        name = spec_name.rstrip("*")
        has_builder = hasattr(hlo_mlir, name)
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_run_one, args=(name, child))
        proc.start()
        child.close()
        result = parent.recv() if parent.poll(600) else None
        proc.join(5)
        if proc.is_alive():
            proc.kill()
        if result is None:
            result = {"sample": True, "verifies": None, "compiles": None, "runs": False, "xla": None,
                      "note": f"crashed (exit code {proc.exitcode})"}
        rows.append((spec_name, has_builder, result))
        print(f"{spec_name:24} builder={_mark(has_builder):6} verifies={_mark(result['verifies']):6} "
              f"compiles={_mark(result['compiles']):6} runs={_mark(result['runs']):6} "
              f"xla={_mark(result['xla']):6} {result['note']}", flush=True)
    full = sum(1 for _, b, r in rows if b and r["runs"])
    lines = [
        "# Spec op coverage",
        "",
        "Generated by `python scripts/coverage.py`; do not edit by hand. Each op's sample",
        "(tests/op_samples) is built with the builder, verified, compiled for llvm-cpu, run",
        "with the IREE runtime and compared with a numpy/scipy reference; the same module",
        "is also run on XLA CPU (through jax) and compared with that reference.",
        "Ops marked * are named only by older editions of the spec.",
        "",
        f"**{full} of {len(rows)} ops build, verify, compile and match the reference.**",
        "",
        "| op | builder | verifies | compiles (llvm-cpu) | runs, matches reference | XLA matches reference "
        "| note |",
        "|---|---|---|---|---|---|---|",
    ]
    for spec_name, has_builder, r in rows:
        lines.append(f"| {spec_name} | {_mark(has_builder)} | {_mark(r['verifies'])} | "
                     f"{_mark(r['compiles'])} | {_mark(r['runs'])} | {_mark(r['xla'])} | {r['note']} |")
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{full}/{len(rows)} ops run and match; wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
