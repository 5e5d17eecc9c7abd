"""Typed reads of StableHLO IR: the one module that reads attributes and types.

IR is written through ``hlo_mlir/_emit.py`` and read through here (STYLE.md 17): the
builder, the passes, the compiler and the tests ask these getters for a comparison
direction, dimension numbers, a function's visibility or "the entry function" instead of
looking at attributes (or printed text) themselves.

Builtin attributes and types are read through the MLIR Python API (``ir.StringAttr``,
``ir.DenseI64ArrayAttr``, ``ir.FunctionType``, ...). StableHLO's own attributes have no
Python classes in IREE's bindings (ARCHITECTURE.md, decision 2), so for them, and only for
them, one small function per attribute form parses that single attribute's own printed
form:

- ``_enum``: ``#stablehlo<comparison_direction LT>`` (every StableHLO enum attribute);
- ``_struct``: ``#stablehlo.gather<offset_dims = [1], index_vector_dim = 1>`` (the dot,
  gather and scatter dimension numbers, channel handles);
- ``convolution_dimension_numbers``: ``#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>``;
- ``dimension_bounds``, ``mhlo_type_extension_bounds``: a tensor type's ``#stablehlo.bounds<4, ?>``
  or ``#mhlo.type_extensions<bounds = [4, ?]>`` encoding;
- ``is_token``: the type ``!stablehlo.token``;
- ``sub_byte_constant_values``: a non-splat s2/s4/u2/u4 ``dense<...>``, which the bindings
  cannot read (from the attribute's literal);
- ``complex_constant_values``: a complex ``dense<...>``, which the bindings cannot wrap at
  all, so it is the one reader that prints an op: the constant that holds it.

Nothing here prints a module or searches printed IR.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
from iree.compiler import ir

from hlo_mlir import types as _types
from hlo_mlir.errors import InvalidArgumentError

__all__ = [  # functions; types; builtin attributes; StableHLO attributes
    "symbol_name", "visibility", "is_public", "functions", "entry_function", "function_type",
    "is_tuple", "is_token", "contains_tuple_or_token", "uses_tuples_or_tokens", "element_type",
    "element_type_name", "dimension_bounds", "mhlo_type_extension_bounds",
    "attribute_dict", "ints", "int_array", "int_attr", "optional_int_attr", "string_attr",
    "optional_string_attr", "float_attr", "bool_attr", "window_values", "padding_pairs",
    "comparison_direction", "comparison_type", "precision_config", "fft_type", "rng_algorithm",
    "rng_distribution", "transpose_a", "DotDimensions", "dot_dimension_numbers", "GatherDimensions",
    "gather_dimension_numbers", "ScatterDimensions", "scatter_dimension_numbers", "ConvDimensions",
    "convolution_dimension_numbers", "ChannelHandleAttr", "channel_handle", "replica_groups",
    "source_target_pairs", "complex_constant_values", "sub_byte_constant_values", "SourceLocation",
    "source_location",
]


# --- functions and symbols ------------------------------------------------------------------------
def symbol_name(op) -> str:
    """The ``sym_name`` of a symbol op (``func.func``, ``ml_program.global``)."""
    return string_attr(op, "sym_name")


def visibility(op) -> str:
    """``public``, ``private`` or ``nested``; a symbol without ``sym_visibility`` is public."""
    attrs = op.attributes
    return ir.StringAttr(attrs["sym_visibility"]).value if "sym_visibility" in attrs else "public"


def is_public(func_op) -> bool:
    """Whether a function is callable from outside the module: no ``sym_visibility`` (our
    builder's ``func.func @main``) or ``sym_visibility = "public"`` (JAX's ``func.func public @main``)."""
    return visibility(func_op) == "public"


def functions(module: ir.Module) -> list[ir.Operation]:
    """The module's top-level ``func.func`` ops, in order."""
    return [op.operation for op in module.body.operations if op.operation.name == "func.func"]


