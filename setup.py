"""Builds the Cython extensions; everything else is declared in pyproject.toml.

Set EXPEDITIONS_CFLAGS to replace the optimisation flags (e.g. "-O0 -g" for debugging).
"""
import os
import platform

from Cython.Build import cythonize
from setuptools import Extension, setup

MODULES = [
    "engine._core",
    "engine.lostcities",
]


def compile_args() -> list[str]:
    if "EXPEDITIONS_CFLAGS" in os.environ:
        return os.environ["EXPEDITIONS_CFLAGS"].split()
    args = ["-O3", "-fno-strict-aliasing", "-Wno-unused-function"]
    # x86-64-v2 (2009 and later) has POPCNT, which the bitboards use in every move generation.
    if platform.machine() in ("x86_64", "AMD64"):
        args.append("-march=x86-64-v2")
    return args


extensions = [
    Extension(name, [name.replace(".", "/") + ".pyx"], extra_compile_args=compile_args())
    for name in MODULES
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={"language_level": "3", "embedsignature": True},
        annotate=bool(os.environ.get("EXPEDITIONS_ANNOTATE")),
    ),
)
