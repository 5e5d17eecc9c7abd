"""Pass base classes, one per kind of pass (STYLE.md points 5 and 9).

A pass is a small class: a kebab-case ``name`` (its CLI and lit file name), a
docstring whose first line is its ``--help`` summary, options as typed fields with
defaults of a class marked ``@dataclasses.dataclass`` (CLI spelling: the field name in
kebab case), and
``run(module) -> changed``. Kinds:

- :class:`PatternPass`: a set of rewrite patterns (``@pattern("stablehlo.add")``
  functions) applied by MLIR's greedy driver until nothing matches;
- :class:`ExpanderPass`: ``matches(op)`` selects ops, ``expand(op)`` returns the
  values that replace each one (XLA's ``OpExpanderPass``);
- :class:`UpstreamPass`: an MLIR pass pipeline string (``cse``, ``inline``, ...).

Passes count what they did in ``self.statistics`` (rule name -> times fired); the
pipeline driver reports them.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections import Counter
from typing import Any, Callable, ClassVar, Sequence

from iree.compiler import ir, passmanager, rewrite

from hlo_mlir.context import diagnostics_to_errors
from hlo_mlir.errors import HloMlirError, InvalidArgumentError, did_you_mean
from pipelines.matchers import ops_where

__all__ = [
    "Pass",
    "PatternPass",
    "ExpanderPass",
    "UpstreamPass",
    "Pattern",
    "pattern",
    "PassError",
    "PassOption",
    "count_ops",
    "sweep_until_unchanged",
]

log = logging.getLogger("hlo_mlir.pipelines")


class PassError(HloMlirError):
    """A pass failed (raised an error or produced IR that failed a check); names the pass."""

    def __init__(self, message: str, pass_name: str = ""):
        super().__init__(message)
        self.pass_name = pass_name


@dataclasses.dataclass(frozen=True)
class PassOption:
    """One option of a pass as the CLI sees it."""

    name: str  # kebab-case, as written in a pipeline spec
    field: str  # the dataclass field
    type: type
    default: Any
    help: str


def _kebab(name: str) -> str:
    return name.replace("_", "-")


@dataclasses.dataclass
class Pass:
    """Base of all passes. A pass with options is itself a ``@dataclasses.dataclass`` whose
    typed fields (with defaults) are the options; a pass without options needs no decorator
    (``registry.register`` refuses typed attributes outside a dataclass)."""

    name: ClassVar[str] = ""
    # Other names a pipeline spec may use (kebab case, unique across names and aliases):
    # spec 004's name where it differs from ``name`` (``algsimp`` is ``algebraic-simplifier``).
    aliases: ClassVar[tuple[str, ...]] = ()
    # The ops this pass can act on (``"stablehlo.while"``), or None for any module. The
    # pipeline skips the pass on a module that holds none of them, without a walk of its
    # own (one op census serves every pass until one changes the module).
    acts_on: ClassVar[frozenset[str] | None] = None
    statistics: Counter[str] = dataclasses.field(
        default_factory=Counter, init=False, repr=False, compare=False
    )

    # --- description ----------------------------------------------------------
    @classmethod
    def summary(cls) -> str:
        """The first line of the class docstring (the ``--list-passes`` text)."""
        doc = (cls.__doc__ or "").strip()
        return doc.splitlines()[0].strip() if doc else ""

    @classmethod
    def options(cls) -> list[PassOption]:
        out = []
        for f in dataclasses.fields(cls):
            if not f.init:
                continue
            typ = (
                f.type
                if isinstance(f.type, type)
                else {"int": int, "bool": bool, "float": float, "str": str}.get(str(f.type), str)
            )
            out.append(PassOption(_kebab(f.name), f.name, typ, f.default, f.metadata.get("help", "")))
        return out

    @classmethod
    def from_options(cls, options: dict[str, str]) -> "Pass":
        """An instance from textual ``{kebab-name: value}`` options (a pipeline spec)."""
        known = {o.name: o for o in cls.options()}
        kwargs = {}
        for key, text in options.items():
            if key not in known:
                valid = ", ".join(sorted(known)) or "none"
                raise InvalidArgumentError(
                    f"pass '{cls.name}' has no option '{key}'; valid options: {valid}"
                    f"{did_you_mean(key, sorted(known)) or '.'}"
                )
            opt = known[key]
            kwargs[opt.field] = _convert_option(cls.name, opt, text)
        return cls(**kwargs)

    # --- running -----------------------------------------------------------------
    def run(self, module: ir.Module) -> bool:
        """Rewrites ``module`` in place; returns whether it changed."""
        raise NotImplementedError

    def relevant_ops(self) -> frozenset[str] | None:
        """The ops this run can act on (``acts_on`` unless the pass knows better), or None."""
        return self.acts_on

    def record(self, rule: str, count: int = 1) -> None:
        """Counts one firing of ``rule`` and names it in the debug log."""
        self.statistics[rule] += count
        log.debug("%s: %s fired", self.name, rule)


_BOOLS = {"true": True, "1": True, "false": False, "0": False}


def _convert_option(pass_name: str, opt: PassOption, text: str):
    try:
        if opt.type is bool:
            return _BOOLS[text.lower()]
        if opt.type is int:
            return int(text, 0)
        return opt.type(text)
    except (KeyError, ValueError):
        expected = {bool: "a boolean (true/false)", int: "an integer", float: "a number"}.get(
            opt.type, opt.type.__name__
        )
        raise InvalidArgumentError(
            f"option '{opt.name}' of pass '{pass_name}' requires {expected}; got {text!r}."
        ) from None


def sweep_until_unchanged(sweep: Callable[[], bool], max_sweeps: int) -> bool:
    """Calls ``sweep()`` (one pass over the module; returns whether it changed anything)
    until it changes nothing or ``max_sweeps`` times; returns whether any sweep changed."""
    changed = False
    for _ in range(max_sweeps):
        if not sweep():
            break
        changed = True
    return changed


def count_ops(module: ir.Module) -> int:
    """The number of operations in ``module`` (one linear walk)."""
    n = 0

    def visit(_op):
        nonlocal n
        n += 1
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return n


def _camel_to_kebab(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower().replace("_", "-")


# --- pattern passes -----------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Pattern:
    """One rewrite: ``fn(op)`` returns the replacement values of ``op``'s results, or None
    when it does not match (and then must not have created anything). ``fn`` runs with the
    insertion point just before ``op`` and ``op``'s location active."""

    name: str
    roots: tuple[str, ...]
    fn: Callable[[ir.OpView], Sequence[ir.Value] | None]

    @property
    def algebra(self) -> str:
        return (self.fn.__doc__ or "").strip().splitlines()[0] if self.fn.__doc__ else ""


