"""hlo-mlir: XLA's builder API and HLO passes over StableHLO, compiled by IREE.

The op functions (``Add``, ``Reduce``, ...) come from the ``dialect_ops`` family
modules and are re-exported here, so ``from hlo_mlir import *`` gives XLA's names.
"""

# Core first: the dialect_ops families import these modules.
from hlo_mlir.errors import *  # noqa: F401,F403
from hlo_mlir.types import PrimitiveType  # noqa: F401
from hlo_mlir.shape import ProgramShape, Shape  # noqa: F401
from hlo_mlir.builder import Parameter, XlaBuilder, XlaComputation, XlaOp  # noqa: F401

from dialect_ops.constant import *  # noqa: F401,F403,E402
from dialect_ops.elementwise import *  # noqa: F401,F403,E402
from dialect_ops.shape_ops import *  # noqa: F401,F403,E402

from hlo_mlir import runtime  # noqa: E402,F401
from hlo_mlir.compiler import compile  # noqa: E402,F401
from dialect_ops.slicing import *  # noqa: F401,F403,E402
from dialect_ops.tuple_ops import *  # noqa: F401,F403,E402
from dialect_ops.linalg import *  # noqa: F401,F403,E402
from dialect_ops.reduction import *  # noqa: F401,F403,E402
from dialect_ops.control_flow import *  # noqa: F401,F403,E402
from hlo_mlir.module import HloModule  # noqa: E402,F401
from dialect_ops.convolution import *  # noqa: F401,F403,E402
from dialect_ops.windows import *  # noqa: F401,F403,E402
from dialect_ops.indexing import *  # noqa: F401,F403,E402
from dialect_ops.sorting import *  # noqa: F401,F403,E402
from dialect_ops.rng import *  # noqa: F401,F403,E402
from dialect_ops.linalg_math import *  # noqa: F401,F403,E402
from dialect_ops.fft import *  # noqa: F401,F403,E402
from dialect_ops.batchnorm import *  # noqa: F401,F403,E402
from dialect_ops.collectives import *  # noqa: F401,F403,E402
from dialect_ops.side_effects import *  # noqa: F401,F403,E402
from dialect_ops.custom_call import *  # noqa: F401,F403,E402
from dialect_ops.dynamic import *  # noqa: F401,F403,E402
