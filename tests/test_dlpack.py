"""DLPack export and the file reader: a Tensor exports its value as PyTorch's does, a traced
value and a non-file refuse with a TypeError naming the fix."""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp


def test_a_tensor_exports_its_value_and_one_requiring_grad_refuses_as_pytorch():
    t = fg.tensor([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(np.from_dlpack(t), [1.0, 2.0, 3.0])
    with pytest.raises(BufferError, match="detach"):
        np.from_dlpack(fg.tensor([1.0], requires_grad=True))


def test_a_tensor_requiring_grad_refuses_as_torch_does():
    torch = pytest.importorskip("torch")
    with pytest.raises(BufferError, match="detach"):
        np.from_dlpack(torch.ones(1, requires_grad=True))


@pytest.mark.parametrize("reader", [np.from_dlpack, fnp.from_dlpack])
def test_a_traced_value_has_nothing_to_export(reader):
    with pytest.raises(TypeError, match="DLPack"):
        fg.grad(lambda x: np.sum(reader(x)))(np.ones(3))


def test_fromfile_reads_files_and_refuses_arrays(tmp_path):
    path = tmp_path / "x.bin"
    np.arange(4.0).tofile(path)
    np.testing.assert_array_equal(fnp.fromfile(path), np.arange(4.0))
    np.testing.assert_array_equal(fnp.fromfile(str(path), count=2), [0.0, 1.0])
    with pytest.raises(TypeError, match="file name or an open file"):
        fnp.fromfile(np.ones(3))
    with pytest.raises(TypeError, match="file name or an open file"):
        fg.grad(lambda x: np.sum(fnp.fromfile(x)))(np.ones(3))
