"""hlo-opt's pictures: ``--dump-graph=FILE`` and ``--dump-graph-dir=DIR`` (XLA's
``--xla_dump_hlo_as_dot``/``--xla_dump_hlo_as_html`` with ``--xla_dump_to``).

``--dump-graph=FILE.{dot,svg,html}`` draws the output module (after the passes).
``--dump-graph-dir=DIR`` draws the module before the first pass, between every two passes
and after the last, named as XLA names its per-pass dumps::

    module_0000.<module name>.0000.hlo-opt.after_pipeline-start.before_algsimp.svg
    module_0000.<module name>.0001.hlo-opt.after_algsimp.before_cse.svg
    module_0000.<module name>.0002.hlo-opt.after_cse.before_pipeline-end.svg

(the module number counts ``--split-input-file`` chunks; the step number counts dumps of
one module), in ``--dump-graph-format`` (svg by default). Drawing is hlo_mlir/graph.py.
"""

from __future__ import annotations

import argparse
import os
import re

from hlo_mlir.tools import ExitCode
from hlo_mlir.tools.isolation import ToolError

__all__ = ["add_graph_flags", "check_graph_flags", "module_dumps", "finish_graphs", "ModuleDumps",
           "PIPELINE_NAME"]

PIPELINE_NAME = "hlo-opt"  # the pipeline part of the file names (XLA: "cpu-optimizations", ...)
_FORMATS = ("svg", "dot", "html")
_UNSAFE = re.compile(r"[^A-Za-z0-9_.\-]")


def add_graph_flags(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("pictures of the module (Graphviz; XLA's --xla_dump_hlo_as_dot/html)")
    g.add_argument("--dump-graph", metavar="FILE.{dot,svg,html}", default=None,
                   help="draw the output module: DOT, SVG, or an HTML page with the SVG (by extension)")
    g.add_argument("--dump-graph-dir", metavar="DIR", default=None,
                   help="draw the module before, between and after the passes into DIR, one file each, "
                        "named like XLA's dumps: module_NNNN.<module>.<step>.<pipeline>.after_<pass>."
                        "before_<next>.<format>")
    g.add_argument("--dump-graph-format", choices=_FORMATS, default="svg",
                   help="the format of the --dump-graph-dir files (default: svg)")


def check_graph_flags(args: argparse.Namespace) -> None:
    """Raises ToolError (usage) for a bad --dump-graph name, --dump-graph with several
    modules, or a picture that needs the layout program where it is missing; creates
    --dump-graph-dir. Runs before the input is read, so no pass runs in vain."""
    from hlo_mlir import graph

    formats = set()
    if args.dump_graph is not None:
        ext = os.path.splitext(args.dump_graph)[1].lower()
        if ext not in graph.GRAPH_FORMATS:
            raise ToolError(f"--dump-graph requires a file name ending in {', '.join(graph.GRAPH_FORMATS)}; "
                            f"got {args.dump_graph!r}.", ExitCode.USAGE)
        if args.split_input_file:
            raise ToolError("--dump-graph requires one module; got --split-input-file (use --dump-graph-dir, "
                            "which numbers the modules).", ExitCode.USAGE)
        formats.add(ext[1:])
    if args.dump_graph_dir is not None:
        formats.add(args.dump_graph_format)
        try:
            os.makedirs(args.dump_graph_dir, exist_ok=True)
        except OSError as e:
            raise ToolError(f"cannot create --dump-graph-dir {args.dump_graph_dir}: {e.strerror}",
                            ExitCode.INPUT) from None
    if formats - {"dot"} and graph.layout_command() is None:
        raise ToolError(f"--dump-graph{'-dir' if args.dump_graph is None else ''} as "
                        f"{'/'.join(sorted(formats - {'dot'}))} requires a Graphviz layout program: "
                        "pip install 'hlo-mlir[graph]' (graphviz-pure) or put Graphviz's dot on PATH; "
                        "got none (a .dot file needs none).", ExitCode.USAGE)


class ModuleDumps:
    """The --dump-graph-dir files of one module (the ``index``-th of the input)."""

    def __init__(self, module, directory: str, fmt: str, index: int):
        from hlo_mlir import ir_access

        self.module, self.directory, self.fmt, self.index = module, directory, fmt, index
        name = ir_access.optional_string_attr(module.operation, "sym_name") or "module"
        self.name = _UNSAFE.sub("_", name)
        self.step = 0
        self.last = "pipeline-start"
        self.written: list[str] = []

    def before_pass(self, pass_name: str) -> None:
        """Draws the module as the previous pass left it (``run_pipeline``'s ``before_pass``)."""
        self._dump(pass_name)

    def end(self) -> None:
        """Draws the module after the last pass."""
        self._dump("pipeline-end")

    def _dump(self, before: str) -> None:
        from hlo_mlir import graph

        filename = (f"module_{self.index:04d}.{self.name}.{self.step:04d}.{PIPELINE_NAME}."
                    f"after_{self.last}.before_{before}.{self.fmt}")
        path = os.path.join(self.directory, filename)
        try:
            graph.write_graph(self.module, path)
        except OSError as e:
            raise ToolError(f"cannot write {path}: {e.strerror}", ExitCode.INPUT) from None
        self.written.append(path)
        self.step += 1
        self.last = before


def module_dumps(module, args: argparse.Namespace) -> ModuleDumps | None:
    """The --dump-graph-dir files of the next module of the input, or None without the flag."""
    if args.dump_graph_dir is None:
        return None
    index = getattr(args, "graph_module_count", 0)
    args.graph_module_count = index + 1
    return ModuleDumps(module, args.dump_graph_dir, args.dump_graph_format, index)


def finish_graphs(module, args: argparse.Namespace, dumps: ModuleDumps | None) -> None:
    """After the passes: the last --dump-graph-dir file and the --dump-graph picture."""
    from hlo_mlir import graph

    if dumps is not None:
        dumps.end()
    if args.dump_graph is not None:
        try:
            graph.write_graph(module, args.dump_graph)
        except OSError as e:
            raise ToolError(f"cannot write {args.dump_graph}: {e.strerror}", ExitCode.INPUT) from None
