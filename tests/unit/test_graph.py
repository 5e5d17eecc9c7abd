"""Pictures of modules (hlo_mlir/graph.py): the MLP and a while loop rendered to SVG by the
layout program of the ``graph`` extra and checked in the SVG and in Graphviz's own layout
(``-Tjson0``: which cluster holds which node); the DOT structure (nodes, def-use edges,
region and function clusters) of modules with every kind of region; ``hlo-opt
--dump-graph`` / ``--dump-graph-dir`` files and names; the errors."""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from iree.compiler import ir

from benchmarks.workloads import while_loop
from hlo_mlir import HloModule, graph, ir_access
from hlo_mlir.context import get_context
from hlo_mlir.demo import build_mlp
from hlo_mlir.errors import HloMlirError, InvalidArgumentError
from hlo_mlir.tools import ExitCode, hlo_opt

SVG = "{http://www.w3.org/2000/svg}"

REGIONS = """
module @regions {
  func.func private @callee(%a: tensor<4xf32>) -> tensor<4xf32> {
    %e = stablehlo.exponential %a : tensor<4xf32>
    return %e : tensor<4xf32>
  }
  func.func @main(%x: tensor<4xf32>, %p: tensor<i1>, %k: tensor<i32>)
      -> (tensor<f32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %sum = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0]
      : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %sorted = "stablehlo.sort"(%x) ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %lt = stablehlo.compare LT, %l, %r, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    }) {dimension = 0 : i64, is_stable = true} : (tensor<4xf32>) -> tensor<4xf32>
    %chosen = "stablehlo.if"(%p) ({
      %n = stablehlo.negate %x : tensor<4xf32>
      stablehlo.return %n : tensor<4xf32>
    }, {
      stablehlo.return %x : tensor<4xf32>
    }) : (tensor<i1>) -> tensor<4xf32>
    %cased = "stablehlo.case"(%k) ({
      stablehlo.return %x : tensor<4xf32>
    }, {
      %c = func.call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
      stablehlo.return %c : tensor<4xf32>
    }) : (tensor<i32>) -> tensor<4xf32>
    return %sum, %sorted, %chosen, %cased : tensor<f32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
}
"""


def parse(text: str) -> ir.Module:
    with get_context():
        return ir.Module.parse(text)


def svg_texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)  # well-formed XML, or this raises
    assert root.tag == f"{SVG}svg"
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def layout(dot: str) -> dict:
    """Graphviz's own reading of our DOT, laid out: clusters with the names of their nodes."""
    j = json.loads(graph.render(dot, "json0"))
    objects = j["objects"]
    return {"objects": objects, "edges": j.get("edges", []),
            "clusters": {o["label"]: {objects[i]["name"] for i in o.get("nodes", [])}
                         for o in objects if o["name"].startswith("cluster_")}}


def node_ids(g: graph.Graph, op: str) -> list[str]:
    return [n.id for n in g.nodes() if n.op == op]


# --- SVG of real modules --------------------------------------------------------------------------
def test_mlp_svg_shows_ops_shapes_names_and_the_building_line(tmp_path):
    line = 1 + __import__("inspect").currentframe().f_lineno
    module = build_mlp().get_hlo_module()
    svg = module.to_svg()
    (tmp_path / "mlp.svg").write_text(svg)
    texts = svg_texts(svg)
    for op in ("dot_general", "broadcast_in_dim", "add", "maximum", "constant", "return"):
        assert op in texts, op
    for shape in ("f32[4,8]", "f32[8,16]", "f32[16]", "f32[4,16]", "f32[16,3]", "f32[4,3]"):
        assert shape in texts, shape
    for i, name in enumerate(["x", "w0", "b0", "w1", "b1"]):
        assert f"Parameter {i}" in texts and name in texts
    assert f"test_graph.py:{line}" in texts  # the source location: the line that built the module
    assert "@main (entry)" in texts and "module @mlp" in texts
    assert texts.count("dot_general") == 2 and texts.count("Parameter 0") == 1
    # the computation draws the same picture as its module (names aside: only modules have them)
    assert svg_texts(build_mlp().to_svg()).count("dot_general") == 2


