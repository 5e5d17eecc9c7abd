"""Pictures of a module: Graphviz DOT, SVG and a self-contained HTML page (XLA's
``--xla_dump_hlo_as_dot`` and ``--xla_dump_hlo_as_html``).

``HloModule.to_dot()``/``to_svg()``/``to_html()``, the same methods of ``XlaComputation``
and ``hlo-opt --dump-graph=FILE`` / ``--dump-graph-dir=DIR`` draw through here:

- a node per operation: the op name in bold (``add``; ops of other dialects keep their
  prefix, ``func.call``), its instruction name (``hlo.name``) when it has one, the result
  shape(s) in XLA's notation (``f32[4,16]``), and the source location (``mlp.py:12``);
  a comparison shows its direction, a splat constant its value, a tuple element its index,
  a custom call its target, a call its callee;
- a node per parameter (a block argument, with its name location's name: ``x``) and per
  terminator (``return``: what a function or region yields);
- def-use edges from each value's producer to each user (``#1``: the producer's result 1 of
  several; the head label: the operand number where an op has several operands);
- clusters: each function, and inside it each region of an op (a while's ``cond`` and
  ``body``, a conditional's branches, the reducer of a reduce, a sort's comparator, ...),
  joined to the op by a dashed edge from the region's terminator; a call joins the callee's
  cluster the same way.

The graph is built from the IR through the MLIR Python API and ``hlo_mlir.ir_access``
(nothing here reads printed IR), as a :class:`Graph` of plain records that
:meth:`Graph.to_dot` prints. The layout comes from Graphviz's ``dot`` algorithm: the
``graphviz-pure`` program (a Rust port of Graphviz 16.1.0 shipped as a PyPI wheel with no
system dependencies, the ``graph`` extra: ``pip install 'hlo-mlir[graph]'``), else a
Graphviz ``dot`` on ``PATH``. It runs in a child process, so a crash in it is an error here.
"""

from __future__ import annotations

import html
import os
import shutil
import signal
import subprocess
import sysconfig
from dataclasses import dataclass, field
from typing import Callable

from iree.compiler import ir

from hlo_mlir import ir_access
from hlo_mlir.call_graph import referenced_symbols
from hlo_mlir.errors import DTypeError, HloMlirError, InvalidArgumentError, ShapeError
from hlo_mlir.names import name_of
from hlo_mlir.shape import Shape

__all__ = ["Node", "Edge", "Cluster", "Graph", "build_graph", "to_dot", "to_svg", "to_html", "render",
           "write_graph", "GraphMixin", "GRAPH_FORMATS", "layout_command", "LayoutToolError",
           "LAYOUT_TIMEOUT_S"]

# What the regions of an op are for (cluster labels); other ops' regions are "region <i>",
# a case's "branch <i>".
_REGION_ROLES: dict[str, tuple[str, ...]] = {
    "stablehlo.while": ("cond", "body"),
    "stablehlo.if": ("true branch", "false branch"),
    "stablehlo.reduce": ("reducer",),
    "stablehlo.reduce_window": ("reducer",),
    "stablehlo.all_reduce": ("reducer",),
    "stablehlo.reduce_scatter": ("reducer",),
    "stablehlo.scatter": ("update computation",),
    "stablehlo.select_and_scatter": ("select", "scatter"),
    "stablehlo.sort": ("comparator",),
    "stablehlo.map": ("computation",),
}