def entry_function(module: ir.Module) -> ir.Operation | None:
    """The entry: ``@main`` if it is public, else the single public function, else None."""
    public = [f for f in functions(module) if is_public(f)]
    main = [f for f in public if symbol_name(f) == "main"]
    return main[0] if main else public[0] if len(public) == 1 else None


def function_type(func_op) -> ir.FunctionType:
    """A function's type: ``.inputs`` and ``.results`` are its parameter and result types."""
    return ir.FunctionType(ir.TypeAttr(func_op.attributes["function_type"]).value)


# --- types ----------------------------------------------------------------------------------------
def is_tuple(t: ir.Type) -> bool:
    return isinstance(t, ir.TupleType)


def is_token(t: ir.Type) -> bool:
    """Whether ``t`` is ``!stablehlo.token`` (a type without a Python class: its own text)."""
    return not isinstance(t, (ir.ShapedType, ir.TupleType)) and str(t) == "!stablehlo.token"


def contains_tuple_or_token(t: ir.Type) -> bool:
    """Whether ``t`` is a tuple or a token, or a function type with one among its inputs or results."""
    if isinstance(t, ir.FunctionType):
        return any(contains_tuple_or_token(x) for x in [*t.inputs, *t.results])
    return is_tuple(t) or is_token(t)


def uses_tuples_or_tokens(root: ir.Operation) -> bool:
    """Whether any op under ``root`` (a module's operation) has a tuple or token among its
    results, its regions' block arguments or (for a function) its signature."""
    found = []

    def visit(op: ir.Operation):
        types = [r.type for r in op.results]
        types += [a.type for region in op.regions for block in region.blocks for a in block.arguments]
        if op.name == "func.func":
            types.append(function_type(op))
        if any(contains_tuple_or_token(t) for t in types):
            found.append(op)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    root.walk(visit)
    return bool(found)


def element_type(value_or_type) -> ir.Type:
    """The element type of a shaped value or type; any other type is its own element type."""
    t = value_or_type.type if isinstance(value_or_type, ir.Value) else value_or_type
    return ir.ShapedType(t).element_type if isinstance(t, ir.ShapedType) else t


def element_type_name(value_or_type) -> str:
    """The MLIR spelling of the element type: ``f32``, ``i1`` (PRED), ``ui8``, ``complex<f32>``."""
    return str(element_type(value_or_type))


def dimension_bounds(t: ir.RankedTensorType) -> list[int | None] | None:
    """The bounds of a ``tensor<?x4xf32, #stablehlo.bounds<8, ?>>``, one per dimension (None
    for ``?``), or None without a bounds encoding. Parses the encoding's own text."""
    m = _BOUNDS.fullmatch(str(t.encoding)) if t.encoding is not None else None
    return _bound_list(m.group(1)) if m else None


def mhlo_type_extension_bounds(t: ir.RankedTensorType) -> list[int | None] | None:
    """The bounds of MHLO's ``tensor<?x4xf32, #mhlo.type_extensions<bounds = [8, ?]>>`` (None
    for ``?``), or None without one. MHLO is not registered here, so the encoding is an
    ``ir.OpaqueAttr``: its dialect namespace and data (``type_extensions<bounds = [8, ?]>``)
    come from the bindings, and only that data is parsed."""
    encoding = t.encoding
    if not isinstance(encoding, ir.OpaqueAttr) or encoding.dialect_namespace != "mhlo":
        return None
    m = _TYPE_EXTENSIONS.fullmatch(bytes(encoding.data).decode("utf-8", "replace").strip())
    return _bound_list(m.group(1)) if m else None


_BOUNDS = re.compile(r"#stablehlo\.bounds<(.*)>")
_TYPE_EXTENSIONS = re.compile(r"type_extensions<\s*bounds\s*=\s*\[([^\]]*)\]\s*>")


