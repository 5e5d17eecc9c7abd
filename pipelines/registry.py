"""The one registry of passes, keyed by kebab-case name (STYLE.md point 6).

``@register`` adds a pass class; ``get(name)`` looks one up by its name or one of its
``aliases`` (spec 004's name where ours differs: ``algebraic-simplifier`` is ``algsimp``;
an unknown name fails with the list of valid ones); ``all_passes()`` lists them all, by
name, and ``aliases()`` maps each alias to its pass's name. A pass lives in the
folder of its kind, in a module named after it (``sort-network-expander`` in
``pipelines/expanders/sort_network_expander.py``): ``simplifiers`` (XLA's simplification
passes and upstream MLIR ones), ``expanders`` (XLA's op expanders), ``legalizations``
(rewrites the pinned IREE needs to compute XLA's answers), ``performance`` (rewrites that
keep the values and make IREE faster, in ``iree-legalize`` or a target preset) and
``analyses`` (checks and reports that change nothing). The
modules are imported on first lookup, so registering is just defining the class. The first
lookup is thread-safe: one thread imports the pass modules under a lock while the others
wait, and the registry counts as loaded only once every import finished.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import re
import threading
from collections.abc import Mapping, Sequence
from itertools import chain

from hlo_mlir.errors import InvalidArgumentError, did_you_mean
from pipelines.pass_base import Pass

__all__ = ["register", "get", "all_passes", "aliases", "unregister", "unknown_pass_message", "KINDS"]

_PASSES: dict[str, type[Pass]] = {}
_ALIASES: dict[str, str] = {}  # alias -> the name of its pass
KINDS = ("simplifiers", "expanders", "legalizations", "performance", "analyses")
_PACKAGES = tuple(f"pipelines.{kind}" for kind in KINDS)
_loaded = False
_load_lock = threading.Lock()
_loading_thread: int | None = None  # the thread importing the pass modules, while it does
_NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")


def register(cls: type[Pass]) -> type[Pass]:
    """Class decorator: adds ``cls`` under ``cls.name`` (kebab case, unique, documented)."""
    if not isinstance(cls, type) or not issubclass(cls, Pass):
        raise InvalidArgumentError(f"register requires a Pass subclass; got {cls!r}.")
    name = cls.name
    if not _NAME.fullmatch(name or ""):
        raise InvalidArgumentError(
            f"register requires a kebab-case pass name; got {name!r} for {cls.__name__}."
        )
    if not cls.summary():
        raise InvalidArgumentError(
            f"register requires a docstring summary on pass '{name}' ({cls.__name__})."
        )
    undeclared = _undeclared_options(cls)
    if undeclared:
        raise InvalidArgumentError(
            f"register requires the options of pass '{name}' to be fields of a @dataclasses.dataclass; "
            f"got typed attributes {undeclared} on {cls.__name__}."
        )
    if name in _PASSES and _PASSES[name] is not cls:
        raise InvalidArgumentError(
            f"register requires unique pass names; '{name}' is already {_PASSES[name].__qualname__}."
        )
    if name in _ALIASES:
        raise InvalidArgumentError(
            f"register requires unique pass names; '{name}' is already an alias of pass '{_ALIASES[name]}'."
        )
    aliases = _checked_aliases(cls)
    _PASSES[name] = cls
    _ALIASES.update(dict.fromkeys(aliases, name))
    return cls


def _checked_aliases(cls: type[Pass]) -> tuple[str, ...]:
    """``cls.aliases``, after checking each is kebab case and names no other pass or alias."""
    name, aliases = cls.name, cls.aliases
    if not isinstance(aliases, tuple):
        raise InvalidArgumentError(
            f"register requires the aliases of pass '{name}' to be a tuple of names; got {aliases!r}."
        )
    for alias in aliases:
        if not isinstance(alias, str) or not _NAME.fullmatch(alias):
            raise InvalidArgumentError(
                f"register requires kebab-case pass aliases; got {alias!r} for pass '{name}'."
            )
        if alias == name or aliases.count(alias) > 1:
            raise InvalidArgumentError(
                f"register requires distinct aliases of pass '{name}'; got {aliases!r}."
            )
        if alias in _PASSES:
            raise InvalidArgumentError(
                f"register requires unique pass names and aliases; alias '{alias}' of pass '{name}' "
                f"is already pass {_PASSES[alias].__qualname__}."
            )
        if _ALIASES.get(alias, name) != name:
            raise InvalidArgumentError(
                f"register requires unique pass names and aliases; alias '{alias}' of pass '{name}' "
                f"is already an alias of pass '{_ALIASES[alias]}'."
            )
    return aliases


def _undeclared_options(cls: type[Pass]) -> list[str]:
    """Typed attributes (not ``ClassVar``) of ``cls`` or a base that are no dataclass field:
    options of a class that lacks ``@dataclasses.dataclass``, which would be ignored."""
    fields = {f.name for f in dataclasses.fields(cls)}
    return sorted({attr for klass in cls.__mro__
                   for attr, annotation in vars(klass).get("__annotations__", {}).items()
                   if attr not in fields and "ClassVar" not in str(annotation)})


def unregister(name: str) -> None:
    """Removes pass ``name`` and its aliases (for passes registered by tests)."""
    if _PASSES.pop(name, None) is not None:
        for alias in [a for a, target in _ALIASES.items() if target == name]:
            del _ALIASES[alias]


def _load() -> None:
    global _loaded, _loading_thread
    if _loaded or _loading_thread == threading.get_ident():
        return  # loaded, or a pass module looking a pass up while this thread imports it
    with _load_lock:
        if _loaded:
            return
        _loading_thread = threading.get_ident()
        try:
            _import_pass_modules()
        finally:
            _loading_thread = None
        _loaded = True  # only now: another thread reading _loaded must see every pass


def _import_pass_modules() -> None:
    for package_name in _PACKAGES:
        try:
            package = importlib.import_module(package_name)
        except ModuleNotFoundError:
            continue
        for info in pkgutil.iter_modules(package.__path__):
            if not info.name.startswith("_"):
                importlib.import_module(f"{package_name}.{info.name}")


def get(name: str) -> type[Pass]:
    """The pass class registered as ``name`` or with ``name`` among its aliases."""
    _load()
    try:
        return _PASSES[_ALIASES.get(name, name)]
    except KeyError:
        raise InvalidArgumentError(unknown_pass_message(name)) from None


def unknown_pass_message(name: str, also: Mapping[str, Sequence[str]] | None = None) -> str:
    """The error for an unknown pass ``name``: the valid passes and aliases, the names in
    ``also`` (a heading -> names, e.g. a pipeline spec's presets) and the closest of them all."""
    _load()
    valid = {"valid passes": sorted(_PASSES), "aliases": sorted(_ALIASES), **(also or {})}
    lists = "; ".join(f"{heading}: {', '.join(names)}" for heading, names in valid.items() if names)
    return f"unknown pass '{name}'; {lists}{did_you_mean(name, chain(*valid.values())) or '.'}"


def all_passes() -> dict[str, type[Pass]]:
    """Every registered pass, by name (sorted)."""
    _load()
    return dict(sorted(_PASSES.items()))


def aliases() -> dict[str, str]:
    """Every alias, mapped to the name of its pass (sorted by alias)."""
    _load()
    return dict(sorted(_ALIASES.items()))