def pattern(*roots: str, name: str | None = None):
    """Decorator: a function over ops named ``roots`` becomes a :class:`Pattern`.

    The rule's name (its statistic) is the function name in kebab case.
    """

    def wrap(fn):
        return Pattern(name or _camel_to_kebab(fn.__name__), tuple(roots), fn)

    return wrap


@dataclasses.dataclass
class PatternPass(Pass):
    """Applies ``patterns`` with MLIR's greedy driver until none matches.

    The driver also erases ops that became dead (side-effect free, unused); MLIR's own
    op folders are off, so every change is one of our named rules.
    """

    patterns: ClassVar[Sequence[Pattern]] = ()
    max_iterations: int = dataclasses.field(
        default=10, metadata={"help": "greedy driver sweeps before giving up (the IR stays valid)"}
    )

    def active_patterns(self) -> Sequence[Pattern]:
        """The patterns this run applies (subclasses may filter by options)."""
        return self.patterns

    def relevant_ops(self) -> frozenset[str] | None:
        """The roots of the active patterns. None without patterns: then the greedy driver
        only erases dead ops, which any module may hold."""
        if self.acts_on is not None:
            return self.acts_on
        roots = frozenset(root for p in self.active_patterns() for root in p.roots)
        return roots or None

    def run(self, module: ir.Module) -> bool:
        ctx = module.context
        fired_before = sum(self.statistics.values())
        patterns = rewrite.RewritePatternSet(ctx)
        by_root: dict[str, list[Pattern]] = {}
        for p in self.active_patterns():
            for root in p.roots:
                by_root.setdefault(root, []).append(p)
        for root, pats in by_root.items():
            patterns.add(root, self._callback(pats))
        config = rewrite.GreedyRewriteConfig()
        config.enable_folding = False
        config.enable_constant_cse = False
        config.region_simplification_level = rewrite.GreedySimplifyRegionLevel.DISABLED
        config.max_iterations = self.max_iterations
        before = count_ops(module)
        with ctx:
            try:
                rewrite.apply_patterns_and_fold_greedily(module, patterns.freeze(), config)
            except RuntimeError as e:
                if "failed to converge" not in str(e):
                    raise
                self.record("did-not-converge")
        return sum(self.statistics.values()) > fired_before or count_ops(module) != before

    def _callback(self, pats: list[Pattern]):
        def apply(op, rewriter) -> bool:
            with rewriter.ip, op.location:  # once per op: entering them costs more than most rules
                for p in pats:
                    values = p.fn(op)
                    if values is not None:
                        break
                else:
                    return True  # no pattern matched
            values = _checked_replacement(self.name, f"pattern '{p.name}' of pass '{self.name}'", op, values)
            rewriter.replace_op(op, values)
            self.record(p.name)
            return False  # matched

        return apply


