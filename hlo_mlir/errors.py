"""The exception hierarchy: every error hlo-mlir raises on purpose derives from
:class:`HloMlirError`, so callers can catch one type.

Builder errors carry the user's ``file:line`` (the op call that was wrong) and
read ``"<Op> requires <condition>; got <actual values>."``. A name that is not one of
the valid ones (a pass, preset, target, driver, element type, flag) ends the message
with :func:`did_you_mean`'s suggestion in place of the period:
``f"...; got {word!r}{did_you_mean(word, choices) or '.'}"``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping

__all__ = [
    "did_you_mean",
    "HloMlirError",
    "ShapeError",
    "DTypeError",
    "InvalidArgumentError",
    "VerificationError",
    "ParseError",
    "CompileError",
    "CompileWarning",
    "RuntimeCallError",
    "CallArgumentError",
]


def did_you_mean(word: str, choices: Iterable[str], aliases: Mapping[str, str] | None = None) -> str:
    """``"; did you mean 'x'?"`` naming the choice closest to ``word``, or ``""`` when none
    is close (difflib's ratio below 0.6), ``word`` is a choice itself or not a string.

    Case and ``_`` against ``-`` do not count (``llvm_cpu`` suggests ``llvm-cpu``).
    ``aliases`` maps other spellings to the choice each stands for: they are matched too,
    and suggest their choice (numpy's ``float32`` suggests XLA's ``f32``).
    """
    choices = list(choices)
    if not isinstance(word, str) or word in choices:
        return ""
    by_fold: dict[str, str] = {}
    for spelling, choice in [*((c, c) for c in choices), *(aliases or {}).items()]:
        by_fold.setdefault(_fold(spelling), choice)
    close = difflib.get_close_matches(_fold(word), by_fold, n=1)
    return f"; did you mean {by_fold[close[0]]!r}?" if close else ""


def _fold(name: str) -> str:
    return name.lower().replace("_", "-")


class HloMlirError(Exception):
    """Base class of all hlo-mlir errors.

    ``location`` is the user's source position (``"file.py:12"``) when known.
    """

    def __init__(self, message: str, location: str | None = None):
        super().__init__(message)
        self.message = message
        self.location = location

    def with_location(self, location: str | None) -> "HloMlirError":
        if self.location is None and location:
            self.location = location
        return self

    def __str__(self) -> str:
        if self.location:
            return f"{self.location}: {self.message}"
        return self.message


class ShapeError(HloMlirError, ValueError):
    """An operand shape (rank, dimension sizes, tuple structure) violates an op's rule."""


class DTypeError(HloMlirError, TypeError):
    """An element type is not allowed for an op, or operands' types disagree."""


class InvalidArgumentError(HloMlirError, ValueError):
    """A non-shape argument (dimension numbers, option, computation) is invalid."""


class VerificationError(HloMlirError):
    """The MLIR verifier rejected a module; ``diagnostics`` holds its messages."""

    def __init__(self, message: str, diagnostics: list[str] | None = None):
        super().__init__(message)
        self.diagnostics = diagnostics or []


class ParseError(HloMlirError, ValueError):
    """MLIR text or bytecode could not be parsed."""


class CompileError(HloMlirError):
    """IREE failed to compile a module.

    Names the target, the exact flags and the compiler diagnostics so that the
    failure can be reproduced with ``iree-compile``.
    """

    def __init__(self, message: str, target: str = "", flags: list[str] | None = None,
                 diagnostics: list[str] | None = None):
        self.target = target
        self.flags = list(flags or [])
        self.diagnostics = list(diagnostics or [])
        text = message
        if target:
            text += f"\n  target: {target}"
        if self.flags:
            text += "\n  flags: " + " ".join(self.flags)
        if self.diagnostics:
            text += "\n  diagnostics:\n" + "\n".join("    " + d.replace("\n", "\n    ")
                                                    for d in self.diagnostics)
        super().__init__(text)


class CompileWarning(UserWarning):
    """A compile succeeded only by a fallback (e.g. a lower IREE optimization level)."""


class RuntimeCallError(HloMlirError, ValueError):
    """A compiled function was called with wrong arguments, or the runtime failed."""


class CallArgumentError(RuntimeCallError):
    """A compiled function was called with the wrong number, shapes or dtypes of arguments."""
