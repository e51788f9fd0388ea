"""Transforms, decompositions, FFT, complex kernels and graph primitives on GPU arrays,
under Numba's CUDA simulator (``tests/gpu_sim/``; the kernels' half is in ``test_gpu.py``,
so the suite's two workers run the halves side by side)."""
import pytest
from cuda_simulator import KERNEL_FILES, OTHER_FILES, SIM_TESTS, run_under_simulator


def test_the_two_halves_run_every_simulator_test_file():
    files = sorted(p.name for p in SIM_TESTS.glob("test_*.py"))
    assert sorted(KERNEL_FILES + OTHER_FILES) == files


def test_gpu_transforms_and_decompositions_under_the_cuda_simulator():
    run_under_simulator(*OTHER_FILES)


@pytest.mark.soak
def test_the_soak_grids_of_every_simulator_file_under_the_cuda_simulator():
    """The cases of tests/gpu_sim/ marked ``soak``: the rest of the grids whose
    representatives the two tests above run."""
    run_under_simulator(*KERNEL_FILES, *OTHER_FILES, soak=True)
