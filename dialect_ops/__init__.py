"""StableHLO op emission for hlo-mlir: one module per op family.

Each family module holds, per op, the public builder function (spec name, XlaOp in
and out), its shape rule (``Shape`` in and out, raising our errors) and its emit
step (``ir.Value`` in and out, used by the builder and by passes alike).
``_emit`` is the only module that creates MLIR operations.
"""

import hlo_mlir  # noqa: F401  (hlo_mlir's core must load before the families)
