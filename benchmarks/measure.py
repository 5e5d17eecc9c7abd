"""Timing, the two systems under test, and the machine's measured peaks.

- :func:`interleave` times many callables in interleaved rounds (a warm-up call each
  first, excluded), so that load from other processes hits every configuration alike;
  each sample repeats calls until ``min_time`` has passed; the result is every sample.
- :class:`Ours` compiles with ``hlo_mlir.compile`` (our passes + IREE) and calls the
  program two ways: through the public API (numpy in, numpy out: ``runtime.load(...).main``)
  and raw, with inputs already on the device (IREE's own Python API).
- :class:`Xla` compiles the *same* StableHLO module with XLA CPU (through jax, via the
  test oracle, the one place that touches jax's private API) and calls it the same two ways.
- :class:`Progress` shows a long loop's progress: a ``tqdm`` bar on a terminal
  (:func:`progress_bar_enabled`), plain lines otherwise, so that logs stay clean.
"""

from __future__ import annotations

import math
import os
import statistics
import sys
import time
from typing import IO, Callable, Iterable, Iterator, Sequence, TypeVar

os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "1")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402

__all__ = ["call_with", "interleave", "median", "geomean", "Ours", "Xla", "compare", "machine_info",
           "save_json", "EXTRA_FLAGS", "PROGRESS_BAR", "progress_bar_enabled", "Progress"]

# IREE flags added to every hlo-mlir compile of a benchmark run (``--iree-flag``), to
# measure a proposed change of the defaults; recorded in the results.
EXTRA_FLAGS: list[str] = []

# Whether long loops draw a progress bar: None when their stream is a terminal, False
# never (``python -m benchmarks --no-progress``), True always.
PROGRESS_BAR: bool | None = None

T = TypeVar("T")


def progress_bar_enabled(stream: IO[str] | None, requested: bool | None = None) -> bool:
    """Whether a loop reporting to ``stream`` draws a progress bar there: as ``requested``
    when that is True or False; else only when ``stream`` is a terminal (a log file, a
    pipe or CI's captured output gets plain lines)."""
    if stream is None:
        return False
    if requested is not None:
        return requested
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


class Progress:
    """A loop's progress on ``stream`` (None: silent). With a bar (:func:`progress_bar_enabled`
    with :data:`PROGRESS_BAR`): a ``tqdm`` bar counting ``total`` items, the current item's
    name beside it, notes printed above it. Without: notes and statuses as plain lines.

        with Progress(len(workloads), "suite", sys.stderr) as progress:
            for w in progress.items(workloads, lambda w: w.name):
                ...
                progress.note(f"  {w.name}: 1.2 s")
    """

    def __init__(self, total: int, desc: str, stream: IO[str] | None = sys.stderr,
                 requested: bool | None = None):
        self.stream = stream
        self.bar = None
        if progress_bar_enabled(stream, PROGRESS_BAR if requested is None else requested):
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc=desc, file=stream, unit="workload", dynamic_ncols=True)

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.close()

    def items(self, items: Iterable[T], name: Callable[[T], str] = str) -> Iterator[T]:
        """Each item of ``items``; the bar shows its name while it runs and counts it after."""
        for item in items:
            if self.bar is not None:
                self.bar.set_postfix_str(name(item))
            yield item
            if self.bar is not None:
                self.bar.update()

    def note(self, text: str) -> None:
        """A result line: above the bar, or a plain line."""
        if self.bar is not None:
            self.bar.write(text, file=self.stream)
        elif self.stream is not None:
            print(text, file=self.stream, flush=True)

    def status(self, text: str) -> None:
        """What is starting: a plain line without a bar (the bar shows the item's name)."""
        if self.bar is None and self.stream is not None:
            print(text, file=self.stream, flush=True)


def call_with(fn: Callable, args: Sequence) -> Callable[[], object]:
    """``fn(*args)`` as a timing case (a call without arguments)."""
    return lambda: fn(*args)


def _sample(fn: Callable[[], object], min_time: float) -> float:
    """Seconds per call of ``fn``, repeating until ``min_time`` has passed (at least once)."""
    calls, start = 0, time.perf_counter()
    while True:
        fn()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return elapsed / calls


