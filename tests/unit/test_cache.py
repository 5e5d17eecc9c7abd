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
    monkeypatch.setattr(compiler, "_compile_bytecode",
                        lambda *a, **kw: iree_calls.append(1) or real(*a, **kw))
    first = hlo_mlir.compile(_add_computation(), "llvm-cpu")
    second = hlo_mlir.compile(_add_computation(), "llvm-cpu")  # rebuilt: equal module, new object
    assert len(iree_calls) == 1 and first == second
    out = hlo_mlir.runtime.load(second).main(np.array([1, 2, 3], np.float32))
    np.testing.assert_array_equal(out, np.array([2, 4, 6], np.float32))
    hlo_mlir.compile(_add_computation(), "llvm-cpu", flags=["--iree-opt-level=O1"])  # other flags: a miss
    hlo_mlir.compile(_add_computation(), "llvm-cpu", passes="O1")  # other passes: a miss
    assert len(iree_calls) == 3


# --- issue 9: an entry is its own key's, the host CPU is in the key, a bad size is named ---------
def _affine(scale: int):
    from hlo_mlir import ConstantR0, Mul

    b = XlaBuilder("cache_affine")
    x = Parameter(b, 0, Shape.parse("f32[3]"))
    return b.build(Add(Mul(x, ConstantR0(b, np.float32(scale))), ConstantR0(b, np.float32(1))))


def test_entry_copied_under_another_key_is_not_served(cache_dir):
    c = cache.CompileCache()
    key_a, key_b = cache.compile_key(**BASE), cache.compile_key(**{**BASE, "passes": "O1"})
    c.put(key_a, b"program a")
    c.path(key_b).parent.mkdir(parents=True, exist_ok=True)
    c.path(key_b).write_bytes(c.path(key_a).read_bytes())  # a well-formed entry, but a's
    assert c.get(key_b) is None
    assert not c.path(key_b).exists()  # removed: the next compile writes b's own
    assert c.get(key_a) == b"program a"


def test_compile_never_returns_another_programs_vmfb(cache_dir):
    # The reproducer: compile(x*2+1) returned the vmfb of x*3+1 copied under its key.
    x = np.array([1, 2, 3], np.float32)
    hlo_mlir.compile(_affine(3))
    (three,) = cache.CompileCache().entries()
    hlo_mlir.compile(_affine(2))
    (two,) = [p for p in cache.CompileCache().entries() if p != three]
    two.write_bytes(three.read_bytes())
    out = hlo_mlir.runtime.load(hlo_mlir.compile(_affine(2))).main(x)
    np.testing.assert_array_equal(out, x * 2 + 1)


def test_key_holds_the_host_cpu_when_code_is_built_for_the_host(monkeypatch):
    host = dict(BASE, flags=["--iree-llvmcpu-target-cpu=host"])
    features = dict(BASE, flags=["--iree-llvmcpu-target-triple=x86_64-unknown-linux-gnu",
                                 "--iree-llvmcpu-target-cpu=znver4",
                                 "--iree-llvmcpu-target-cpu-features=host"])
    no_triple = dict(BASE, flags=["--iree-llvmcpu-target-cpu=znver4"])
    cross = dict(BASE, flags=["--iree-llvmcpu-target-triple=aarch64-unknown-linux-gnu",
                              "--iree-llvmcpu-target-cpu=cortex-a78"])
    before = {name: cache.compile_key(**args) for name, args in
              dict(host=host, features=features, no_triple=no_triple, cross=cross).items()}
    monkeypatch.setattr(cache, "host_cpu", lambda: "Linux;x86_64;vendor_id=AuthenticAMD;flags=avx2")
    after = {name: cache.compile_key(**args) for name, args in
             dict(host=host, features=features, no_triple=no_triple, cross=cross).items()}
    assert before["host"] != after["host"]  # another machine: another entry
    assert before["features"] != after["features"] and before["no_triple"] != after["no_triple"]
    assert before["cross"] == after["cross"]  # fully specified cross-compilation: shareable
    assert cache.compile_key(**dict(BASE, target="vulkan-spirv")) == cache.compile_key(
        **dict(BASE, target="vulkan-spirv"))


def test_compile_key_of_hlo_mlir_compile_holds_the_host_cpu(cache_dir, monkeypatch):
    first = hlo_mlir.compile(_affine(4))  # TARGETS["llvm-cpu"] says --iree-llvmcpu-target-cpu=host
    monkeypatch.setattr(cache, "host_cpu", lambda: "another machine")
    calls = []
    real = compiler._compile_bytecode
    monkeypatch.setattr(compiler, "_compile_bytecode", lambda *a, **kw: calls.append(1) or real(*a, **kw))
    assert hlo_mlir.compile(_affine(4)) == first
    assert calls == [1]  # a miss: the entry of this machine's CPU is not served to another


def test_host_cpu_names_architecture_identity_and_features():
    import platform

    text = cache.host_cpu()
    assert text.startswith(f"{platform.system()};{platform.machine()};")
    if os.path.exists("/proc/cpuinfo"):
        cpuinfo = open("/proc/cpuinfo").read()
        for field in ("vendor_id", "model", "flags", "Features", "CPU part"):
            if f"\n{field}\t" in "\n" + cpuinfo or f"\n{field} " in "\n" + cpuinfo:
                assert f"{field}=" in text, field
    assert cache.host_cpu() is text  # resolved once per process


def test_iree_host_cpu_fallback_names_llvms_cpu_and_features():
    # Where /proc/cpuinfo is missing, IREE's own resolution of "host" is the identity.
    text = cache._iree_host_cpu()
    cpu, features = text.split(";")
    assert cpu.startswith("cpu=") and len(cpu) > len("cpu=")
    assert features.startswith("features=+") or features.startswith("features=-")


@pytest.mark.parametrize("value, expected", [
    ("123", 123), ("500M", 500 << 20), ("2G", 2 << 30), ("2GiB", 2 << 30), ("64kb", 64 << 10), (" 7 ", 7),
    ("", 2 << 30), ("0", 0),
])
def test_max_bytes_accepts_sizes(monkeypatch, value, expected):
    monkeypatch.setenv("HLO_MLIR_CACHE_MAX_BYTES", value)
    assert cache.CompileCache().max_bytes == expected


@pytest.mark.parametrize("value", ["abc", "-5", "1.5G", "2 GB extra"])
def test_bad_max_bytes_names_the_variable_and_value(cache_dir, monkeypatch, value):
    from hlo_mlir.errors import InvalidArgumentError

    monkeypatch.setenv("HLO_MLIR_CACHE_MAX_BYTES", value)
    message = (rf"HLO_MLIR_CACHE_MAX_BYTES requires a size in bytes such as 2147483648, 500M or 2G; "
               rf"got '{value}'\.")
    with pytest.raises(InvalidArgumentError, match=message):
        cache.default_cache()
    with pytest.raises(InvalidArgumentError, match=message):
        hlo_mlir.compile(_add_computation())
