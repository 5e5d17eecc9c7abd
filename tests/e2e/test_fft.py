"""End to end: Fft (FFT, IFFT, RFFT, IRFFT over 1 to 3 axes) against numpy.fft and XLA CPU.

The pinned IREE compiles only 1-D power-of-two transforms over f32 / complex<f32>;
hlo-mlir runs the module after ``fft-expander`` (multi-axis, other lengths and f64 become
1-D transforms and DFT products), XLA runs the original. IRFFT inputs carry non-zero
imaginary parts in their DC and Nyquist terms, which every implementation ignores. All
cases of one dtype are one module.
"""

import numpy as np
import pytest

import hlo_mlir
from hlo_mlir import (
    DTypeError,
    Fft,
    FftType,
    InvalidArgumentError,
    Parameter,
    Shape,
    ShapeError,
    Tuple,
    XlaBuilder,
    compiler,
)
from pipelines import registry
from tests.oracle import assert_close, run_iree, run_xla

rng = np.random.default_rng(3)
COMPLEX_OF = {np.float32: np.complex64, np.float64: np.complex128}
TOLERANCE = {np.float32: 2e-5, np.float64: 1e-12}
# (fft_length, batch dimensions): 1 to 3 axes, power-of-two and other lengths (IREE compiles
# each transform of the expansion for about a second, so the list is short).
CASES = [([6], (3,)), ([16, 2], ()), ([4, 6], (2,)), ([3, 4, 5], ())]


def expanded(computation, **options):
    module = compiler.as_module(computation)
    registry.get("fft-expander")(**options).run(module)
    return module


def cases(real_dtype):
    """(fft_type, fft_length, operand, numpy result) for every type and CASES entry."""
    cdt = COMPLEX_OF[real_dtype]
    out = []
    for lengths, batch in CASES:
        shape, axes = batch + tuple(lengths), tuple(range(-len(lengths), 0))
        x = (rng.normal(size=shape) + 1j * rng.normal(size=shape)).astype(cdt)
        real = rng.normal(size=shape).astype(real_dtype)
        spectrum = (np.fft.rfftn(rng.normal(size=shape), axes=axes) + 0.25j).astype(cdt)
        out += [(FftType.FFT, lengths, x, np.fft.fftn(x, axes=axes)),
                (FftType.IFFT, lengths, x, np.fft.ifftn(x, axes=axes)),
                (FftType.RFFT, lengths, real, np.fft.rfftn(real, axes=axes)),
                (FftType.IRFFT, lengths, spectrum, np.fft.irfftn(spectrum, s=lengths, axes=axes))]
    return out


def check_cases(all_cases, real_dtype, **options):
    b = XlaBuilder("fft")
    comp = b.build(Tuple(b, [Fft(Parameter(b, i, Shape.from_numpy(x)), kind, lengths)
                             for i, (kind, lengths, x, _) in enumerate(all_cases)]))
    args = [x for _, _, x, _ in all_cases]
    module = expanded(comp, **options)
    tol = TOLERANCE[real_dtype]
    for who, outs in (("hlo-mlir", run_iree(module, *args)), ("XLA", run_xla(comp, *args)),
                      ("XLA on the expanded module", run_xla(module, *args))):
        for (kind, lengths, x, ref), r in zip(all_cases, outs, strict=True):
            scale = max(1.0, float(np.abs(ref).max()))
            expected = ref.astype(COMPLEX_OF[real_dtype] if ref.dtype.kind == "c" else real_dtype)
            assert_close(r, expected, rtol=tol, atol=tol * scale,
                         what=f"{who} vs numpy: {kind.name} {lengths} of {x.dtype}{list(x.shape)}")


@pytest.mark.parametrize("real_dtype", [np.float32, np.float64], ids=["f32", "f64"])
def test_fft_every_type_and_rank(real_dtype):
    check_cases(cases(real_dtype), real_dtype)


