"""Seeded random programs over the builder API (``from hlo_mlir import *``).

``generate(seed, index)`` returns program ``index`` of ``seed``: a small DAG (1 to ~20
builder calls, plus the glue that keeps it valid) over random shapes and element types,
its inputs (random data with NaN, +-inf, -0, denormals, the largest floats and the
integer extremes mixed in) and, per result, whether XLA and IREE must agree exactly.
The same (seed, index) gives the same program on every run and machine: every random
choice comes from ``numpy.random.default_rng([seed, index])``.

Each builder call is rendered as one line of Python and executed from that text, so the
recorded code (``Program.source()``) *is* the program: a finding's ``repro.py`` rebuilds
exactly the module that failed.

What the generator avoids, because it is implementation-defined rather than wrong
(XLA's operation semantics): integer division or remainder by zero and of INT_MIN by -1
(divisors are made safe in the program), non-identity init values of Reduce and
ReduceWindow, Scatter with overlapping windows and an order-dependent combiner,
unstable sorts with ties that carry other operands, random bits (only THREE_FRY's
``RngBitGenerator``, which is bit-exact between XLA and IREE), and discontinuous ops
(rounding, comparisons, float-to-integer conversion, sort keys, bitcasts) on values
that the two implementations only compute approximately (see ``Val.exact``).
"""

from __future__ import annotations

import contextlib
import itertools
import math
import traceback
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

import ml_dtypes
import numpy as np

import hlo_mlir
from hlo_mlir import HloMlirError, PrimitiveType, Shape
from hlo_mlir import types as _types
from tests.fuzz.compare import EPS, tolerance

__all__ = ["generate", "Program", "Leaf", "DTYPES", "FLOATS", "INTS"]

FLOATS = ("bf16", "f16", "f32", "f64")
SIGNED = ("s8", "s16", "s32", "s64")
UNSIGNED = ("u8", "u32")
INTS = SIGNED + UNSIGNED
COMPLEX = ("c64",)
DTYPES = FLOATS + INTS + ("pred",) + COMPLEX
INDEX_DTYPES = ("s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64")

# How often each element type is drawn for a new value.
_DTYPE_WEIGHTS = {"f32": 8, "f64": 3, "bf16": 3, "f16": 3, "s32": 5, "s64": 2, "s8": 2, "s16": 1, "u8": 2,
                  "u32": 2, "pred": 3, "c64": 2}

MAX_ELEMENTS = 48  # per array: programs stay cheap to compile and to run
# A complex pow's phase q = c t + d log|x| (x^y, y = c + di, t = arg x) is rounded in the
# component type before cos(q) and sin(q): both sides (XLA's EmitComplexPower, complex-pow)
# are off by about eps * |q|, and the exact value moves each part by |x^y| times that. The
# tolerance budgets 16 more steps (16 * 16 eps) for it: phases up to a few hundred
# (seed 20261126 program 7262: q = 734, XLA 1.7e-5 off numpy, here 1e-7 off XLA).
POW_PHASE_STEPS = 16


class Rejected(Exception):
    """The builder refused a call with a clean HloMlirError: the step is skipped."""


class BuildFailure(Exception):
    """The builder raised something other than an HloMlirError: a finding."""

    def __init__(self, line: str, error: BaseException):
        super().__init__(f"{type(error).__name__}: {error}")
        self.line, self.error = line, error
        self.trace = "".join(traceback.format_exception(error))


class Ref(str):
    """A name in the generated code (rendered bare)."""


@dataclass
class Val:
    """A value of the program under construction.

    ``exact``: XLA and IREE must compute it exactly (integers and predicates always;
    floats produced only by data movement and correctly rounded single ops on exact
    inputs). ``bits``: also bit for bit (NaN signs and payloads, the sign of zero), the
    condition for bitcasts, total-order comparisons and sort keys. ``err``: how many
    inexact steps went into it and ``eps`` the machine epsilon of the coarsest float type it
    was computed in (the comparison tolerance grows with both). ``reassoc``: it went through
    a float sum or product of many terms (Reduce, ReduceWindow, Dot, convolution, Scatter),
    whose order, and so where it overflows (inf - inf is NaN), is implementation-defined.
    """

    name: str
    shape: Shape
    exact: bool = True
    bits: bool = True
    err: int = 0
    eps: float = 0.0  # the coarsest float precision an inexact value went through
    const: bool = False  # computed from constants only (XLA folds it at compile time)
    reassoc: bool = False  # went through a float sum whose order is implementation-defined
    used: bool = False  # read by a later op (the program's results are picked among unused values)
    data: Any = None  # the values drawn for a parameter or constant (None: computed)
    mag: float | None = None  # the largest finite |element|, where known (drawn data, moved)
    floor: float = 0.0  # Leaf.floor
    overflow: bool = False  # Leaf.overflow
    tan: bool = False  # Leaf.tan
    terms: float = 0.0  # a float Dot's or convolution's bound on its sums of |terms| (Sin/Cos/Tan's floor)
    ill: bool = False  # Leaf.ill

    @property
    def dims(self) -> tuple[int, ...]:
        return tuple(self.shape.dimensions)

    @property
    def dtype(self) -> str:
        return self.shape.element_type.value

    @property
    def rank(self) -> int:
        return len(self.shape.dimensions)


@dataclass
class Leaf:
    """One array of the program's flattened result, with how to compare it. ``floor``: a
    magnitude its error scales with when that is larger than the array's own (a float sum's
    sum of |terms|, a remainder's dividend); ``overflow``: some evaluation order of a float sum
    or product it is may overflow where another does not (both are known only where the op
    reads drawn data, a parameter or constant, or data movement of it); ``tan``: it is the
    tan of a value with that floor, whose error tan multiplies by 1 + tan^2; ``ill``: an
    ill-conditioned float ``Pow`` (``_pow_ill_conditioned``), of which only NaN places count."""

    dtype: str
    exact: bool
    err: int
    eps: float = 0.0
    reassoc: bool = False
    floor: float = 0.0
    overflow: bool = False
    tan: bool = False
    ill: bool = False


@dataclass
class Program:
    seed: int
    index: int
    name: str
    code: list[str]
    computation: Any = None
    args: list = field(default_factory=list)
    leaves: list[Leaf] = field(default_factory=list)
    ops: Counter = field(default_factory=Counter)
    rejected: list[tuple[str, str]] = field(default_factory=list)
    failure: BuildFailure | None = None

    def source(self) -> str:
        """Python that rebuilds the computation: a ``build()`` function."""
        body = "\n".join("    " + line for line in self.code)
        return (f"# hlo-mlir fuzz program {self.index} of seed {self.seed} "
                f"(python -m tests.fuzz --seed {self.seed} --only {self.index})\n"
                "import ml_dtypes\nimport numpy as np\nfrom numpy import inf, nan\n\n"
                "from hlo_mlir import *  # noqa: F403\n\n\n"
                f"def build():\n{body}\n")

    def text(self) -> str:
        """The StableHLO module as built (before hlo-mlir's passes)."""
        if self.computation is None:
            return ""
        return self.computation.module.operation.get_asm()


# --- literals --------------------------------------------------------------------------------
_DTYPE_EXPR = {"bf16": "ml_dtypes.bfloat16", "f16": "np.float16", "f32": "np.float32", "f64": "np.float64",
               "s8": "np.int8", "s16": "np.int16", "s32": "np.int32", "s64": "np.int64", "u8": "np.uint8",
               "u16": "np.uint16", "u32": "np.uint32", "u64": "np.uint64", "pred": "np.bool_",
               "c64": "np.complex64", "c128": "np.complex128"}


def np_dtype(dtype: str) -> np.dtype:
    return _types.dtype_of(PrimitiveType(dtype))


def _dtype_name(dt) -> str:
    return _types.from_dtype(np.dtype(dt)).value


def _float_text(x: float) -> str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return repr(float(x))


def _scalar_text(x) -> str:
    if isinstance(x, (bool, np.bool_)):
        return repr(bool(x))
    if isinstance(x, (complex, np.complexfloating)):
        return f"complex({_float_text(x.real)}, {_float_text(x.imag)})"
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    return _float_text(float(x))


def render(x) -> str:
    """Python source for an argument of a builder call."""
    if isinstance(x, Val):
        return x.name
    if isinstance(x, Ref):
        return str(x)
    if isinstance(x, Shape):
        return f'Shape.parse("{x}")'
    if isinstance(x, np.ndarray):
        expr = _DTYPE_EXPR[_dtype_name(x.dtype)]
        if x.size == 0:
            return f"np.zeros({x.shape!r}, dtype={expr})"
        return f"np.array({_nested(x.tolist())}, dtype={expr})"
    if isinstance(x, np.generic):
        return f"{_DTYPE_EXPR[_dtype_name(x.dtype)]}({_scalar_text(x.item())})"
    if isinstance(x, (bool, int, float, complex)):
        return _scalar_text(x)
    if isinstance(x, list):
        return "[" + ", ".join(render(v) for v in x) + "]"
    if isinstance(x, tuple):
        return "(" + "".join(render(v) + ", " for v in x) + ")"
    return repr(x)  # PrimitiveType, dimension-number records, enums, strings


def _nested(x) -> str:
    if isinstance(x, list):
        return "[" + ", ".join(_nested(v) for v in x) + "]"
    return _scalar_text(x)


# --- random data -----------------------------------------------------------------------------------
def _finfo(dt: np.dtype):
    return ml_dtypes.finfo(dt) if dt == np.dtype(ml_dtypes.bfloat16) else np.finfo(dt)


def _finite_magnitudes(data) -> np.ndarray:
    """``|data|`` in float64 with the non-finite values as 0."""
    a = np.abs(np.asarray(data, np.float64))
    return np.where(np.isfinite(a), a, 0.0)


