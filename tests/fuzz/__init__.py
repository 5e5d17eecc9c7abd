"""A differential fuzzer: random builder programs, compiled by hlo-mlir, compared with XLA CPU.

- ``generator``: ``generate(seed, index)`` builds program ``index`` of ``seed`` (the same
  program every time) with the builder API, records it as Python builder code, and draws
  its inputs (special values included).
- ``compare``: what "the same answer" means per element type (exact for integers and for
  values both implementations must compute exactly, tolerances for the rest).
- ``runner``: worker processes that compile (several programs per IREE module), run and
  compare; a worker that dies or hangs is replaced and its programs retried one by one,
  so a crash is a finding, never the end of the run.
- ``reduce``: shrinks a finding to the few builder calls that still fail the same way.
- ``known``: documented defects reported as ``known`` instead of as findings (empty).
- ``__main__``: the command line (``python -m tests.fuzz --seed 1 --count 100``,
  ``scripts/fuzz.sh``). docs/fuzzing.md explains the modes and how to read a finding.
"""