def interleave(cases: dict[str, Callable[[], object]], rounds: int, min_time: float,
               budget: float | None = None) -> dict[str, list[float]]:
    """Samples of seconds per call for each case, ``rounds`` interleaved rounds.

    The round order rotates so that no case always follows the same neighbour. With
    ``budget`` (seconds), fewer rounds (at least 2) run when one round would not fit.
    """
    names = list(cases)
    first = {}
    for name in names:  # warm-up: excluded from the samples; also sizes the rounds
        start = time.perf_counter()
        cases[name]()
        first[name] = time.perf_counter() - start
    if budget is not None:
        per_round = sum(max(t, min_time) for t in first.values())
        rounds = max(2, min(rounds, int(budget / max(per_round, 1e-9))))
    samples: dict[str, list[float]] = {n: [] for n in names}
    for r in range(rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for name in order:
            samples[name].append(_sample(cases[name], min_time))
    return samples


def median(samples: Sequence[float]) -> float:
    return statistics.median(samples)


def geomean(values: Sequence[float]) -> float:
    values = [v for v in values if v and v > 0 and math.isfinite(v)]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else float("nan")


class Ours:
    """The program compiled by hlo-mlir for llvm-cpu, callable on each local driver."""

    def __init__(self, source, flags: Sequence[str] = (), passes: str | None = None):
        import hlo_mlir

        start = time.perf_counter()
        self.vmfb = hlo_mlir.compile(source, "llvm-cpu", flags=[*EXTRA_FLAGS, *flags], passes=passes)
        self.compile_seconds = time.perf_counter() - start
        self._loaded: dict[str | None, object] = {}

    def module(self, driver: str | None):
        """The vmfb loaded by ``hlo_mlir.runtime.load`` on ``driver`` (None: the one the
        vmfb prefers), once per driver."""
        import hlo_mlir

        if driver not in self._loaded:
            self._loaded[driver] = hlo_mlir.runtime.load(self.vmfb, driver)
        return self._loaded[driver]

    @property
    def preferred_driver(self) -> str:
        """The driver ``runtime.load(vmfb)`` picks (recorded by ``hlo_mlir.compile``)."""
        return self.module(None).driver

    def api(self, driver: str | None) -> Callable:
        """``LoadedModule.main``: numpy in (copied), numpy out."""
        return self.module(driver).main

    def raw(self, driver: str, args: Sequence[np.ndarray]) -> Callable[[], object]:
        """A call with the inputs already in device buffers: the same loaded module and
        device as ``api``, called through IREE's own runtime API."""
        import iree.runtime as rt

        module = self.module(driver)
        device_args = [rt.asdevicearray(module._device, np.ascontiguousarray(a)) for a in args]
        fn = module.main._vm_function
        return lambda: fn(*device_args)


class Xla:
    """The same StableHLO module on XLA CPU (compiled once)."""

    def __init__(self, source):
        import jax

        from tests import oracle

        client, xc = oracle._backend()
        text, self.params, self.results = oracle._flat_entry_text(source)
        self._device = client.local_devices()[0]
        start = time.perf_counter()
        self._exe = client.compile_and_load(text, xc.DeviceList((self._device,)), xc.CompileOptions())
        self.compile_seconds = time.perf_counter() - start
        self._jax = jax

    def _put(self, args):
        return [self._jax.device_put(np.asarray(a, dtype=s.dtype), self._device)
                for a, s in zip(args, self.params, strict=True)]

    def api(self, *args):
        """numpy in, numpy out (what a JAX user pays per call)."""
        outs = [np.asarray(o) for o in self._exe.execute(self._put(args))]
        return outs[0] if len(outs) == 1 else tuple(outs)

    def raw(self, args) -> Callable[[], object]:
        bufs = self._put(args)

        def call():
            outs = self._exe.execute(bufs)
            for o in outs:
                o.block_until_ready()
            return outs

        return call


def compare(actual, expected, rtol: float, atol: float) -> dict:
    """``{"ok": bool, "max_abs_err": ..., "detail": ...}`` for one pair of outputs."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    if actual.shape != expected.shape:
        return {"ok": False, "max_abs_err": None, "detail": f"shape {actual.shape} != {expected.shape}"}
    a = actual.astype(np.float64) if actual.dtype.kind not in "biu" else actual.astype(np.int64)
    e = expected.astype(np.float64) if expected.dtype.kind not in "biu" else expected.astype(np.int64)
    err = np.abs(a - e)
    max_err = float(np.nanmax(err)) if err.size else 0.0
    ok = bool(np.all(np.isclose(a, e, rtol=rtol, atol=atol, equal_nan=True)))
    bad = int(np.count_nonzero(~np.isclose(a, e, rtol=rtol, atol=atol, equal_nan=True)))
    return {"ok": ok, "max_abs_err": max_err,
            "detail": "" if ok else f"{bad} of {e.size} elements differ beyond rtol={rtol}, atol={atol}"}


def save_json(path: str, data) -> None:
    """Writes ``data`` to ``path`` as JSON (nothing when ``path`` is empty)."""
    if path:
        import json

        with open(path, "w") as f:
            json.dump(data, f, indent=1)


def nominal_fp32_peak() -> dict | None:
    """The datasheet-style fp32 peak: cores x the nominal clock /proc/cpuinfo reports x
    flops per cycle per core (two FMA units: 64 with AVX-512, 32 with AVX2). Turbo
    clocks can exceed it; a machine shared with other jobs gets less."""
    try:
        with open("/proc/cpuinfo") as f:
            info = f.read()
    except OSError:
        return None
    mhz = [float(line.split(":")[1]) for line in info.splitlines() if line.startswith("cpu MHz")]
    flags = next((line.split(":")[1].split() for line in info.splitlines() if line.startswith("flags")), [])
    per_cycle = 64 if "avx512f" in flags else 32 if "fma" in flags else 8
    if not mhz:
        return None
    cores = os.cpu_count() or 1
    return {"gflops": cores * mhz[0] * 1e-3 * per_cycle, "cores": cores, "mhz": mhz[0],
            "flops_per_cycle": per_cycle}


def machine_info() -> dict:
    import importlib.metadata
    import platform

    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "")
    except OSError:
        pass
    versions: dict[str, str | None] = {}
    for dist in ("iree-base-compiler", "iree-base-runtime", "jax", "jaxlib", "numpy"):
        try:
            versions[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            versions[dist] = None
    return {"cpu": model, "cores": os.cpu_count(), "platform": platform.platform(),
            "python": platform.python_version(), "versions": versions,
            "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None}
