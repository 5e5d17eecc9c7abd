"""How many generated modules a hypothesis property test compiles and runs.

Property tests that compile and run every generated module under the semantics check
(``SemanticsChecker``: IREE before and after the passes, often XLA CPU too) cost about a
second per example. The default run takes a quarter of each test's examples (at least
three), so that every pass is still run under the check on every ``bash scripts/test.sh``;
``HLO_MLIR_THOROUGH=1`` takes them all (``HLO_MLIR_THOROUGH=1 bash scripts/test.sh -m ''``
is the full run). Structural property tests that only parse, transform and verify keep
their own counts: they are cheap.
"""

from __future__ import annotations

import os

__all__ = ["THOROUGH", "examples"]

THOROUGH = os.environ.get("HLO_MLIR_THOROUGH", "").strip().lower() not in ("", "0", "false", "no", "off")


def examples(thorough: int) -> int:
    """``thorough`` with ``HLO_MLIR_THOROUGH=1``; otherwise a quarter of it, at least 3."""
    return thorough if THOROUGH else min(thorough, max(3, thorough // 4))