# Fill colours by kind of op, as XLA's graph dumper groups them.
_CATEGORY_OPS: dict[str, frozenset[str]] = {
    "control": frozenset({"while", "if", "case", "call", "func.call", "custom_call", "composite",
                          "optimization_barrier"}),
    "contraction": frozenset({"dot_general", "dot", "convolution", "fft", "triangular_solve", "cholesky"}),
    "reduction": frozenset({"reduce", "reduce_window", "reduce_precision", "all_reduce", "reduce_scatter",
                            "scatter", "select_and_scatter", "sort", "map"}),
    "data": frozenset({"broadcast_in_dim", "broadcast", "reshape", "dynamic_reshape", "transpose", "slice",
                       "dynamic_slice", "dynamic_update_slice", "concatenate", "gather", "pad", "dynamic_pad",
                       "reverse", "iota", "dynamic_iota", "tuple", "get_tuple_element", "copy",
                       "all_gather", "all_to_all", "collective_permute", "collective_broadcast"}),
    "constant": frozenset({"constant"}),
}
_FILL = {"parameter": "#fff2cc", "constant": "#eeeeee", "control": "#e4d7f5", "contraction": "#f8cecc",
         "reduction": "#ffe6cc", "data": "#d5e8d4", "return": "#ffffff", "other": "#dae8fc"}

# Layout effort by graph size: dot's network simplex and crossing minimization grow faster
# than linearly, so large graphs trade a few crossings for time (measured with graphviz-pure:
# a 2,000-op graph 14 s -> 3 s, a 5,000-op graph 130 s -> 7 s).
_LARGE_GRAPH_LAYOUT = ((3000, "nslimit=0.2; nslimit1=0.2; mclimit=0.05; searchsize=10;"),
                       (1000, "nslimit=1; nslimit1=1; mclimit=0.1;"))

GRAPH_FORMATS = (".dot", ".svg", ".html")
LAYOUT_TIMEOUT_S = 300  # seconds for one layout; tens of thousands of nodes take minutes
_LAYOUT_PROGRAMS = ("graphviz-pure", "dot")  # the 'graph' extra's program first


class LayoutToolError(HloMlirError, ImportError):
    """No Graphviz layout program was found (install the ``graph`` extra)."""


# --- the graph as records -------------------------------------------------------------------------
@dataclass
class Node:
    """One box: an operation, a parameter (block argument) or a terminator."""

    id: str
    op: str  # "stablehlo.add", "parameter", "func.return"
    category: str  # a key of _FILL
    title: str  # the bold first line: "add", "Parameter 0", "return"
    name: str | None = None  # hlo.name, or a parameter's name
    detail: str | None = None  # "LT", "= 0.5", "@callee"
    shapes: list[str] = field(default_factory=list)
    location: ir_access.SourceLocation | None = None


@dataclass
class Edge:
    """A def-use edge (``kind="data"``), or a dashed edge from a region's or callee's
    terminator to its op (``"region"``, ``"call"``, leaving the cluster ``ltail``)."""

    source: str
    target: str
    kind: str = "data"
    label: str | None = None  # "#1": result 1 of a multi-result producer; a region's role
    operand: int | None = None  # the operand number, where the user has several operands
    tooltip: str | None = None
    ltail: str | None = None


@dataclass
class Cluster:
    """A function, or a region of an op, with its nodes and nested clusters."""

    id: str
    label: str
    kind: str  # "function" or "region"
    nodes: list[Node] = field(default_factory=list)
    clusters: list["Cluster"] = field(default_factory=list)
    root: str | None = None  # the id of its terminator's node

    def walk_nodes(self):
        yield from self.nodes
        for c in self.clusters:
            yield from c.walk_nodes()


@dataclass
class Graph:
    """A module as nodes, edges and clusters; :meth:`to_dot` prints it."""

    name: str
    clusters: list[Cluster] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)

    def nodes(self) -> list[Node]:
        return [n for c in self.clusters for n in c.walk_nodes()]

    def to_dot(self) -> str:
        lines = [f"digraph {_quote(self.name)} {{",
                 "  compound=true; newrank=true; rankdir=TB; nodesep=0.25; ranksep=0.35;",
                 f"  label={_quote(f'module @{self.name}')}; labelloc=t; fontname=\"Helvetica\";",
                 '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=11, '
                 'penwidth=0.8, margin="0.12,0.05"];',
                 '  edge [fontname="Helvetica", fontsize=9, color="#555555", arrowsize=0.7];']
        size = len(self.nodes())
        effort = next((attrs for limit, attrs in _LARGE_GRAPH_LAYOUT if size > limit), None)
        if effort is not None:
            lines.append(f"  {effort}")
        for cluster in self.clusters:
            _cluster_dot(cluster, lines, "  ")
        lines += ["  " + _edge_dot(e) for e in self.edges]
        lines.append("}")
        return "\n".join(lines) + "\n"


