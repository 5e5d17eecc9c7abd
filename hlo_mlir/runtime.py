"""Loading ``.vmfb`` modules and calling their functions with numpy arrays.

``load(vmfb, driver)`` returns a :class:`LoadedModule`; its functions take numpy
arrays (or anything ``np.asarray`` accepts) and return numpy arrays. Tuple
parameters and results follow XLA users' expectations: a tuple parameter takes a
Python tuple, a tuple result comes back as a flat tuple of arrays.

Arguments are always copied into fresh device buffers, so a compiled program can
never change the caller's arrays (the pinned IREE updates argument buffers in place
for scatter and dynamic_update_slice, iree-org/iree#16168).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import iree.runtime as _rt

from hlo_mlir import types as _types
from hlo_mlir.errors import CallArgumentError, RuntimeCallError
from hlo_mlir.shape import Shape

__all__ = ["load", "LoadedModule", "Function", "DRIVERS"]

# Runtime drivers by name. local-sync runs dispatches on the calling thread; local-task
# uses a thread pool.
DRIVERS = ("local-sync", "local-task", "vulkan", "cuda")

# The default driver, chosen by measurement (benchmarks/flag_choice.py and a per-size
# sweep, 2-core CI machine shared with other jobs; median us per call):
#   raw IREE call of a tiny add (no numpy conversion)   local-sync 10-13   local-task 30-70
#   through Function.__call__ (args copied, result read) local-sync 55-130  local-task 55-80
#   elementwise f32[16K .. 1M]                           equal within noise; local-task 1.0-1.2x
#   matmul f32 64 / 128 / 256 / 1024                     local-task 1.5x / 1.5x / 1.6x / 1.1x
#   MLP 32x256-512-512-10                                local-task 1.3-1.6x
# The Python side of a call (argument checks and copies, result read-back) costs more
# than local-sync saves on dispatch, and local-task wins on every larger program (more
# so with more cores), so local-task stays the default. Pick local-sync for many calls
# of tiny programs or dispatch-bound loops (ARCHITECTURE.md: a 1000-step while loop
# takes ~2.7 ms on local-sync, ~15 ms on local-task).
DEFAULT_DRIVER = "local-task"


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

    def shapes(part: str) -> tuple[Shape, ...]:
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
        for i, (arg, shape) in enumerate(zip(args, params)):
            self._flatten_one(f"argument {i}", arg, shape, flat)
        return flat

    def _flatten_one(self, what: str, arg, shape: Shape, out: list) -> None:
        if shape.is_tuple:
            if not isinstance(arg, (tuple, list)) or len(arg) != len(shape.tuple_shapes):
                raise CallArgumentError(f"{self.name}: {what}: expected a tuple {shape}; got {_describe(arg)}.")
            for j, (a, s) in enumerate(zip(arg, shape.tuple_shapes)):
                self._flatten_one(f"{what}[{j}]", a, s, out)
            return
        if shape.is_token:
            raise CallArgumentError(f"{self.name}: {what}: token parameters cannot be passed from numpy.")
        array = np.asarray(arg)
        if (array.dtype != shape.dtype and not _safe_scalar(arg, shape)) or not _fits(array.shape, shape):
            raise CallArgumentError(f"{self.name}: {what}: expected {shape}; got {_describe(arg)}.")
        # Contiguous, converted only when needed: the runtime copies each argument into a
        # fresh device buffer, so a program that writes into its argument buffers
        # (iree-org/iree#16168) never reaches the caller's array (a test checks it).
        out.append(np.asarray(array, dtype=shape.dtype, order="C"))

    def __call__(self, *args):
        flat = self._flatten_args(args)
        try:
            raw = self._vm_function(*flat)
        except (RuntimeError, ValueError, TypeError) as e:
            raise RuntimeCallError(f"{self.name}: the IREE runtime failed: {e}") from None
        # An empty result tuple comes back from the VM as None.
        values = [] if raw is None else list(raw) if isinstance(raw, (tuple, list)) else [raw]
        outputs = [self._module._to_host(v) for v in values]
        if self.signature is None:
            return outputs[0] if len(outputs) == 1 else tuple(outputs)
        results = self.signature.results
        if len(results) == 1 and not results[0].is_tuple:
            return outputs[0]
        return tuple(outputs)


def _fits(dims: tuple[int, ...], shape: Shape) -> bool:
    """Whether an array of ``dims`` can be passed for ``shape``: equal static dimensions,
    and at most the bound for bounded dynamic ones (``f32[<=4]`` takes 0 to 4 elements)."""
    return len(dims) == shape.rank and all(
        d <= bound if dynamic else d == bound
        for d, bound, dynamic in zip(dims, shape.dimensions, shape.dynamic_dimensions))


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
        return str(Shape.from_numpy(arg))
    except Exception:  # noqa: BLE001
        return type(arg).__name__


class LoadedModule:
    """A loaded vmfb: ``module.main(x, y)`` or ``module["main"](x, y)``."""

    def __init__(self, vmfb: bytes, driver: str):
        if driver not in DRIVERS:
            raise RuntimeCallError(f"load requires a driver in {list(DRIVERS)}; got {driver!r}.")
        self.driver = driver
        self.manifest = None  # the deployment manifest, when loaded from a path that has one
        self.functions: dict[str, Function] = {}
        try:
            self._load(vmfb)
        except (RuntimeError, ValueError, IndexError, UnicodeDecodeError) as e:
            # A corrupted vmfb can fail anywhere from parsing to reading its reflection.
            hint = ""
            if "INCOMPATIBLE" in str(e):
                hint = f" (the vmfb was compiled for a target that driver {driver!r} cannot run)"
            raise RuntimeCallError(f"could not load the vmfb on driver {driver!r}{hint}: {e}") from None

    def _load(self, vmfb: bytes) -> None:
        self._config = _rt.Config(self.driver)
        self._context = _rt.SystemContext(config=self._config)
        self._vm_module = _rt.VmModule.copy_buffer(self._context.instance, vmfb)
        self._context.add_vm_module(self._vm_module)
        module_name = self._vm_module.name
        bound = self._context.modules[module_name]
        for name in self._vm_module.function_names:
            if name.startswith("__"):
                continue
            vm_function = self._vm_module.lookup_function(name)
            reflection = vm_function.reflection or {}
            if "hlo_mlir.program_shape" in reflection:
                signature = _parse_program_shape(reflection["hlo_mlir.program_shape"])
            else:
                signature = _parse_declaration(reflection.get("iree.abi.declaration", ""))
            self.functions[name] = Function(self, name, bound[name], signature)

    def __getitem__(self, name: str) -> Function:
        try:
            return self.functions[name]
        except KeyError:
            raise RuntimeCallError(f"no function {name!r}; the module has {sorted(self.functions)}.") from None

    def __getattr__(self, name: str) -> Function:
        if name.startswith("_") or name in ("functions", "driver", "manifest"):
            raise AttributeError(name)
        return self[name]

    def _to_host(self, value) -> np.ndarray:
        if isinstance(value, np.ndarray):
            return value
        buffer_view = value._buffer_view
        if _is_mappable(buffer_view.get_buffer()):
            return np.array(value.to_host(), copy=True)
        return _read_back(self._config.device, buffer_view, value.dtype)


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
    semaphore = device.create_semaphore(0)
    device.queue_copy(source, staging, wait_semaphores=_rt.HalFence.create_at(semaphore, 0),
                      signal_semaphores=_rt.HalFence.create_at(semaphore, 1))
    _rt.HalFence.create_at(semaphore, 1).wait()
    host = np.array(staging.map().asarray(shape, raw_dtype), copy=True)
    return host if host.dtype == dtype else host.astype(dtype)


def load(vmfb, driver: str = DEFAULT_DRIVER) -> LoadedModule:
    """Loads vmfb bytes (or a path to a .vmfb file) on ``driver``."""
    if isinstance(vmfb, (str, os.PathLike)):
        path = os.fspath(vmfb)
        try:
            with open(path, "rb") as f:
                vmfb = f.read()
        except OSError as e:
            raise RuntimeCallError(f"could not read vmfb {path!r}: {e.strerror}.") from None
        from hlo_mlir import artifacts

        manifest = artifacts.check_manifest(path, vmfb)  # verifies the SHA-256 when there is one
    elif isinstance(vmfb, (bytes, bytearray, memoryview)):
        manifest = None
    else:
        raise RuntimeCallError(f"load requires vmfb bytes or a path; got {type(vmfb).__name__}.")
    module = LoadedModule(bytes(vmfb), driver)
    module.manifest = manifest
    return module
