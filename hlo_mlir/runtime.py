"""Loading ``.vmfb`` modules and calling their functions with numpy arrays.

``load(vmfb, driver)`` returns a :class:`LoadedModule`; its functions take numpy
arrays (or anything ``np.asarray`` accepts) and return numpy arrays. Tuple
parameters and results follow XLA users' expectations: a tuple parameter takes a
Python tuple, a tuple result comes back as a flat tuple of arrays.

Arguments are always copied into fresh device buffers, so a compiled program can
never change the caller's arrays (the pinned IREE updates argument buffers in place
for scatter and dynamic_update_slice, iree-org/iree#16168). That holds for
``iree.runtime.DeviceArray`` arguments too: one on the module's device is cloned on
the device, any other is read back to the host first.

Every result is an independent, writable numpy array. On the local drivers a result
is the mapped result buffer itself (no copy); IREE returns one buffer for two results
of the same value (``Tuple(x, x)``), and then the second is copied, so writing into
one result never changes another. (That a returned parameter keeps its value while
the program also sorts or updates it in place is ensured at compile time, by the
``result-barrier`` pass.)
"""

from __future__ import annotations

import atexit
import functools
import gc
import os
import re
import weakref
from dataclasses import dataclass
from typing import Sequence

import iree.runtime as _rt
import numpy as np
from iree.runtime.function import FunctionInvoker as _FunctionInvoker

from hlo_mlir import artifacts, host
from hlo_mlir import types as _types
from hlo_mlir.errors import CallArgumentError, RuntimeCallError, did_you_mean
from hlo_mlir.shape import Shape

__all__ = ["load", "LoadedModule", "Function", "DRIVERS", "fits"]

# Runtime drivers by name. local-sync runs dispatches on the calling thread; local-task
# uses a thread pool.
DRIVERS = ("local-sync", "local-task", "vulkan", "cuda")

# The driver for a vmfb that records no preference (one not compiled by hlo_mlir).
# ``hlo_mlir.compile`` records a preferred driver in the vmfb (``preferred_driver`` in
# hlo_mlir/compiler.py): local-sync for programs whose every kernel is small, where
# waking worker threads costs more than it saves, local-task otherwise; the numbers
# behind the choice are in docs/performance.md.
DEFAULT_DRIVER = "local-task"

# Device allocators: "caching" keeps freed device buffers for reuse (IREE's caching
# allocator), so a call does not fault in fresh pages for every argument and result;
# 64 MB argument copies take 10 ms instead of 35 ms. "default" returns memory at once.
# The local drivers use "caching" unless told otherwise; Vulkan's allocator rejects the
# caching allocator's requests (IREE 3.13), and CUDA pools its memory itself.
ALLOCATORS = ("caching", "default")
_LOCAL_DRIVERS = ("local-sync", "local-task")


@dataclass(frozen=True)
class Signature:
    """A function's XLA signature: parameter shapes and result shapes (tuples kept)."""

    parameters: tuple[Shape, ...]
    results: tuple[Shape, ...]

    def __str__(self) -> str:
        return (f"({', '.join(map(str, self.parameters))}) -> "
                f"({', '.join(map(str, self.results))})")


