"""Compiles the tests' editions in the test session: a Cython module of tests/editions/ is built
into a temporary folder against the installed `engine` package's .pxd files and imported, so an
edition defined outside the package joins it as a plug-in would (`engine.editions.register`).

>>> import tempfile
>>> dash = load_dash(Path(tempfile.mkdtemp()))  # doctest: +SKIP
>>> dash.name, dash.rules.state_size  # doctest: +SKIP
('dash', 104)
"""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import engine
from engine.edition import Edition

HERE = Path(__file__).resolve().parent

FLAGS = ("-O1", "-Wno-unused-function")
"""A test fixture is compiled for a short build, not for speed (-O1 compiles it in about half of
-O3's time)."""


def compile_module(name: str, into: Path) -> ModuleType:
    """Cythonizes and compiles tests/editions/<name>.pyx into the folder `into` (the generated C
    and the build files too: nothing is written beside the source) and imports it as `name`."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    include = str(Path(engine.__file__).resolve().parent.parent)  # where `engine/_core.pxd` is found
    extension = Extension(name, [str(HERE / f"{name}.pyx")], extra_compile_args=list(FLAGS))
    [extension] = cythonize([extension], include_path=[include], build_dir=str(into / "c"), quiet=True,
                            compiler_directives={"language_level": "3"})
    command = Distribution({"name": name, "ext_modules": [extension]}).get_command_obj("build_ext")
    command.build_lib, command.build_temp = str(into), str(into / "temp")
    command.ensure_finalized()
    with open(os.devnull, "w") as quiet:  # the compiler's command lines go to stdout
        saved, sys.stdout = sys.stdout, quiet
        try:
            command.run()
        finally:
            sys.stdout = saved
    return _import(name, Path(command.get_ext_fullpath(name)))


def _import(name: str, path: Path) -> ModuleType:
    """Imports the file `path` as the module `name`, importable by that name afterwards (the
    record imports its compiled module by name, and pickle finds a state's class so)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_dash(into: Path) -> Edition:
    """Compiles `dash` into `into` and returns its record (not registered: the caller does that)."""
    compile_module("dash_game", into)
    return _import("dash_edition", HERE / "dash_edition.py").DASH
