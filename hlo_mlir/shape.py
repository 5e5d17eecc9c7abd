"""Immutable XLA shapes (arrays, tuples, tokens) and program shapes.

Shapes print like XLA (``f32[2,3]``, ``(f32[2], s32[])``, ``token[]``,
``f32[<=4]`` for a bounded dynamic dimension) and convert both ways to MLIR types.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np

from hlo_mlir import types as _types
from hlo_mlir.errors import DTypeError, InvalidArgumentError, ShapeError
from hlo_mlir.types import PrimitiveType

__all__ = ["Shape", "ProgramShape"]


@dataclass(frozen=True)
class Shape:
    """An XLA shape: an array (element type + dimensions), a tuple or a token.

    Build them with :meth:`array_shape`, :meth:`scalar_shape`, :meth:`tuple_shape`,
    :meth:`token_shape` or :meth:`parse`.
    """

    element_type: PrimitiveType
    dimensions: tuple[int, ...] = ()
    tuple_shapes: tuple["Shape", ...] = ()
    # True where the dimension is dynamic with ``dimensions[i]`` as its bound.
    dynamic_dimensions: tuple[bool, ...] = field(default=())

    def __post_init__(self):
        if not isinstance(self.element_type, PrimitiveType):
            raise DTypeError(f"Shape requires a PrimitiveType; got {self.element_type!r}.")
        dims = tuple(int(d) for d in self.dimensions)
        object.__setattr__(self, "dimensions", dims)
        if any(d < 0 for d in dims):
            raise ShapeError(f"Shape requires non-negative dimensions; got {list(dims)}.")
        dyn = tuple(bool(x) for x in self.dynamic_dimensions) or (False,) * len(dims)
        if len(dyn) != len(dims):
            raise ShapeError(
                f"Shape requires one dynamic flag per dimension; got {len(dyn)} for rank {len(dims)}.")
        object.__setattr__(self, "dynamic_dimensions", dyn)
        object.__setattr__(self, "tuple_shapes", tuple(self.tuple_shapes))

    # --- constructors ----------------------------------------------------
    @staticmethod
    def array_shape(element_type, dimensions: Sequence[int] = (),
                    dynamic_dimensions: Sequence[bool] = ()) -> "Shape":
        """An array shape; ``element_type`` may be a PrimitiveType or a numpy dtype."""
        et = _types.from_dtype(element_type)
        if not et.is_array_type:
            raise DTypeError(f"Shape.array_shape requires an array element type; got {et.name}.")
        return Shape(et, tuple(dimensions), (), tuple(dynamic_dimensions))

    @staticmethod
    def scalar_shape(element_type) -> "Shape":
        return Shape.array_shape(element_type, ())

    @staticmethod
    def tuple_shape(shapes: Iterable["Shape"]) -> "Shape":
        shapes = tuple(shapes)
        for s in shapes:
            if not isinstance(s, Shape):
                raise InvalidArgumentError(f"Shape.tuple_shape requires Shapes; got {s!r}.")
        return Shape(PrimitiveType.TUPLE, (), shapes)

    @staticmethod
    def token_shape() -> "Shape":
        return Shape(PrimitiveType.TOKEN)

    @staticmethod
    def from_numpy(array) -> "Shape":
        array = np.asarray(array)
        return Shape.array_shape(array.dtype, array.shape)

    @staticmethod
    def parse(text: str) -> "Shape":
        """Parses XLA shape text: ``f32[2,3]``, ``(f32[], s32[4])``, ``token[]``, ``f32[<=4]``."""
        parser = _ShapeParser(text)
        shape = parser.shape()
        parser.end()
        return shape

    # --- queries ---------------------------------------------------------
    @property
    def is_array(self) -> bool:
        return self.element_type.is_array_type

    @property
    def is_tuple(self) -> bool:
        return self.element_type is PrimitiveType.TUPLE

    @property
    def is_token(self) -> bool:
        return self.element_type is PrimitiveType.TOKEN

    @property
    def rank(self) -> int:
        return len(self.dimensions)

    @property
    def is_scalar(self) -> bool:
        return self.is_array and not self.dimensions

    @property
    def is_dynamic(self) -> bool:
        return any(self.dynamic_dimensions) or any(s.is_dynamic for s in self.tuple_shapes)

    @property
    def dtype(self) -> np.dtype:
        return _types.dtype_of(self.element_type)

    def element_count(self) -> int:
        return int(np.prod(self.dimensions, dtype=np.int64)) if self.is_array else 0

    def with_element_type(self, element_type) -> "Shape":
        return Shape(_types.from_dtype(element_type), self.dimensions, (), self.dynamic_dimensions)

    def with_dimensions(self, dimensions: Sequence[int]) -> "Shape":
        return Shape(self.element_type, tuple(dimensions))

    def compatible(self, other: "Shape") -> bool:
        """Same shape up to dynamic-dimension flags."""
        if self.element_type != other.element_type:
            return False
        if self.is_tuple:
            return len(self.tuple_shapes) == len(other.tuple_shapes) and all(
                a.compatible(b) for a, b in zip(self.tuple_shapes, other.tuple_shapes, strict=True))
        return self.dimensions == other.dimensions

    def leaves(self) -> list["Shape"]:
        """The non-tuple shapes in depth-first order (a tuple flattened)."""
        if self.is_tuple:
            return [leaf for s in self.tuple_shapes for leaf in s.leaves()]
        return [self]

    # --- printing --------------------------------------------------------
    def __str__(self) -> str:
        if self.is_tuple:
            return "(" + ", ".join(str(s) for s in self.tuple_shapes) + ")"
        if self.is_token:
            return "token[]"
        dims = ",".join(f"<={d}" if dyn else str(d)
                        for d, dyn in zip(self.dimensions, self.dynamic_dimensions, strict=True))
        return f"{self.element_type.value}[{dims}]"

    def __repr__(self) -> str:
        return f"Shape({str(self)!r})"

    # --- MLIR ------------------------------------------------------------
    def to_mlir_type(self):
        """The MLIR type (``tensor<...>``, ``tuple<...>``, ``!stablehlo.token``).

        Needs an active ``ir.Context`` (see :func:`hlo_mlir.context.get_context`).
        """
        from iree.compiler import ir  # as in _from_mlir_type: the runtime deploys without it

        return ir.Type.parse(self.mlir_type_text())

    def mlir_type_text(self) -> str:
        if self.is_tuple:
            return "tuple<" + ", ".join(s.mlir_type_text() for s in self.tuple_shapes) + ">"
        if self.is_token:
            return "!stablehlo.token"
        dims = "".join(("?" if dyn else str(d)) + "x"
                       for d, dyn in zip(self.dimensions, self.dynamic_dimensions, strict=True))
        encoding = ""
        if any(self.dynamic_dimensions):
            bounds = ", ".join(str(d) if dyn else "?"
                               for d, dyn in zip(self.dimensions, self.dynamic_dimensions, strict=True))
            encoding = f", #stablehlo.bounds<{bounds}>"
        return f"tensor<{dims}{_types.mlir_name(self.element_type)}{encoding}>"

    @staticmethod
    def from_mlir_type(t) -> "Shape":
        """The Shape of an MLIR type; raises DTypeError for types XLA has no shape for.

        Shapes are immutable, so they are memoized by the type (passes ask for the shapes of
        the same few types over and over). MLIR types are uniqued per context and hash by
        identity, which is about 30 times cheaper than printing them; a key keeps its
        context alive, so no other type can take its place."""
        key = t
        shape = _SHAPE_OF_TYPE.get(key)
        if shape is None:
            shape = Shape._from_mlir_type(t)
            if len(_SHAPE_OF_TYPE) >= 4096:
                _SHAPE_OF_TYPE.clear()
            _SHAPE_OF_TYPE[key] = shape
        return shape

    @staticmethod
    def _from_mlir_type(t) -> "Shape":
        # The compiler's bindings: Shape itself serves the runtime, which deploys without them.
        from iree.compiler import ir

        from hlo_mlir import ir_access

        if isinstance(t, ir.TupleType):
            tt = ir.TupleType(t)
            return Shape.tuple_shape(Shape.from_mlir_type(tt.get_type(i)) for i in range(tt.num_types))
        if ir_access.is_token(t):
            return Shape.token_shape()
        if isinstance(t, ir.RankedTensorType):
            rt = ir.RankedTensorType(t)
            dims = list(rt.shape)
            dynamic = [d == ir.ShapedType.get_dynamic_size() for d in dims]
            if any(dynamic):
                bounds = ir_access.dimension_bounds(rt)
                if bounds is None or any(b is None for b, dyn in zip(bounds, dynamic, strict=True) if dyn):
                    raise ShapeError(f"unbounded dynamic dimension in {t}; XLA shapes need a bound.")
                dims = [b if dyn else d for d, dyn, b in zip(dims, dynamic, bounds, strict=True)]
            element_type = _types.from_mlir_name(ir_access.element_type_name(rt))
            return Shape(element_type, tuple(dims), (), tuple(dynamic))
        raise DTypeError(f"MLIR type {t} has no XLA shape.")


_SHAPE_OF_TYPE: dict[object, Shape] = {}  # MLIR type -> its Shape


class _ShapeParser:
    _TOKEN = re.compile(r"\s*(\(|\)|,|token\[\]|[a-z0-9]+\[[^\]]*\])")

    def __init__(self, text: str):
        self.text, self.pos = text, 0

    def _peek(self) -> str | None:
        m = self._TOKEN.match(self.text, self.pos)
        return m.group(1) if m else None

    def _take(self) -> str:
        m = self._TOKEN.match(self.text, self.pos)
        if not m:
            raise InvalidArgumentError(
                f"Shape.parse requires XLA shape text like 'f32[2,3]'; got {self.text!r} "
                f"(stopped at offset {self.pos}).")
        self.pos = m.end()
        return m.group(1)

    def end(self):
        if self.text[self.pos:].strip():
            raise InvalidArgumentError(f"Shape.parse: trailing text in {self.text!r}.")

    def shape(self) -> Shape:
        tok = self._take()
        if tok == "(":
            parts: list[Shape] = []
            if self._peek() == ")":
                self._take()
                return Shape.tuple_shape(parts)
            while True:
                parts.append(self.shape())
                sep = self._take()
                if sep == ")":
                    return Shape.tuple_shape(parts)
                if sep != ",":
                    raise InvalidArgumentError(f"Shape.parse: expected ',' or ')' in {self.text!r}.")
        if tok == "token[]":
            return Shape.token_shape()
        name, dims_text = tok[:-1].split("[")
        try:
            element_type = PrimitiveType(name)  # XLA's names only, not numpy's ("float")
        except ValueError:
            raise InvalidArgumentError(f"Shape.parse: unknown element type {name!r} in {self.text!r}"
                                       f"{_types.did_you_mean_type(name) or '.'}") from None
        dims, dyn = [], []
        for d in filter(None, (x.strip() for x in dims_text.split(","))):
            dyn.append(d.startswith("<="))
            size = d[2:] if d.startswith("<=") else d
            if not size.isdigit():
                raise InvalidArgumentError(f"Shape.parse: bad dimension {d!r} in {self.text!r}.")
            dims.append(int(size))
        return Shape.array_shape(element_type, dims, dyn)


@dataclass(frozen=True, init=False)
class ProgramShape:
    """The signature of a computation: parameter shapes (with names) and result shape."""

    parameters: tuple[Shape, ...]
    result: Shape
    parameter_names: tuple[str, ...]

    def __init__(self, parameters: Sequence[Shape], result: Shape, parameter_names: Sequence[str] = ()):
        object.__setattr__(self, "parameters", tuple(parameters))
        object.__setattr__(self, "result", result)
        names = tuple(parameter_names) or tuple(f"p{i}" for i in range(len(self.parameters)))
        object.__setattr__(self, "parameter_names", names)

    def __str__(self) -> str:
        params = ", ".join(f"{n}: {s}" for n, s in zip(self.parameter_names, self.parameters, strict=True))
        return f"({params}) -> {self.result}"
