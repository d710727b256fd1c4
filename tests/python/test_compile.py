"""cutec.compile: outputs, signatures, options and compile errors."""

import subprocess

import pytest

import cutec
from cutec import _tools
from conftest import example


def test_compile_a_file():
    k = cutec.compile(example("vector_add.cute"))
    assert k.name == "vector_add" and k.arch == "sm_100a"
    assert ".entry vector_add(" in k.ptx and ".target sm_100a" in k.ptx
    assert "vector_add" in k.emulation_source


def test_signature_describes_parameters_sizes_and_launch():
    sig = cutec.compile(example("hopper_gemm.cute"), arch="sm_90a").signature
    assert [(p.name, p.kind) for p in sig.params] == [
        ("mA", "tensor"), ("mB", "tensor"), ("mC", "tensor"), ("M", "size"), ("K", "size"),
        ("N", "size"), ("mA_tmap", "tensormap"), ("mB_tmap", "tensormap"),
        ("mC_tmap", "tensormap")]
    assert [p.name for p in sig.arguments] == ["mA", "mB", "mC"]
    assert sig.sizes == ("M", "K", "N")
    mA = sig.params[0]
    assert (mA.dtype, mA.layout, mA.modes) == ("f16", "(M,K):(K,1)", (("M", "K"), ("K", 1)))
    assert sig.assumptions == (("N", 8), ("K", 8))
    assert sig.block == (384, 1, 1) and sig.cluster is None and sig.shared_bytes > 0
    text = repr(sig)
    assert "grid (min(sm_count, ceil_div(M, 128)*ceil_div(N, 256)), 1, 1)" in text
    assert "mA_tmap: tensormap<f16, dims (K,M), strides (K), box (64,128), swizzle 128B> of mA" in text


def test_scalar_parameters_and_clusters():
    sig = cutec.compile(example("rmsnorm.cute")).signature
    assert [(p.name, p.dtype) for p in sig.scalars] == [("eps", "f32")]
    sig = cutec.compile(example("softmax_cluster.cute"), kernel="softmax_cluster8").signature
    assert sig.cluster == (8, 1, 1)


def test_compile_source_text():
    source = open(example("vector_add.cute")).read()
    k = cutec.compile(source)
    assert k.ptx == cutec.compile(example("vector_add.cute")).ptx


def test_choosing_a_kernel():
    with pytest.raises(ValueError, match=r"defines 2 kernels \(softmax_cluster8, "
                                         r"softmax_cluster16\): choose one with kernel="):
        cutec.compile(example("softmax_cluster.cute"))
    with pytest.raises(ValueError, match="defines no kernel 'softmax' "):
        cutec.compile(example("softmax_cluster.cute"), kernel="softmax")


def test_compile_error_is_the_command_s_diagnostic():
    source = "@kernel(block=32, grid=(1, 1, 1))\ndef k(x: Tensor[f32, (n,):(1,)]):\n    x[0] = y\n"
    with pytest.raises(cutec.CompileError) as error:
        cutec.compile(source)
    command = subprocess.run([_tools.cutec_executable(), "-", "-o", "/dev/null"], input=source,
                             capture_output=True, text=True)
    assert command.returncode == 1
    assert error.value.diagnostics == command.stderr
    assert str(error.value).startswith("<stdin>:3:12: error: ")
    assert "^" in str(error.value)


def test_bad_options_are_compile_errors():
    with pytest.raises(cutec.CompileError, match="unsupported --arch 'sm_80'"):
        cutec.compile(example("vector_add.cute"), arch="sm_80")
    with pytest.raises(cutec.CompileError, match="--disable-pass=fmad: only the optimisation"):
        cutec.compile(example("vector_add.cute"), disable_pass=["fmad"])


def test_missing_file():
    with pytest.raises(FileNotFoundError, match="cannot read 'nowhere.cute'"):
        cutec.compile("nowhere.cute")


def test_options_reach_the_compiler():
    plain = cutec.compile(example("rmsnorm.cute")).ptx
    assert "fma.rn.f32" in plain
    assert "fma.rn.f32" not in cutec.compile(example("rmsnorm.cute"), fmad=False).ptx
    lines = cutec.compile(example("rmsnorm.cute"), lineinfo=True).ptx
    assert ".loc" not in plain and ".loc" in lines and ".file" in lines
    assert cutec.compile(example("rmsnorm.cute"), disable_pass="licm").ptx != ""
