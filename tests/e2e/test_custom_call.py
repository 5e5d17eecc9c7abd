"""End to end: CustomCall and the registry of call targets (custom-call-expander).

A registered target runs as its expansion; results are compared with numpy only: XLA CPU
has no function for these targets ("custom call target not found"), so it cannot be a
reference here. An unregistered target fails to compile with a CompileError naming it
and the registered targets.
"""

import numpy as np
import pytest

import hlo_mlir as hm
from hlo_mlir import (
    Add,
    CompileError,
    CustomCall,
    CustomCallApiVersion,
    Exp,
    GetTupleElement,
    InvalidArgumentError,
    Log1p,
    Max,
    Min,
    Parameter,
    Shape,
    ShapeError,
    Tuple,
    XlaBuilder,
)
from pipelines.pass_base import PassError
from tests.oracle import assert_close, run_iree

X = np.array([-3.0, -0.5, 0.0, 2.0, 40.0], np.float32)


@pytest.fixture
def targets():
    """Registers targets for one test and forgets them after it."""
    names = []

    def register(name, expansion, **kwargs):
        hm.register_custom_call_target(name, expansion, **kwargs)
        names.append(name)

    yield register
    for name in names:
        hm.unregister_custom_call_target(name)


def _softplus(builder, operands, opaque):
    return Log1p(Exp(operands[0]))


def _min_max() -> hm.XlaComputation:
    b = XlaBuilder("min_max")
    x, y = (Parameter(b, i, Shape.parse("f32[5]")) for i in range(2))
    return b.build(Tuple(b, [Min(x, y), Max(x, y)]))


def test_function_target_runs_for_every_dtype_it_is_called_with(targets):
    targets("test_softplus", _softplus)
    b = XlaBuilder("softplus")
    x32 = Parameter(b, 0, Shape.parse("f32[5]"))
    x64 = Parameter(b, 1, Shape.parse("f64[2,2]"))
    s32 = CustomCall(b, "test_softplus", [x32], Shape.parse("f32[5]"))
    s64 = CustomCall(b, "test_softplus", [x64], Shape.parse("f64[2,2]"), has_side_effect=True)
    again = CustomCall(b, "test_softplus", [x32 * 2.0], Shape.parse("f32[5]"))
    comp = b.build(Tuple(b, [s32, s64, again]))
    y = np.array([[0.5, -1.0], [3.0, -20.0]])
    expected = (np.log1p(np.exp(X)), np.log1p(np.exp(y)), np.log1p(np.exp(2 * X)))
    assert_close(run_iree(comp, X, y), expected, 1e-6, 1e-7, "hlo-mlir vs numpy")


def test_computation_target_with_a_tuple_result(targets):
    targets("test_min_max", _min_max())
    b = XlaBuilder("min_max_call")
    x, y = (Parameter(b, i, Shape.parse("f32[5]")) for i in range(2))
    pair = CustomCall(b, "test_min_max", [x, y], Shape.parse("(f32[5], f32[5])"))
    comp = b.build(GetTupleElement(pair, 1) - GetTupleElement(pair, 0))
    y0 = X[::-1].copy()
    assert_close(run_iree(comp, X, y0), np.abs(X - y0), 0, 0, "hlo-mlir vs numpy")


def test_opaque_reaches_the_expansion(targets):
    targets("test_scale", lambda b, ops, opaque: ops[0] * float(opaque))
    b = XlaBuilder("scale")
    x = Parameter(b, 0, Shape.parse("f32[5]"))
    comp = b.build(Add(CustomCall(b, "test_scale", [x], Shape.parse("f32[5]"), opaque="3"),
                       CustomCall(b, "test_scale", [x], Shape.parse("f32[5]"), opaque="-0.5")))
    assert_close(run_iree(comp, X), X * 2.5, 1e-6, 0, "hlo-mlir vs numpy")


def test_sharding_target_is_the_identity_on_one_device():
    """JAX marks sharding constraints with @Sharding; hlo-mlir registers it as the identity."""
    text = """func.func @main(%x: tensor<5xf32>) -> tensor<5xf32> {
      %y = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = "{replicated}"}
        : (tensor<5xf32>) -> tensor<5xf32>
      %z = stablehlo.add %y, %y : tensor<5xf32>
      return %z : tensor<5xf32>
    }"""
    assert "Sharding" in hm.registered_custom_call_targets()
    out = hm.runtime.load(hm.compile(text)).main(X)
    assert_close(out, X * 2, 0, 0, "hlo-mlir vs numpy")


