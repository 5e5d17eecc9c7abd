"""JAX functions in one call: ``from_jax`` gives their StableHLO as an XlaComputation,
``jit`` compiles them through hlo-mlir's passes and IREE and runs them.

``from_jax(fn, *example_args)`` traces ``fn`` with JAX on the example arguments (arrays,
scalars, ``jax.ShapeDtypeStruct``, or pytrees of them: tuples, lists, dicts, dataclasses
registered with JAX), lowers it for the CPU and parses the StableHLO into hlo-mlir's
context: the result is an ``XlaComputation`` like ``XlaBuilder.build`` returns. Its
parameters are the argument leaves in JAX's flattening order
(``jax.tree_util.tree_leaves((args, kwargs))``), every one kept even when ``fn`` does not
read it; its results are the leaves of ``fn``'s output, in the same order. Locations carry
the file:line of ``fn``'s source, so errors from the passes and from IREE point at it.

``jit(fn, target="llvm-cpu")`` is a JAX-like decorator: the first call with a given input
signature (the pytree structure, and each leaf's shape and dtype, Python scalars being
JAX's weakly typed scalars) runs ``from_jax``, ``hlo_mlir.compile`` and
``hlo_mlir.runtime.load``; later calls with the same signature run the loaded program
straight away. The compiled programs are kept per signature in memory, and the persistent
compile cache (``hlo_mlir.cache``) serves a signature seen by an earlier process without
recompiling. Results are numpy arrays in ``fn``'s output structure.

Dtypes follow JAX: with ``jax_enable_x64`` off (JAX's default) float64 and int64 inputs are
traced, compiled and passed as float32 and int32, as ``jax.jit`` does; turn it on for
64-bit programs. Closed-over arrays become constants of the module.

What is not supported, and what happens instead:

- side effects (``jax.debug.print``, ``io_callback``, ordered effects): InvalidArgumentError
  naming them; host callbacks cannot run inside a compiled IREE program;
- functions JAX lowers to its own CPU kernels (``stablehlo.custom_call`` of LAPACK or
  DUCC FFT targets: ``jnp.linalg`` decompositions, some FFTs): hlo_mlir.compile raises a
  CompileError naming the call target, unless one is registered
  (``dialect_ops.custom_call.register_custom_call_target``);
- donated arguments, shardings and several devices, shape polymorphism: each input
  signature compiles its own program for one device;
- differentiating or tracing through a ``jit`` function (``jax.grad(hlo_mlir.jit(f))``): it
  returns numpy arrays, not JAX values; differentiate ``f`` in JAX and ``jit`` the gradient.

jax is an optional dependency (``pip install 'hlo-mlir[jax]'``); it is imported when these
functions are called, and without it they raise ModuleNotFoundError saying what to install.
"""

from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Sequence

import numpy as np

from hlo_mlir import compiler as _compiler
from hlo_mlir import runtime as _runtime
from hlo_mlir.context import as_module
from hlo_mlir.errors import InvalidArgumentError
from hlo_mlir.module import XlaComputation
from hlo_mlir.targets import target_flags

__all__ = ["from_jax", "jit", "JitFunction", "JAX_REQUIREMENT"]

# What ``pip install 'hlo-mlir[jax]'`` installs: the JAX hlo-mlir is tested with.
JAX_REQUIREMENT = "jax==0.10.2 jaxlib==0.10.2"

# JAX's weakly typed Python scalars: their signature is their type, not their value.
_PYTHON_SCALARS = (bool, int, float, complex)


def _import_jax():
    """The ``jax`` module, or ModuleNotFoundError saying how to install it."""
    try:
        import jax
    except ImportError as e:
        raise ModuleNotFoundError(
            f"hlo_mlir.from_jax and hlo_mlir.jit require jax, which is not installed ({e}). Install it with "
            f"`pip install 'hlo-mlir[jax]'` (or `pip install {JAX_REQUIREMENT}`, the versions hlo-mlir is "
            f"tested with).", name="jax") from None
    _hide_our_frames(jax)
    return jax


@functools.cache
def _hide_our_frames(jax) -> None:
    """Keeps this module's frames out of the source locations JAX records (as JAX keeps its
    own out), so that each op's location is the user's call and function lines only."""
    import jax.extend.source_info_util

    jax.extend.source_info_util.register_exclusion(__file__)


@dataclass(frozen=True)
class _Lowered:
    """``fn`` traced and lowered for one input signature."""

    computation: XlaComputation
    in_tree: Any  # jax PyTreeDef of (args, kwargs), static arguments left out
    in_dtypes: tuple[np.dtype, ...]  # each parameter's dtype, as JAX canonicalized it
    out_tree: Any  # jax PyTreeDef of the result


