"""HloModule structure API (spec 004, "XLA Structure"): computations, instruction counts,
adding/removing/replacing computations, clone, unique names, schedule, round trips."""

import numpy as np
import pytest

import hlo_mlir
from hlo_mlir import Parameter, Shape, XlaBuilder
from hlo_mlir.errors import InvalidArgumentError, ParseError, VerificationError
from hlo_mlir.module import HloComputation, HloModule

# main(x) = (square(double(x)), sum(square(double(x)))); @unused -> @unused_helper is dead code.
CALLS = """
module @calls {
  func.func private @double(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32> loc("jit(f)/dbl")
    return %0 : tensor<4xf32>
  }
  func.func private @square(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @unused_helper(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.negate %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @unused(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = call @unused_helper(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>) {
    %0 = call @double(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    %1 = call @square(%0) : (tensor<4xf32>) -> tensor<4xf32>
    %c = stablehlo.constant dense<0.0> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %c) applies stablehlo.add across dimensions = [0]
        : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    return %1, %2 : tensor<4xf32>, tensor<f32>
  }
}
"""

# A second entry candidate with main's signature.
OTHER_MAIN = """
  func.func private @main2(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>) {
    %c = stablehlo.constant dense<1.0> : tensor<f32>
    return %arg0, %c : tensor<4xf32>, tensor<f32>
  }
}
"""

X = np.array([1.0, -2.0, 3.0, 0.5], np.float32)


def axpy(name="axpy", scale=2.0):
    b = XlaBuilder(name)
    x = Parameter(b, 0, Shape.parse("f32[4]"), "x")
    return b.build(x * scale + 1.0)


def scaled(name, scale):
    b = XlaBuilder(name)
    return b.build(Parameter(b, 0, Shape.parse("f32[4]"), "x") * scale)


def calls():
    return HloModule.parse(CALLS)


def names(computations):
    return [c.name for c in computations]


def run(module, *args):
    return hlo_mlir.runtime.load(hlo_mlir.compile(module), "local-sync").main(*args)


def check_main(module, scale):
    """Compiles and runs CALLS' main, whose @double now scales by ``scale``."""
    squares, total = run(module, X)
    expected = (scale * X) ** 2
    np.testing.assert_allclose(squares, expected, rtol=1e-6)
    np.testing.assert_allclose(total, expected.sum(), rtol=1e-6)


def named(text, opcode, name):
    """``text`` with ``name`` as the hlo.name of its stablehlo.<opcode> of %arg0 and %arg0."""
    op = f"stablehlo.{opcode} %arg0, %arg0"
    return text.replace(f"{op} :", f'{op} {{hlo.name = "{name}"}} :')


def instruction(computation, opcode):
    return next(i for i in computation.instructions() if i.opcode == opcode)


# --- construction -------------------------------------------------------------------------
def test_from_computation_is_a_deep_copy():
    computation = axpy()
    before = computation.as_text()
    module = HloModule.from_computation(computation)
    assert module.name == "axpy"
    assert module.instruction_count() == 6  # 2 x (constant, broadcast_in_dim), multiply, add
    module.name = "changed"
    module.add_embedded_computation(scaled("triple", 3.0))
    assert computation.as_text() == before
    assert computation.get_hlo_module().to_text() != module.to_text()
    assert computation.get_hlo_module().computation_count() == 1


def test_from_computation_rejects_other_types():
    with pytest.raises(InvalidArgumentError, match="from_computation requires an XlaComputation; got str"):
        HloModule.from_computation(CALLS)


def test_parse_errors():
    with pytest.raises(ParseError, match="could not parse MLIR input"):
        HloModule.parse("module { func.func @main( }")
    with pytest.raises(ParseError, match="requires MLIR text or bytecode; got int"):
        HloModule.parse(3)
    no_entry = CALLS.replace("func.func @main", "func.func private @main")
    with pytest.raises(InvalidArgumentError,
                       match=r"requires an entry computation .*; got public functions \[\]"):
        HloModule.parse(no_entry)


def test_text_and_bytecode_round_trip():
    module = calls()
    text = module.to_text()
    assert str(module) == text
    assert HloModule.parse(text).to_text() == text
    assert HloModule.parse(module.to_bytecode()).to_text() == text
    assert "module @calls" in text and 'hlo.name = "dbl"' in text