def test_while_loop_svg_draws_cond_and_body_as_clusters_around_their_ops(tmp_path):
    module = while_loop(True).source.get_hlo_module()
    svg = module.to_svg()
    (tmp_path / "while.svg").write_text(svg)
    texts = svg_texts(svg)
    assert {"while cond", "while body", "while", "compare", "multiply", "s32[]", "f32[16]"} <= set(texts)
    assert "= 10" in " ".join(texts) and "LT" in " ".join(texts)  # the bound and the direction
    root = ET.fromstring(svg)

    def box(group) -> tuple[float, float, float, float]:
        outlines = [s.get("d") or s.get("points") or "" for s in group.iter()
                    if s.tag in (f"{SVG}path", f"{SVG}polygon")]
        points = [(float(x), float(y)) for o in outlines for x, y in re.findall(r"(-?[\d.]+),(-?[\d.]+)", o)]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        return min(xs), min(ys), max(xs), max(ys)

    def labelled(cls: str, text: str):
        return [g for g in root.iter(f"{SVG}g") if g.get("class") == cls
                and any(t.text == text for t in g.iter(f"{SVG}text"))]

    def inside(inner, outer) -> bool:
        return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]

    (body,), (cond,) = labelled("cluster", "while body"), labelled("cluster", "while cond")
    (multiply,), (compare,) = labelled("node", "multiply"), labelled("node", "compare")
    (loop,) = labelled("node", "while")
    assert inside(box(multiply), box(body)) and not inside(box(multiply), box(cond))
    assert inside(box(compare), box(cond)) and not inside(box(compare), box(body))
    assert not inside(box(loop), box(body)) and not inside(box(loop), box(cond))
    # and Graphviz itself puts the body's ops in the body's cluster
    clusters = layout(module.to_dot())["clusters"]
    g = graph.build_graph(module.module)
    [mul_id] = node_ids(g, "stablehlo.multiply")
    assert mul_id in clusters["while body"] and mul_id not in clusters["while cond"]


def test_html_page_is_self_contained_and_embeds_the_svg():
    page = build_mlp().get_hlo_module().to_html()
    assert page.startswith("<!DOCTYPE html>") and "<title>mlp - hlo-mlir graph</title>" in page
    svg = page[page.index("<svg"):page.index("</svg>") + len("</svg>")]
    assert "dot_general" in svg_texts(svg)
    assert not re.search(r"""(src|href)=["']https?:""", page)  # nothing loaded from elsewhere
    assert "wheel" in page and "mousedown" in page  # zoom and pan


# --- the graph's structure ------------------------------------------------------------------------
def test_every_region_kind_and_called_function_is_a_cluster_joined_to_its_op():
    module = parse(REGIONS)
    g = graph.build_graph(module)
    [main] = [c for c in g.clusters if c.label == "@main (entry)"]
    [callee] = [c for c in g.clusters if c.label == "@callee (private)"]
    labels = [c.label for c in main.clusters]
    assert labels == ["reduce reducer", "sort comparator", "if true branch", "if false branch",
                      "case branch 0", "case branch 1"]
    assert [c.kind for c in main.clusters] == ["region"] * 6 and callee.kind == "function"
    by_label = {c.label: c for c in main.clusters}
    assert [n.op for n in by_label["sort comparator"].nodes] == [
        "parameter", "parameter", "stablehlo.compare", "stablehlo.return"]
    assert [n.op for n in by_label["if true branch"].nodes] == ["stablehlo.negate", "stablehlo.return"]
    # each region's terminator joins its op with a dashed edge leaving the region's cluster
    region_edges = {(e.ltail, e.label, e.target) for e in g.edges if e.kind == "region"}
    [sort_id], [if_id] = node_ids(g, "stablehlo.sort"), node_ids(g, "stablehlo.if")
    assert (by_label["sort comparator"].id, "comparator", sort_id) in region_edges
    assert (by_label["if false branch"].id, "false branch", if_id) in region_edges
    assert len(region_edges) == 6
    # a call joins the callee's cluster: from its return to the call
    [call_id] = node_ids(g, "func.call")
    [call_edge] = [e for e in g.edges if e.kind == "call"]
    assert (call_edge.source, call_edge.target, call_edge.ltail, call_edge.label) == (
        callee.root, call_id, callee.id, "@callee")
    [call_node] = [n for n in g.nodes() if n.id == call_id]
    assert call_node.detail == "@callee" and call_node.category == "control"
    # Graphviz reads the same nesting from the DOT text
    clusters = layout(g.to_dot())["clusters"]
    [negate_id], [exp_id] = node_ids(g, "stablehlo.negate"), node_ids(g, "stablehlo.exponential")
    assert negate_id in clusters["if true branch"] and negate_id in clusters["@main (entry)"]
    assert negate_id not in clusters["if false branch"]
    assert exp_id in clusters["@callee (private)"] and exp_id not in clusters["@main (entry)"]


