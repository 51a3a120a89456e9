"""Builds numagpu_policy._reference from the checkout's C++ (tb/python/pyproject.toml) and copies the RTL into
the package (numagpu_policy/rtl), where numagpu_policy.rtl finds it."""

import os
import shutil
from pathlib import Path

from pybind11.setup_helpers import Pybind11Extension
from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent  # the checkout: models/, rtl/
# setuptools' scratch files (objects, the copied sources, the egg-info) go to build/ beside this file, or to
# $NUMAGPU_PIP_BUILD_DIR (ctest's rtl_python_pip_install keeps the source tree clean with it).
BUILD = Path(os.environ.get("NUMAGPU_PIP_BUILD_DIR", "build"))

class BuildPyWithRtl(build_py):
    """Adds the RTL the RTL classes Verilate (rtl/*.sv, *.svh, *.f, rtl/prim/*.sv) and tb/verilated_dut.hpp."""

    def run(self):
        super().run()
        dest = Path(self.build_lib) / "numagpu_policy" / "rtl"
        (dest / "prim").mkdir(parents=True, exist_ok=True)
        for pattern in ["*.sv", "*.svh", "*.f"]:
            for f in (ROOT / "rtl").glob(pattern):
                shutil.copy2(f, dest / f.name)
        for f in (ROOT / "rtl" / "prim").glob("*.sv"):
            shutil.copy2(f, dest / "prim" / f.name)
        # The clocking the C shim (rtl_capi.cpp) shares with the lockstep tests.
        shutil.copy2(ROOT / "tb" / "verilated_dut.hpp", dest.parent / "verilated_dut.hpp")

def checkout_sources():
    """The reference models' C++ from the checkout (models/policy), copied under build/ (setuptools takes only
    paths relative to setup.py, and objects of ../ paths would land outside build/)."""
    dest = BUILD / "numagpu_src"
    (dest / "policy").mkdir(parents=True, exist_ok=True)
    for f in (ROOT / "models" / "policy").glob("*.?pp"):
        if not (dest / "policy" / f.name).exists() or (dest / "policy" / f.name).read_bytes() != f.read_bytes():
            shutil.copy2(f, dest / "policy" / f.name)
    return dest


SRC = checkout_sources()

setup(
    ext_modules=[
        Pybind11Extension(
            "numagpu_policy._reference",
            ["numagpu_policy/_reference.cpp", str(SRC / "policy" / "link_balancer.cpp"),
             str(SRC / "policy" / "partition_controller.cpp")],
            include_dirs=[str(SRC)],
            cxx_std=17,
        )
    ],
    package_data={"numagpu_policy": ["rtl_capi.cpp"]},
    cmdclass={"build_py": BuildPyWithRtl},
    options={"build": {"build_base": str(BUILD)}, "egg_info": {"egg_base": str(BUILD)}},
)
