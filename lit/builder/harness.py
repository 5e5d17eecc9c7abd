"""What the builder lit scripts share (not a test itself: ``lit.cfg.py`` excludes it).

``test(name, build)`` prints a ``TEST: name`` header for ``CHECK-LABEL``, then the module
that ``build(b)`` makes with a fresh ``XlaBuilder`` ``b``; ``params`` and ``computation`` are
the tests' (``tests/builders.py``).
"""

from dialect_ops.collectives import set_replica_count
from hlo_mlir import Add, XlaBuilder
from tests.builders import computation, params

__all__ = ["test", "params", "computation", "add_f32"]


def test(name, build, replicas=None):
    print(f"TEST: {name}")
    b = XlaBuilder(name)
    if replicas:
        set_replica_count(b, replicas)
    print(b.build(build(b)))


def add_f32():
    """The f32 scalar adder (a reducer)."""
    r = XlaBuilder("add")
    return r.build(Add(*params(r, "f32[]", "f32[]")))