def _bound_list(text: str) -> list[int | None] | None:
    """``8, ?`` as [8, None]; None unless each item is ``?`` or a non-negative integer."""
    items = [item.strip() for item in text.split(",")] if text.strip() else []
    if any(item != "?" and not item.isdigit() for item in items):
        return None
    return [None if item == "?" else int(item) for item in items]


# --- locations --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SourceLocation:
    """A ``file:line:column`` an op or value was created at (``str``: ``file:line``)."""

    filename: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.filename}:{self.line}"


def source_location(loc: ir.Location | None) -> SourceLocation | None:
    """The first file position ``loc`` holds: a file location itself, a name location's
    child (``loc("x"("m.py":3:1))``), a call site's callee, then its caller (JAX's
    ``callsite(... at ...)``), a fused location's parts in order; None for unknown ones."""
    if isinstance(loc, ir.FileLineColLoc):
        return SourceLocation(loc.filename, loc.start_line, loc.start_col)
    if isinstance(loc, ir.NameLoc):
        return source_location(loc.child_loc)
    if isinstance(loc, ir.CallSiteLoc):
        return source_location(loc.callee) or source_location(loc.caller)
    if isinstance(loc, ir.FusedLoc):
        return next((s for s in map(source_location, loc.locations) if s is not None), None)
    return None


# --- builtin attributes -------------------------------------------------------------------------------
def attribute_dict(op) -> dict[str, ir.Attribute]:
    """All of ``op``'s attributes by name (to create the same op over other operands)."""
    return {name: op.attributes[name] for name in op.attributes}


def ints(attr: ir.Attribute) -> list[int]:
    """A DenseI64ArrayAttr, dense integer elements (flattened) or ArrayAttr of integers as ints."""
    if isinstance(attr, ir.DenseI64ArrayAttr):
        return list(ir.DenseI64ArrayAttr(attr))
    if isinstance(attr, ir.ArrayAttr):
        return [ir.IntegerAttr(a).value for a in attr]
    return [int(x) for x in np.array(ir.DenseIntElementsAttr(attr)).ravel()]


def int_array(op, name: str) -> list[int]:
    """Integer array attribute ``name`` of ``op`` (``dimensions``, ``broadcast_dimensions``,
    ``permutation``, ``start_indices``, ``slice_sizes``, ...)."""
    return ints(op.attributes[name])


def int_attr(op, name: str) -> int:
    """Integer attribute ``name`` of ``op`` (``dimension``, ``index``, ``iota_dimension``, ...)."""
    return ir.IntegerAttr(op.attributes[name]).value


def optional_int_attr(op, name: str) -> int | None:
    """Integer attribute ``name`` of ``op`` (a module's ``mhlo.num_replicas``), or None if absent."""
    return ir.IntegerAttr(op.attributes[name]).value if name in op.attributes else None


def string_attr(op, name: str) -> str:
    """String attribute ``name`` of ``op`` (``call_target_name``, ...)."""
    return ir.StringAttr(op.attributes[name]).value


def optional_string_attr(op, name: str) -> str | None:
    """String attribute ``name`` of ``op``, or None if absent."""
    return ir.StringAttr(op.attributes[name]).value if name in op.attributes else None


def window_values(op, name: str, rank: int) -> list[int]:
    """A window attribute (``window_strides``, ``lhs_dilation``, ``base_dilations``, ...): one
    value per dimension; all ones when absent (the StableHLO default)."""
    return ints(op.attributes[name]) if name in op.attributes else [1] * rank


def padding_pairs(op, rank: int) -> list[tuple[int, int]]:
    """``op``'s ``padding`` (a ``rank`` x 2 i64 tensor) as (low, high) pairs; zeros when absent."""
    flat = ints(op.attributes["padding"]) if "padding" in op.attributes else [0] * (2 * rank)
    return [(flat[2 * i], flat[2 * i + 1]) for i in range(rank)]


def float_attr(op, name: str) -> float:
    """Float attribute ``name`` of ``op`` (``epsilon``, ...)."""
    return ir.FloatAttr(op.attributes[name]).value