# --- reading the IR ---------------------------------------------------------------------------------
def build_graph(module: ir.Module) -> Graph:
    """The graph of ``module``: a cluster per function, nodes and def-use edges."""
    return _Builder(module).build()


class _Builder:
    def __init__(self, module: ir.Module):
        self.module = module
        self.functions = {ir_access.symbol_name(f): f for f in ir_access.functions(module)}
        self.graph = Graph(ir_access.optional_string_attr(module.operation, "sym_name") or "module")
        self.value_ids: dict[ir.Value, str] = {}
        self.function_clusters: dict[str, Cluster] = {}
        self.calls: list[tuple[str, str]] = []  # (call node id, callee name)
        self._count = 0

    def fresh(self, prefix: str) -> str:
        self._count += 1
        return f"{prefix}{self._count}"

    def build(self) -> Graph:
        entry = ir_access.entry_function(self.module)
        for name, func in self.functions.items():
            kind = "entry" if func == entry else ir_access.visibility(func)
            cluster = Cluster(self.fresh("cluster_"), f"@{name} ({kind})", "function")
            self.function_clusters[name] = cluster
            self.region(func.regions[0], cluster)
            self.graph.clusters.append(cluster)
        for call, callee in self.calls:
            target = self.function_clusters[callee]
            if target.root is not None:
                self.graph.edges.append(Edge(target.root, call, "call", f"@{callee}", ltail=target.id))
        return self.graph

    def region(self, region: ir.Region, cluster: Cluster) -> None:
        for block in region.blocks:
            for arg in block.arguments:
                node = Node(self.fresh("p"), "parameter", "parameter", f"Parameter {arg.arg_number}",
                            name=_location_name(arg.location), shapes=[_shape_text(arg.type)],
                            location=ir_access.source_location(arg.location))
                cluster.nodes.append(node)
                self.value_ids[arg] = node.id
            operations = [op.operation for op in block.operations]
            for op in operations[:-1]:
                self.operation(op, cluster)
            if operations:
                terminator = operations[-1]
                node = Node(self.fresh("r"), terminator.name, "return", "return",
                            location=ir_access.source_location(terminator.location))
                cluster.nodes.append(node)
                cluster.root = node.id
                self.operands(terminator, node.id)

    def operation(self, op: ir.Operation, cluster: Cluster) -> None:
        callees = list(dict.fromkeys(s for s in referenced_symbols(op) if s in self.functions))
        node = Node(self.fresh("n"), op.name, _category(op.name), _short_name(op.name), name=name_of(op),
                    detail=_detail(op, callees), shapes=[_shape_text(r.type) for r in op.results],
                    location=ir_access.source_location(op.location))
        cluster.nodes.append(node)
        for result in op.results:
            self.value_ids[result] = node.id
        self.operands(op, node.id)
        roles = _REGION_ROLES.get(op.name, ())
        other = "branch" if op.name == "stablehlo.case" else "region"
        for i, region in enumerate(op.regions):
            role = roles[i] if i < len(roles) else f"{other} {i}"
            inner = Cluster(self.fresh("cluster_"), f"{node.name or node.title} {role}", "region")
            self.region(region, inner)
            cluster.clusters.append(inner)
            if inner.root is not None:
                self.graph.edges.append(Edge(inner.root, node.id, "region", role, ltail=inner.id))
        self.calls += [(node.id, callee) for callee in callees]

    def operands(self, op: ir.Operation, target: str) -> None:
        operands = list(op.operands)
        for i, value in enumerate(operands):
            source = self.value_ids.get(value)
            if source is None:  # a value from outside the drawn functions (cannot happen in valid IR)
                continue
            label = None
            if isinstance(value, ir.OpResult) and len(value.owner.results) > 1:
                label = f"#{value.result_number}"
            self.graph.edges.append(Edge(source, target, "data", label, i if len(operands) > 1 else None,
                                         _shape_text(value.type)))