def _max_magnitude(data) -> float | None:
    """The largest finite ``|element|`` of float ``data`` (None for other types)."""
    if np.asarray(data).dtype.kind != "f" and np.asarray(data).dtype != np.dtype(ml_dtypes.bfloat16):
        return None
    return float(np.max(_finite_magnitudes(data), initial=0.0))


def _pow_magnitude(x: Val, y: Val, broadcast: Sequence[int]) -> float | None:
    """The largest finite ``|x^y|`` of a float ``Pow`` of drawn data (None where it is not
    drawn): a sin, cos or tan of it carries its error, relative to that magnitude. Both sides
    round ``x^y``, to within a few ulp (IREE's ``exp(y log x)`` in f32 is 6 ulp off where
    ``|y log x|`` is 12): one ulp of 189384 moves its tan by 0.016 (seed 20261127 program
    5470: ``tan(0.171871^-6.900317)`` is -0.099 on XLA, -0.057 here). ``broadcast``: the
    lower-rank operand's dimensions in the result (``_binary_rhs``)."""
    if x.data is None or y.data is None:
        return None
    rank = max(x.rank, y.rank)

    def aligned(v: Val) -> np.ndarray:
        data = np.asarray(v.data, np.float64)
        if 0 < v.rank < rank:
            shape = [1] * rank
            for k, d in enumerate(broadcast):
                shape[d] = v.dims[k]
            data = data.reshape(shape)
        return data

    with np.errstate(all="ignore"):
        values = np.abs(np.power(aligned(x), aligned(y)))
    values = values[values <= float(_finfo(np_dtype(x.dtype)).max)]
    return float(values.max(initial=0.0))


def _pow_ill_conditioned(x: Val, y: Val) -> bool:
    """Whether a float ``Pow`` of an inexact base by drawn exponents is ill-conditioned: its
    relative error ``|y| * dx/x`` reaches 1 (``dx/x``: the base's tolerance), so 0, 1 and inf
    may all be within its error. Excess precision is allowed (XLA
    and IREE may keep f32 between bf16 ops): seed 20261127 program 8077, bf16
    ``pow(tanh(-4.59), -3.39e38)``: XLA reads tanh as -1.0 (bf16) and gives 1, IREE reads
    -0.99979 (f32) and gives inf."""
    exponent = None if x.exact or y.data is None else _max_magnitude(y.data)
    return exponent is not None and exponent * tolerance(x.dtype, x.err, x.eps) >= 1.0


def float_specials(dt: np.dtype, denormals: bool = False) -> list[float]:
    fi = _finfo(dt)
    tiny = [float(fi.smallest_subnormal), -float(fi.smallest_subnormal)] if denormals else []
    return [math.nan, math.inf, -math.inf, 0.0, -0.0, float(fi.smallest_normal), -float(fi.smallest_normal),
            float(fi.max), -float(fi.max), 1.0, -1.0, 0.5, float(fi.eps)] + tiny


def int_specials(dt: np.dtype) -> list[int]:
    ii = np.iinfo(dt)
    return [int(ii.min), int(ii.max), 0, 1, int(ii.max) - 1, int(ii.min) + 1] + ([-1] if ii.min < 0 else [])


class _Data:
    """Random inputs for one program; ``specials`` is how often special values appear.

    Subnormal floats are special values only with ``denormals``: XLA CPU flushes them to
    zero in some ops and not in others (a bf16 broadcast returns 0 for 9.2e-41, atan2
    flushes one operand), so which answer is right is implementation-defined there."""

    def __init__(self, rng: np.random.Generator, denormals: bool = False):
        self.rng, self.denormals = rng, denormals
        self.specials = float(rng.choice([0.0, 0.05, 0.15, 0.3], p=[0.25, 0.3, 0.3, 0.15]))

    def _mix(self, values: np.ndarray, specials: list) -> np.ndarray:
        n = values.size
        if n and self.specials:
            mask = self.rng.random(n) < self.specials
            picks = self.rng.integers(0, len(specials), n)
            for i in np.nonzero(mask)[0]:
                values[i] = specials[picks[i]]
        return values

    def floats(self, n: int, dt: np.dtype, specials: bool = True) -> np.ndarray:
        r = self.rng
        style = r.integers(4)
        if style == 0:
            v = r.integers(-4, 5, n).astype(np.float64)
        elif style == 1:
            v = r.normal(0, 1, n)
        elif style == 2:
            v = r.uniform(-10, 10, n)
        else:
            v = r.normal(0, 1, n) * 10.0 ** r.integers(-3, 4, n)
        v = v.astype(np.float64)
        return (self._mix(v, float_specials(dt, self.denormals)) if specials else v).astype(dt)

    def ints(self, n: int, dt: np.dtype) -> np.ndarray:
        r, ii = self.rng, np.iinfo(dt)
        if r.integers(3) == 0:
            v = r.integers(int(ii.min), int(ii.max), n, dtype=np.int64 if ii.max < 2 ** 63 else np.uint64,
                           endpoint=True)
        else:
            v = r.integers(max(-8, int(ii.min)), 9, n)
        out = np.array([int(x) for x in v], dtype=object)
        return self._mix(out, int_specials(dt)).astype(dt)

    def array(self, dims: Sequence[int], dtype: str, specials: bool = True) -> np.ndarray:
        dt, n = np_dtype(dtype), math.prod(dims)
        if dtype == "pred":
            v = self.rng.random(n) < 0.5
        elif dtype in ("c64", "c128"):
            part = np.dtype(np.float32 if dtype == "c64" else np.float64)
            v = np.empty(n, np.complex128)
            v.real, v.imag = self.floats(n, part), self.floats(n, part)
        elif np.issubdtype(dt, np.integer):
            v = self.ints(n, dt)
        else:
            v = self.floats(n, dt, specials)
        return np.asarray(v).astype(dt).reshape(tuple(dims))

    def indices(self, dims: Sequence[int], dtype: str, bound: int | Sequence[int]) -> np.ndarray:
        """Index values: mostly in [-2, bound + 2], sometimes the type's extremes."""
        dt, n = np_dtype(dtype), math.prod(dims)
        ii = np.iinfo(dt)
        bounds = np.broadcast_to(np.asarray(bound), (n,)) if np.ndim(bound) == 0 else np.resize(bound, n)
        out = []
        for i in range(n):
            roll = self.rng.random()
            if roll < 0.06:
                v = int(self.rng.choice([int(ii.min), int(ii.max)]))
            elif roll < 0.75:
                v = int(self.rng.integers(0, int(bounds[i]) + 1))
            else:
                v = int(self.rng.integers(-3, int(bounds[i]) + 4))
            out.append(min(max(v, int(ii.min)), int(ii.max)))
        return np.array(out, dtype=object).astype(dt).reshape(tuple(dims))


def constant_indices(arr: np.ndarray) -> np.ndarray:
    """Start indices for a Constant: unsigned ones below their type's top bit. XLA CPU
    (jaxlib 0.10.2) reads a constant unsigned start index with the top bit set as negative
    (gather and dynamic_slice of u8 255 or u32 4294967295 start at 0) where the spec, and
    XLA for a parameter of the same value, clamp it to the last start; the cap is still out
    of bounds, so the clamp stays covered."""
    if arr.dtype.kind != "u":
        return arr
    return np.minimum(arr, np.iinfo(arr.dtype).max >> 1).astype(arr.dtype)


# --- the generator -----------------------------------------------------------------------------------
@dataclass
class _Scope:
    builder: str  # the builder's name in the code
    pool: list[Val]
    allow_params: bool
    dims: tuple[int, ...] | None = None  # element-wise bodies: every value has these dims (or none)


_NS_BASE: dict | None = None


def _namespace() -> dict:
    global _NS_BASE
    if _NS_BASE is None:
        ns: dict = {}
        exec("import ml_dtypes\nimport numpy as np\nfrom numpy import inf, nan\nfrom hlo_mlir import *", ns)
        _NS_BASE = ns
    return dict(_NS_BASE)


def _is_float(d): return d in ("bf16", "f16", "f32", "f64")
def _is_int(d): return d in ("s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64")
def _is_signed(d): return d in ("s8", "s16", "s32", "s64")
def _is_complex(d): return d in ("c64", "c128")
def _bitwidth(d): return PrimitiveType(d).bit_width
def _float_format(d): return {"c64": "f32", "c128": "f64"}.get(d, d) if _is_float(d) or _is_complex(d) \
    else None


KINDS = {"float": FLOATS, "int": INTS, "signed": SIGNED, "pred": ("pred",), "complex": COMPLEX,
         "real": FLOATS + INTS, "numeric": FLOATS + INTS + COMPLEX, "any": DTYPES,
         "intpred": INTS + ("pred",), "floatcomplex": FLOATS + COMPLEX, "nonpred": FLOATS + INTS + COMPLEX,
         "sortable": FLOATS + INTS + ("pred",)}


