"""Package list for funcgrad; every other setting lives in setup.cfg.

setup.cfg's `packages =` takes either `find:` or an explicit list, not both. funcgrad needs
both: funcgrad and all of its subpackages (found), plus the top-level kernels/ tree installed
as funcgrad.kernels through `package_dir` in setup.cfg (listed, with its subpackages found).
"""
from pathlib import Path

from setuptools import find_packages, setup

HERE = Path(__file__).resolve().parent

packages = find_packages(where=str(HERE), include=["funcgrad", "funcgrad.*"])
# kernels/ -> funcgrad.kernels, kernels/cpu -> funcgrad.kernels.cpu, kernels/cuda -> ...
packages += ["funcgrad.kernels"] + [
    "funcgrad.kernels." + name for name in find_packages(where=str(HERE / "kernels"))
]

setup(packages=packages)