def _short_name(op_name: str) -> str:
    """``add`` for ``stablehlo.add``; other dialects keep their prefix (``func.call``, ``chlo.erf``)."""
    return op_name.removeprefix("stablehlo.")


def _category(op_name: str) -> str:
    short = _short_name(op_name)
    return next((c for c, ops in _CATEGORY_OPS.items() if short in ops), "other")


def _shape_text(t: ir.Type) -> str:
    """XLA's notation (``f32[4,16]``, ``(s32[], f32[16])``); the MLIR type where XLA has none."""
    try:
        return str(Shape.from_mlir_type(t))
    except (DTypeError, ShapeError):  # unbounded dynamic sizes, index, function types, ...
        return str(t)


def _location_name(loc: ir.Location) -> str | None:
    """The name of a name location (``loc("x"(...))``: a builder parameter's name)."""
    return loc.name_str if isinstance(loc, ir.NameLoc) else None


def _detail(op: ir.Operation, callees: list[str]) -> str | None:
    """One short fact beside the op name: a comparison's direction, a splat constant's
    value, a tuple element's index, a custom call's target, the functions a call names."""
    name = op.name
    if name == "stablehlo.compare":
        return ir_access.comparison_direction(op)
    if name == "stablehlo.constant":
        return _splat_text(op)
    if name == "stablehlo.get_tuple_element":
        return f"[{ir_access.int_attr(op, 'index')}]"
    if name == "stablehlo.custom_call":
        return ir_access.optional_string_attr(op, "call_target_name")
    return ", ".join(f"@{c}" for c in callees) or None


def _splat_text(op: ir.Operation) -> str | None:
    """``= 0.5`` for a splat (or scalar) integer, float or boolean constant, else None."""
    t = op.results[0].type
    if not isinstance(t, ir.RankedTensorType) or isinstance(ir.ShapedType(t).element_type, ir.ComplexType):
        return None  # the bindings abort on a complex elements attribute: never read one
    attr = op.attributes["value"]
    if not isinstance(attr, ir.DenseElementsAttr) or not ir.DenseElementsAttr(attr).is_splat:
        return None
    value = ir.DenseElementsAttr(attr).get_splat_value()
    if isinstance(value, ir.BoolAttr):
        return f"= {str(ir.BoolAttr(value).value).lower()}"
    if isinstance(value, ir.IntegerAttr):
        return f"= {ir.IntegerAttr(value).value}"
    if isinstance(value, ir.FloatAttr):
        return f"= {ir.FloatAttr(value).value:.6g}"
    return None


