"""XlaBuilder and XlaOp: XLA's builder model over StableHLO.

An ``XlaBuilder`` owns an MLIR module with one public function ``@main``; every op
call appends a StableHLO op to it at the caller's file:line. ``build()`` returns
the verified module as an ``XlaComputation``. Sub-computations (reducers, callees)
are built with their own builders, as in XLA, and are inlined into regions or
imported as private functions when another builder uses them.

Op functions themselves live in the ``dialect_ops`` family modules, the layer above
this one (it registers the ones behind XlaOp's operators, see ``register_ops``), and
are re-exported by ``hlo_mlir``; so is ``XlaComputation`` (hlo_mlir/module.py).
"""

from __future__ import annotations

import contextlib
import itertools
from typing import Any, Callable

import numpy as np
from iree.compiler import ir

from hlo_mlir import _emit
from hlo_mlir import context as _context
from hlo_mlir.call_graph import adopt_functions, import_computation
from hlo_mlir.errors import HloMlirError, InvalidArgumentError
from hlo_mlir.module import XlaComputation
from hlo_mlir.operators import Operators
from hlo_mlir.shape import ProgramShape, Shape

__all__ = ["XlaBuilder", "XlaOp", "XlaComputation", "builder_of", "Parameter", "register_ops"]

# The op functions behind XlaOp's operators (``Add`` for ``+``, ...) and XlaBuilder.lift
# (``Constant``). They live in dialect_ops, the layer above this one, which registers them
# here when it is imported (as JAX's numpy layer gives its tracers their operators);
# ``hlo_mlir``'s builder names import it.
_OPS: dict[str, Callable[..., Any]] = {}


def register_ops(**ops: Callable[..., Any]) -> None:
    """Registers op functions by name for XlaOp's operators and XlaBuilder.lift."""
    _OPS.update(ops)


def _op(name: str) -> Callable[..., Any]:
    if name not in _OPS:
        raise InvalidArgumentError(
            f"XlaOp operators require the op functions; {name} is not registered (import hlo_mlir's "
            f"names or dialect_ops before using operators).", _here())
    return _OPS[name]


class XlaOp(Operators):
    """A value in a computation under construction (XLA's ``XlaOp``).

    Python operators map to the spec ops: ``+ - * / % **``, unary ``-``, ``& | ^ ~``,
    ``<< >>`` and ``< <= > >=`` (``==`` stays object identity, as in XLA).
    """

    __slots__ = ("builder", "value", "_shape")

    def __init__(self, builder: "XlaBuilder", value: ir.Value):
        self.builder = builder
        self.value = value
        self._shape: Shape | None = None

    @property
    def shape(self) -> Shape:
        if self._shape is None:
            self._shape = _emit.shape_of(self.value)
        return self._shape

    def __repr__(self) -> str:
        return f"XlaOp({self.shape}, builder={self.builder.name!r})"

    # The operators (hlo_mlir/operators.py) call the registered op functions.
    def _binary(self, name: str, other, reverse: bool = False) -> "XlaOp":
        other = self.builder.lift(other, like=self)
        lhs, rhs = (other, self) if reverse else (self, other)
        return _op(name)(lhs, rhs)

    def _unary(self, name: str) -> "XlaOp":
        return _op(name)(self)

    __hash__ = object.__hash__


def builder_of(op_name: str, *operands: Any) -> "XlaBuilder":
    """The builder shared by ``operands``; raises if they are not XlaOps of one builder."""
    builder = None
    for i, op in enumerate(operands):
        if not isinstance(op, XlaOp):
            raise InvalidArgumentError(
                f"{op_name} requires XlaOp operands; got {type(op).__name__} for operand {i}.",
                _context.location_text(None) or _here())
        if builder is None:
            builder = op.builder
        elif op.builder is not builder:
            raise InvalidArgumentError(
                f"{op_name} requires operands from one XlaBuilder; got operands of "
                f"{builder.name!r} and {op.builder.name!r}.", _here())
    if builder is None:
        raise InvalidArgumentError(f"{op_name} requires at least one operand.", _here())
    return builder