def bool_attr(op, name: str) -> bool:
    """Boolean attribute ``name`` of ``op``; False when absent (the StableHLO default)."""
    return name in op.attributes and ir.BoolAttr(op.attributes[name]).value


# --- StableHLO attributes: the three printed forms ------------------------------------------------------
_ENUM = re.compile(r"#stablehlo<(\w+) (\w+)>")
_FIELD = re.compile(r"(\w+) = (\[[^\]]*\]|-?\d+)")
_CONV = re.compile(r"#stablehlo\.conv<\[(.*)\]x\[(.*)\]->\[(.*)\]>")


def _enum(attr: ir.Attribute, kind: str) -> str:
    """The value of an enum attribute ``#stablehlo<kind VALUE>``."""
    m = _ENUM.fullmatch(str(attr))
    if m is None or m.group(1) != kind:
        raise InvalidArgumentError(f"expected a #stablehlo<{kind} ...> attribute; got {attr}.")
    return m.group(2)


def _struct(attr: ir.Attribute, kind: str) -> dict[str, Any]:
    """The fields of ``#stablehlo.kind<name = [1, 2], other = 3>`` (absent fields are left out)."""
    text = str(attr)
    if not (text.startswith(f"#stablehlo.{kind}<") and text.endswith(">")):
        raise InvalidArgumentError(f"expected a #stablehlo.{kind}<...> attribute; got {text}.")
    return {name: tuple(int(v) for v in re.findall(r"-?\d+", value)) if value.startswith("[") else int(value)
            for name, value in _FIELD.findall(text)}


# --- StableHLO attributes: enums -----------------------------------------------------------------------
def comparison_direction(op) -> str:
    """A compare's direction: ``EQ``, ``NE``, ``GE``, ``GT``, ``LE`` or ``LT``."""
    return _enum(op.attributes["comparison_direction"], "comparison_direction")


def comparison_type(op) -> str | None:
    """A compare's ``compare_type``: ``FLOAT``, ``TOTALORDER``, ``SIGNED``, ``UNSIGNED`` or
    ``NOTYPE``; None when absent (then the element type decides)."""
    attrs = op.attributes
    return _enum(attrs["compare_type"], "comparison_type") if "compare_type" in attrs else None


def fft_type(op) -> str:
    """An fft's kind: ``FFT``, ``IFFT``, ``RFFT`` or ``IRFFT``."""
    return _enum(op.attributes["fft_type"], "fft_type")


def rng_algorithm(op) -> str:
    """An rng_bit_generator's algorithm: ``DEFAULT``, ``THREE_FRY`` or ``PHILOX``."""
    return _enum(op.attributes["rng_algorithm"], "rng_algorithm")


def rng_distribution(op) -> str:
    """An rng's distribution: ``UNIFORM`` or ``NORMAL``."""
    return _enum(op.attributes["rng_distribution"], "rng_distribution")


def transpose_a(op) -> str:
    """A triangular_solve's ``transpose_a``: ``NO_TRANSPOSE``, ``TRANSPOSE`` or ``ADJOINT``."""
    return _enum(op.attributes["transpose_a"], "transpose")


def precision_config(op) -> tuple[str, ...]:
    """A dot's or convolution's operand precisions (``DEFAULT``, ``HIGH``, ``HIGHEST``); () if absent."""
    attrs = op.attributes
    return tuple(_enum(a, "precision") for a in ir.ArrayAttr(attrs["precision_config"])) \
        if "precision_config" in attrs else ()


# --- StableHLO attributes: dimension numbers and channels ---------------------------------------------
# The records carry XLA's field names; dialect_ops' DotDimensionNumbers, GatherDimensionNumbers,
# ScatterDimensionNumbers and ConvolutionDimensionNumbers extend them with argument checks and
# the attribute writer.
@dataclass(frozen=True)
class DotDimensions:
    lhs_contracting_dimensions: tuple[int, ...] = ()
    rhs_contracting_dimensions: tuple[int, ...] = ()
    lhs_batch_dimensions: tuple[int, ...] = ()
    rhs_batch_dimensions: tuple[int, ...] = ()