def _lower(jitted, args: Sequence, kwargs: dict) -> _Lowered:
    """Traces and lowers the ``jax.jit``-wrapped ``jitted``; parses its StableHLO."""
    traced = jitted.trace(*args, **kwargs)
    effects = traced.jaxpr.effects
    if effects:
        raise InvalidArgumentError(
            f"from_jax requires a function without side effects (host callbacks cannot run in a compiled "
            f"program); got {', '.join(sorted(map(str, effects)))}.")
    # The CPU lowering is plain StableHLO for every target (a GPU lowering would call CUDA
    # libraries); the debug info gives each op the file:line of the user's source.
    lowered = traced.lower(lowering_platforms=("cpu",))
    module = as_module(lowered.as_text(debug_info=True))
    in_avals = _import_jax().tree_util.tree_leaves(traced.in_avals)
    return _Lowered(XlaComputation(module), lowered.in_tree, tuple(np.dtype(a.dtype) for a in in_avals),
                    lowered.out_tree)


def _as_jax_jit(fn: Callable, jax, **options):
    """``fn`` wrapped by ``jax.jit`` keeping unused parameters (so that the module takes one
    parameter per argument leaf); a function already wrapped is taken as it is."""
    if hasattr(fn, "trace") and hasattr(fn, "lower"):
        return fn
    if not callable(fn):
        raise InvalidArgumentError(f"from_jax requires a callable; got {type(fn).__name__}.")
    return jax.jit(fn, keep_unused=True, **options)


def from_jax(fn: Callable, *example_args, **example_kwargs) -> XlaComputation:
    """The StableHLO of JAX function ``fn`` at the example arguments, as an XlaComputation.

    ``example_args``/``example_kwargs`` are arrays, scalars or ``jax.ShapeDtypeStruct``, or
    pytrees of them; only their shapes and dtypes matter. The computation's parameters
    are the argument leaves in ``jax.tree_util`` order (unused ones kept) and its results
    the leaves of ``fn``'s output. ``fn`` may be a ``jax.jit``-wrapped function, whose own
    options (``static_argnums``, ``keep_unused``, ...) then apply. Raises
    ModuleNotFoundError when jax is not installed.
    """
    jax = _import_jax()
    return _lower(_as_jax_jit(fn, jax), example_args, example_kwargs).computation


@dataclass(frozen=True)
class _Compiled:
    lowered: _Lowered
    function: _runtime.Function


class JitFunction:
    """``fn`` compiled by hlo-mlir and IREE once per input signature (``hlo_mlir.jit``)."""

    def __init__(self, fn: Callable, *, target: str, driver: str | None, passes: str | None,
                 flags: Sequence[str], static_argnums: Sequence[int], static_argnames: Sequence[str]):
        if not callable(fn):
            raise InvalidArgumentError(f"jit requires a callable; got {type(fn).__name__}.")
        target_flags(target, flags)  # a bad target or flag fails here, not at the first call
        if driver is not None and driver not in _runtime.DRIVERS:
            raise InvalidArgumentError(f"jit requires a driver in {list(_runtime.DRIVERS)} or None; "
                                       f"got {driver!r}.")
        self._fn, self.target, self.driver, self.passes = fn, target, driver, passes
        self.flags = tuple(flags)
        self._static_argnums, self._static_argnames = _static_positions_and_names(fn, static_argnums,
                                                                                   static_argnames)
        self._compiled: dict[Hashable, _Compiled] = {}
        self._jax_jitted = None
        functools.update_wrapper(self, fn)

    def _jitted(self, jax):
        if self._jax_jitted is None:
            self._jax_jitted = jax.jit(self._fn, keep_unused=True, static_argnums=self._static_argnums,
                                       static_argnames=self._static_argnames)
        return self._jax_jitted

    def _split(self, args: tuple, kwargs: dict) -> tuple[tuple, dict, tuple]:
        """(dynamic args, dynamic kwargs, the static values as a hashable key)."""
        static_pos = {i % len(args) for i in self._static_argnums if -len(args) <= i < len(args)}
        static = tuple((i, args[i]) for i in sorted(static_pos))
        static += tuple((k, kwargs[k]) for k in sorted(kwargs) if k in self._static_argnames)
        try:
            hash(static)
        except TypeError:
            raise InvalidArgumentError(f"jit requires hashable static arguments; got "
                                       f"{[type(v).__name__ for _, v in static]}.") from None
        dynamic_args = tuple(a for i, a in enumerate(args) if i not in static_pos)
        dynamic_kwargs = {k: v for k, v in kwargs.items() if k not in self._static_argnames}
        return dynamic_args, dynamic_kwargs, static

    def _signature(self, jax, args: tuple, kwargs: dict) -> tuple[Hashable, list]:
        """The in-memory cache key of a call, and its argument leaves."""
        dynamic_args, dynamic_kwargs, static = self._split(args, kwargs)
        leaves, tree = jax.tree_util.tree_flatten((dynamic_args, dynamic_kwargs))
        return (tree, tuple(_leaf_signature(jax, leaf) for leaf in leaves), static), leaves

    def _compile(self, jax, tree, args: tuple, kwargs: dict) -> _Compiled:
        lowered = _lower(self._jitted(jax), args, kwargs)
        if lowered.in_tree != tree:  # JAX split static from dynamic arguments otherwise than we did
            raise InvalidArgumentError(f"jit requires JAX's dynamic arguments to be {tree}; got "
                                       f"{lowered.in_tree} (static_argnums={self._static_argnums}, "
                                       f"static_argnames={self._static_argnames}).")
        vmfb = _compiler.compile(lowered.computation, self.target, flags=self.flags, passes=self.passes)
        return _Compiled(lowered, _runtime.load(vmfb, self.driver).main)

    def lower(self, *args, **kwargs) -> XlaComputation:
        """The StableHLO that a call with these arguments compiles (``from_jax``)."""
        return _lower(self._jitted(_import_jax()), args, kwargs).computation

    def __call__(self, *args, **kwargs):
        jax = _import_jax()
        key, leaves = self._signature(jax, args, kwargs)
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = self._compiled[key] = self._compile(jax, key[0], args, kwargs)
        lowered = compiled.lowered
        flat = [np.asarray(leaf, dtype=dtype) for leaf, dtype in zip(leaves, lowered.in_dtypes, strict=True)]
        outputs = compiled.function(*flat)
        outputs = list(outputs) if isinstance(outputs, tuple) else [outputs]
        return jax.tree_util.tree_unflatten(lowered.out_tree, outputs)

    def cache_size(self) -> int:
        """How many input signatures have a compiled program in memory."""
        return len(self._compiled)

    def __repr__(self) -> str:
        return f"hlo_mlir.jit({getattr(self._fn, '__qualname__', self._fn)!r}, target={self.target!r})"


