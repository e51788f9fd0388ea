"""Transforms, decompositions, FFT, complex kernels and graph primitives on GPU arrays,
under Numba's CUDA simulator (``tests/gpu_sim/``; the kernels' half is in ``test_gpu.py``,
so the suite's two workers run the halves side by side)."""
from cuda_simulator import KERNEL_FILES, OTHER_FILES, SIM_TESTS, run_under_simulator


def test_the_two_halves_run_every_simulator_test_file():
    files = sorted(p.name for p in SIM_TESTS.glob("test_*.py"))
    assert sorted(KERNEL_FILES + OTHER_FILES) == files


def test_gpu_transforms_and_decompositions_under_the_cuda_simulator():
    run_under_simulator(*OTHER_FILES)