def test_verify_reports_diagnostics():
    module = calls()
    module.verify()
    module.module.body.operations[0].erase()  # @double, still called by @main: bypasses the API
    with pytest.raises(VerificationError, match="failed verification") as info:
        module.verify()
    assert any("double" in d for d in info.value.diagnostics)


def test_name():
    module = calls()
    module.set_name("renamed")
    assert module.name == "renamed" and "module @renamed" in module.to_text()
    with pytest.raises(InvalidArgumentError, match="requires a non-empty string; got ''"):
        module.name = ""


# --- computations --------------------------------------------------------------------------
def test_entry_and_embedded_computations():
    module = calls()
    assert module.has_entry_computation()
    entry = module.entry_computation
    assert entry.name == "main" and entry.is_entry and not entry.is_nested
    assert names(module.computations()) == ["double", "square", "unused_helper", "unused", "main"]
    assert names(module.embedded_computations()) == ["double", "square", "unused_helper", "unused"]
    assert module.computation_count() == 5
    assert module.get_computation_with_name("square") == module.computations()[1]
    assert module.get_computation_with_name("nope") is None
    assert str(module.result_shape()) == "(f32[4], f32[])"
    assert str(module.get_computation_with_name("double").program_shape()) == "(p0: f32[4]) -> f32[4]"


def test_builder_module_has_one_entry():
    module = axpy().get_hlo_module()
    assert names(module.computations()) == ["main"]
    assert module.embedded_computations() == []
    assert str(module.result_shape()) == "f32[4]"


def test_nested_computations_are_regions_of_instructions():
    module = calls()
    reduce = instruction(module.entry_computation, "stablehlo.reduce")
    [region] = reduce.nested_computations()
    assert region.is_nested and region.owner == reduce and not region.is_entry
    assert region.name == f"{reduce.name}.0"
    assert [i.opcode for i in region.instructions()] == ["stablehlo.add"]
    assert str(region.program_shape()) == "(p0: f32[], p1: f32[]) -> f32[]"
    assert module.nested_computations() == [region]
    assert module.entry_computation.nested_computations() == [region]
    assert region not in module.computations()


def test_instruction_counts():
    module = calls()
    counts = {c.name: c.instruction_count() for c in module.computations()}
    # main: call, call, constant, reduce (the reducer's add belongs to the nested computation).
    assert counts == {"double": 1, "square": 1, "unused_helper": 1, "unused": 1, "main": 4}
    assert module.nested_computations()[0].instruction_count() == 1
    assert module.instruction_count() == 4 + 4 + 1  # terminators and parameters never count


def test_instruction_views():
    module = calls()
    entry = module.entry_computation
    first_call = entry.instructions()[0]
    assert first_call.opcode == "func.call" and str(first_call.shape) == "f32[4]"
    assert names(first_call.called_computations()) == ["double"]
    assert names(entry.called_computations()) == ["double", "square"]
    assert entry.root_instruction() is None  # two results
    square = module.get_computation_with_name("square")
    assert square.root_instruction().opcode == "stablehlo.multiply"


def test_post_order_puts_callees_first():
    order = names(calls().make_computation_post_order())
    assert order.index("double") < order.index("main") and order.index("square") < order.index("main")
    assert order.index("unused_helper") < order.index("unused")
    assert sorted(order) == sorted(names(calls().computations()))


# --- adding computations --------------------------------------------------------------------
def test_add_embedded_computation_from_builder():
    module = calls()
    added = module.add_embedded_computation(axpy())
    again = module.add_embedded_computation(axpy())
    assert (added.name, again.name) == ("axpy", "axpy_1")
    assert not added.is_entry and added.instruction_count() == 6
    assert module.computation_count() == 7
    assert "func.func private @axpy(" in module.to_text()
    module.verify()
    module.verify_unique_names()