def _split_top(text: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "(<[":
            depth += 1
        elif ch in ")>]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def _parse_program_shape(text: str) -> Signature:
    m = re.fullmatch(r"\((.*)\) -> \((.*)\)", text.strip())
    if not m:
        raise RuntimeCallError(f"malformed program shape in vmfb reflection: {text!r}")
    return Signature(tuple(Shape.parse(p) for p in _split_top(m.group(1))),
                     tuple(Shape.parse(r) for r in _split_top(m.group(2))))


_TENSOR = re.compile(r"tensor<((?:\d+x)*)([^,>]+(?:<[^>]*>)?)>")


def _parse_declaration(text: str) -> Signature | None:
    """Signature from IREE's ``iree.abi.declaration`` (flat tensors only)."""
    m = re.search(r"\((.*?)\)\s*->\s*\(?(.*?)\)?$", text)
    if not m:
        return None

    def shapes(part: str) -> tuple[Shape, ...] | None:
        out = []
        for dims, et in _TENSOR.findall(part):
            try:
                out.append(Shape.array_shape(_types.from_mlir_name(et),
                                             [int(d) for d in dims.split("x") if d]))
            except Exception:  # noqa: BLE001 - unknown ABI types: no checking
                return None
        return tuple(out)

    params, results = shapes(m.group(1)), shapes(m.group(2))
    if params is None or results is None:
        return None
    return Signature(params, results)


class Function:
    """A callable compiled function: numpy arrays in, numpy arrays out."""

    def __init__(self, module: "LoadedModule", name: str, vm_function, signature: Signature | None):
        self._module, self.name, self._vm_function = module, name, vm_function
        self.signature = signature

    def __repr__(self) -> str:
        return f"Function({self.name!r}, {self.signature})"

    def _flatten_args(self, args: Sequence) -> list[np.ndarray]:
        if self.signature is None:
            return [np.array(a, copy=True) for a in args]
        params = self.signature.parameters
        if len(args) != len(params):
            raise CallArgumentError(
                f"{self.name} takes {len(params)} argument(s) {self.signature}; got {len(args)}.")
        flat: list[np.ndarray] = []
        for i, (arg, shape) in enumerate(zip(args, params, strict=True)):
            self._flatten_one(f"argument {i}", arg, shape, flat)
        return flat

    def _flatten_one(self, what: str, arg, shape: Shape, out: list) -> None:
        if shape.is_tuple:
            if not isinstance(arg, (tuple, list)) or len(arg) != len(shape.tuple_shapes):
                raise CallArgumentError(
                    f"{self.name}: {what}: expected a tuple {shape}; got {_describe(arg)}.")
            for j, (a, s) in enumerate(zip(arg, shape.tuple_shapes, strict=True)):
                self._flatten_one(f"{what}[{j}]", a, s, out)
            return
        if shape.is_token:
            raise CallArgumentError(f"{self.name}: {what}: token parameters cannot be passed from numpy.")
        if isinstance(arg, _rt.DeviceArray):
            if arg.dtype != shape.dtype or not fits(tuple(arg.shape), shape):
                raise CallArgumentError(f"{self.name}: {what}: expected {shape}; got {_describe(arg)}.")
            out.append(self._module._fresh_copy(arg))
            return
        array = np.asarray(arg)
        if (array.dtype != shape.dtype and not _safe_scalar(arg, shape)) or not fits(array.shape, shape):
            raise CallArgumentError(f"{self.name}: {what}: expected {shape}; got {_describe(arg)}.")
        # Contiguous, converted only when needed: the runtime copies each argument into a
        # fresh device buffer, so a program that writes into its argument buffers
        # (iree-org/iree#16168) never reaches the caller's array (a test checks it).
        out.append(np.asarray(array, dtype=_abi_dtype(shape.dtype), order="C"))

    def __call__(self, *args):
        module = self._module
        if module._lost is not None:
            raise RuntimeCallError(f"{self.name}: {module._lost}")
        flat = self._flatten_args(args)
        try:
            raw = self._vm_function(*flat)
            module._raise_host_error()
            # An empty result tuple comes back from the VM as None.
            values = [] if raw is None else list(raw) if isinstance(raw, (tuple, list)) else [raw]
            outputs = _unshared([module._to_host(v) for v in values])
        except RuntimeCallError:
            raise
        except (RuntimeError, ValueError, TypeError) as e:
            module._raise_host_error()
            if _DEVICE_LOST in str(e):
                module._device_lost()
                raise RuntimeCallError(f"{self.name}: {module._lost} The IREE runtime said: {e}") from None
            raise RuntimeCallError(f"{self.name}: the IREE runtime failed: {e}") from None
        if self.signature is None:
            return outputs[0] if len(outputs) == 1 else tuple(outputs)
        results = self.signature.results
        leaves = [leaf for r in results for leaf in r.leaves()]
        if len(leaves) == len(outputs):
            outputs = [o.astype(s.dtype) if not s.is_token and s.dtype in _SUB_BYTE_ABI else o
                       for o, s in zip(outputs, leaves, strict=True)]
        if len(results) == 1 and not results[0].is_tuple:
            return outputs[0]
        return tuple(outputs)


# Sub-byte integers cross the ABI as 8-bit ones (the ``widen-sub-byte-integers`` pass):
# the runtime converts ml_dtypes' int2/int4/uint2/uint4 arrays in and out.
_SUB_BYTE_ABI = {_types.dtype_of(_types.PrimitiveType(t)): np.dtype(w) for t, w in [
    ("s2", np.int8), ("s4", np.int8), ("u2", np.uint8), ("u4", np.uint8)]}


def _abi_dtype(dtype: np.dtype) -> np.dtype:
    """The dtype an argument or result of ``dtype`` has at the compiled function's ABI."""
    return _SUB_BYTE_ABI.get(dtype, dtype)


def _unshared(outputs: list[np.ndarray]) -> list[np.ndarray]:
    """``outputs`` with each array whose memory overlaps another kept one's replaced by a
    copy. IREE returns one buffer for results of the same value (``Tuple(x, x)``, a
    parameter returned twice); results that share nothing stay zero-copy."""
    reach = -1  # the end of the kept arrays' memory seen so far, in address order
    for start, _, i in sorted((_address(a), -a.nbytes, i) for i, a in enumerate(outputs) if a.nbytes):
        if start < reach:
            outputs[i] = np.array(outputs[i], copy=True)
        else:
            reach = max(reach, start + outputs[i].nbytes)
    return outputs


def _address(array: np.ndarray) -> int:
    return array.__array_interface__["data"][0]


def fits(dims: tuple[int, ...], shape: Shape) -> bool:
    """Whether an array of ``dims`` can be passed for ``shape``: equal static dimensions,
    and at most the bound for bounded dynamic ones (``f32[<=4]`` takes 0 to 4 elements)."""
    return len(dims) == shape.rank and all(
        d <= bound if dynamic else d == bound
        for d, bound, dynamic in zip(dims, shape.dimensions, shape.dynamic_dimensions, strict=True))


def _safe_scalar(arg, shape: Shape) -> bool:
    """Python scalars may be converted when the value round-trips exactly."""
    if isinstance(arg, (bool, int, float, complex)):
        try:
            return np.asarray(arg, dtype=shape.dtype) == arg
        except (OverflowError, ValueError, TypeError):
            return False
    return False


def _describe(arg) -> str:
    if isinstance(arg, (tuple, list)) and not isinstance(arg, np.ndarray):
        return f"a {type(arg).__name__} of {len(arg)}"
    try:
        if isinstance(arg, _rt.DeviceArray):  # np.asarray would refuse to read it back
            return f"a device array {Shape.array_shape(arg.dtype, tuple(arg.shape))}"
        return str(Shape.from_numpy(arg))
    except Exception:  # noqa: BLE001
        return type(arg).__name__


class LoadedModule:
    """A loaded vmfb: ``module.main(x, y)`` or ``module["main"](x, y)``.

    A program with Infeed or Outfeed reads ``module.infeed`` and writes ``module.outfeed``
    (:class:`hlo_mlir.host.HostQueue`: ``put(array)``, ``get()``), in program order; Send
    and Recv it does not pair up itself use ``module.channel(handle)``.
    """

    def __init__(self, vmfb: bytes, driver: str | None, allocator: str | None = None):
        if driver is not None and driver not in DRIVERS:
            raise RuntimeCallError(f"load requires a driver in {list(DRIVERS)} or None; got {driver!r}"
                                   f"{did_you_mean(driver, DRIVERS) or '.'}")
        if allocator is not None and allocator not in ALLOCATORS:
            raise RuntimeCallError(f"load requires an allocator in {list(ALLOCATORS)}; got {allocator!r}"
                                   f"{did_you_mean(allocator, ALLOCATORS) or '.'}")
        self.driver = driver
        self._lost: str | None = None  # why the module can no longer run, once its device is lost
        # the deployment manifest, when loaded from a path that has one
        self.manifest: artifacts.Manifest | None = None
        self.functions: dict[str, Function] = {}
        self.infeed = host.HostQueue("infeed")
        self.outfeed = host.HostQueue("outfeed")
        self.channels: dict[int, host.HostQueue] = {}
        self._host_errors: list[BaseException] = []
        try:
            self._load(vmfb, allocator)
        except (RuntimeError, ValueError, IndexError, UnicodeDecodeError) as e:
            # A corrupted vmfb can fail anywhere from parsing to reading its reflection.
            where = f" on driver {self.driver!r}" if self.driver else ""
            if "INCOMPATIBLE" in str(e):
                where += f" (the vmfb was compiled for a target that driver {self.driver!r} cannot run)"
            raise RuntimeCallError(f"could not load the vmfb{where}: {e}") from None

    def _load(self, vmfb: bytes, allocator: str | None) -> None:
        instance = _vm_instance()
        self._vm_module = _rt.VmModule.copy_buffer(instance, vmfb)
        exports = [self._vm_module.lookup_function(name) for name in self._vm_module.function_names
                   if not name.startswith("__")]
        if self.driver is None:
            self.driver = _preferred_driver(exports)
        if allocator is None:
            allocator = "caching" if self.driver in _LOCAL_DRIVERS else "default"
        self._device = _device(self.driver, allocator)
        hal_module = _rt.create_hal_module(instance, self._device)
        modules = [hal_module, self._vm_module]
        calls = host.parse_host_calls([f.reflection or {} for f in exports])
        if calls:
            self._host_module = host.create_host_module(calls, self._host_queue, self._device,
                                                        self._host_array, self._host_errors)
            modules.insert(1, self._host_module[1])
            _WITH_HOST_MODULES.add(self)
        self._context = _rt.VmContext(instance, modules=modules)
        for vm_function in exports:
            reflection = vm_function.reflection or {}
            signature: Signature | None
            if "hlo_mlir.program_shape" in reflection:
                signature = _parse_program_shape(reflection["hlo_mlir.program_shape"])
            else:
                signature = _parse_declaration(reflection.get("iree.abi.declaration", ""))
            invoker = _FunctionInvoker(self._context, self._device, vm_function)
            self.functions[vm_function.name] = Function(self, vm_function.name, invoker, signature)

    def channel(self, handle: int) -> host.HostQueue:
        """The queue of Send/Recv channel ``handle`` (one the program does not pair up itself):
        ``get()`` what the program sent, ``put(value)`` what it will receive."""
        if handle not in self.channels:
            self.channels[handle] = host.HostQueue(f"channel({handle})")
        return self.channels[handle]

    def _host_queue(self, call: host.HostCall) -> host.HostQueue:
        if call.kind in ("infeed", "outfeed"):
            return self.infeed if call.kind == "infeed" else self.outfeed
        return self.channel(call.channel)

    def _host_array(self, buffer_view, shape: Shape) -> np.ndarray:
        """A new numpy array holding a device value a host call received."""
        value = _rt.DeviceArray(self._device, buffer_view, override_dtype=shape.dtype)
        return np.array(self._to_host(value), copy=True)

    def _raise_host_error(self) -> None:
        """Raises the error a host call (infeed, outfeed, a HostFunction) failed with."""
        if not self._host_errors:
            return
        error = self._host_errors.pop(0)
        self._host_errors.clear()
        if isinstance(error, RuntimeCallError):
            raise error
        raise RuntimeCallError(f"a host call failed: {type(error).__name__}: {error}") from error

    def _release_host_module(self) -> None:
        """Drops the VM context and the Python host module (at exit: nanobind reports the
        PyModuleInterface as leaked if it outlives the interpreter's teardown)."""
        self.functions.clear()
        self._context = None
        self._host_module = None

    def __getitem__(self, name: str) -> Function:
        try:
            return self.functions[name]
        except KeyError:
            raise RuntimeCallError(
                f"no function {name!r}; the module has {sorted(self.functions)}.") from None

    def __getattr__(self, name: str) -> Function:
        if name.startswith("_") or name in ("functions", "driver", "manifest", "infeed", "outfeed",
                                            "channels"):
            raise AttributeError(name)
        return self[name]

    def _device_lost(self) -> None:
        """Marks the module as unusable and forgets its device, so that the next ``load``
        creates a new one: a lost Vulkan device never runs anything again."""
        self._lost = (f"the {self.driver} device was lost (VK_ERROR_DEVICE_LOST); this module can no "
                      "longer run: load the vmfb again, which creates a new device. Mesa's lavapipe "
                      "older than 23 loses its device under CPU load (docs/iree-defects.md).")
        _forget_device(self._device)

    def _fresh_copy(self, array: "_rt.DeviceArray"):
        """A copy of a device array argument that the call may write into (the pinned
        IREE updates argument buffers in place, iree-org/iree#16168): a device-side clone
        when ``array`` lives on this module's device, else a host copy."""
        view = array._buffer_view
        if view.get_buffer().byte_length() == 0:
            return np.zeros(tuple(view.shape), array.dtype)
        if array._device is not self._device:
            host = array.to_host() if _is_mappable(view.get_buffer()) else \
                _read_back(array._device, view, array.dtype)
            return np.array(host, dtype=array.dtype, copy=True)
        source = view.get_buffer()
        clone = self._device.allocator.allocate_buffer(
            memory_type=source.memory_type(), allowed_usage=source.allowed_usage(),
            allocation_size=source.byte_length())
        _copy_and_wait(self._device, source, clone)
        return _rt.DeviceArray(self._device, _rt.HalBufferView(clone, list(view.shape), view.element_type),
                               override_dtype=array.dtype)

    def _to_host(self, value) -> np.ndarray:
        if isinstance(value, np.ndarray):
            return value
        buffer_view = value._buffer_view
        if _is_mappable(buffer_view.get_buffer()):
            # The mapped result itself, no copy: every call returns fresh buffers (constants
            # included), and the array keeps its buffer and device alive
            # (tests/e2e/test_runtime.py).
            mapped = value.to_host()
            return np.asarray(_DeviceMemory(mapped, self._device)).view(mapped.dtype)
        return _read_back(self._device, buffer_view, value.dtype)


_WITH_HOST_MODULES: "weakref.WeakSet[LoadedModule]" = weakref.WeakSet()


@atexit.register
def _release_host_modules() -> None:
    for module in list(_WITH_HOST_MODULES):
        module._release_host_module()
    gc.collect()


class _DeviceMemory:
    """The base of a result array that maps a device buffer: it holds the mapped array
    (IREE keeps the mapping alive as long as that array) and the device. IREE's buffers
    do not keep their device alive, and unmapping a buffer whose device is gone crashes
    the process, so without this a result freed after its device (forgotten after a
    loss, or freed first by the garbage collector or at interpreter exit) would take the
    caller's process down. The result is ``np.asarray`` of this object viewed as the
    mapped dtype (the array interface spells ml_dtypes' types as raw bytes)."""

    __slots__ = ("__array_interface__", "_keep")

    def __init__(self, mapped: np.ndarray, device) -> None:
        self.__array_interface__ = mapped.__array_interface__
        self._keep = (device, mapped)  # a tuple releases its items last to first


def _preferred_driver(exports) -> str:
    """The driver ``hlo_mlir.compile`` recorded for the module's functions (local-task
    wins if they differ), else DEFAULT_DRIVER."""
    recorded = ((f.reflection or {}).get("hlo_mlir.preferred_driver") for f in exports)
    preferred = {d for d in recorded if d is not None}
    if len(preferred) == 1:
        return preferred.pop()
    return "local-task" if "local-task" in preferred else DEFAULT_DRIVER


@functools.cache
def _vm_instance():
    return _rt.VmInstance()


# The marker of a lost device in the runtime's errors (VK_ERROR_DEVICE_LOST on Vulkan).
_DEVICE_LOST = "DEVICE_LOST"
_DEVICES: dict[tuple[str, str], object] = {}


def _device(driver: str, allocator: str):
    """One device per (driver, allocator) in the process, as IREE's own get_device does,
    until it is lost (``_forget_device``)."""
    key = (driver, allocator)
    if key not in _DEVICES:
        try:
            hal_driver = _rt.get_driver(driver)
        except (RuntimeError, ValueError) as e:
            raise RuntimeCallError(f"the IREE runtime has no usable {driver!r} driver here: {e}") from None
        _DEVICES[key] = hal_driver.create_default_device(
            allocators=[allocator] if allocator != "default" else None)
    return _DEVICES[key]


def _forget_device(device) -> None:
    for key in [k for k, d in _DEVICES.items() if d is device]:
        del _DEVICES[key]


_HOST_VISIBLE = int(_rt.MemoryType.HOST_VISIBLE)
_MAPPING_SCOPED = int(_rt.BufferUsage.MAPPING_SCOPED)


def _is_mappable(buffer) -> bool:
    """Whether the host can map ``buffer`` directly (true on the local drivers)."""
    return (int(buffer.memory_type()) & _HOST_VISIBLE == _HOST_VISIBLE
            and int(buffer.allowed_usage()) & _MAPPING_SCOPED == _MAPPING_SCOPED)


def _read_back(device, buffer_view, dtype: np.dtype) -> np.ndarray:
    """Copies a device-local result to the host through a staging buffer.

    ``DeviceArray.to_host()`` imports a numpy allocation as the copy target, which
    Mesa's llvmpipe rejects (its minImportedHostPointerAlignment is 4096 and numpy
    does not align that far). A host-local, device-visible staging buffer that the
    device copies into and the host then maps works on every Vulkan driver.
    """
    shape = list(buffer_view.shape)
    raw_dtype = _rt.HalElementType.map_to_dtype(buffer_view.element_type)
    source = buffer_view.get_buffer()
    size = source.byte_length()
    if size == 0:
        return np.zeros(shape, dtype=dtype)
    staging = device.allocator.allocate_buffer(
        memory_type=int(_rt.MemoryType.HOST_LOCAL | _rt.MemoryType.DEVICE_VISIBLE),
        allowed_usage=int(_rt.BufferUsage.TRANSFER_TARGET | _rt.BufferUsage.MAPPING_SCOPED),
        allocation_size=size)
    _copy_and_wait(device, source, staging)
    host = np.array(staging.map().asarray(shape, raw_dtype), copy=True)
    return host if host.dtype == dtype else host.astype(dtype)


def _copy_and_wait(device, source, target) -> None:
    """Copies buffer ``source`` into ``target`` on ``device``'s queue and waits for it."""
    semaphore = device.create_semaphore(0)
    device.queue_copy(source, target, wait_semaphores=_rt.HalFence.create_at(semaphore, 0),
                      signal_semaphores=_rt.HalFence.create_at(semaphore, 1))
    _rt.HalFence.create_at(semaphore, 1).wait()


def load(vmfb, driver: str | None = None, *, allocator: str | None = None) -> LoadedModule:
    """Loads vmfb bytes (or a path to a .vmfb file) on ``driver``; ``None`` picks the
    driver the vmfb was compiled to prefer (DEFAULT_DRIVER when it names none).
    ``allocator`` is ``"caching"`` (device buffers are reused between calls; the default
    on the local drivers) or ``"default"``."""
    if isinstance(vmfb, (str, os.PathLike)):
        path = os.fspath(vmfb)
        try:
            with open(path, "rb") as f:
                vmfb = f.read()
        except OSError as e:
            raise RuntimeCallError(f"could not read vmfb {path!r}: {e.strerror}.") from None
        manifest = artifacts.check_manifest(path, vmfb)  # verifies the SHA-256 when there is one
    elif isinstance(vmfb, (bytes, bytearray, memoryview)):
        manifest = None
    else:
        raise RuntimeCallError(f"load requires vmfb bytes or a path; got {type(vmfb).__name__}.")
    module = LoadedModule(bytes(vmfb), driver, allocator)
    module.manifest = manifest
    return module