# --- printing DOT -----------------------------------------------------------------------------------
def _quote(text: str) -> str:
    """A DOT double-quoted string (newlines as DOT's ``\\n``)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _node_dot(node: Node) -> str:
    esc = html.escape
    parts = [f"<B>{esc(node.title)}</B>" + (f" {esc(node.detail)}" if node.detail else "")]
    if node.name and node.name != node.title:
        parts.append(f'<FONT POINT-SIZE="9" COLOR="#555555">{esc(node.name)}</FONT>')
    if node.shapes:
        shapes = node.shapes if len(node.shapes) <= 4 else [*node.shapes[:3], f"({len(node.shapes)} results)"]
        parts += [f'<FONT POINT-SIZE="10">{esc(s)}</FONT>' for s in shapes]
    if node.location is not None:
        file = os.path.basename(node.location.filename)
        short = f"{file}:{node.location.line}" if file not in ("", "-") else f"line {node.location.line}"
        parts.append(f'<FONT POINT-SIZE="8" COLOR="#777777">{esc(short)}</FONT>')
    tooltip = [node.op] + ([node.name] if node.name else []) + node.shapes
    if node.location is not None:
        loc = node.location
        tooltip.append(f"{loc.filename}:{loc.line}:{loc.column}")
    attrs = [f"label=<{'<BR/>'.join(parts)}>", f'fillcolor="{_FILL[node.category]}"',
             f"tooltip={_quote(' '.join(tooltip))}"]
    if node.category == "parameter":
        attrs.append("shape=ellipse")
    elif node.category == "return":
        attrs += ['style="dashed,rounded"', "fontsize=9"]
    return f"{node.id} [{', '.join(attrs)}];"


def _cluster_dot(cluster: Cluster, lines: list[str], indent: str) -> None:
    style = ('style="rounded,filled"; fillcolor="#fafafa"; color="#999999"' if cluster.kind == "function"
             else 'style="rounded,dashed,filled"; fillcolor="#f3f3fb"; color="#7b6fb0"')
    lines.append(f"{indent}subgraph {cluster.id} {{")
    lines.append(f"{indent}  label={_quote(cluster.label)}; {style}; fontsize=11; labeljust=l;")
    lines += [indent + "  " + _node_dot(n) for n in cluster.nodes]
    for inner in cluster.clusters:
        _cluster_dot(inner, lines, indent + "  ")
    lines.append(f"{indent}}}")


def _edge_dot(edge: Edge) -> str:
    attrs = []
    if edge.label:
        attrs.append(f"label={_quote(edge.label)}")
    if edge.operand is not None:
        attrs.append(f'headlabel="{edge.operand}", labelfontsize=8, labelfontcolor="#888888"')
    if edge.tooltip:
        attrs.append(f"tooltip={_quote(edge.tooltip)}")
    if edge.kind != "data":
        attrs.append('style=dashed, color="#7b6fb0", fontcolor="#7b6fb0"')
    if edge.ltail:
        attrs.append(f"ltail={edge.ltail}")
    return f"{edge.source} -> {edge.target}" + (f" [{', '.join(attrs)}]" if attrs else "") + ";"


# --- entry points ----------------------------------------------------------------------------------
def to_dot(module: ir.Module) -> str:
    """The module as Graphviz DOT text."""
    return build_graph(module).to_dot()


def layout_command() -> str | None:
    """The layout program: ``graphviz-pure`` beside this Python's scripts (a venv that is not
    activated) or on ``PATH``, else Graphviz's ``dot`` on ``PATH``; None if neither."""
    scripts = sysconfig.get_path("scripts")
    for program in _LAYOUT_PROGRAMS:
        local = os.path.join(scripts, program)
        if os.path.isfile(local) and os.access(local, os.X_OK):
            return local
        found = shutil.which(program)
        if found:
            return found
    return None


