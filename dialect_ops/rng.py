"""Random numbers: RngUniform, RngNormal, RngBernoulli and RngBitGenerator (spec:
RngNormal, RngUniform, RngBitGenerator; RngBernoulli from the older edition).

RngUniform and RngNormal are XLA's stateful ``kRng``: they take no seed, and every
execution (and every op) is meant to give fresh numbers. They emit ``stablehlo.rng``;
the ``rng-expander`` pass lowers that to ``rng_bit_generator`` with a module-level state
before IREE (whose own ``stablehlo.rng`` returns the same numbers on every call).
RngBitGenerator is the stateless form: a deterministic function of the state it is
given, returning ``(new_state, bits)`` as a tuple like XLA.
"""

from __future__ import annotations

import enum

import numpy as np
from iree.compiler import ir

from dialect_ops.constant import constant
from dialect_ops.elementwise import compare, convert
from dialect_ops.tuple_ops import tuple_
from hlo_mlir import _emit
from hlo_mlir.builder import XlaOp, builder_of
from hlo_mlir.errors import DTypeError, InvalidArgumentError, ShapeError
from hlo_mlir.shape import Shape
from hlo_mlir.types import PrimitiveType

__all__ = ["RandomAlgorithm", "RngUniform", "RngNormal", "RngBernoulli", "RngBitGenerator",
           "rng_uniform_rule", "rng_normal_rule", "rng_bernoulli_rule", "rng_bit_generator_rule",
           "rng", "rng_bit_generator"]


class RandomAlgorithm(enum.Enum):
    """The PRNG of RngBitGenerator (xla_data.proto ``RandomAlgorithm``); the value is
    StableHLO's ``#stablehlo<rng_algorithm ...>`` spelling."""

    RNG_DEFAULT = "DEFAULT"
    RNG_THREE_FRY = "THREE_FRY"
    RNG_PHILOX = "PHILOX"

    @staticmethod
    def parse(value) -> "RandomAlgorithm":
        """A RandomAlgorithm from itself or a name (``"RNG_PHILOX"``, ``"philox"``)."""
        if isinstance(value, RandomAlgorithm):
            return value
        if isinstance(value, str):
            name = value.upper()
            for a in RandomAlgorithm:
                if name in (a.name, a.value):
                    return a
        raise InvalidArgumentError(
            f"RngBitGenerator requires an algorithm in {[a.name for a in RandomAlgorithm]}; got {value!r}.")


# The initial_state sizes each algorithm accepts (u64 words): THREE_FRY is (key, counter);
# PHILOX is (key, counter) or (key, counter low, counter high); DEFAULT is the backend's.
_STATE_SIZES = {RandomAlgorithm.RNG_THREE_FRY: (2,), RandomAlgorithm.RNG_PHILOX: (2, 3),
                RandomAlgorithm.RNG_DEFAULT: (2, 3)}


# --- shape rules ---------------------------------------------------------------------------
def _output_shape(op_name: str, shape) -> Shape:
    if not isinstance(shape, Shape):
        raise InvalidArgumentError(f"{op_name} requires a Shape for the output; got {type(shape).__name__}.")
    if not shape.is_array or shape.is_dynamic:
        raise ShapeError(f"{op_name} requires a static array output shape; got {shape}.")
    return shape


def _scalar_parameters(op_name: str, names: tuple[str, ...], params: tuple[Shape, ...], shape: Shape) -> None:
    """Each parameter is a scalar of the output's element type."""
    for name, p in zip(names, params, strict=True):
        if not p.is_scalar:
            raise ShapeError(f"{op_name} requires a scalar {name}; got {p}.")
        if p.element_type != shape.element_type:
            listing = ", ".join(f"{n} {s}" for n, s in zip(names, params, strict=True))
            raise DTypeError(f"{op_name} requires {' and '.join(names)} of the output's element type; "
                             f"got {listing} for output {shape}.")


def rng_uniform_rule(a: Shape, b: Shape, shape: Shape) -> Shape:
    """RngUniform: scalar ``a`` and ``b`` of the output's element type, which is PRED, an
    integer or a floating-point type."""
    shape = _output_shape("RngUniform", shape)
    t = shape.element_type
    if not (t.is_pred or t.is_integer or t.is_floating_point):
        raise DTypeError(f"RngUniform requires a PRED, integer or floating-point output; got {shape}.")
    _scalar_parameters("RngUniform", ("a", "b"), (a, b), shape)
    return shape


def rng_normal_rule(mu: Shape, sigma: Shape, shape: Shape) -> Shape:
    """RngNormal: scalar ``mu`` and ``sigma`` of the output's floating-point element type."""
    shape = _output_shape("RngNormal", shape)
    if not shape.element_type.is_floating_point:
        raise DTypeError(f"RngNormal requires a floating-point output; got {shape}.")
    _scalar_parameters("RngNormal", ("mu", "sigma"), (mu, sigma), shape)
    return shape