def _checked_replacement(pass_name: str, who: str, op, values) -> list:
    """``values`` as a list, after checking they can replace ``op``'s results one for one."""
    values, results = list(values), list(op.results)
    if len(values) != len(results) or any(v.type != r.type for v, r in zip(values, results, strict=True)):
        raise PassError(
            f"{who} replaced {op.operation.name} results {[str(r.type) for r in results]} with "
            f"values of types {[str(v.type) for v in values]}.",
            pass_name,
        )
    return values


# --- expander passes ----------------------------------------------------------------------
class ExpanderPass(Pass):
    """Replaces every op that ``matches`` with the values ``expand`` builds (XLA's
    OpExpanderPass). ``expand`` runs at the op (insertion point and location set)."""

    def matches(self, op: ir.OpView) -> bool:
        raise NotImplementedError

    def expand(self, op: ir.OpView) -> Sequence[ir.Value]:
        raise NotImplementedError

    def rule(self, op: ir.OpView) -> str:
        """The statistic an expansion of ``op`` counts under (the pass name; a pass with
        several rewrites names the one that applies)."""
        return self.name

    def run(self, module: ir.Module) -> bool:
        found = ops_where(module, self.matches)
        with module.context:
            for op in found:
                rule = self.rule(op)
                with ir.InsertionPoint(op), op.location:
                    values = _checked_replacement(self.name, f"pass '{self.name}'", op, self.expand(op))
                for old, new in zip(op.results, values, strict=True):
                    old.replace_all_uses_with(new)
                op.erase()
                self.record(rule)
        return bool(found)


# --- upstream MLIR passes -----------------------------------------------------------------
class UpstreamPass(Pass):
    """Runs the MLIR pass pipeline ``pipeline`` (nested under ``builtin.module``)."""

    pipeline: ClassVar[str] = ""

    def pipeline_text(self) -> str:
        return self.pipeline

    def run(self, module: ir.Module) -> bool:
        before = module.operation.get_asm(large_elements_limit=16)
        with module.context, diagnostics_to_errors(module.context) as diags:
            pm = passmanager.PassManager.parse(f"builtin.module({self.pipeline_text()})")
            try:
                pm.run(module.operation)
            except ir.MLIRError as e:
                raise PassError(
                    f"pass '{self.name}' failed:\n  " + "\n  ".join(diags.messages or [str(e)]), self.name
                ) from None
        changed = module.operation.get_asm(large_elements_limit=16) != before
        if changed:
            self.record(self.name)
        return changed