class Generator:
    """Builds one program; ``steps`` families are tried, each adding one op (plus glue)."""

    def __init__(self, seed: int, index: int, max_ops: int = 20, trace=None, denormals: bool = False):
        self.seed, self.index, self.trace = seed, index, trace
        self.rng = np.random.default_rng([seed, index])
        self.data = _Data(self.rng, denormals)
        self.ns = _namespace()
        self.name = f"fuzz_{seed}_{index}"
        self.program = Program(seed, index, self.name, [])
        self.names = itertools.count()
        self.comps = itertools.count()
        self.params: list[tuple[int, Any]] = []
        self.scope = _Scope("b", [], True)
        self.max_ops = max_ops

    # --- code ---------------------------------------------------------------------------------
    def stmt(self, line: str) -> None:
        """Executes and records one statement; HloMlirError -> Rejected."""
        if self.trace is not None:
            self.trace(line)
        try:
            exec(compile(line, f"<{self.name}>", "exec"), self.ns)
        except HloMlirError as e:
            self.program.rejected.append((line, str(e).splitlines()[0]))
            raise Rejected(str(e)) from None
        except Exception as e:  # noqa: BLE001 - a traceback from the builder is a finding
            raise BuildFailure(line, e) from None
        self.program.code.append(line)

    def call(self, fn: str, *args, **kwargs) -> str:
        """``v<n> = fn(args)``; returns the new name."""
        name = f"v{next(self.names)}"
        parts = [render(a) for a in args] + [f"{k}={render(v)}" for k, v in kwargs.items()]
        self.stmt(f"{name} = {fn}({', '.join(parts)})")
        self.program.ops[fn] += 1
        for a in args:
            for v in (a if isinstance(a, (list, tuple)) else [a]):
                if isinstance(v, Val):
                    v.used = True
        return name

    def val(self, name: str, exact=True, bits=True, err=0, add=True, eps=0.0, reassoc=False) -> Val:
        shape = self.ns[name].shape
        v = Val(name, shape, exact, bits and exact, 0 if exact else max(err, 1))
        if not exact and shape.is_array:
            v.eps = max(eps, EPS.get(shape.element_type.value, 0.0))
            v.reassoc = reassoc
        if add:
            self.scope.pool.append(v)
        return v

    def op(self, fn: str, *args, exact=True, bits=True, err=0, eps=0.0, reassoc=False, **kwargs) -> Val:
        inputs = [v for a in list(args) + list(kwargs.values())
                  for v in (a if isinstance(a, (list, tuple)) else [a]) if isinstance(v, Val)]
        eps = max([eps] + [v.eps for v in inputs])
        reassoc = reassoc or any(v.reassoc for v in inputs)
        v = self.val(self.call(fn, *args, **kwargs), exact, bits, err, eps=eps, reassoc=reassoc)
        v.const = all(x.const for x in inputs)
        return v

    @property
    def b(self) -> Ref:
        return Ref(self.scope.builder)

    # --- random choices -----------------------------------------------------------------------
    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)

    def choice(self, seq):
        seq = list(seq)
        return seq[int(self.rng.integers(len(seq)))]

    def weighted(self, table: dict):
        keys = list(table)
        w = np.array([table[k] for k in keys], dtype=float)
        return keys[int(self.rng.choice(len(keys), p=w / w.sum()))]

    def dtype(self, kind: str = "any") -> str:
        allowed = KINDS[kind]
        return self.weighted({d: _DTYPE_WEIGHTS.get(d, 1) for d in allowed})

    def dims(self, rank: int | None = None, max_elements: int = MAX_ELEMENTS) -> tuple[int, ...]:
        if rank is None:
            rank = self.weighted({0: 2, 1: 4, 2: 4, 3: 2, 4: 1})
        while True:
            dims = tuple(int(d) for d in self.rng.choice([1, 2, 3, 4, 5, 6, 8], size=rank))
            if rank and self.chance(0.03):
                dims = tuple(0 if i == 0 else d for i, d in enumerate(self.rng.permutation(dims)))
            if math.prod(dims) <= max_elements:
                return dims

    def subset(self, items: Sequence, k: int | None = None) -> list:
        items = list(items)
        if k is None:
            k = int(self.rng.integers(0, len(items) + 1))
        idx = sorted(self.rng.choice(len(items), size=k, replace=False)) if k else []
        return [items[i] for i in idx]

    # --- values -------------------------------------------------------------------------------
    def pick(self, ok) -> Val | None:
        """A pool value satisfying ``ok``, recent ones more likely."""
        cands = [v for v in self.scope.pool if ok(v)]
        if not cands:
            return None
        w = np.array([1.6 ** i for i in range(len(cands))])
        return cands[int(self.rng.choice(len(cands), p=w / w.sum()))]

    def fresh(self, dims: Sequence[int], dtype: str, role: str = "data", bound=None) -> Val:
        """A new parameter (or a constant where parameters cannot be added)."""
        dims = tuple(int(d) for d in dims)
        shape = Shape.array_shape(PrimitiveType(dtype), dims)
        if role == "index":
            data = self.data.indices(dims, dtype, bound)
        elif role == "trips":  # a loop's trip count: small, so that loops end
            data = np.asarray(self.rng.integers(-2, 6, dims)).astype(np_dtype(dtype))
        elif role == "finite":
            data = self.data.array(dims, dtype, specials=False)
        else:
            data = self.data.array(dims, dtype)
        if not self.scope.allow_params or (role == "data" and self.chance(0.12)):
            v = self.val(self.call("Constant", self.b, constant_indices(data) if role == "index" else data))
            v.const, v.data, v.mag = True, data, _max_magnitude(data)
            return v
        number = len(self.params)
        name = f"p{number}"
        self.stmt(f'{name} = Parameter({self.b}, {number}, {render(shape)}, "{name}")')
        self.params.append((number, data))
        v = self.val(name)
        v.data, v.mag = data, _max_magnitude(data)
        return v

    def scalar(self, dtype: str, value) -> Val:
        return self.val(self.call("ConstantR0", self.b, np_dtype(dtype).type(value)), add=False)

    def operand(self, kind: str = "any", dims: Sequence[int] | None = None, *, exact=False, bits=False,
                rank: int | None = None, max_rank: int = 4, dtype: str | None = None) -> Val:
        """A pool value of ``kind`` (and ``dims``/``rank``/``dtype`` when given), or a fresh one."""
        allowed = KINDS[kind] if dtype is None else (dtype,)

        def ok(v: Val) -> bool:
            return (v.dtype in allowed and (dims is None or v.dims == tuple(dims))
                    and (rank is None or v.rank == rank) and v.rank <= max_rank
                    and (v.exact or not exact) and (v.bits or not bits))

        if dims is None and self.scope.dims is not None and rank is None:
            dims = self.scope.dims if self.chance(0.8) else ()
        if self.chance(0.85):
            v = self.pick(ok)
            if v is not None:
                return v
        if dims is None:
            like = self.pick(lambda v: v.rank <= max_rank and (rank is None or v.rank == rank))
            dims = like.dims if like is not None and self.chance(0.6) else self.dims(
                rank if rank is not None else min(max_rank, self.weighted({0: 2, 1: 4, 2: 4, 3: 2, 4: 1})))
        return self.fresh(dims, dtype or self.dtype(kind))

    def like(self, v: Val, dims: Sequence[int] | None = None, dtype: str | None = None, exact=False,
             bits=False) -> Val:
        """Another operand of ``v``'s element type (and ``dims``, default ``v``'s)."""
        return self.operand(dtype=dtype or v.dtype, dims=v.dims if dims is None else dims, exact=exact,
                            bits=bits)

    # --- sub-computations ---------------------------------------------------------------------------
    @contextlib.contextmanager
    def computation(self, label: str):
        """A sub-builder (``c<n>_b``) as the current scope; ``finish`` builds it afterwards."""
        name = f"c{next(self.comps)}"
        self.stmt(f'{name}_b = XlaBuilder("{name}_{label}")')
        saved = self.scope
        self.scope = _Scope(f"{name}_b", [], False)
        try:
            yield name
        finally:
            self.scope = saved

    def finish(self, comp: str, root: str) -> Ref:
        self.stmt(f"{comp} = {comp}_b.build({root})")
        return Ref(comp)

    def comp_param(self, comp: str, number: int, shape: Shape, like: Val | None = None) -> Val:
        """Parameter ``number`` of computation ``comp``, as exact as ``like``."""
        name = f"{comp}_p{number}"
        self.stmt(f'{name} = Parameter({comp}_b, {number}, {render(shape)}, "x{number}")')
        v = self.val(name, add=shape.is_array)
        if like is not None:
            v.exact, v.bits, v.err, v.eps, v.reassoc = like.exact, like.bits, like.err, like.eps, like.reassoc
        return v

    def binary_comp(self, fn: str, dtypes: Sequence[str], label: str) -> Ref:
        """A scalar computation ``fn(x0, x1)`` (``x1`` for "replace")."""
        with self.computation(label) as comp:
            x, y = (self.comp_param(comp, i, Shape.scalar_shape(PrimitiveType(d)))
                    for i, d in enumerate(dtypes))
            root = y.name if fn == "replace" else f"{fn}({x.name}, {y.name})"
        return self.finish(comp, root)

    # --- the program ---------------------------------------------------------------------------------
    def build(self) -> Program:
        p = self.program
        try:
            self.stmt(f'b = XlaBuilder("{self.name}")')
            for _ in range(int(self.rng.integers(1, 3))):
                self.initial_param()
            n = int(min(self.max_ops, 1 + self.rng.geometric(0.12)))
            for _ in range(n):
                family = self.weighted(FAMILY_WEIGHTS)
                try:
                    getattr(self, "f_" + family)()
                except Rejected:
                    pass
            root, p.leaves = self.outputs()
            line = f"return b.build({root})"
            try:
                exec(compile(f"__fuzz_result__ = b.build({root})", f"<{self.name}>", "exec"), self.ns)
            except Exception as e:  # noqa: BLE001 - an error at build() is a finding either way
                raise BuildFailure(line, e) from None
            p.code.append(line)
        except BuildFailure as e:
            p.failure = e
            return p
        p.computation = self.ns["__fuzz_result__"]
        p.args = [a for _, a in sorted(self.params, key=lambda t: t[0])]
        return p

    def initial_param(self) -> None:
        if self.chance(0.06):  # a tuple parameter
            parts = [Shape.array_shape(PrimitiveType(self.dtype()), self.dims()) for _ in range(2)]
            number = len(self.params)
            name = f"p{number}"
            self.stmt(f'{name} = Parameter(b, {number}, {render(Shape.tuple_shape(parts))}, "{name}")')
            self.params.append((number, tuple(self.data.array(s.dimensions, s.element_type.value)
                                              for s in parts)))
            for i in range(2):
                self.op("GetTupleElement", Ref(name), i)
            return
        self.fresh(self.dims(), self.dtype())

    def outputs(self) -> tuple[str, list[Leaf]]:
        pool = self.scope.pool
        params = [v for v in pool if v.name.startswith("p")]
        # every op whose value nothing reads is a result (up to 5), or our passes would delete it
        sinks = [v for v in pool if not v.used and v not in params]
        outs = [pool[-1]] + [v for v in reversed(sinks) if v is not pool[-1]][:4]
        if params and self.chance(0.12):  # a parameter returned as it is (results must not alias it)
            outs.append(self.choice(params))
        leaves = [Leaf(v.dtype, v.exact, v.err, v.eps, v.reassoc, v.floor, v.overflow, v.tan, v.ill)
                  for v in outs]
        if len(outs) == 1 and self.chance(0.9):
            return outs[0].name, leaves
        if len(outs) >= 3 and self.chance(0.3):
            return f"Tuple(b, [{outs[0].name}, Tuple(b, [{', '.join(v.name for v in outs[1:])}])])", leaves
        return f"Tuple(b, [{', '.join(v.name for v in outs)}])", leaves

    # --- families: element-wise ------------------------------------------------------------------
    def f_unary(self) -> None:
        x = self.operand(self.weighted({"float": 6, "int": 3, "complex": 1, "pred": 1}))
        d = x.dtype
        if _is_float(d):
            ops = ["Abs", "Neg", "Cos", "Sin", "Tan", "Tanh", "Exp", "Expm1", "Log", "Log1p", "Logistic",
                   "Sqrt", "Rsqrt", "Cbrt", "Erf"]
            if x.exact:
                ops += ["Sign", "Ceil", "Floor", "Round", "RoundNearestEven", "IsFinite"]
        elif _is_complex(d):
            ops = ["Abs", "Neg", "Sign", "Cos", "Sin", "Tan", "Tanh", "Exp", "Expm1", "Log", "Log1p",
                   "Logistic", "Sqrt", "Rsqrt", "Real", "Imag"]
        elif d == "pred":
            ops = ["Not"]
        else:
            ops = ["Neg", "Not", "PopulationCount", "Clz"] + (["Abs", "Sign"] if _is_signed(d) else [])
        fn = self.choice(ops)
        if not (_is_float(d) or _is_complex(d)):
            self.op(fn, x)
        elif fn in ("Abs", "Neg", "Real", "Imag") and not (_is_complex(d) and fn == "Abs"):
            self.op(fn, x, exact=x.exact, bits=x.bits and fn != "Real" and fn != "Imag", err=x.err)
        elif fn in ("Sign", "Ceil", "Floor", "Round", "RoundNearestEven", "IsFinite"):
            self.op(fn, x, exact=not _is_complex(d), bits=False, err=x.err + 1)
        else:
            v = self.op(fn, x, exact=False, err=x.err + 2)
            if fn in ("Sin", "Cos", "Tan") and _is_float(d):  # |sin'|, |cos'| <= 1; tan' = 1 + tan^2
                # an inexact argument's error is relative to its magnitude (a Pow's: _pow_magnitude)
                v.floor = max(x.floor, x.terms, 0.0 if x.exact or x.mag is None else x.mag)
                v.tan = fn == "Tan" and v.floor > 0

    def _binary_rhs(self, x: Val, exact=False) -> tuple[Val, Val, list[int]]:
        """(lhs, rhs, broadcast_dimensions) of ``x``'s element type and compatible shapes."""
        form = self.weighted({"same": 8, "scalar": 2, "bcast": 1, "degenerate": 1})
        if form == "scalar" and x.rank:
            y = self.operand(dtype=x.dtype, dims=(), exact=exact)
            return (x, y, []) if self.chance(0.5) else (y, x, [])
        if form == "bcast" and x.rank:
            dims = self.subset(range(x.rank))
            y = self.operand(dtype=x.dtype, dims=[x.dims[i] for i in dims], exact=exact)
            return (x, y, dims) if self.chance(0.5) else (y, x, dims)
        if form == "degenerate" and x.rank:
            dims = tuple(1 if self.chance(0.5) else n for n in x.dims)
            y = self.operand(dtype=x.dtype, dims=dims, exact=exact)
            return (x, y, []) if self.chance(0.5) else (y, x, [])
        return x, self.like(x, exact=exact), []

    def _safe_divisor(self, y: Val) -> Val:
        """``y`` with 0 (and -1 for signed types) replaced by 1: integer division by zero and
        INT_MIN / -1 are implementation-defined (XLA's operation semantics)."""
        zero = self.scalar(y.dtype, 0)
        bad = self.call("Eq", y, zero)
        if _is_signed(y.dtype):
            minus = self.scalar(y.dtype, -1)
            bad = self.call("Or", Ref(bad), Ref(self.call("Eq", y, minus)))
        ones = self.call("Full", self.b, np_dtype(y.dtype).type(1), y.shape)
        return self.val(self.call("Select", Ref(bad), Ref(ones), y), add=False)

    def _safe_pow_base(self, x: Val) -> Val:
        """``x`` with -1 replaced by 1 in a nested computation: XLA CPU (jaxlib 0.10.2) computes
        a signed integer ``pow(-1, -n)`` as 0 in a while body (its emitter's rule: 1 for a base
        of 1, else 0) and as +-1 in the entry (the spec's; ours); seed 20261127 program 7674."""
        minus = self.scalar(x.dtype, -1)
        ones = self.call("Full", self.b, np_dtype(x.dtype).type(1), x.shape)
        return self.val(self.call("Select", Ref(self.call("Eq", x, minus)), Ref(ones), x), add=False)

    def f_binary(self) -> None:
        kind = self.weighted({"float": 6, "int": 5, "pred": 1, "complex": 1})
        x = self.operand(kind)
        d = x.dtype
        if _is_float(d):
            fn = self.choice(["Add", "Sub", "Mul", "Div", "Rem", "Max", "Min", "Pow", "Atan2"]
                             + (["Complex"] if d in ("f32", "f64") else []))
        elif _is_complex(d):
            fn = self.choice(["Add", "Sub", "Mul", "Div", "Pow"])
        elif d == "pred":
            fn = self.choice(["And", "Or", "Xor", "Add", "Mul", "Max", "Min"])
        else:
            fn = self.choice(["Add", "Sub", "Mul", "Div", "Rem", "Max", "Min", "Pow", "And", "Or", "Xor",
                              "ShiftLeft", "ShiftRightArithmetic", "ShiftRightLogical"])
        lhs, rhs, bdims = self._binary_rhs(x)
        if _is_int(d) and fn in ("Div", "Rem"):
            rhs = self._safe_divisor(rhs)
        if _is_signed(d) and fn == "Pow" and not self.scope.allow_params:
            lhs = self._safe_pow_base(lhs)
        if d == "pred" and fn in ("Add", "Mul") and lhs.const and rhs.const:
            # XLA folds add/multiply of PRED constants as XOR/AND (its compiled code: OR/AND)
            fn = "Or" if fn == "Add" else "And"
        args = (lhs, rhs, bdims) if bdims else (lhs, rhs)
        exact_in = lhs.exact and rhs.exact
        err = max(lhs.err, rhs.err)
        if not (_is_float(d) or _is_complex(d)):
            self.op(fn, *args)
        elif fn in ("Max", "Min", "Rem") or (fn in ("Add", "Sub", "Div") and d in ("f32", "f64", "c64")
                                             and not (fn == "Div" and d == "c64")):
            v = self.op(fn, *args, exact=exact_in, bits=False, err=err + 1)
            if fn == "Rem" and not rhs.exact and lhs.data is not None:
                # rem(x, y) = x - n * y moves by n * dy = (x / y) * dy for an error dy of the
                # divisor: an error relative to |x|, not to the (maybe much smaller) remainder
                v.floor = _max_magnitude(lhs.data)
        elif fn == "Complex":
            self.op(fn, *args, exact=exact_in, bits=False, err=err)
        elif fn == "Pow" and _is_complex(d):
            self.op(fn, *args, exact=False, err=err + 2 + POW_PHASE_STEPS)
        else:
            v = self.op(fn, *args, exact=False, err=err + 2)
            if fn == "Pow":
                v.mag = _pow_magnitude(lhs, rhs, bdims)
                v.ill = _pow_ill_conditioned(lhs, rhs)

    def f_compare(self) -> None:
        x = self.operand(self.weighted({"float": 5, "int": 4, "pred": 1, "complex": 1}), exact=True)
        total = _is_float(x.dtype) and x.bits and self.chance(0.4)
        lhs, rhs, bdims = self._binary_rhs(x, exact=True)
        if total and not (lhs.bits and rhs.bits):
            total = False
        args = (lhs, rhs, bdims) if bdims else (lhs, rhs)
        if _is_complex(x.dtype):
            self.op(self.choice(["Eq", "Ne"]), *args)
        elif total:
            self.op(self.choice(["Eq", "Ne", "Lt", "Le", "Gt", "Ge"]) + "TotalOrder", *args)
        elif self.chance(0.2):
            self.op("Compare", *args, direction=self.choice(["EQ", "NE", "LT", "LE", "GT", "GE"]))
        else:
            self.op(self.choice(["Eq", "Ne", "Lt", "Le", "Gt", "Ge"]), *args)

    def f_select(self) -> None:
        x = self.operand()
        y = self.like(x)
        pdims = () if self.chance(0.3) else x.dims
        pred = self.operand(dtype="pred", dims=pdims, exact=True)
        self.op("Select", pred, x, y, exact=x.exact and y.exact, bits=x.bits and y.bits,
                err=max(x.err, y.err))

    def f_clamp(self) -> None:
        x = self.operand("real")
        lo = self.like(x, dims=() if self.chance(0.6) else None)
        hi = self.like(x, dims=() if self.chance(0.6) else None)
        exact = x.exact and lo.exact and hi.exact
        self.op("Clamp", lo, x, hi, exact=exact, bits=False, err=max(x.err, lo.err, hi.err) + 1)

    def f_convert(self) -> None:
        x = self.operand()
        d = x.dtype
        if _is_complex(d):
            targets = ["c64", "c128"]
        elif _is_float(d) and not x.exact:
            targets = list(FLOATS) + ["c64"]
        else:
            targets = list(DTYPES) + ["u16", "u64"]
        t = self.choice([t for t in targets if t != d] or targets)
        # int/pred results are bit-exact; so are floats converted from integers (no NaN, no -0)
        bits = not (_is_float(t) or _is_complex(t)) or _is_int(d) or d == "pred"
        self.op("ConvertElementType", x, PrimitiveType(t), exact=x.exact, bits=bits,
                err=x.err + (0 if x.exact else 1))

    def f_bitcast(self) -> None:
        x = self.operand("nonpred", bits=True)
        w = _bitwidth(x.dtype)
        same = [t for t in FLOATS + INTS + ("u16", "u64") + COMPLEX if _bitwidth(t) == w and t != x.dtype]
        narrower = [t for t in FLOATS + INTS + ("u16",) if _bitwidth(t) < w and w % _bitwidth(t) == 0]
        wider = [t for t in FLOATS + INTS + ("u64",) + COMPLEX
                 if _bitwidth(t) > w and x.rank and x.dims[-1] * w == _bitwidth(t)]
        options = same * 3 + narrower + wider * 3
        if not options:
            raise Rejected("no bitcast target")
        t = self.choice(options)  # complex ones included
        if self.data.denormals or _float_format(t) in (None, _float_format(x.dtype)):
            self.op("BitcastConvertType", x, PrimitiveType(t))
            return
        # Integer bits read as floats of another format hold subnormals, which XLA CPU flushes
        # in some ops and not in others (a total-order sort key, a remainder of 1e-45 by itself):
        # no single right answer, as for subnormal inputs (--denormals), so the program flushes
        # them itself.
        v = self.val(self._flush_subnormals(self.val(self.call("BitcastConvertType", x, PrimitiveType(t)),
                                                     add=False)))
        v.const = x.const

    def _flush_subnormals(self, v: Val) -> str:
        """``v`` (float or complex) with its subnormal values (parts) replaced by zeros of the
        same sign, on the integer bits (float ops need not keep NaN payloads bit for bit)."""
        if _is_complex(v.dtype):
            re, im = (self.val(self.call(fn, v), add=False) for fn in ("Real", "Imag"))
            return self.call("Complex", Ref(self._flush_subnormals(re)), Ref(self._flush_subnormals(im)))
        width, fi = _bitwidth(v.dtype), _finfo(np_dtype(v.dtype))
        u = f"u{width}"
        i = Ref(self.call("BitcastConvertType", v, PrimitiveType(u)))
        exponent = self.call("And", i, self.scalar(u, ((1 << fi.nexp) - 1) << fi.nmant))
        tiny = self.call("Eq", Ref(exponent), self.scalar(u, 0))
        sign = self.call("And", i, self.scalar(u, 1 << (width - 1)))
        flushed = self.call("Select", Ref(tiny), Ref(sign), i)
        return self.call("BitcastConvertType", Ref(flushed), PrimitiveType(v.dtype))

    def f_reduce_precision(self) -> None:
        x = self.operand("float")
        fi = _finfo(np_dtype(x.dtype))
        exponent = int(self.rng.integers(1, fi.nexp + 1))
        mantissa = int(self.rng.integers(0, fi.nmant + 1))
        self.op("ReducePrecision", x, exponent, mantissa, exact=x.exact, bits=False, err=x.err + 1)

    # --- families: shapes -------------------------------------------------------------------------
    def _same(self, fn: str, x: Val, *args, **kwargs) -> Val:
        """A data-movement op: the result is as exact as ``x``, its elements as large, and its
        comparison scale (``floor``, ``terms``) is ``x``'s."""
        v = self.op(fn, x, *args, exact=x.exact, bits=x.bits, err=x.err, **kwargs)
        v.mag, v.floor, v.terms, v.ill = x.mag, x.floor, x.terms, x.ill
        return v

    def f_reshape(self) -> None:
        x = self.operand()
        n = math.prod(x.dims)
        rank = self.weighted({0: 1, 1: 3, 2: 3, 3: 2, 4: 1})
        if n == 0:
            dims = list(self.dims(max(rank, 1)))
            dims[int(self.rng.integers(len(dims)))] = 0
        elif rank == 0 and n != 1:
            rank = 1
            dims = [n]
        else:
            factors, k = [], n
            for p in (2, 3, 5, 7):
                while k % p == 0:
                    factors.append(p)
                    k //= p
            if k > 1:
                factors.append(k)
            dims = [1] * max(rank, 1) if rank else []
            for f in factors:
                dims[int(self.rng.integers(len(dims)))] *= f
        if x.rank > 1 and self.chance(0.2):
            self._same("Reshape", x, [int(i) for i in self.rng.permutation(x.rank)], dims)
        else:
            self._same("Reshape", x, dims)

    def f_transpose(self) -> None:
        x = self.operand(rank=None)
        self._same("Transpose", x, [int(i) for i in self.rng.permutation(x.rank)])

    def f_broadcast(self) -> None:
        x = self.operand(max_rank=3)
        if self.chance(0.4):
            extra = [int(self.rng.integers(1, 4)) for _ in range(int(self.rng.integers(1, 3)))]
            if math.prod(extra) * math.prod(x.dims) <= MAX_ELEMENTS * 2:
                self._same("Broadcast", x, extra)
                return
        out_rank = x.rank + int(self.rng.integers(0, 3))
        positions = sorted(int(i) for i in self.rng.choice(out_rank, size=x.rank, replace=False))
        out = [int(self.rng.integers(1, 4)) for _ in range(out_rank)]
        for pos, n in zip(positions, x.dims, strict=True):
            out[pos] = int(self.rng.integers(1, 4)) if n == 1 and self.chance(0.5) else n
        if math.prod(out) > MAX_ELEMENTS * 2:
            raise Rejected("too large")
        self._same("BroadcastInDim", x, out, positions)

    def f_concat(self) -> None:
        x = self.operand(max_rank=3)
        if x.rank == 0:
            raise Rejected("rank 0")
        dim = int(self.rng.integers(x.rank))
        parts = [x]
        for _ in range(int(self.rng.integers(1, 3))):
            dims = list(x.dims)
            dims[dim] = int(self.rng.integers(0, 4))
            parts.append(self.like(x, dims=dims))
        self.op("ConcatInDim", self.b, parts, dim, exact=all(p.exact for p in parts),
                bits=all(p.bits for p in parts), err=max(p.err for p in parts))

    def f_slice(self) -> None:
        x = self.operand()
        if x.rank == 0:
            raise Rejected("rank 0")
        starts, limits, strides = [], [], []
        for n in x.dims:
            s = int(self.rng.integers(0, n + 1))
            starts.append(s)
            limits.append(int(self.rng.integers(s, n + 1)))
            strides.append(int(self.rng.choice([1, 1, 2, 3])))
        if self.chance(0.2):
            d = int(self.rng.integers(x.rank))
            self._same("SliceInDim", x, starts[d], limits[d], strides[d], d)
        else:
            self._same("Slice", x, starts, limits, strides)

    def f_pad(self) -> None:
        x = self.operand(max_rank=3)
        value = self.operand(dtype=x.dtype, dims=())
        config = []
        for n in x.dims:
            interior = int(self.rng.choice([0, 0, 1, 2])) if n > 1 else 0
            size = n + max(n - 1, 0) * interior
            lo = int(self.rng.integers(-min(2, size), 3))
            hi = int(self.rng.integers(-min(2, size + lo), 3))
            config.append((lo, hi, interior))
        sizes = [n + lo + hi + max(n - 1, 0) * i for n, (lo, hi, i) in zip(x.dims, config, strict=True)]
        if math.prod(sizes) > 4 * MAX_ELEMENTS:
            raise Rejected("too large")
        v = self.op("Pad", x, value, config, exact=x.exact and value.exact, bits=x.bits and value.bits,
                    err=max(x.err, value.err))
        if x.mag is not None and value.mag is not None:
            v.mag = max(x.mag, value.mag)
        v.floor, v.terms = max(x.floor, value.floor), max(x.terms, value.terms)  # moved elements

    def f_rev(self) -> None:
        x = self.operand()
        self._same("Rev", x, self.subset(range(x.rank)))

    def f_iota(self) -> None:
        dims = self.dims(self.weighted({1: 3, 2: 2, 3: 1}))
        dtype = self.dtype("real")
        if dtype in ("bf16", "f16", "s8", "u8") and max(dims) > 8:
            dtype = "f32"
        shape = Shape.array_shape(PrimitiveType(dtype), dims)
        self.op("Iota", self.b, shape, int(self.rng.integers(len(dims))))

    def f_tuple(self) -> None:
        a = self.operand()
        c = self.operand()
        elements = [a, c] if self.chance(0.7) else [a]
        t = self.call("Tuple", self.b, elements)
        if self.chance(0.2):
            t = self.call("Tuple", self.b, [Ref(t), c])
            t = self.call("GetTupleElement", Ref(t), 0)
        i = int(self.rng.integers(len(elements)))
        v = elements[i]
        self.op("GetTupleElement", Ref(t), i, exact=v.exact, bits=v.bits, err=v.err)

    def f_barrier(self) -> None:
        x = self.operand()
        self._same("OptimizationBarrier", x)

    # --- families: reductions -------------------------------------------------------------------------
    def _reducer(self, d: str) -> tuple[str, Any]:
        """(builder function, identity) of an associative, commutative reducer for ``d``."""
        if d == "pred":
            fn = self.choice(["And", "Or"])
            return fn, fn == "And"
        if _is_complex(d):
            return self.choice([("Add", 0), ("Mul", 1)])
        if _is_float(d):
            fn = self.weighted({"Add": 4, "Max": 3, "Min": 3, "Mul": 1})
            return fn, {"Add": 0.0, "Mul": 1.0, "Max": -math.inf, "Min": math.inf}[fn]
        ii = np.iinfo(np_dtype(d))
        fn = self.weighted({"Add": 4, "Max": 3, "Min": 3, "Mul": 1, "And": 1, "Or": 1, "Xor": 1})
        all_ones = -1 if ii.min else int(ii.max)
        return fn, {"Add": 0, "Mul": 1, "Max": int(ii.min), "Min": int(ii.max), "And": all_ones, "Or": 0,
                    "Xor": 0}[fn]

    def _reduce_exactness(self, x: Val, fn: str) -> dict:
        if _is_float(x.dtype) or _is_complex(x.dtype):
            if fn in ("Max", "Min"):
                return {"exact": x.exact, "bits": False, "err": x.err + 1}
            return {"exact": False, "err": x.err + 3, "reassoc": True}
        return {}

    def f_reduce(self) -> None:
        if self.chance(0.2):
            return self._argmax()
        x = self.operand("any")
        fn, identity = self._reducer(x.dtype)
        comp = self.binary_comp(fn, [x.dtype, x.dtype], fn.lower())
        init = self.scalar(x.dtype, identity)
        dims = self.subset(range(x.rank))
        v = self.op("Reduce", x, init, comp, dims, **self._reduce_exactness(x, fn))
        self._order_bounds(v, x, fn, dims)

    @staticmethod
    def _order_bounds(v: Val, x: Val, fn: str, dims: Sequence[int]) -> None:
        """Where a float sum or product reads drawn data: its order (implementation-defined)
        moves a sum by up to (n - 1) * eps * sum|x| (the comparison's scale is at least the
        largest sum of |terms|: catastrophic cancellation of +-3.4e38 gives 0 in one order
        and -1.26 in another), and a partial sum or product may overflow in one order and not
        in another where sum|x|, or the product of the factors past 1 in magnitude, passes
        the largest float (seed 20261125 program 1765, seed 20261126 program 8024)."""
        if fn not in ("Add", "Mul") or not _is_float(x.dtype):
            return
        if x.data is not None:
            a = _finite_magnitudes(x.data)
            with np.errstate(over="ignore"):
                bound = a.sum(axis=tuple(dims)) if fn == "Add" else np.maximum(a, 1.0).prod(axis=tuple(dims))
            top = float(np.max(bound, initial=0.0))
        elif x.mag is not None and fn == "Add":  # moved data: n terms of at most mag each
            top = x.mag * math.prod(x.dims[d] for d in dims)
        else:
            return
        if fn == "Add":
            v.floor = top
        v.overflow = top > float(_finfo(np_dtype(x.dtype)).max)

    def _argmax(self) -> None:
        """A variadic Reduce (value, index) -> (max value, its lowest index) under a total order:
        associative and commutative, so the reduction order cannot matter."""
        x = self.operand("sortable", bits=True, max_rank=3)
        if x.rank == 0 or x.dtype == "pred":
            raise Rejected("argmax needs rank >= 1")
        d = x.dtype
        dim = int(self.rng.integers(x.rank))
        idx = self.call("Iota", self.b, Shape.array_shape(PrimitiveType.S32, x.dims), dim)
        s = Shape.scalar_shape(PrimitiveType(d))
        i32 = Shape.scalar_shape(PrimitiveType.S32)
        with self.computation("argmax") as comp:
            av, ai, bv, bi = (self.comp_param(comp, k, sh) for k, sh in enumerate((s, i32, s, i32)))
            total = "TotalOrder" if _is_float(d) else ""
            self.stmt(f"{comp}_pick = Or(Gt{total}({bv.name}, {av.name}), "
                      f"And(Eq{total}({bv.name}, {av.name}), Lt({bi.name}, {ai.name})))")
            root = (f"Tuple({comp}_b, [Select({comp}_pick, {bv.name}, {av.name}), "
                    f"Select({comp}_pick, {bi.name}, {ai.name})])")
        comp = self.finish(comp, root)
        low = -math.inf if _is_float(d) else int(np.iinfo(np_dtype(d)).min)
        inits = [self.scalar(d, low), self.scalar("s32", 2 ** 31 - 1)]
        dims = sorted(set([dim] + self.subset(range(x.rank))))
        t = self.call("Reduce", self.b, [x, Ref(idx)], inits, comp, dims)
        self.op("GetTupleElement", Ref(t), 0, bits=_is_int(d))
        self.op("GetTupleElement", Ref(t), 1)

    def f_reduce_window(self) -> None:
        x = self.operand("any", max_rank=3)
        if x.rank == 0:
            raise Rejected("rank 0")
        fn, identity = self._reducer(x.dtype)
        comp = self.binary_comp(fn, [x.dtype, x.dtype], fn.lower())
        init = self.scalar(x.dtype, identity)
        window = [int(self.rng.integers(1, min(n, 3) + 1)) if n else 1 for n in x.dims]
        strides = [int(self.rng.integers(1, 3)) for _ in x.dims]
        exactness = self._reduce_exactness(x, fn)
        if self.chance(0.4):
            padding = [(int(self.rng.integers(0, 2)), int(self.rng.integers(0, 2))) for _ in x.dims]
            base = [int(self.rng.choice([1, 1, 2])) for _ in x.dims]
            wdil = [int(self.rng.choice([1, 1, 2])) for _ in x.dims]
            self.op("ReduceWindowWithGeneralPadding", x, init, comp, window, strides, base, wdil, padding,
                    **exactness)
        else:
            padding = self.choice(["VALID", "SAME"])
            self.op("ReduceWindow", x, init, comp, window, strides, padding, **exactness)

    # --- families: linear algebra -----------------------------------------------------------------------
    def _dot_dtype(self) -> str:
        return self.weighted({"f32": 5, "f64": 2, "bf16": 2, "f16": 2, "s32": 2, "s8": 1, "s64": 1, "u8": 1,
                              "u32": 1})

    def _dot_kwargs(self, d: str) -> tuple[dict, str]:
        if d in ("s8", "u8") and self.chance(0.4):
            t = "s32"
            return {"preferred_element_type": PrimitiveType(t)}, t
        if d in ("bf16", "f16") and self.chance(0.4):
            return {"preferred_element_type": PrimitiveType.F32}, "f32"
        return {}, d

    def _dot_exactness(self, d: str, *xs: Val) -> dict:
        if _is_float(d):
            return {"exact": False, "err": max(x.err for x in xs) + 3, "reassoc": True}
        return {}

    def f_dot(self) -> None:
        d = self._dot_dtype()
        if self.chance(0.35):
            lhs = self.operand(dtype=d, rank=int(self.rng.integers(1, 3)))
            k = lhs.dims[-1]
            rdims = (k,) if self.chance(0.4) else (k, int(self.rng.integers(1, 5)))
            rhs = self.operand(dtype=d, dims=rdims)
            self._check_contraction([k], [*lhs.dims[:-1], *rdims[1:]])
            kwargs, _ = self._dot_kwargs(d)
            v = self.op("Dot", lhs, rhs, **kwargs, **self._dot_exactness(d, lhs, rhs))
            self._contraction_bound(v, lhs, rhs, k)
            return
        lhs = self.operand(dtype=d, max_rank=3)
        axes = list(self.rng.permutation(lhs.rank))
        nb = int(self.rng.integers(0, min(2, len(axes)) + 1))
        batch = [int(a) for a in axes[:nb]]
        rest = axes[nb:]
        nc = int(self.rng.integers(0, min(2, len(rest)) + 1))
        contract = [int(a) for a in rest[:nc]]
        free = [int(self.rng.integers(1, 4)) for _ in range(int(self.rng.integers(0, 2)))]
        rdims = [lhs.dims[a] for a in batch] + [lhs.dims[a] for a in contract] + free
        perm = [int(i) for i in self.rng.permutation(len(rdims))]
        inv = {p: i for i, p in enumerate(perm)}
        rhs = self.operand(dtype=d, dims=[rdims[p] for p in perm])
        rb = [inv[i] for i in range(nb)]
        rc = [inv[nb + i] for i in range(nc)]
        self._check_contraction([lhs.dims[a] for a in contract],
                                [lhs.dims[a] for a in batch + rest[nc:]] + free)
        kwargs, _ = self._dot_kwargs(d)
        dn = hlo_mlir.DotDimensionNumbers(contract, rc, batch, rb)
        v = self.op("DotGeneral", lhs, rhs, dn, **kwargs, **self._dot_exactness(d, lhs, rhs))
        self._contraction_bound(v, lhs, rhs, math.prod(lhs.dims[a] for a in contract))

    @staticmethod
    def _contraction_bound(v: Val, lhs: Val, rhs: Val, terms: int) -> None:
        """``v.terms``: a bound on the sums of |terms| of float contraction ``v`` of ``terms``
        products, where its operands' magnitudes are known. Its reduction order and accumulation
        width (a bf16 convolution summed in bf16 or in f32) move it by up to about
        ``terms * eps * sum|terms|``: a ``Cos`` of it keeps that error (``|cos'| <= 1``), which a
        bf16 result in the hundreds makes as large as 1 (seed 20261127 program 450: a
        convolution of 395.24 is 396 on XLA and 394 here, cosines 0.99 and -0.27)."""
        if v.exact or lhs.mag is None or rhs.mag is None:
            return
        v.terms = lhs.mag * rhs.mag * terms

    @staticmethod
    def _check_contraction(contracted: Sequence[int], result: Sequence[int]) -> None:
        """Rejects a dot that sums over nothing into a non-empty result: XLA CPU without its
        algebraic simplifier (the strict reference) leaves that result uninitialized, where
        the spec's empty sum is 0."""
        if math.prod(contracted) == 0 and math.prod(result) != 0:
            raise Rejected("empty contraction")

    def f_conv(self) -> None:
        d = self.weighted({"f32": 5, "f64": 1, "bf16": 1, "f16": 1, "s32": 1})
        ns = int(self.rng.choice([1, 1, 2]))
        fgc = int(self.rng.choice([1, 1, 2]))
        bgc = 1 if fgc > 1 else int(self.rng.choice([1, 1, 2]))
        batch = bgc * int(self.rng.integers(1, 3))
        cin = fgc * int(self.rng.integers(1, 3))
        cout = fgc * bgc * int(self.rng.integers(1, 3))
        spatial = [int(self.rng.integers(1, 6)) for _ in range(ns)]
        kernel = [int(self.rng.integers(1, 4)) for _ in range(ns)]
        strides = [int(self.rng.choice([1, 1, 2])) for _ in range(ns)]
        lhs_dil = [int(self.rng.choice([1, 1, 1, 2])) for _ in range(ns)]
        rhs_dil = [int(self.rng.choice([1, 1, 1, 2])) for _ in range(ns)]
        padding = [(int(self.rng.integers(-1, 3)), int(self.rng.integers(-1, 3))) for _ in range(ns)]
        for i in range(ns):
            base = (spatial[i] - 1) * lhs_dil[i] + 1 + padding[i][0] + padding[i][1]
            window = (kernel[i] - 1) * rhs_dil[i] + 1
            if base < window:
                padding[i] = (padding[i][0] + window - base, padding[i][1])
        # random layouts: a permutation of the logical [batch, feature, spatial...] positions
        lp, kp, op = (list(map(int, self.rng.permutation(ns + 2))) for _ in range(3))
        dn = hlo_mlir.ConvolutionDimensionNumbers(lp[0], lp[1], tuple(lp[2:]), kp[1], kp[0], tuple(kp[2:]),
                                                  op[0], op[1], tuple(op[2:]))
        ldims = [0] * (ns + 2)
        ldims[lp[0]], ldims[lp[1]] = batch, cin
        for i in range(ns):
            ldims[lp[2 + i]] = spatial[i]
        kdims = [0] * (ns + 2)
        kdims[kp[0]], kdims[kp[1]] = cout, cin // fgc
        for i in range(ns):
            kdims[kp[2 + i]] = kernel[i]
        # Finite operands: XLA skips the zeros of padding and lhs dilation where IREE multiplies
        # them in (inf * 0 = NaN), an implementation-defined difference.
        lhs = self.fresh(ldims, d, role="finite")
        rhs = self.fresh(kdims, d, role="finite")
        exactness = self._dot_exactness(d, lhs, rhs)
        v = self.op("ConvGeneralDilated", lhs, rhs, strides, padding, lhs_dil, rhs_dil, dn, fgc, bgc,
                    **exactness)
        self._contraction_bound(v, lhs, rhs, cin // fgc * math.prod(kernel))

    # --- families: indexing ---------------------------------------------------------------------------------
    def _index_scalars(self, bounds: Sequence[int]) -> list[Val]:
        t = self.choice(INDEX_DTYPES)
        out = []
        for bound in bounds:
            v = None
            if self.chance(0.2):  # not an unsigned constant: it may have the top bit set (constant_indices)
                v = self.pick(lambda v: v.dims == () and v.dtype == t and not (v.const and t.startswith("u")))
            out.append(v or self.fresh((), t, role="index", bound=bound))
        return out

    def f_dynamic_slice(self) -> None:
        x = self.operand()
        sizes = [int(self.rng.integers(0, n + 1)) for n in x.dims]
        starts = self._index_scalars([n - s for n, s in zip(x.dims, sizes, strict=True)])
        self._same("DynamicSlice", x, starts, sizes)

    def f_dynamic_update_slice(self) -> None:
        x = self.operand()
        udims = [int(self.rng.integers(0, n + 1)) for n in x.dims]
        update = self.like(x, dims=udims)
        starts = self._index_scalars([n - s for n, s in zip(x.dims, udims, strict=True)])
        v = self.op("DynamicUpdateSlice", x, update, starts, exact=x.exact and update.exact,
                    bits=x.bits and update.bits, err=max(x.err, update.err))
        v.floor, v.terms = max(x.floor, update.floor), max(x.terms, update.terms)  # moved elements

    def _index_tensor(self, batch: list[int], width: int, ivd: int, bounds: list[int], unique=False) -> Val:
        """Start indices of shape ``batch`` with the index vector (``width``) at ``ivd``."""
        t = self.choice(INDEX_DTYPES)
        n = math.prod(batch)
        if unique:
            seen, rows = set(), []
            for _ in range(10 * n + 50):  # bounded: fewer distinct rows than n may exist
                if len(rows) == n:
                    break
                row = tuple(int(v) for v in self.data.indices((width,), t, bounds))
                if row not in seen:
                    seen.add(row)
                    rows.append(row)
            if len(rows) < n:
                raise Rejected("no unique indices")
            flat = np.array(rows, dtype=np_dtype(t)).reshape(batch + [width])
        else:
            flat = self.data.indices(batch + [width], t, np.tile(bounds, max(n, 1)))
        arr = np.moveaxis(flat, -1, ivd) if width and ivd < len(batch) else flat
        if ivd == len(batch) and width == 1 and self.chance(0.3):
            arr = arr.reshape(batch)  # the implicit trailing index vector dimension
        shape = Shape.array_shape(PrimitiveType(t), arr.shape)
        if self.scope.allow_params and self.chance(0.8):
            number = len(self.params)
            name = f"p{number}"
            self.stmt(f'{name} = Parameter({self.b}, {number}, {render(shape)}, "{name}")')
            self.params.append((number, arr))
            return self.val(name, add=False)
        return self.val(self.call("Constant", self.b, constant_indices(arr)), add=False)

    def f_gather(self) -> None:
        x = self.operand(max_rank=3)
        if x.rank == 0:
            raise Rejected("rank 0")
        smap = [int(a) for a in self.rng.permutation(x.rank)[: int(self.rng.integers(1, x.rank + 1))]]
        sizes = [int(self.rng.integers(0, n + 1)) for n in x.dims]
        collapsed = sorted(a for a in smap if x.dims[a] >= 1 and self.chance(0.5))
        for a in collapsed:
            sizes[a] = 1
        batch = [int(self.rng.integers(1, 4)) for _ in range(int(self.rng.integers(0, 3)))]
        ivd = int(self.rng.integers(0, len(batch) + 1))
        bounds = [max(x.dims[a] - sizes[a], 0) for a in smap]
        idx = self._index_tensor(batch, len(smap), ivd, bounds)
        n_offset = x.rank - len(collapsed)
        out_rank = len(batch) + n_offset
        offset_dims = sorted(int(i) for i in self.rng.choice(out_rank, size=n_offset, replace=False))
        ivd_used = ivd if idx.rank > len(batch) else len(batch)
        dn = hlo_mlir.GatherDimensionNumbers(offset_dims, collapsed, smap, ivd_used)
        self._same("Gather", x, idx, dn, sizes)

    def f_scatter(self) -> None:
        x = self.operand(max_rank=3)
        if x.rank == 0:
            raise Rejected("rank 0")
        d = x.dtype
        if d == "pred":
            fn = self.choice(["Or", "And", "replace"])
        elif _is_complex(d):
            fn = self.choice(["Add", "replace"])
        else:
            fn = self.weighted({"Add": 4, "Max": 2, "Min": 2, "Mul": 1, "replace": 3})
        smap = [int(a) for a in self.rng.permutation(x.rank)[: int(self.rng.integers(1, x.rank + 1))]]
        if any(x.dims[a] == 0 for a in smap):
            raise Rejected("an empty scattered dimension")
        window = [int(self.rng.integers(0, n + 1)) for n in x.dims]
        inserted = sorted(a for a in smap if self.chance(0.6))
        for a in inserted:
            window[a] = 1
        if fn == "replace":
            for a in smap:  # one element per scattered dimension: distinct indices never overlap
                window[a] = 1
        batch = [int(self.rng.integers(1, 4)) for _ in range(int(self.rng.integers(0, 3)))]
        ivd = int(self.rng.integers(0, len(batch) + 1))
        bounds = [max(x.dims[a] - window[a], 0) for a in smap]
        idx = self._index_tensor(batch, len(smap), ivd, bounds, unique=fn == "replace")
        win_dims = [window[a] for a in range(x.rank) if a not in inserted]
        upd_rank = len(batch) + len(win_dims)
        uwd = sorted(int(i) for i in self.rng.choice(upd_rank, size=len(win_dims), replace=False))
        udims, bi, wi = [], iter(batch), iter(win_dims)
        for i in range(upd_rank):
            udims.append(next(wi) if i in uwd else next(bi))
        updates = self.like(x, dims=udims)
        ivd_used = ivd if idx.rank > len(batch) else len(batch)
        dn = hlo_mlir.ScatterDimensionNumbers(uwd, inserted, smap, ivd_used)
        comp = self.binary_comp(fn, [d, d], fn.lower())
        exact = x.exact and updates.exact
        if (_is_float(d) or _is_complex(d)) and fn in ("Add", "Mul"):
            exact = False  # duplicate indices combine in an unspecified order
        kwargs = {"unique_indices": True} if fn == "replace" and self.chance(0.5) else {}
        self.op("Scatter", x, idx, updates, comp, dn, exact=exact, bits=exact and x.bits and updates.bits
                and fn == "replace", err=max(x.err, updates.err) + (0 if exact else 2),
                reassoc=fn in ("Add", "Mul"), **kwargs)

    # --- families: sorting ---------------------------------------------------------------------------------
    def f_sort(self) -> None:
        keys = self.operand("sortable", bits=True)
        if keys.rank == 0:
            raise Rejected("rank 0")
        others = [self.like(keys, dtype=self.dtype()) for _ in range(int(self.rng.choice([0, 0, 1, 2])))]
        operands = [keys] + others
        types = [PrimitiveType(v.dtype) for v in operands]
        lexicographic = bool(others) and all(v.bits and v.dtype != "c64" for v in others) and self.chance(0.3)
        if lexicographic:
            gens = [Ref(self.choice(["LtTotalOrder", "GtTotalOrder"])) for _ in operands]
            comp = self.call("CreateScalarComparisonComputation", "cmp", types, gens)
        else:
            comp = self.call(self.choice(["CreateScalarLtComputation", "CreateScalarGtComputation"]), types)
        stable = True if others and not lexicographic else self.chance(0.5)
        dim = int(self.rng.integers(-keys.rank, keys.rank))
        if len(operands) == 1:
            self._same("Sort", keys, Ref(comp), dim, stable)
            return
        t = self.call("Sort", operands, Ref(comp), dim, stable)
        for i, v in enumerate(operands):
            self.op("GetTupleElement", Ref(t), i, exact=v.exact, bits=v.bits, err=v.err)

    def f_topk(self) -> None:
        x = self.operand("real", bits=True)
        if x.rank == 0:
            raise Rejected("rank 0")
        k = int(self.rng.integers(0, x.dims[-1] + 1))
        t = self.call("TopK", x, k, self.chance(0.7))
        self.op("GetTupleElement", Ref(t), 0)
        self.op("GetTupleElement", Ref(t), 1)

    # --- families: control flow ------------------------------------------------------------------------
    def chain(self, dims: tuple[int, ...], dtype: str, steps: int) -> Val:
        """Element-wise steps over the current scope's values, ending in a value of ``dims``
        and ``dtype`` (a body of While, Conditional, Map or Call)."""
        self.scope.dims = tuple(dims)
        for _ in range(steps):
            family = self.weighted({"unary": 3, "binary": 4, "compare": 1, "select": 1, "convert": 1,
                                    "clamp": 1})
            try:
                getattr(self, "f_" + family)()
            except Rejected:
                pass
        for v in reversed(self.scope.pool):
            if v.dims == tuple(dims) and v.dtype == dtype:
                return v
        for v in reversed(self.scope.pool):
            if v.dims == tuple(dims) and (v.exact or _is_float(dtype) or _is_complex(dtype)) \
                    and (_is_complex(dtype) or not _is_complex(v.dtype)):
                return self.op("ConvertElementType", v, PrimitiveType(dtype), exact=v.exact, bits=False,
                               err=v.err + 1)
        return self.fresh(dims, dtype)

    def f_while(self) -> None:
        x = self.operand(max_rank=3)
        state = Shape.tuple_shape([Shape.scalar_shape(PrimitiveType.S32)] * 2 + [x.shape])
        with self.computation("cond") as cond:
            p = self.comp_param(cond, 0, state)
            root = f"Lt(GetTupleElement({p.name}, 0), GetTupleElement({p.name}, 1))"
        cond = self.finish(cond, root)
        with self.computation("body") as body:
            p = self.comp_param(body, 0, state)
            i, n = (self.op("GetTupleElement", p, k) for k in range(2))
            self.op("GetTupleElement", p, 2, exact=x.exact, bits=x.bits, err=x.err, eps=x.eps,
                    reassoc=x.reassoc)  # the chain's input
            out = self.chain(x.dims, x.dtype, int(self.rng.integers(1, 4)))
            one = self.scalar("s32", 1)
            root = f"Tuple({body}_b, [Add({i.name}, {one.name}), {n.name}, {out.name}])"
        body = self.finish(body, root)
        if self.chance(0.5):
            trips = self.fresh((), "s32", role="trips")
        else:
            trips = self.scalar("s32", int(self.rng.integers(0, 5)))
        start = self.scalar("s32", 0)
        init = self.call("Tuple", self.b, [start, trips, x])
        w = self.call("While", cond, body, Ref(init))
        # x itself when the loop runs no iteration: the result is as inexact as either
        self.op("GetTupleElement", Ref(w), 2, exact=out.exact and x.exact, bits=out.bits and x.bits,
                err=max(out.err * 4, x.err), eps=max(out.eps, x.eps), reassoc=out.reassoc or x.reassoc)

    def _branch(self, label: str, operand: Val, dims, dtype) -> tuple[Ref, Val]:
        with self.computation(label) as comp:
            self.comp_param(comp, 0, operand.shape, like=operand)
            out = self.chain(dims, dtype, int(self.rng.integers(0, 4)))
        return self.finish(comp, out.name), out

    def f_conditional(self) -> None:
        x = self.operand(max_rank=3)
        if self.chance(0.5):
            pred = self.operand(dtype="pred", dims=(), exact=True)
            y = self.operand(dims=x.dims)
            t, tv = self._branch("then", x, x.dims, x.dtype)
            f, fv = self._branch("else", y, x.dims, x.dtype)
            outs = [tv, fv]
            result = self.call("Conditional", pred, x, t, y, f)
        else:
            n = int(self.rng.integers(1, 4))
            operands = [x] + [self.operand(dims=x.dims) for _ in range(n - 1)]
            comps, outs = [], []
            for k, v in enumerate(operands):
                c, out = self._branch(f"branch{k}", v, x.dims, x.dtype)
                comps.append(c)
                outs.append(out)
            if self.chance(0.8):
                index = self.fresh((), "s32", role="index", bound=n)
            else:
                index = self.scalar("s32", int(self.rng.integers(-1, n + 2)))
            result = self.call("Conditional", index, comps, operands)
        self.val(result, exact=all(o.exact for o in outs), bits=all(o.bits for o in outs),
                 err=max(o.err for o in outs), eps=max(o.eps for o in outs),
                 reassoc=any(o.reassoc for o in outs))

    def f_map(self) -> None:
        x = self.operand(max_rank=3)
        operands = [x] + ([self.operand(dims=x.dims)] if self.chance(0.6) else [])
        with self.computation("map") as comp:
            for k, v in enumerate(operands):
                self.comp_param(comp, k, Shape.scalar_shape(PrimitiveType(v.dtype)), like=v)
            out = self.chain((), self.dtype() if self.chance(0.3) else x.dtype, int(self.rng.integers(1, 4)))
        comp = self.finish(comp, out.name)
        v = self.op("Map", self.b, operands, comp, list(range(x.rank)), exact=out.exact, bits=out.bits,
                    err=out.err, eps=out.eps)
        v.ill = out.ill

    def f_call(self) -> None:
        x = self.operand()
        with self.computation("callee") as comp:
            self.comp_param(comp, 0, x.shape, like=x)
            out = self.chain(x.dims, x.dtype, int(self.rng.integers(1, 4)))
        comp = self.finish(comp, out.name)
        v = self.op("Call", self.b, comp, [x], exact=out.exact, bits=out.bits, err=out.err, eps=out.eps,
                    reassoc=out.reassoc)
        v.ill = out.ill

    def f_rng(self) -> None:
        """THREE_FRY bits: bit-exact between XLA and IREE (the other algorithms are not compared)."""
        state = self.operand(dtype="u64", dims=(2,)) if self.chance(0.3) else self.fresh((2,), "u64")
        dtype = self.choice(["u32", "u64", "u8"])  # XLA CPU returns u32 bits for an s32 request
        shape = Shape.array_shape(PrimitiveType(dtype), self.dims(self.weighted({1: 2, 2: 2, 3: 1})))
        t = self.call("RngBitGenerator", Ref("RandomAlgorithm.RNG_THREE_FRY"), state, shape)
        self.op("GetTupleElement", Ref(t), 0)
        self.op("GetTupleElement", Ref(t), 1)


FAMILY_WEIGHTS = {
    "unary": 10, "binary": 12, "compare": 5, "select": 4, "clamp": 2, "convert": 5, "bitcast": 2,
    "reduce_precision": 1, "reshape": 4, "transpose": 3, "broadcast": 3, "concat": 3, "slice": 4, "pad": 3,
    "rev": 2, "iota": 1, "tuple": 2, "barrier": 1, "reduce": 6, "reduce_window": 3, "dot": 4, "conv": 3,
    "dynamic_slice": 4, "dynamic_update_slice": 3, "gather": 4, "scatter": 4, "sort": 3, "topk": 1,
    "while": 2, "conditional": 2, "map": 2, "call": 1, "rng": 1,
}


def generate(seed: int, index: int, max_ops: int = 20, trace=None, denormals: bool = False) -> Program:
    """Program ``index`` of ``seed``: deterministic, independent of every other index.
    ``trace(line)`` is called with each line of builder code before it runs; ``denormals``
    adds subnormal floats to the special input values."""
    return Generator(seed, index, max_ops, trace, denormals).build()
