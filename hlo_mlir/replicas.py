"""Running an N-replica, P-partition program on one CPU device: ``run_replicated``.

The ``emulate-replicas`` pass (pipelines/legalizations/emulate_replicas.py) turns the program
into an ordinary single-device one, every process side by side; this compiles and runs it
(docs/collectives.md), as a reference for the multi-device path and for tests.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from hlo_mlir import ir_access, runtime
from hlo_mlir.compiler import compile as compile_module
from hlo_mlir.errors import InvalidArgumentError
from pipelines.legalizations.emulate_replicas import emulate_replicas

__all__ = ["run_replicated"]


def run_replicated(source, per_replica_args: Sequence[Sequence], num_replicas: int | None = None,
                   target: str = "llvm-cpu", driver: str = "local-task", num_partitions: int = 1) -> list:
    """Runs an N-replica, P-partition computation on one device through ``emulate-replicas``.

    ``per_replica_args[k]`` holds process k's arguments (replica ``k // P``, partition
    ``k % P``; with one partition, replica k's); returns one result per process (an
    array, or a flat tuple of arrays for a tuple result, as ``hlo_mlir.runtime`` does).
    """
    per_replica_args = [list(a) for a in per_replica_args]
    if not isinstance(num_partitions, int) or num_partitions < 1:
        raise InvalidArgumentError(f"run_replicated requires num_partitions >= 1; got {num_partitions!r}.")
    n = num_replicas or len(per_replica_args) // num_partitions
    if len(per_replica_args) != n * num_partitions:
        each = (f"replica ({n})" if num_partitions == 1 else
                f"process ({n * num_partitions}: {n} replicas x {num_partitions} partitions)")
        raise InvalidArgumentError(f"run_replicated requires one argument list per {each}; "
                                   f"got {len(per_replica_args)}.")
    emulated = emulate_replicas(source, n, num_partitions)
    n *= num_partitions
    first_result = ir_access.function_type(emulated.entry_function()).results[0]
    outputs = runtime.load(compile_module(emulated, target), driver).main(
        *[a for args in per_replica_args for a in args])
    outputs = list(outputs) if isinstance(outputs, tuple) else [outputs]
    per = len(outputs) // n
    grouped = [outputs[r * per:(r + 1) * per] for r in range(n)]
    single = per == 1 and not isinstance(first_result, ir.TupleType)
    return [g[0] if single else tuple(g) for g in grouped]
