"""The persistent compile cache: hits, misses on every key component, corrupt entries
recompiled (never loaded), concurrent writers, LRU pruning, the off switch, and a second
``hlo_mlir.compile`` of the same module served from the cache."""

from __future__ import annotations

import multiprocessing
import os

import numpy as np
import pytest

import hlo_mlir
from hlo_mlir import Add, Parameter, Shape, XlaBuilder, cache, compiler

BASE = dict(module_bytes=b"module-bytecode", target="llvm-cpu", flags=["--a", "--b=1"], passes="O2",
            legalize=True)


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HLO_MLIR_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("HLO_MLIR_CACHE", raising=False)
    return tmp_path


def _producer(payload: bytes):
    calls = []

    def produce():
        calls.append(1)
        return payload

    return produce, calls


def test_put_then_get_hits(cache_dir):
    c = cache.CompileCache()
    key = cache.compile_key(**BASE)
    assert c.get(key) is None
    c.put(key, b"vmfb bytes")
    assert c.get(key) == b"vmfb bytes"
    assert c.path(key).parent.parent == cache_dir


def test_cached_produces_once(cache_dir):
    key = cache.compile_key(**BASE)
    produce, calls = _producer(b"\x00vmfb\xff" * 1000)
    assert cache.cached(key, produce) == b"\x00vmfb\xff" * 1000
    assert cache.cached(key, produce) == b"\x00vmfb\xff" * 1000
    assert len(calls) == 1


@pytest.mark.parametrize("change", [
    dict(module_bytes=b"module-bytecodE"),
    dict(target="vulkan-spirv"),
    dict(flags=["--a", "--b=2"]),
    dict(flags=["--b=1", "--a"]),
    dict(flags=["--a"]),
    dict(passes="O1"),
    dict(passes=""),
    dict(legalize=False),
])
def test_key_changes_with_every_component(change):
    assert cache.compile_key(**{**BASE, **change}) != cache.compile_key(**BASE)
    assert cache.compile_key(**BASE) == cache.compile_key(**BASE)


def test_key_changes_with_versions(monkeypatch):
    before = cache.compile_key(**BASE)
    monkeypatch.setattr(cache, "versions", lambda: (("iree-base-compiler", "9.9.9"),))
    assert cache.compile_key(**BASE) != before


def test_versions_name_iree_and_our_sources():
    import importlib.metadata

    names = dict(cache.versions())
    assert names["iree-base-compiler"] == importlib.metadata.version("iree-base-compiler")
    assert names["iree-base-runtime"] == importlib.metadata.version("iree-base-runtime")
    assert len(names["hlo-mlir-sources"]) == 64


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "empty"])
def test_corrupt_entry_is_recompiled_not_loaded(cache_dir, damage):
    c = cache.CompileCache()
    key = cache.compile_key(**BASE)
    good = bytes(range(256)) * 64
    c.put(key, good)
    path = c.path(key)
    data = path.read_bytes()
    damaged = {"truncate": data[:-100], "flip": data[:-1] + bytes([data[-1] ^ 1]),
               "garbage": b"not a cache entry", "empty": b""}[damage]
    path.write_bytes(damaged)
    assert c.get(key) is None
    assert not path.exists()  # removed, so the next compile rewrites it
    produce, calls = _producer(good)
    assert cache.cached(key, produce) == good
    assert len(calls) == 1
    assert c.get(key) == good


def _writer(directory: str, worker: int, rounds: int, queue) -> None:
    c = cache.CompileCache(directory)
    bad = 0
    for i in range(rounds):
        key = f"{i % 4:064x}"
        payload = (f"entry {i % 4} ".encode()) * (5000 + 1000 * (i % 4))
        got = c.get(key)
        if got is not None and got != payload:
            bad += 1
        c.put(key, payload)
    queue.put((worker, bad))


def test_concurrent_writers_never_expose_partial_entries(tmp_path):
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    procs = [ctx.Process(target=_writer, args=(str(tmp_path), w, 60, queue)) for w in range(4)]
    for p in procs:
        p.start()
    results = [queue.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    assert sorted(bad for _, bad in results) == [0, 0, 0, 0]
    c = cache.CompileCache(tmp_path)
    for k in range(4):
        assert c.get(f"{k:064x}") == (f"entry {k} ".encode()) * (5000 + 1000 * k)
    assert not list(tmp_path.glob("*/.tmp-*"))  # no temporary file left behind


def test_prune_keeps_the_most_recently_used(tmp_path):
    c = cache.CompileCache(tmp_path, max_bytes=3 * 1200)
    keys = [f"{i:064x}" for i in range(3)]
    for i, key in enumerate(keys):
        c.put(key, bytes(1000))
        os.utime(c.path(key), (1000 + i, 1000 + i))
    assert c.get(keys[0]) is not None  # touched: now the most recent
    c.put(f"{9:064x}", bytes(1000))
    assert c.get(keys[1]) is None  # the least recently used went
    assert c.get(keys[0]) is not None and c.get(f"{9:064x}") is not None


@pytest.mark.parametrize("value", ["0", "off", "false"])
def test_disabled_by_env(cache_dir, monkeypatch, value):
    monkeypatch.setenv("HLO_MLIR_CACHE", value)
    assert cache.default_cache() is None
    produce, calls = _producer(b"vmfb")
    key = cache.compile_key(**BASE)
    cache.cached(key, produce)
    cache.cached(key, produce)
    assert len(calls) == 2
    assert not list(cache_dir.rglob("*"))


def test_default_location(monkeypatch, tmp_path):
    monkeypatch.delenv("HLO_MLIR_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.cache_dir() == tmp_path / "hlo-mlir"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache.cache_dir() == cache.Path(os.path.expanduser("~")) / ".cache" / "hlo-mlir"


def _add_computation():
    b = XlaBuilder("cache_add")
    x = Parameter(b, 0, Shape.parse("f32[3]"))
    return b.build(Add(x, x))


def test_second_compile_is_served_from_the_cache(cache_dir, monkeypatch):
    iree_calls = []
    real = compiler._compile_bytecode
    monkeypatch.setattr(compiler, "_compile_bytecode", lambda *a: iree_calls.append(1) or real(*a))
    first = hlo_mlir.compile(_add_computation(), "llvm-cpu")
    second = hlo_mlir.compile(_add_computation(), "llvm-cpu")  # rebuilt: equal module, new object
    assert len(iree_calls) == 1 and first == second
    out = hlo_mlir.runtime.load(second).main(np.array([1, 2, 3], np.float32))
    np.testing.assert_array_equal(out, np.array([2, 4, 6], np.float32))
    hlo_mlir.compile(_add_computation(), "llvm-cpu", flags=["--iree-opt-level=O1"])  # other flags: a miss
    hlo_mlir.compile(_add_computation(), "llvm-cpu", passes="O1")  # other passes: a miss
    assert len(iree_calls) == 3