def test_def_use_edges_one_per_operand_with_result_and_operand_numbers():
    module = parse(REGIONS)
    g = graph.build_graph(module)
    operands = 0

    def count(op) -> None:
        nonlocal operands
        operands += len(op.operands)
        for region in op.regions:
            for block in region.blocks:
                for inner in block.operations:
                    count(inner.operation)

    for f in ir_access.functions(module):
        count(f)
    data = [e for e in g.edges if e.kind == "data"]
    assert len(data) == operands  # one edge per use, terminators' included
    ids = {n.id: n for n in g.nodes()}
    [reduce_id] = node_ids(g, "stablehlo.reduce")
    into_reduce = sorted((e.operand, ids[e.source].op, e.tooltip) for e in data if e.target == reduce_id)
    assert into_reduce == [(0, "parameter", "f32[4]"), (1, "stablehlo.constant", "f32[]")]
    # block arguments of a region are its parameters; values from outside cross into it
    [negate_id] = node_ids(g, "stablehlo.negate")
    [(source,)] = [(e.source,) for e in data if e.target == negate_id]
    [main] = [c for c in g.clusters if c.label == "@main (entry)"]
    assert source == main.nodes[0].id and ids[source].title == "Parameter 0"  # main's %x, captured
    assert str(ids[source].location) == "-:7"  # parsed text: the line of %x in it
    assert "line 7</FONT>" in g.to_dot()  # shown as such (MLIR names an unnamed buffer "-")
    dot = g.to_dot()
    assert dot.startswith('digraph "regions" {') and dot.rstrip().endswith("}")
    assert dot.count("subgraph cluster_") == 8  # two functions, six regions
    assert f"{source} -> {negate_id} [" in dot


def test_multi_result_sources_label_their_edges_with_the_result_number():
    g = graph.build_graph(while_loop(True).source.get_hlo_module().module)
    [loop] = node_ids(g, "stablehlo.while")
    labels = sorted(e.label for e in g.edges if e.source == loop and e.kind == "data")
    assert labels == ["#0", "#1"]
    [loop_node] = [n for n in g.nodes() if n.id == loop]
    assert loop_node.shapes == ["s32[]", "f32[16]"] and loop_node.category == "control"


def test_labels_read_constants_locations_and_odd_types_without_printing_ir():
    module = parse("""
func.func @main(%x: tensor<?xf32>, %t: tuple<tensor<2xi32>, tensor<f32>>)
    -> (tensor<complex<f32>>, tensor<2xi1>, tensor<2xi32>, tensor<?xf32>) {
  %c = stablehlo.constant dense<(1.0, 2.0)> : tensor<complex<f32>> loc("k.py":7:3)
  %b = stablehlo.constant dense<true> : tensor<2xi1> loc(callsite("m.py":2:1 at "n.py":9:4))
  %g = stablehlo.get_tuple_element %t[0] : (tuple<tensor<2xi32>, tensor<f32>>) -> tensor<2xi32>
    loc(fused["f.py":5:2, "e.py":1:1])
  %a = stablehlo.abs %x : tensor<?xf32> loc("named"("j.py":3:9))
  return %c, %b, %g, %a : tensor<complex<f32>>, tensor<2xi1>, tensor<2xi32>, tensor<?xf32>
}""")
    all_nodes = graph.build_graph(module).nodes()
    nodes = {n.op: n for n in all_nodes}
    complex_node, bool_node = [n for n in all_nodes if n.op == "stablehlo.constant"]
    assert complex_node.shapes == ["c64[]"] and bool_node.shapes == ["pred[2]"]
    assert complex_node.detail is None and str(complex_node.location) == "k.py:7"  # never read a complex
    assert bool_node.detail == "= true" and str(bool_node.location) == "m.py:2"
    assert nodes["stablehlo.get_tuple_element"].detail == "[0]"
    assert str(nodes["stablehlo.get_tuple_element"].location) == "f.py:5"
    assert nodes["stablehlo.abs"].shapes == ["tensor<?xf32>"]  # no XLA shape: the MLIR type
    assert nodes["stablehlo.abs"].location == ir_access.SourceLocation("j.py", 3, 9)
    [tuple_param] = [n for n in all_nodes if n.title == "Parameter 1"]
    assert tuple_param.shapes == ["(s32[2], f32[])"]
    assert "<B>constant</B> = true" in graph.to_dot(module)


