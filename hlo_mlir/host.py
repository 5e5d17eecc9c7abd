"""Host calls: the Python side of Infeed, Outfeed and CustomCall targets that are Python functions.

The ``host-calls`` pass (pipelines/legalizations/host_calls.py) turns each infeed,
outfeed and call of a :class:`HostFunction` target into a call of an imported function
``@hlo_mlir_host.<kind>_<n>`` and records what each import is in the reflection of the
public functions (``hlo_mlir.host_calls``, JSON). ``runtime.load`` then builds a Python
VM module named ``hlo_mlir_host`` (IREE's ``PyModuleInterface``) that implements those
imports:

- ``infeed_<n>`` takes the next value from the loaded module's ``infeed`` queue
  (``module.infeed.put(array)``; a tuple infeed takes a tuple of arrays);
- ``outfeed_<n>`` appends its operand to the ``outfeed`` queue (``module.outfeed.get()``);
- ``send_<n>`` appends its operand to the queue ``module.channel(handle)`` and ``recv_<n>``
  takes the next value from it: Send and Recv that are not one program's matched pair
  (those become data flow) talk to the host, or through it to another program;
- ``custom_call_<n>`` calls the registered function on numpy arrays and checks what it
  returns against the call's declared result shapes (as ``jax.pure_callback`` does).

The VM calls imports in program order, so the effects happen in the order the tokens
gave them. Unlike XLA, an infeed or recv with an empty queue does not wait: the call fails
with a RuntimeCallError saying so. This module needs only the IREE runtime.
"""

from __future__ import annotations

import collections
import json
import threading
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from hlo_mlir.errors import InvalidArgumentError, RuntimeCallError
from hlo_mlir.shape import Shape

__all__ = ["HostFunction", "HostQueue", "HostCall", "MODULE_NAME", "REFLECTION_KEY",
           "set_host_function", "host_function", "parse_host_calls", "create_host_module"]

MODULE_NAME = "hlo_mlir_host"
REFLECTION_KEY = "hlo_mlir.host_calls"


class HostFunction:
    """A CustomCall target computed by a Python function on the host, like
    ``jax.pure_callback``: ``fn(*operands)`` gets one numpy array per operand and returns
    one array (or a tuple of arrays, one per result) of the shapes the CustomCall declares::

        hlo_mlir.register_custom_call_target("my_sort", HostFunction(np.sort))
    """

    def __init__(self, fn: Callable[..., Any]):
        if not callable(fn):
            raise InvalidArgumentError(f"HostFunction requires a callable; got {type(fn).__name__}.")
        self.fn = fn

    def __repr__(self) -> str:
        return f"HostFunction({getattr(self.fn, '__name__', self.fn)!r})"


_lock = threading.Lock()
_FUNCTIONS: dict[str, HostFunction] = {}


def set_host_function(name: str, function: HostFunction | None) -> None:
    """Registers (or with None forgets) the host function of CustomCall target ``name``;
    ``dialect_ops.custom_call.register_custom_call_target`` calls this."""
    with _lock:
        if function is None:
            _FUNCTIONS.pop(name, None)
        else:
            _FUNCTIONS[name] = function


def host_function(name: str) -> HostFunction | None:
    with _lock:
        return _FUNCTIONS.get(name)


class HostQueue:
    """A first-in first-out queue of host values: ``put(value)``, ``get()``, ``len(queue)``."""

    def __init__(self, name: str):
        self.name = name
        self._items: collections.deque = collections.deque()

    def put(self, value) -> None:
        """Appends ``value`` (an array, or a tuple of arrays for a tuple infeed)."""
        self._items.append(value)

    def get(self):
        """Removes and returns the oldest value; RuntimeCallError when the queue is empty."""
        if not self._items:
            raise RuntimeCallError(f"{self.name}.get requires a value in the queue; got an empty queue.")
        return self._items.popleft()

    def __len__(self) -> int:
        return len(self._items)

    def clear(self) -> None:
        self._items.clear()

    def __repr__(self) -> str:
        return f"HostQueue({self.name!r}, {len(self)} value(s))"


@dataclass(frozen=True)
class HostCall:
    """One import of the compiled program: ``kind`` is infeed, outfeed, send, recv or custom_call."""

    name: str
    kind: str
    operands: tuple[Shape, ...]
    results: tuple[Shape, ...]
    target: str = ""  # the CustomCall target (custom_call only)
    channel: int = 0  # the channel handle (send and recv only)

    def to_json(self) -> dict:
        return {"name": self.name, "kind": self.kind, "target": self.target, "channel": self.channel,
                "operands": [str(s) for s in self.operands], "results": [str(s) for s in self.results]}

    @staticmethod
    def from_json(entry: dict) -> "HostCall":
        return HostCall(entry["name"], entry["kind"], tuple(Shape.parse(s) for s in entry["operands"]),
                        tuple(Shape.parse(s) for s in entry["results"]), entry.get("target", ""),
                        entry.get("channel", 0))

    def cconv(self) -> str:
        """IREE's calling convention string: one ref (a buffer view) per operand and result."""
        return f"0{'r' * len(self.operands) or 'v'}_{'r' * len(self.results) or 'v'}"