def test_add_embedded_computation_renames_colliding_callees():
    module = calls()
    other = calls()
    added = module.add_embedded_computation(other)
    # The other module's entry is named after that module; its callees collide and get _1.
    assert added.name == "calls"
    assert names(added.called_computations()) == ["double_1", "square_1"]
    assert "unused_1" not in names(module.computations())  # only what the copied entry reaches
    assert names(module.get_computation_with_name("main").called_computations()) == ["double", "square"]
    # Instruction names stay unique: the originals keep theirs, the copies get new ones.
    assert instruction(module.get_computation_with_name("double"), "stablehlo.add").name == "dbl"
    assert instruction(module.get_computation_with_name("double_1"), "stablehlo.add").name == "dbl.1"
    module.verify()
    module.verify_unique_names()
    assert other.computation_count() == 5


def test_deep_clone_computation_copies_callees():
    module = calls()
    copy = module.deep_clone_computation(module.get_computation_with_name("unused"))
    assert copy.name == "unused_1"
    assert names(copy.called_computations()) == ["unused_helper_1"]
    module.verify()


def test_add_embedded_computation_errors():
    module = calls()
    with pytest.raises(InvalidArgumentError, match="requires an XlaComputation, an HloModule or a function"):
        module.add_embedded_computation("double")
    with pytest.raises(InvalidArgumentError, match="requires an XlaComputation, an HloModule or a function"):
        module.add_embedded_computation(module.nested_computations()[0])


# --- removing computations ------------------------------------------------------------------
def test_remove_computation():
    module = calls()
    module.remove_computation("unused")
    module.remove_computation(module.get_computation_with_name("unused_helper"))
    assert names(module.computations()) == ["double", "square", "main"]
    module.verify()


@pytest.mark.parametrize("target, message", [
    ("main", "requires an embedded computation; got 'main', the entry computation of module 'calls'"),
    ("double", "requires a computation nothing calls; got 'double', still called by 'main'"),
    ("unused_helper", "requires a computation nothing calls; got 'unused_helper', still called by 'unused'"),
    ("nope", r"requires a computation of module 'calls'; got 'nope' \(computations: double, square, "
             r"unused_helper, unused, main\)"),
])
def test_remove_computation_refusals(target, message):
    module = calls()
    with pytest.raises(InvalidArgumentError, match="remove_computation " + message):
        module.remove_computation(target)
    assert module.computation_count() == 5


def test_remove_computation_rejects_foreign_computations():
    module = calls()
    with pytest.raises(InvalidArgumentError, match="got a computation of another module 'unused'"):
        module.remove_computation(calls().get_computation_with_name("unused"))


def test_remove_unused_computations_then_compile_and_run():
    module = calls()
    assert module.remove_unused_computations() == ["unused_helper", "unused"]
    assert names(module.computations()) == ["double", "square", "main"]
    assert module.remove_unused_computations() == []
    module.verify()
    check_main(module, scale=2.0)


# --- replacing computations -----------------------------------------------------------------
def test_replace_computations_redirects_calls_and_runs():
    module = calls()
    triple = module.add_embedded_computation(scaled("triple", 3.0))
    module.replace_computations({"double": triple})
    assert "double" not in names(module.computations())
    assert names(module.entry_computation.called_computations()) == ["triple", "square"]
    module.verify()
    check_main(module, scale=3.0)


def test_replace_computations_of_the_entry():
    module = HloModule.parse(CALLS.rstrip().rstrip("}") + OTHER_MAIN)
    module.replace_computations({"main": "main2"})
    entry = module.entry_computation
    assert entry.name == "main" and [i.opcode for i in entry.instructions()] == ["stablehlo.constant"]
    assert "main2" not in names(module.computations()) and "main_1" not in names(module.computations())
    assert module.remove_unused_computations() == ["double", "square", "unused_helper", "unused"]
    module.verify()


def test_replace_computations_errors():
    module = calls()
    module.add_embedded_computation(scaled("triple", 3.0))
    with pytest.raises(InvalidArgumentError, match=r"requires a replacement with the same signature; "
                       r"got 'double': \(tensor<4xf32>\) -> tensor<4xf32> and 'main'"):
        module.replace_computations({"double": "main"})
    with pytest.raises(InvalidArgumentError, match="requires replacements that are not replaced themselves; "
                                                   "got 'square' as both a key and a value"):
        module.replace_computations({"double": "square", "square": "triple"})
    with pytest.raises(InvalidArgumentError, match="replace_computations requires a computation of module "
                                                   "'calls'; got 'nope'"):
        module.replace_computations({"nope": "triple"})
    assert module.computation_count() == 6


