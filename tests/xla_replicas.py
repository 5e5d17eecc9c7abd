"""XLA CPU as the oracle of N-replica programs: runs each replica on its own CPU device.

XLA only makes N CPU devices when ``XLA_FLAGS=--xla_force_host_platform_device_count=N``
is set before jax initializes, so the programs run in a child process (this file run as
a script); the parent (``run_xla_replicated``) sends the module texts and the
per-replica arguments, and gets back every replica's results. One child runs a whole
batch of cases (jax's start-up costs seconds). Each module is compiled with
``num_replicas = N`` and a device assignment of the first N devices, and executed with
one buffer per device for every argument (``execute_sharded``), as tests/oracle.py does
for one device. All private jax API use of the replica oracle is in this file.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
from typing import Sequence

import numpy as np


def run_xla_replicated(cases: Sequence[tuple], timeout: float = 600) -> list[list]:
    """Runs ``cases`` (each ``(computation, per_process_args, num_replicas)`` or
    ``(computation, per_process_args, num_replicas, num_partitions)``) on XLA CPU; returns,
    per case, one result per process (replica-major: process ``r * P + p`` is replica r,
    partition p): an array, or a flat tuple of arrays when the result is a tuple
    (hlo_mlir.runtime's convention). More than one partition compiles with XLA's SPMD
    partitioning on (XLA CPU requires it), which rejects ``partition_id``."""
    from tests.oracle import _flat_entry_text, _flatten

    jobs = []
    for computation, per_replica_args, n, *partitions in cases:
        p = partitions[0] if partitions else 1
        text, params, results = _flat_entry_text(computation)
        if len(per_replica_args) != n * p:
            raise ValueError(
                f"run_xla_replicated requires {n * p} argument lists; got {len(per_replica_args)}.")
        single = len(results) == 1 and not results[0].is_tuple
        jobs.append((text, (n, p), [_flatten(args, params) for args in per_replica_args], single))
    with tempfile.TemporaryDirectory() as tmp:
        request, reply = os.path.join(tmp, "request.pkl"), os.path.join(tmp, "reply.pkl")
        with open(request, "wb") as f:
            pickle.dump([(text, grid, args) for text, grid, args, _ in jobs], f)
        devices = max(n * p for _, (n, p), _, _ in jobs)
        env = dict(os.environ, JAX_PLATFORMS="cpu",
                   XLA_FLAGS=f"--xla_force_host_platform_device_count={devices}")
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), request, reply], env=env,
                              capture_output=True, text=True, timeout=timeout)
        if proc.returncode:
            raise RuntimeError(
                f"the XLA replica oracle failed (exit {proc.returncode}):\n{proc.stderr[-4000:]}")
        with open(reply, "rb") as f:
            outputs = pickle.load(f)
    return [[outs[0] if single else tuple(outs) for outs in per_replica]
            for (_, _, _, single), per_replica in zip(jobs, outputs, strict=True)]


# --- the child ----------------------------------------------------------------------------------
def _run_case(client, xc, text: str, grid: tuple[int, int],
              per_replica_args: list[list[np.ndarray]]) -> list[list[np.ndarray]]:
    import jax
    from jax._src import core
    from jax.sharding import Mesh, NamedSharding, PartitionSpec, SingleDeviceSharding

    replicas, partitions = grid
    n = replicas * partitions  # processes, replica-major (device r * P + p)
    devices = client.local_devices()[:n]
    options = xc.CompileOptions()
    build = options.executable_build_options
    build.num_replicas, build.num_partitions = replicas, partitions
    build.use_spmd_partitioning = partitions > 1
    build.device_assignment = xc.DeviceAssignment.create(np.arange(n).reshape(replicas, partitions))
    exe = client.compile_and_load(text, xc.DeviceList(tuple(devices)), options)
    # One array per argument whose shard on device r is replica r's value (the "replicated"
    # sharding only tells jax that every device holds a whole array).
    mesh = Mesh(np.array(devices), ("replica",))
    arrays = []
    for i in range(len(per_replica_args[0])):
        values = [per_replica_args[r][i] for r in range(n)]
        singles = [xc.batched_device_put(core.ShapedArray(v.shape, v.dtype), SingleDeviceSharding(d), [v],
                                         [d], True, True, xc.HostBufferSemantics.IMMUTABLE_ONLY_DURING_CALL,
                                         enable_x64=True)
                   for v, d in zip(values, devices, strict=True)]
        sharding = NamedSharding(mesh, PartitionSpec())
        arrays.append(jax.make_array_from_single_device_arrays(values[0].shape, sharding, singles))
    per_output = exe.execute_sharded(arrays).disassemble_into_single_device_arrays()
    return [[np.asarray(per_output[k][r]) for k in range(len(per_output))] for r in range(n)]


def _main(request: str, reply: str) -> None:
    import jax
    import jax.extend.backend
    from jax._src.lib import xla_client

    jax.config.update("jax_enable_x64", True)
    client = jax.extend.backend.get_backend("cpu")
    with open(request, "rb") as f:
        jobs = pickle.load(f)
    outputs = [_run_case(client, xla_client, text, grid, args) for text, grid, args in jobs]
    with open(reply, "wb") as f:
        pickle.dump(outputs, f)


if __name__ == "__main__":
    _main(sys.argv[1], sys.argv[2])