def host_calls_json(calls: Sequence[HostCall]) -> str:
    return json.dumps([c.to_json() for c in calls], sort_keys=True)


def parse_host_calls(reflections: Sequence[dict]) -> list[HostCall]:
    """The host calls recorded in the functions' reflection, once each."""
    calls: dict[str, HostCall] = {}
    for reflection in reflections:
        for entry in json.loads(reflection.get(REFLECTION_KEY, "[]")):
            call = HostCall.from_json(entry)
            calls[call.name] = call
    return list(calls.values())


# What each kind of host call does with its queue: "read" takes its results from it,
# "write" appends its operands to it.
_DIRECTION = {"infeed": "read", "recv": "read", "outfeed": "write", "send": "write"}
_OP_NAME = {"infeed": "Infeed", "recv": "Recv", "outfeed": "Outfeed", "send": "Send"}


def create_host_module(calls: Sequence[HostCall], queue_for: Callable[[HostCall], HostQueue], device,
                       to_host: Callable[[Any, Shape], np.ndarray], errors: list):
    """The ``hlo_mlir_host`` VM module implementing ``calls``: ``(interface, VmModule)``.
    ``queue_for(call)`` is the queue an infeed, outfeed, send or recv uses;
    ``to_host(buffer_view, shape)`` copies a device value to a new numpy array; an
    exception a call raises is appended to ``errors`` (the VM reports only its text). Raises
    RuntimeCallError naming a CustomCall target that has no registered HostFunction."""
    import iree.runtime as rt

    functions = {c.target: host_function(c.target) for c in calls if c.kind == "custom_call"}
    missing = sorted(t for t, f in functions.items() if f is None)
    if missing:
        raise RuntimeCallError(
            f"the vmfb calls CustomCall target(s) {', '.join(map(repr, missing))} on the host, which require "
            f"a HostFunction registered in this process; register it with "
            f"hlo_mlir.register_custom_call_target(name, hlo_mlir.HostFunction(fn)) before loading.")

    def to_device(value, shape: Shape, what: str):
        array = np.asarray(value)
        if array.shape != tuple(shape.dimensions) or (
                array.dtype != shape.dtype and not np.can_cast(array.dtype, shape.dtype, "same_kind")):
            raise RuntimeCallError(f"{what} requires a value of shape {shape}; got "
                                   f"{array.dtype.name}{list(array.shape)}.")
        array = np.asarray(array, dtype=shape.dtype, order="C")  # (ascontiguousarray makes 0-d 1-d)
        return rt.asdevicearray(device, array)._buffer_view.ref

    def refs_out(what: str, value, shapes: tuple[Shape, ...], returned: str):
        if not shapes:  # a call with no results (an empty tuple shape): what it returns is ignored
            return None
        values = (value,) if len(shapes) == 1 else value
        if not isinstance(values, (tuple, list)) or len(values) != len(shapes):
            raise RuntimeCallError(f"{what} requires {returned} {len(shapes)} arrays {_shapes(shapes)}; "
                                   f"got {type(value).__name__}.")
        refs = [to_device(v, s, what) for v, s in zip(values, shapes, strict=True)]
        return None if not refs else refs[0] if len(refs) == 1 else tuple(refs)

    def arrays_in(refs, shapes):
        return [to_host(ref.deref(rt.HalBufferView), s) for ref, s in zip(refs, shapes, strict=True)]

    def implement(call: HostCall):
        if call.kind == "custom_call":
            fn = functions[call.target]
            assert fn is not None
            return lambda _self, *refs: refs_out(
                f"CustomCall target {call.target!r}", fn.fn(*arrays_in(refs, call.operands)), call.results,
                "its function to return")
        queue, op = queue_for(call), _OP_NAME[call.kind]
        if _DIRECTION[call.kind] == "write":
            def write(_self, *refs):
                values = arrays_in(refs, call.operands)
                queue.put(values[0] if len(values) == 1 else tuple(values))
            return write

        def read(_self):
            if not len(queue):
                raise RuntimeCallError(
                    f"{op} requires a value in module.{queue.name}; got an empty queue (put one with "
                    f"module.{queue.name}.put(...) before the call; the program reads "
                    f"{_shapes(call.results)}).")
            return refs_out(op, queue.get(), call.results, "a tuple of")
        return read

    def recorded(fn):
        def call(*args):
            try:
                return fn(*args)
            except BaseException as e:
                errors.append(e)
                raise
        return call

    iface = rt.PyModuleInterface(MODULE_NAME, lambda _iface: None)
    for call in calls:
        iface.export(call.name, call.cconv(), recorded(implement(call)))
    return iface, iface.create()


def _shapes(shapes: Sequence[Shape]) -> str:
    return "(" + ", ".join(map(str, shapes)) + ")"