def test_long_lengths_split_cooley_tukey():
    """Composite lengths above max-direct-length are split (96 = 8 x 12, 100 = 10 x 10);
    67 is prime, one direct product."""
    x = (rng.normal(size=(2, 96)) + 1j * rng.normal(size=(2, 96))).astype(np.complex64)
    real = rng.normal(size=(2, 100)).astype(np.float32)
    spectrum = np.fft.rfft(rng.normal(size=(2, 67))).astype(np.complex64)
    check_cases([(FftType.FFT, [96], x, np.fft.fft(x)), (FftType.RFFT, [100], real, np.fft.rfft(real)),
                 (FftType.IRFFT, [67], spectrum, np.fft.irfft(spectrum, 67))], np.float32,
                max_direct_length=16)


def test_split_f64_power_of_two():
    x = (rng.normal(size=(128,)) + 1j * rng.normal(size=(128,))).astype(np.complex128)
    check_cases([(FftType.IFFT, [128], x, np.fft.ifft(x))], np.float64, max_direct_length=16)


def test_native_transform_is_kept():
    """A 1-D power-of-two complex<f32> FFT is left to IREE, whose answer matches."""
    x = (rng.normal(size=(3, 32)) + 1j * rng.normal(size=(3, 32))).astype(np.complex64)
    b = XlaBuilder("native")
    comp = b.build(Fft(Parameter(b, 0, Shape.from_numpy(x)), FftType.FFT, [32]))
    module = compiler.as_module(comp)
    assert not registry.get("fft-expander")().run(module)
    assert_close(run_iree(comp, x), np.fft.fft(x).astype(np.complex64), 2e-5, 2e-4, "native FFT")


def test_empty_operand():
    x = np.zeros((0, 8), np.float32)
    b = XlaBuilder("empty")
    comp = b.build(Fft(Parameter(b, 0, Shape.from_numpy(x)), FftType.RFFT, [8]))
    assert_close(run_iree(expanded(comp), x), np.zeros((0, 5), np.complex64), what="empty RFFT")


def test_fft_through_hlo_mlir_compile():
    x = (rng.normal(size=(4, 6)) + 1j * rng.normal(size=(4, 6))).astype(np.complex64)
    b = XlaBuilder("compile")
    comp = b.build(Fft(Parameter(b, 0, Shape.from_numpy(x)), FftType.FFT, [4, 6]))
    assert_close(run_iree(comp, x), np.fft.fft2(x).astype(np.complex64), 2e-5, 2e-4, "compile")


def test_two_axis_transform_is_rejected_by_iree_without_the_expander():
    b = XlaBuilder("raw")
    comp = b.build(Fft(Parameter(b, 0, Shape.parse("c64[4,8]")), FftType.FFT, [4, 8]))
    with pytest.raises(hlo_mlir.CompileError, match="failed to legalize operation 'stablehlo.fft'"):
        hlo_mlir.compile(comp, passes="O0", legalize=False)


@pytest.mark.parametrize("shape, kind, lengths, error, match", [
    ("f32[8]", FftType.FFT, [8], DTypeError, r"Fft requires a c64 or c128 operand for FFT; got f32\[8\]"),
    ("c64[8]", FftType.RFFT, [8], DTypeError, r"Fft requires an f32 or f64 operand for RFFT; got c64\[8\]"),
    ("c64[2,8]", FftType.FFT, [2, 4], ShapeError,
     r"Fft requires the 2 minor operand dimensions to be \[2, 4\] for FFT with fft_length \[2, 4\]; "
     r"got c64\[2,8\]"),
    ("c64[2,8]", FftType.IRFFT, [2, 8], ShapeError,
     r"Fft requires the 2 minor operand dimensions to be \[2, 5\] for IRFFT"),
    ("c64[2,2,2,2]", FftType.FFT, [2, 2, 2, 2], InvalidArgumentError,
     r"Fft requires 1 to 3 fft_length values \(axes\); got \[2, 2, 2, 2\]"),
    ("c64[8]", FftType.FFT, [2, 8], ShapeError, r"Fft requires an operand of rank >= 2"),
    ("c64[8]", "DCT", [8], InvalidArgumentError,
     r"Fft requires fft_type in \['FFT', 'IFFT', 'RFFT', 'IRFFT'\]"),
])
def test_fft_errors(shape, kind, lengths, error, match):
    b = XlaBuilder("bad")
    with pytest.raises(error, match=match):
        Fft(Parameter(b, 0, Shape.parse(shape)), kind, lengths)
