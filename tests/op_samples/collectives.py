"""Coverage samples of the collectives. Each builds a 2-replica program and samples its
emulated single-device module (``emulate-replicas``: arguments and results replica-major),
since IREE runs real collectives only on CUDA with one process per GPU."""

from __future__ import annotations

import numpy as np

from dialect_ops.collectives import set_replica_count
from hlo_mlir import (
    Add,
    AllGather,
    AllReduce,
    AllToAll,
    CollectivePermute,
    ConvertElementType,
    CrossReplicaSum,
    Parameter,
    ReduceScatter,
    ReplicaId,
    Shape,
    XlaBuilder,
)
from pipelines.legalizations.emulate_replicas import emulate_replicas
from tests.op_samples import Sample

N = 2
_X = [np.arange(8, dtype=np.float32).reshape(2, 4) + 10 * r for r in range(N)]


def _sample(name, op, expected) -> Sample:
    """``op(builder, x)`` on f32[2,4] for 2 replicas (replica r's x is ``_X[r]``)."""
    b = XlaBuilder(name)
    set_replica_count(b, N)
    computation = b.build(op(b, Parameter(b, 0, Shape.parse("f32[2,4]"), "x")))
    return Sample(emulate_replicas(computation), tuple(_X), tuple(expected))


def _add():
    r = XlaBuilder("add")
    s = Shape.parse("f32[]")
    return r.build(Add(Parameter(r, 0, s), Parameter(r, 1, s)))


def replica_id() -> Sample:
    return _sample("replica_id", lambda b, x: x * ConvertElementType(ReplicaId(b), np.float32),
                   [x * r for r, x in enumerate(_X)])


def all_reduce() -> Sample:
    return _sample("all_reduce", lambda b, x: AllReduce(x, _add()), [_X[0] + _X[1]] * N)


def cross_replica_sum() -> Sample:
    return _sample("cross_replica_sum", lambda b, x: CrossReplicaSum(x), [_X[0] + _X[1]] * N)


def all_gather() -> Sample:
    return _sample("all_gather", lambda b, x: AllGather(x, 1, N, [[1, 0]]),
                   [np.concatenate([_X[1], _X[0]], axis=1)] * N)


def all_to_all() -> Sample:
    blocks = [np.split(x, N, axis=1) for x in _X]
    return _sample("all_to_all", lambda b, x: AllToAll(x, 1, 0, N),
                   [np.concatenate([blocks[0][k], blocks[1][k]], axis=0) for k in range(N)])


def reduce_scatter() -> Sample:
    return _sample("reduce_scatter", lambda b, x: ReduceScatter(x, _add(), 1, N),
                   np.split(_X[0] + _X[1], N, axis=1))


def collective_permute() -> Sample:
    return _sample("collective_permute", lambda b, x: CollectivePermute(x, [(0, 1)]),
                   [np.zeros_like(_X[0]), _X[0]])


SAMPLES = {
    "ReplicaId": replica_id,
    "AllReduce": all_reduce,
    "CrossReplicaSum": cross_replica_sum,
    "AllGather": all_gather,
    "AllToAll": all_to_all,
    "ReduceScatter": reduce_scatter,
    "CollectivePermute": collective_permute,
}