def test_source_location_reads_every_location_kind():
    with get_context():
        file = ir.Location.file("a.py", 3, 4)
        assert ir_access.source_location(file) == ir_access.SourceLocation("a.py", 3, 4)
        assert str(ir_access.source_location(ir.Location.name("x", childLoc=file))) == "a.py:3"
        unknown = ir.Location.unknown()
        assert ir_access.source_location(unknown) is None
        assert str(ir_access.source_location(ir.Location.callsite(unknown, [file]))) == "a.py:3"  # the caller
        assert str(ir_access.source_location(ir.Location.fused([unknown, file]))) == "a.py:3"


def test_escapes_names_that_dot_and_html_would_misread():
    module = parse('module @"we\\"ird<&>" { func.func @main(%x: tensor<f32> loc("<a&b>"("q\\"t.py":1:1))) '
                   '-> tensor<f32> { return %x : tensor<f32> } }')
    dot = graph.to_dot(module)
    assert 'digraph "we\\"ird<&>" {' in dot and "&lt;a&amp;b&gt;" in dot
    texts = svg_texts(graph.to_svg(module))
    assert "<a&b>" in texts and "module @we\"ird<&>" in texts


# --- errors -----------------------------------------------------------------------------------------
def test_missing_layout_program_names_the_extra(monkeypatch, tmp_path):
    monkeypatch.setattr(graph, "_LAYOUT_PROGRAMS", ("no-such-layout-program",))
    module = build_mlp().get_hlo_module()
    with pytest.raises(graph.LayoutToolError, match=r"pip install 'hlo-mlir\[graph\]' \(graphviz-pure\)"):
        module.to_svg()
    assert isinstance(graph.LayoutToolError("x"), ImportError)
    assert module.to_dot().startswith('digraph "mlp"')  # DOT needs no layout program
    source = tmp_path / "in.mlir"
    source.write_text(module.to_text())
    for ext, code in ((".svg", ExitCode.USAGE), (".html", ExitCode.USAGE), (".dot", ExitCode.OK)):
        argv = [str(source), "--dump-graph", str(tmp_path / f"g{ext}"), "-o", os.devnull]
        assert hlo_opt.main(argv) == code, ext
    assert not (tmp_path / "g.svg").exists() and not (tmp_path / "g.html").exists()
    assert (tmp_path / "g.dot").read_text().startswith('digraph "mlp"')


def test_layout_failure_crash_and_bad_file_names_are_errors(tmp_path, monkeypatch):
    with pytest.raises(HloMlirError, match=r"requires .*graphviz-pure -Tsvg to succeed; got exit status 1"):
        graph.render("digraph { a -> ", "svg")
    crashing = tmp_path / "crashing-dot"
    crashing.write_text("#!/bin/sh\nkill -SEGV $$\n")
    crashing.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(graph, "_LAYOUT_PROGRAMS", ("crashing-dot",))
    with pytest.raises(HloMlirError, match=r"crashing-dot -Tsvg to succeed; got signal SIGSEGV"):
        build_mlp().to_svg()  # a crash of the layout program is an error, not ours
    with pytest.raises(InvalidArgumentError, match=r"write_graph requires a file name ending in .dot, .svg, "
                                                   r".html; got '.*g.png'"):
        build_mlp().write_graph(tmp_path / "g.png")


# --- hlo-opt --dump-graph, --dump-graph-dir ---------------------------------------------------------
@pytest.fixture
def mlp_file(tmp_path):
    path = tmp_path / "mlp.mlir"
    path.write_text(build_mlp().as_text(debug_info=True))
    return path


@pytest.mark.parametrize("ext", [".dot", ".svg", ".html"])
def test_hlo_opt_dump_graph_writes_the_optimized_module(mlp_file, tmp_path, ext):
    out = tmp_path / f"g{ext}"
    assert hlo_opt.main([str(mlp_file), "-p", "algsimp,dce", "--dump-graph", str(out), "-o", os.devnull]) == 0
    text = out.read_text()
    if ext == ".dot":
        assert text.startswith('digraph "mlp" {') and "<B>dot_general</B>" in text
    else:
        svg = text[text.index("<svg"):text.index("</svg>") + len("</svg>")]
        assert svg_texts(svg).count("dot_general") == 2
        assert text.startswith("<!DOCTYPE html>") == (ext == ".html")