def _unregistered_call() -> hm.XlaComputation:
    b = XlaBuilder("unknown")
    x = Parameter(b, 0, Shape.parse("f32[5]"))
    return b.build(CustomCall(b, "no_such_target", [x], Shape.parse("f32[5]")))


def test_unregistered_target_fails_naming_it_and_the_registered_ones(targets):
    targets("test_softplus", _softplus)
    comp = _unregistered_call()
    with pytest.raises(CompileError, match=r"CustomCall target 'no_such_target' is not registered, and IREE "
                                           r"has no custom-call functions; registered targets: Sharding, "
                                           r"test_softplus\."):
        hm.compile(comp)


def test_expansion_with_the_wrong_signature_fails(targets):
    targets("test_wrong", lambda b, ops, opaque: ops[0] * 2.0)
    b = XlaBuilder("wrong")
    x = Parameter(b, 0, Shape.parse("f32[5]"))
    comp = b.build(CustomCall(b, "test_wrong", [x], Shape.parse("s32[5]")))
    with pytest.raises(PassError, match=r"pass 'custom-call-expander' failed: .*CustomCall target "
                                        r"'test_wrong' "
                                        r"requires an expansion returning the call's shape s32\[5\]; got one "
                                        r"returning f32\[5\]\."):
        hm.compile(comp)
    targets("test_min_max", _min_max())
    b = XlaBuilder("wrong_arity")
    x = Parameter(b, 0, Shape.parse("f32[5]"))
    comp = b.build(CustomCall(b, "test_min_max", [x], Shape.parse("(f32[5], f32[5])")))
    with pytest.raises(PassError, match=r"requires an expansion taking the call's operands \(f32\[5\]\); "
                                        r"got one "
                                        r"taking \(f32\[5\], f32\[5\]\)\."):
        hm.compile(comp)


def test_registry_errors(targets):
    targets("test_once", _softplus)
    with pytest.raises(InvalidArgumentError,
                       match=r"target 'test_once' is already registered \(pass replace=True"):
        hm.register_custom_call_target("test_once", _softplus)
    hm.register_custom_call_target("test_once", _min_max(), replace=True)
    with pytest.raises(InvalidArgumentError,
                       match=r"requires an XlaComputation, a function .* or a HostFunction; got int\."):
        hm.register_custom_call_target("test_int", 3)
    with pytest.raises(InvalidArgumentError, match=r"requires a non-empty name; got ''\."):
        hm.register_custom_call_target("", _softplus)


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(call_target_name=""), InvalidArgumentError,
     r"CustomCall requires a non-empty call_target_name; got ''\."),
    (dict(shape=Shape.parse("(f32[5], (s32[]))")), ShapeError,
     r"CustomCall requires an array, a token or a tuple of them for shape; got \(f32\[5\], \(s32\[\]\)\)\."),
    (dict(operand_shapes_with_layout=[Shape.parse("f32[4]")]), ShapeError,
     r"CustomCall requires operand_shapes_with_layout\[0\] to match operand 0; got f32\[4\] for f32\[5\]\."),
    (dict(operand_shapes_with_layout=[]), InvalidArgumentError,
     r"CustomCall requires one operand shape with layout per operand; got 0 for 1 operands\."),
    (dict(api_version=9), InvalidArgumentError,
     r"CustomCall requires an api_version in \['API_VERSION_UNSPECIFIED'"),
    (dict(api_version=CustomCallApiVersion.API_VERSION_TYPED_FFI, opaque="k=1"), InvalidArgumentError,
     r"CustomCall with API_VERSION_TYPED_FFI requires opaque to be an MLIR dictionary .* got 'k=1'\."),
])
def test_builder_errors(kwargs, error, message):
    b = XlaBuilder("errors")
    x = Parameter(b, 0, Shape.parse("f32[5]"))
    args = dict(call_target_name="t", shape=Shape.parse("f32[5]")) | kwargs
    with pytest.raises(error, match=message) as info:
        CustomCall(b, args.pop("call_target_name"), [x], args.pop("shape"), **args)
    assert "test_custom_call.py" in str(info.value)