def test_replace_entry_computation():
    module = HloModule.parse(CALLS.rstrip().rstrip("}") + OTHER_MAIN)
    module.replace_entry_computation("main2")
    assert module.entry_computation.instructions()[0].opcode == "stablehlo.constant"
    old = module.get_computation_with_name("main_1")
    assert not old.is_entry and "func.func private @main_1(" in module.to_text()
    assert "main2" not in names(module.computations())
    module.verify()


# --- clone ------------------------------------------------------------------------------------
def test_clone_is_deep_and_independent():
    module = calls()
    copy = module.clone()
    assert copy.name == "calls-clone" and module.clone("").name == "calls"
    assert names(copy.computations()) == names(module.computations())
    assert copy.to_text().replace('@"calls-clone"', "@calls") == module.to_text()
    copy.remove_unused_computations()
    copy.entry_computation.instructions()[2].operation.attributes["hlo.name"] = \
        module.entry_computation.instructions()[0].operation.attributes["hlo.name"]
    assert module.computation_count() == 5 and copy.computation_count() == 3
    module.verify_unique_names()
    with pytest.raises(InvalidArgumentError, match="verify_unique_names"):
        copy.verify_unique_names()


# --- unique names -----------------------------------------------------------------------------
def test_new_modules_name_every_instruction():
    module = axpy().get_hlo_module()
    assert [i.name for i in module.entry_computation.instructions()] == [
        "constant", "broadcast_in_dim", "multiply", "constant.1", "broadcast_in_dim.1", "add"]
    module.verify_unique_names()
    parsed = calls()
    assert instruction(parsed.get_computation_with_name("double"), "stablehlo.add").name == "dbl"  # NameLoc
    parsed.verify_unique_names()


def test_duplicate_names_are_reported_then_uniquified():
    text = named(named(CALLS, "multiply", "twin"), "add", "twin")
    module = HloModule.parse(text)  # parsing names the unnamed, never renames
    with pytest.raises(InvalidArgumentError, match=r"verify_unique_names requires unique names in module "
                                                   r"'calls'; got instruction name 'twin' 2 times\."):
        module.verify_unique_names()
    module.uniquify_names()
    module.verify_unique_names()
    assert instruction(module.get_computation_with_name("double"), "stablehlo.add").name == "twin"
    assert instruction(module.get_computation_with_name("square"), "stablehlo.multiply").name == "twin.1"


def test_explicit_names_win_over_derived_ones():
    text = named(CALLS, "multiply", "dbl")
    module = HloModule.parse(text)
    assert instruction(module.get_computation_with_name("square"), "stablehlo.multiply").name == "dbl"
    assert instruction(module.get_computation_with_name("double"), "stablehlo.add").name == "dbl.1"
    module.verify_unique_names()


def test_unnamed_instructions_are_reported_then_named():
    module = calls()
    square = instruction(module.get_computation_with_name("square"), "stablehlo.multiply")
    del square.operation.attributes["hlo.name"]  # as a pass creating a new op would leave it
    assert square.name is None
    with pytest.raises(InvalidArgumentError, match=r"got 1 unnamed instruction\(s\) \(first: "
                       r"stablehlo.multiply in 'square'; uniquify_names\(\) names them\)"):
        module.verify_unique_names()
    module.uniquify_names()
    assert square.name == "multiply"
    module.verify_unique_names()


# --- schedule ---------------------------------------------------------------------------------
def program_order(module):
    return {c.name: [i.name for i in c.instructions()] for c in module.computations()}


def test_schedule_set_read_clear_and_round_trip():
    module = calls()
    assert not module.has_schedule()
    with pytest.raises(InvalidArgumentError,
                       match="schedule requires a module with a schedule; module 'calls'"):
        module.schedule()
    order = program_order(module)
    call_double, call_square, constant, reduce = order["main"]
    order["main"] = [constant, call_double, call_square, reduce]  # another valid order
    module.set_schedule(order)
    assert module.has_schedule() and module.schedule() == order
    module.verify_schedule()
    assert HloModule.parse(module.to_text()).schedule() == order
    assert HloModule.parse(module.to_bytecode()).schedule() == order
    assert module.clone().schedule() == order
    module.clear_schedule()
    assert not module.has_schedule()
    assert "hlo.schedule" not in module.to_text()