def test_hlo_opt_dump_graph_dir_names_files_like_xla_per_pass(mlp_file, tmp_path):
    out = tmp_path / "dumps"
    argv = [str(mlp_file), "-p", "algsimp,cse,dce", "--dump-graph-dir", str(out), "--dump-graph-format=dot"]
    assert hlo_opt.main([*argv, "-o", os.devnull]) == 0
    assert sorted(os.listdir(out)) == [
        "module_0000.mlp.0000.hlo-opt.after_pipeline-start.before_algsimp.dot",
        "module_0000.mlp.0001.hlo-opt.after_algsimp.before_cse.dot",
        "module_0000.mlp.0002.hlo-opt.after_cse.before_dce.dot",
        "module_0000.mlp.0003.hlo-opt.after_dce.before_pipeline-end.dot",
    ]
    first = (out / "module_0000.mlp.0000.hlo-opt.after_pipeline-start.before_algsimp.dot").read_text()
    assert first.count("<B>dot_general</B>") == 2


def test_hlo_opt_dump_graph_dir_numbers_split_modules_and_draws_svg(tmp_path):
    source = tmp_path / "two.mlir"
    source.write_text("module @first { func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
                      "  %y = stablehlo.negate %x : tensor<2xf32>\n"
                      "  return %y : tensor<2xf32> } }\n// -----\n"
                      "func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> { return %x : tensor<2xf32> }\n")
    out = tmp_path / "dumps"
    assert hlo_opt.main([str(source), "--split-input-file", "-p", "dce", "--dump-graph-dir", str(out),
                         "-o", os.devnull]) == 0
    names = sorted(os.listdir(out))
    assert names == ["module_0000.first.0000.hlo-opt.after_pipeline-start.before_dce.svg",
                     "module_0000.first.0001.hlo-opt.after_dce.before_pipeline-end.svg",
                     "module_0001.module.0000.hlo-opt.after_pipeline-start.before_dce.svg",
                     "module_0001.module.0001.hlo-opt.after_dce.before_pipeline-end.svg"]
    assert "negate" in svg_texts((out / names[0]).read_text())


def test_hlo_opt_graph_flag_usage_errors(mlp_file, tmp_path, capsys):
    cases = [
        (["--dump-graph", str(tmp_path / "g.png")],
         r"--dump-graph requires a file name ending in .dot, .svg, \.html; got '.*g\.png'\."),
        (["--split-input-file", "--dump-graph", str(tmp_path / "g.svg")],
         r"--dump-graph requires one module; got --split-input-file"),
        (["--dump-graph-format", "png"], r"invalid choice: 'png'"),
    ]
    for extra, message in cases:
        assert hlo_opt.main([str(mlp_file), *extra, "-o", os.devnull]) == ExitCode.USAGE
        assert re.search(message, capsys.readouterr().err), extra
    assert not (tmp_path / "g.svg").exists()


def test_array_constants_show_no_value_and_large_graphs_stay_fast():
    values = np.arange(6, dtype=np.float32).reshape(2, 3)
    module = HloModule.parse(f"""func.func @main() -> tensor<2x3xf32> {{
  %c = stablehlo.constant dense<{values.tolist()}> : tensor<2x3xf32>
  return %c : tensor<2x3xf32>
}}""")
    [const] = [n for n in graph.build_graph(module.module).nodes() if n.op == "stablehlo.constant"]
    assert const.detail is None and const.shapes == ["f32[2,3]"]

    def negate_chain(n: int) -> ir.Module:
        chain = "\n".join(f"  %v{i + 1} = stablehlo.negate %v{i} : tensor<4xf32>" for i in range(n))
        return parse(f"func.func @main(%v0: tensor<4xf32>) -> tensor<4xf32> {{\n{chain}\n"
                     f"  return %v{n} : tensor<4xf32>\n}}")

    assert svg_texts(graph.to_svg(negate_chain(400))).count("negate") == 400
    assert "nslimit" not in graph.to_dot(negate_chain(400))
    # past 1,000 and 3,000 boxes, dot spends less effort on crossings (seconds, not minutes)
    assert "  nslimit=1; nslimit1=1; mclimit=0.1;\n" in graph.to_dot(negate_chain(1100))
    assert "  nslimit=0.2; nslimit1=0.2; mclimit=0.05; searchsize=10;\n" in graph.to_dot(negate_chain(3100))