@dataclass(frozen=True)
class GatherDimensions:
    offset_dims: tuple[int, ...] = ()
    collapsed_slice_dims: tuple[int, ...] = ()
    start_index_map: tuple[int, ...] = ()
    index_vector_dim: int = 0
    operand_batching_dims: tuple[int, ...] = ()
    start_indices_batching_dims: tuple[int, ...] = ()


@dataclass(frozen=True)
class ScatterDimensions:
    update_window_dims: tuple[int, ...] = ()
    inserted_window_dims: tuple[int, ...] = ()
    scatter_dims_to_operand_dims: tuple[int, ...] = ()
    index_vector_dim: int = 0
    input_batching_dims: tuple[int, ...] = ()
    scatter_indices_batching_dims: tuple[int, ...] = ()


@dataclass(frozen=True)
class ConvDimensions:
    input_batch_dimension: int
    input_feature_dimension: int
    input_spatial_dimensions: tuple[int, ...]
    kernel_input_feature_dimension: int
    kernel_output_feature_dimension: int
    kernel_spatial_dimensions: tuple[int, ...]
    output_batch_dimension: int
    output_feature_dimension: int
    output_spatial_dimensions: tuple[int, ...]


@dataclass(frozen=True)
class ChannelHandleAttr:
    handle: int = 0
    type: int = 0


def dot_dimension_numbers(attr_or_op) -> DotDimensions:
    """The ``#stablehlo.dot<...>`` of a ``dot_general`` (or the attribute itself)."""
    fields = _struct(_attr(attr_or_op, "dot_dimension_numbers"), "dot")
    return DotDimensions(**{name.replace("_batching_", "_batch_"): v for name, v in fields.items()})


def gather_dimension_numbers(attr_or_op) -> GatherDimensions:
    """The ``#stablehlo.gather<...>`` of a gather (or the attribute itself)."""
    return GatherDimensions(**_struct(_attr(attr_or_op, "dimension_numbers"), "gather"))


def scatter_dimension_numbers(attr_or_op) -> ScatterDimensions:
    """The ``#stablehlo.scatter<...>`` of a scatter (or the attribute itself)."""
    return ScatterDimensions(**_struct(_attr(attr_or_op, "scatter_dimension_numbers"), "scatter"))


def convolution_dimension_numbers(attr_or_op) -> ConvDimensions:
    """The ``#stablehlo.conv<...>`` of a convolution (or the attribute itself), from its
    layout form ``[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]`` (position = dimension) or its
    ``raw`` form with named fields."""
    attr = _attr(attr_or_op, "dimension_numbers")
    text = str(attr)
    if text.startswith("#stablehlo.conv<raw "):
        return ConvDimensions(**_struct(attr, "conv"))
    m = _CONV.fullmatch(text)
    if m is None:
        raise InvalidArgumentError(f"expected a #stablehlo.conv<...> attribute; got {text}.")
    lhs, rhs, out = ([x.strip() for x in g.split(",")] if g.strip() else [] for g in m.groups())

    def spatial(layout: list[str]) -> tuple[int, ...]:
        return tuple(layout.index(str(i)) for i in range(len(layout) - 2))

    return ConvDimensions(lhs.index("b"), lhs.index("f"), spatial(lhs), rhs.index("i"), rhs.index("o"),
                          spatial(rhs), out.index("b"), out.index("f"), spatial(out))


def channel_handle(op) -> ChannelHandleAttr | None:
    """A collective's or send/recv's ``#stablehlo.channel_handle<handle = 1, type = 1>``, or None."""
    if "channel_handle" not in op.attributes:
        return None
    return ChannelHandleAttr(**_struct(op.attributes["channel_handle"], "channel_handle"))