def rng_bernoulli_rule(mean: Shape, shape: Shape) -> Shape:
    """RngBernoulli (older edition): a scalar F32 ``mean`` and a U32 output."""
    shape = _output_shape("RngBernoulli", shape)
    if shape.element_type is not PrimitiveType.U32:
        raise DTypeError(f"RngBernoulli requires a U32 output shape; got {shape}.")
    if not mean.is_scalar or mean.element_type is not PrimitiveType.F32:
        raise DTypeError(f"RngBernoulli requires a scalar F32 mean; got {mean}.")
    return shape


def rng_bit_generator_rule(algorithm, initial_state: Shape, shape: Shape) -> Shape:
    """RngBitGenerator: ``(state, bits)`` where the state keeps ``initial_state``'s shape
    (u64[2] for THREE_FRY, u64[2] or u64[3] for PHILOX and DEFAULT) and the bits have
    ``shape``, of an integer or floating-point type."""
    algorithm = RandomAlgorithm.parse(algorithm)
    shape = _output_shape("RngBitGenerator", shape)
    t = shape.element_type
    if not (t.is_integer or t.is_floating_point):
        raise DTypeError(f"RngBitGenerator requires an integer or floating-point output; got {shape}.")
    sizes = _STATE_SIZES[algorithm]
    if (not initial_state.is_array or initial_state.element_type is not PrimitiveType.U64
            or initial_state.rank != 1 or initial_state.dimensions[0] not in sizes):
        wanted = " or ".join(f"u64[{n}]" for n in sizes)
        raise ShapeError(f"RngBitGenerator requires an initial_state of shape {wanted} for "
                         f"{algorithm.name}; got {initial_state}.")
    return Shape.tuple_shape([initial_state, shape])


# --- emit -------------------------------------------------------------------------------------
def rng(a: ir.Value, b: ir.Value, shape: Shape, distribution: str) -> ir.Value:
    """``stablehlo.rng`` (``distribution`` UNIFORM or NORMAL) of ``shape``."""
    rule = {"UNIFORM": rng_uniform_rule, "NORMAL": rng_normal_rule}[distribution]
    result = rule(_emit.shape_of(a), _emit.shape_of(b), shape)
    dims = constant(np.asarray(result.dimensions, dtype=np.int64))
    attr = _emit.parse_attr(f"#stablehlo<rng_distribution {distribution}>")
    return _emit.create("stablehlo.rng", [a, b, dims], [_emit.type_of(result)],
                        {"rng_distribution": attr}).result


def rng_bit_generator(algorithm, initial_state: ir.Value, shape: Shape) -> tuple[ir.Value, ir.Value]:
    """``stablehlo.rng_bit_generator``: returns ``(output_state, bits)``."""
    algorithm = RandomAlgorithm.parse(algorithm)
    result = rng_bit_generator_rule(algorithm, _emit.shape_of(initial_state), shape)
    op = _emit.create("stablehlo.rng_bit_generator", [initial_state],
                      [_emit.type_of(s) for s in result.tuple_shapes],
                      {"rng_algorithm": _emit.parse_attr(f"#stablehlo<rng_algorithm {algorithm.value}>")})
    return op.results[0], op.results[1]


# --- builder ----------------------------------------------------------------------------------
def RngUniform(a: XlaOp, b: XlaOp, shape: Shape) -> XlaOp:
    """Numbers uniformly distributed over ``[a, b)`` (spec: RngUniform); the result is
    implementation-defined when ``b <= a``."""
    builder = builder_of("RngUniform", a, b)
    return builder.emit("RngUniform", lambda: rng(a.value, b.value, shape, "UNIFORM"))


def RngNormal(mu: XlaOp, sigma: XlaOp, shape: Shape) -> XlaOp:
    """Numbers following the normal distribution N(mu, sigma) (spec: RngNormal)."""
    builder = builder_of("RngNormal", mu, sigma)
    return builder.emit("RngNormal", lambda: rng(mu.value, sigma.value, shape, "NORMAL"))


def RngBernoulli(mean: XlaOp, shape: Shape) -> XlaOp:
    """U32 ones with probability ``mean``, zeros otherwise (older spec edition:
    RngBernoulli): ``ConvertElementType(RngUniform(0, 1, f32 shape) < mean, U32)``."""
    builder = builder_of("RngBernoulli", mean)

    def emit():
        result = rng_bernoulli_rule(_emit.shape_of(mean.value), shape)
        zero, one = (constant(np.float32(v)) for v in (0.0, 1.0))
        uniform = rng(zero, one, result.with_element_type(PrimitiveType.F32), "UNIFORM")
        return convert(compare(uniform, mean.value, "LT", op_name="RngBernoulli"), PrimitiveType.U32)

    return builder.emit("RngBernoulli", emit)


def RngBitGenerator(algorithm, initial_state: XlaOp, shape: Shape) -> XlaOp:
    """Random bits of ``shape`` from ``algorithm`` and the state, as the tuple
    ``(new_state, bits)`` (spec: RngBitGenerator); a deterministic function of the state."""
    builder = builder_of("RngBitGenerator", initial_state)
    return builder.emit("RngBitGenerator",
                        lambda: tuple_(list(rng_bit_generator(algorithm, initial_state.value, shape))))