def test_schedule_accepts_views():
    module = calls()
    module.set_schedule({c: c.instructions() for c in module.computations()})
    assert module.schedule() == program_order(module)


def test_schedule_follows_removals_and_goes_stale_on_additions():
    module = calls()
    module.set_schedule(program_order(module))
    module.remove_unused_computations()
    assert sorted(module.schedule()) == ["double", "main", "square"]
    module.verify_schedule()
    module.add_embedded_computation(axpy())
    with pytest.raises(InvalidArgumentError,
                       match="verify_schedule requires a sequence for every computation; "
                             "got none for 'axpy'"):
        module.verify_schedule()


def test_schedule_follows_a_new_entry():
    module = HloModule.parse(CALLS.rstrip().rstrip("}") + OTHER_MAIN)
    order = program_order(module)
    module.set_schedule(order)
    module.replace_entry_computation("main2")
    assert module.schedule()["main"] == order["main2"]
    assert module.schedule()["main_1"] == order["main"]
    module.verify_schedule()


def _swap_main(order):
    call_double, call_square, constant, reduce = order["main"]
    order["main"] = [call_square, call_double, constant, reduce]


def _nested_name(module):
    return module.nested_computations()[0].instructions()[0].name


@pytest.mark.parametrize("edit, message", [
    (lambda o, m: o.pop("square"), "requires a sequence for every computation; got none for 'square'"),
    (lambda o, m: o.update(extra=[]), r"requires sequences for computations of module 'calls'; got unknown "
                                      r"computation\(s\) 'extra' \(computations: double, square"),
    (lambda o, m: o["main"].pop(2),
     r"requires every instruction of 'main' in its sequence; got 'constant' missing"),
    (lambda o, m: o["main"].append(_nested_name(m)),
     r"requires instructions of computation 'main' \(not of nested regions\); got 'add'"),
    (lambda o, m: o["main"].append("constant"),
     "requires each instruction once per sequence; got 'constant' 2 times"),
    (lambda o, m: _swap_main(o),
     "requires a dependency-respecting order; got 'call.2' before its operand 'call.1'"),
    (lambda o, m: o.update(main="constant"),
     "requires a sequence of instructions per computation; got 'constant'"),
])
def test_set_schedule_refusals(edit, message):
    module = calls()
    order = program_order(module)
    edit(order, module)
    with pytest.raises(InvalidArgumentError, match="set_schedule " + message):
        module.set_schedule(order)
    assert not module.has_schedule()


def test_set_schedule_requires_unique_names():
    module = calls()
    order = program_order(module)
    del module.entry_computation.instructions()[0].operation.attributes["hlo.name"]
    with pytest.raises(InvalidArgumentError, match="unnamed instruction"):
        module.set_schedule(order)


def test_repr():
    assert repr(calls()) == "HloModule('calls', 5 computations, 9 instructions)"
    assert repr(calls().entry_computation) == "HloComputation('main', entry, 4 instructions)"
    assert isinstance(calls().entry_computation, HloComputation)


def test_builder_module_with_call_and_reduce_compiles_after_cleanup():
    from hlo_mlir import Add, Call, ConstantR0, Reduce

    f32 = Shape.parse("f32[]")
    rb = XlaBuilder("sum")
    reducer = rb.build(Add(Parameter(rb, 0, f32), Parameter(rb, 1, f32)))
    b = XlaBuilder("program")
    x = Parameter(b, 0, Shape.parse("f32[4]"), "x")
    doubled = Call(b, scaled("double", 2.0), [x])
    computation = b.build(Reduce(doubled, ConstantR0(b, np.float32(0)), reducer, [0]))

    module = computation.get_hlo_module()
    assert names(module.embedded_computations()) == ["double"]
    [region] = module.nested_computations()
    assert region.owner.opcode == "stablehlo.reduce" and region.instruction_count() == 1
    dead = module.add_embedded_computation(axpy())
    assert module.computation_count() == 3
    with pytest.raises(InvalidArgumentError, match="still called by 'main'"):
        module.remove_computation("double")
    assert module.remove_unused_computations() == [dead.name]
    module.verify_unique_names()
    np.testing.assert_allclose(run(module, X), (2 * X).sum(), rtol=1e-6)