def _static_positions_and_names(fn: Callable, nums: Sequence[int], names: Sequence[str]
                                ) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """``static_argnums`` and ``static_argnames`` completed from each other through ``fn``'s
    signature, as ``jax.jit`` completes them (a static parameter is static however it is
    passed)."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):  # no signature (some builtins): take them as given
        return tuple(nums), tuple(names)
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    positional = [name for name, p in params.items() if p.kind in kinds]
    all_nums = set(nums) | {positional.index(n) for n in names if n in positional}
    all_names = set(names) | {positional[i] for i in nums if -len(positional) <= i < len(positional)
                              and params[positional[i]].kind == inspect.Parameter.POSITIONAL_OR_KEYWORD}
    return tuple(sorted(all_nums)), tuple(sorted(all_names))


def _leaf_signature(jax, leaf) -> Hashable:
    """What of one argument leaf decides the compiled program: its shape, its dtype as JAX
    canonicalizes it (float64 is float32 unless x64 is on) and JAX's weak type; for a Python
    scalar its type."""
    if type(leaf) in _PYTHON_SCALARS:  # not np.float64, a subclass of float but strongly typed
        return type(leaf).__name__
    if not (hasattr(leaf, "shape") and hasattr(leaf, "dtype")):
        leaf = np.asarray(leaf)
    dtype = jax.dtypes.canonicalize_dtype(leaf.dtype)
    return tuple(leaf.shape), np.dtype(dtype), bool(getattr(leaf, "weak_type", False))


def jit(fn: Callable | None = None, *, target: str = "llvm-cpu", driver: str | None = None,
        passes: str | None = None, flags: Sequence[str] = (), static_argnums: int | Sequence[int] = (),
        static_argnames: str | Sequence[str] = ()):
    """Compiles JAX function ``fn`` with hlo-mlir and IREE on its first call per input
    signature; returns a :class:`JitFunction` (numpy results in ``fn``'s output structure).

    ``target``, ``passes`` and ``flags`` go to ``hlo_mlir.compile``; ``driver`` to
    ``hlo_mlir.runtime.load`` (default: the driver the program prefers);
    ``static_argnums``/``static_argnames`` as in ``jax.jit`` (hashable values, part of the
    signature). Usable as ``@jit`` or ``@jit(target=...)``.
    """
    nums = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
    names = (static_argnames,) if isinstance(static_argnames, str) else tuple(static_argnames)

    def wrap(f: Callable) -> JitFunction:
        return JitFunction(f, target=target, driver=driver, passes=passes, flags=flags,
                           static_argnums=nums, static_argnames=names)

    return wrap if fn is None else wrap(fn)