def render(dot: str, fmt: str = "svg", timeout: float = LAYOUT_TIMEOUT_S) -> str:
    """DOT text laid out by Graphviz's ``dot`` algorithm, as ``fmt`` (``svg``, ``json``, ...)."""
    program = layout_command()
    if program is None:
        raise LayoutToolError(
            "Drawing a graph requires a Graphviz layout program: pip install 'hlo-mlir[graph]' "
            f"(graphviz-pure) or put Graphviz's dot on PATH; got none of {', '.join(_LAYOUT_PROGRAMS)} "
            f"in {sysconfig.get_path('scripts')} or on PATH.")
    try:
        done = subprocess.run([program, f"-T{fmt}"], input=dot.encode("utf-8"), capture_output=True,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise HloMlirError(f"Graph layout requires {program} to finish within {timeout:g} s; "
                           f"got no answer (the graph has {dot.count(' -> ')} edges).") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip() or "no message"
        status = (f"signal {signal.Signals(-done.returncode).name}" if done.returncode < 0
                  else f"exit status {done.returncode}")
        raise HloMlirError(f"Graph layout requires {program} -T{fmt} to succeed; got {status}: {message}")
    return done.stdout.decode("utf-8")


def to_svg(module: ir.Module) -> str:
    """The module as an SVG picture (needs the ``graph`` extra, see :func:`layout_command`)."""
    return render(to_dot(module), "svg")


def to_html(module: ir.Module) -> str:
    """A self-contained page showing the module's SVG, with pan (drag) and zoom (wheel)."""
    graph = build_graph(module)
    svg = render(graph.to_dot(), "svg")
    svg = svg[svg.index("<svg"):]  # drop the XML declaration and doctype
    return _HTML.replace("@TITLE@", html.escape(graph.name)).replace("@SVG@", svg)


_WRITERS: dict[str, Callable[[ir.Module], str]] = {".dot": to_dot, ".svg": to_svg, ".html": to_html}


class GraphMixin:
    """The picture methods of HloModule and XlaComputation (both hold ``_module``)."""

    _module: ir.Module

    def to_dot(self) -> str:
        """The module as Graphviz DOT text: a node per op (op name, result shapes, source
        location), def-use edges, functions and regions (while cond/body, branches,
        reducers, comparators) as clusters. See hlo_mlir/graph.py."""
        return to_dot(self._module)

    def to_svg(self) -> str:
        """The module as an SVG picture, laid out by Graphviz's dot algorithm (needs the
        ``graph`` extra: ``pip install 'hlo-mlir[graph]'``, or Graphviz's ``dot`` on PATH)."""
        return to_svg(self._module)

    def to_html(self) -> str:
        """A self-contained HTML page showing :meth:`to_svg`, with pan and zoom."""
        return to_html(self._module)

    def write_graph(self, path: str | os.PathLike) -> None:
        """Writes the picture to ``path``: DOT, SVG or HTML by its extension (.dot, .svg, .html)."""
        write_graph(self._module, path)


def write_graph(module: ir.Module, path: str | os.PathLike) -> None:
    """Writes the module's picture to ``path``: DOT, SVG or HTML by its extension."""
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext not in _WRITERS:
        raise InvalidArgumentError(f"write_graph requires a file name ending in {', '.join(GRAPH_FORMATS)}; "
                                   f"got {os.fspath(path)!r}.")
    text = _WRITERS[ext](module)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


_HTML = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>@TITLE@ - hlo-mlir graph</title>
<style>
  html, body { margin: 0; height: 100%; font-family: Helvetica, Arial, sans-serif; }
  header { padding: 6px 10px; background: #f4f4f4; border-bottom: 1px solid #ccc; font-size: 13px; }
  #view { position: absolute; top: 32px; bottom: 0; left: 0; right: 0; overflow: hidden; cursor: grab; }
  #view svg { transform-origin: 0 0; }
</style>
</head>
<body>
<header><b>@TITLE@</b> &mdash; drag to pan, wheel to zoom, double-click to reset; hover a node
for its op, name, shapes and location.</header>
<div id="view">
@SVG@
</div>
<script>
(function () {
  var view = document.getElementById("view"), svg = view.querySelector("svg");
  var s = 1, x = 0, y = 0, drag = null;
  function apply() { svg.style.transform = "translate(" + x + "px," + y + "px) scale(" + s + ")"; }
  view.addEventListener("wheel", function (e) {
    e.preventDefault();
    var r = view.getBoundingClientRect(), mx = e.clientX - r.left, my = e.clientY - r.top;
    var k = Math.exp(-e.deltaY * 0.0015);
    x = mx - (mx - x) * k; y = my - (my - y) * k; s *= k; apply();
  }, {passive: false});
  view.addEventListener("mousedown", function (e) { drag = [e.clientX - x, e.clientY - y]; });
  window.addEventListener("mousemove", function (e) {
    if (drag) { x = e.clientX - drag[0]; y = e.clientY - drag[1]; apply(); }
  });
  window.addEventListener("mouseup", function () { drag = null; });
  view.addEventListener("dblclick", function () { s = 1; x = 0; y = 0; apply(); });
})();
</script>
</body>
</html>
"""