def replica_groups(op) -> list[list[int]]:
    """A collective's ``replica_groups`` as lists, the -1 padding of shorter groups dropped
    (``[]`` for the empty attribute: one group of all replicas)."""
    attr = ir.DenseIntElementsAttr(op.attributes["replica_groups"])
    rows, width = (list(ir.RankedTensorType(attr.type).shape) + [0, 0])[:2]
    flat = ints(attr)
    return [[i for i in flat[r * width:(r + 1) * width] if i != -1] for r in range(rows)]


def source_target_pairs(op) -> list[tuple[int, int]]:
    """A ``collective_permute``'s ``source_target_pairs``."""
    flat = ints(op.attributes["source_target_pairs"])
    return list(zip(flat[0::2], flat[1::2], strict=True))


def _attr(attr_or_op, name: str) -> ir.Attribute:
    return attr_or_op if isinstance(attr_or_op, ir.Attribute) else attr_or_op.attributes[name]


# --- complex constants -----------------------------------------------------------------------------
_DENSE = re.compile(r"dense<(.*)>\s*:\s*tensor<", re.S)
_PAIR = re.compile(r"\(\s*([^,()\s]+)\s*,\s*([^,()\s]+)\s*\)")


def complex_constant_values(op) -> np.ndarray:
    """The values of a complex ``stablehlo.constant``: flat, or one value for a splat.

    The bindings cannot wrap a complex DenseElementsAttr (reading ``op.attributes["value"]``
    raises, and aborts the process when iterating), so this reads the constant op's printed
    form: ``dense<[(re,im), ...]>`` (floats that do not print exactly, inf and NaN print as
    hex bit patterns) or a raw little-endian hex blob ``dense<"0x..">``.
    """
    dtype = _types.dtype_of(_types.from_mlir_name(element_type_name(op.results[0])))
    part = np.dtype(dtype.char.lower())  # complex64 -> float32, complex128 -> float64
    dense = _DENSE.search(op.get_asm())
    if dense is None:
        raise InvalidArgumentError(f"expected a complex stablehlo.constant; got {op.operation.name}.")
    body = dense.group(1).strip()
    if body.startswith('"0x'):
        return np.frombuffer(bytes.fromhex(body[3:-1]), dtype=dtype)
    bits = np.dtype(f"u{part.itemsize}")

    def number(token: str):
        if token.lower().startswith("0x"):
            return np.array(int(token, 16), dtype=bits).view(part)[()]
        return part.type(float(token))

    pairs = [(number(re_), number(im)) for re_, im in _PAIR.findall(body)]
    out = np.empty(len(pairs), dtype=dtype)
    out.real, out.imag = [p[0] for p in pairs], [p[1] for p in pairs]
    return out


def sub_byte_constant_values(attr: ir.DenseElementsAttr, shape: list[int], width: int,
                             signed: bool) -> np.ndarray:
    """The elements of a sub-byte dense attribute, as int8 or uint8. The bindings cannot
    read them (``np.array(attr)`` and ``DenseIntElementsAttr[i]`` raise "Unsupported integer
    type"), so non-splat values come from the attribute's literal: ``dense<[1, -2, ...]>``,
    or above 100 elements ``dense<"0x0809...">`` (a byte per element, the low W bits)."""
    dtype = np.int8 if signed else np.uint8
    if attr.is_splat:
        return np.full(shape, ir.IntegerAttr(attr.get_splat_value()).value, dtype)
    if 0 in shape:
        return np.zeros(shape, dtype)
    text = str(attr)
    literal = text[text.index("<") + 1:text.rindex(">", 0, text.rindex(":"))]
    if not literal.startswith('"0x'):
        return np.array(ast.literal_eval(literal), dtype).reshape(shape)
    bits = np.frombuffer(bytes.fromhex(literal[3:-1]), np.uint8).astype(np.int16) & ((1 << width) - 1)
    if signed:
        bits = np.where(bits >= 1 << (width - 1), bits - (1 << width), bits)
    return bits.astype(dtype).reshape(shape)