def _here() -> str:
    filename, line = _context.user_frame()
    return f"{filename}:{line}"


class XlaBuilder:
    """Builds one computation (XLA's ``XlaBuilder``).

    >>> b = XlaBuilder("axpy")
    >>> x = Parameter(b, 0, Shape.parse("f32[4]"), "x")
    >>> comp = b.build(x * 2.0 + 1.0)
    """

    _names = itertools.count()

    def __init__(self, name: str = "builder"):
        if not isinstance(name, str) or not name:
            raise InvalidArgumentError(f"XlaBuilder requires a non-empty name; got {name!r}.")
        self.name = name
        self._ctx = _context.get_context()
        with self._ctx, ir.Location.name(name, context=self._ctx):
            self._module = ir.Module.create()
            self._module.operation.attributes["sym_name"] = ir.StringAttr.get(name)
            with ir.InsertionPoint(self._module.body):
                self._func = _emit.func_op("main", [], [])
        self._block = self._func.body.blocks[0]
        self._parameters: dict[int, tuple[int, Shape, str]] = {}  # number -> (arg index, shape, name)
        self._last: XlaOp | None = None
        self._imported: dict[int, tuple] = {}  # id(XlaComputation) -> (it, private func name)
        self._built = False

    def __repr__(self) -> str:
        return f"XlaBuilder({self.name!r})"

    # --- op emission -------------------------------------------------------
    @contextlib.contextmanager
    def _scope(self, op_name: str):
        if self._built:
            raise InvalidArgumentError(
                f"{op_name} requires an XlaBuilder that is still open; {self.name!r} was already built.",
                _here())
        loc = _context.user_location()
        try:
            with self._ctx, loc, ir.InsertionPoint(self._block):
                yield loc
        except HloMlirError as e:
            e.with_location(_context.location_text(loc))
            raise
        except ir.MLIRError as e:
            raise InvalidArgumentError(f"{op_name} failed: {e}", _context.location_text(loc)) from None

    def emit(self, op_name: str, fn: Callable[[], Any]) -> Any:
        """Runs ``fn`` (which creates IR from ``ir.Value``s) here, at the caller's location.

        ``fn`` returns a Value or a sequence of Values; they come back as XlaOps.
        """
        with self._scope(op_name):
            result = fn()
        if isinstance(result, ir.Value):
            self._last = XlaOp(self, result)
            return self._last
        ops = [XlaOp(self, v) for v in result]
        if ops:
            self._last = ops[-1]
        return ops

    def lift(self, value, like: XlaOp | None = None) -> XlaOp:
        """``value`` as an XlaOp: XlaOps pass through, numbers and arrays become constants
        (of ``like``'s element type for Python scalars)."""
        if isinstance(value, XlaOp):
            return value
        if like is not None and np.ndim(value) == 0 and not isinstance(value, np.generic):
            value = np.asarray(value, dtype=like.shape.dtype)
        return _op("Constant")(self, value)

    @property
    def module(self) -> ir.Module:
        """The MLIR module under construction (shared, not a copy); for module attributes
        such as the replica count."""
        return self._module

    def get_shape(self, op: XlaOp) -> Shape:
        return op.shape

    def create_sub_builder(self, name: str) -> "XlaBuilder":
        """A new builder for a sub-computation (reducer, callee, body)."""
        return XlaBuilder(f"{self.name}.{name}")

    # --- parameters --------------------------------------------------------
    def parameter(self, number: int, shape: Shape, name: str = "") -> XlaOp:
        if not isinstance(shape, Shape):
            raise InvalidArgumentError(
                f"Parameter requires a Shape; got {type(shape).__name__}.", _here())
        if not isinstance(number, (int, np.integer)) or number < 0:
            raise InvalidArgumentError(
                f"Parameter requires a non-negative parameter number; got {number!r}.", _here())
        if number in self._parameters:
            raise InvalidArgumentError(
                f"Parameter requires a unique parameter number; parameter {number} "
                f"already exists in {self.name!r}.", _here())
        with self._scope("Parameter") as loc:
            name = name or f"p{number}"
            arg = self._block.add_argument(shape.to_mlir_type(), ir.Location.name(name, childLoc=loc))
        self._parameters[int(number)] = (arg.arg_number, shape, name)
        self._last = XlaOp(self, arg)
        return self._last

    def import_computation(self, computation: "XlaComputation") -> str:
        """Copies ``computation`` (and what it calls) into this module as private
        functions; returns the name of its copy. Each computation is imported once per
        builder (the builder keeps it alive, so its id cannot be reused)."""
        return import_computation(self._module, computation, self._imported)

    def inline_computation(self, computation: "XlaComputation", block: ir.Block) -> None:
        """Inlines ``computation``'s entry into ``block`` (whose arguments are its
        parameters), ending it with ``stablehlo.return``; its callees are imported.
        (``dialect_ops.tuple_ops.inline_untupled`` returns a tuple result's elements.)"""
        with self._ctx, ir.Location.unknown():
            clone = computation._module.operation.clone()
            try:
                main = adopt_functions(self._module, clone, "main", include_root=False)
                body = main.regions[0].blocks[0]
                ops = list(body.operations)
                with ir.InsertionPoint(block), ops[-1].location:
                    ret = _emit.region_return(list(ops[-1].operands))
                for op in ops[:-1]:
                    op.operation.move_before(ret)
                # ``block`` may have more arguments after the parameters (a while region's
                # leaves, which dialect_ops.control_flow reads).
                for old, new in zip(body.arguments, block.arguments, strict=False):
                    old.replace_all_uses_with(new)
            finally:
                clone.erase()

    # --- build ------------------------------------------------------------------
    def get_program_shape(self, root: XlaOp | None = None) -> ProgramShape:
        root = root or self._last
        ordered = sorted(self._parameters.items())
        return ProgramShape([s for _, (_, s, _) in ordered], root.shape if root else Shape.tuple_shape([]),
                            [n for _, (_, _, n) in ordered])

    def build(self, root: XlaOp | None = None) -> "XlaComputation":
        """Finishes the computation with ``root`` (default: the last op) as its result."""
        if self._built:
            raise InvalidArgumentError(f"XlaBuilder {self.name!r} was already built.", _here())
        root = root if root is not None else self._last
        if root is None:
            raise InvalidArgumentError(
                f"XlaBuilder.build requires at least one op; {self.name!r} is empty.", _here())
        builder_of("XlaBuilder.build", root)
        if root.builder is not self:
            raise InvalidArgumentError(
                f"XlaBuilder.build requires a root from {self.name!r}; got one from {root.builder.name!r}.",
                _here())
        numbers = sorted(self._parameters)
        if numbers != list(range(len(numbers))):
            raise InvalidArgumentError(
                f"XlaBuilder.build requires parameter numbers 0..{len(numbers) - 1}; got {numbers}.",
                _here())
        program_shape = self.get_program_shape(root)
        with self._ctx, ir.Location.name(self.name):
            self._order_arguments()
            with ir.InsertionPoint(self._block), root.value.location:
                _emit.func_return([root.value])
            arg_types = [a.type for a in self._block.arguments]
            self._func.attributes["function_type"] = ir.TypeAttr.get(
                ir.FunctionType.get(arg_types, [root.value.type]))
        self._built = True
        computation = XlaComputation(self._module, program_shape)
        computation.verify()
        return computation

    def _order_arguments(self) -> None:
        """Reorders block arguments to match parameter numbers (they were added in call order)."""
        order = [self._parameters[n][0] for n in sorted(self._parameters)]
        if order == list(range(len(order))):
            return
        old_args = list(self._block.arguments)
        for index in order:
            new = self._block.add_argument(old_args[index].type, old_args[index].location)
            old_args[index].replace_all_uses_with(new)
        for _ in old_args:
            self._block.erase_argument(0)


def Parameter(builder: XlaBuilder, parameter_number: int, shape: Shape, name: str = "") -> XlaOp:
    """Declares input ``parameter_number`` of ``builder``'s computation (spec: Parameter)."""
    return builder.parameter(parameter_number, shape, name)
