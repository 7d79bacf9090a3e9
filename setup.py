"""Builds the Cython extensions: every `.pyx` file of the installed packages (pyproject.toml's
`packages.find`); everything else is declared in pyproject.toml.

Set EXPEDITIONS_CFLAGS to replace the optimisation flags (e.g. "-O0 -g" for debugging). The build
uses every CPU (Cython's translation and the C compiler alike; EXPEDITIONS_JOBS=N sets how many), and
a rebuild in the same tree translates and compiles only what changed.
"""
import os
import platform
import tomllib
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext


def compiled_modules() -> list[str]:
    """The dotted names of the `.pyx` modules of every package that is installed."""
    with open("pyproject.toml", "rb") as f:
        include = tomllib.load(f)["tool"]["setuptools"]["packages"]["find"]["include"]
    return sorted(f"{package}.{path.stem}" for package in find_packages(include=include)
                  for path in Path(*package.split(".")).glob("*.pyx"))


def _amd_family() -> int | None:
    """The CPU family on AMD processors, read from /proc/cpuinfo (None elsewhere)."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            info = f.read(8192)
    except OSError:
        return None
    if "AuthenticAMD" not in info:
        return None
    for line in info.splitlines():
        if line.startswith("cpu family"):
            return int(line.split(":")[1])
    return None


def compile_args() -> list[str]:
    """Optimisation flags: the engine is built on the machine that runs it, like Stockfish's
    ARCH=native builds. BMI2's PDEP selects the r-th legal card in one instruction, which makes
    random playouts ~1.6x faster; AMD Zen 1/2 (family 23) microcode PDEP, so it is avoided there.
    No debug information (`-g0` after Python's own `-g`): it changes no instruction and cost a
    quarter of the install's compile time (symbols stay, so perf still names the functions)."""
    if "EXPEDITIONS_CFLAGS" in os.environ:
        return os.environ["EXPEDITIONS_CFLAGS"].split()
    args = ["-O3", "-g0", "-fno-strict-aliasing", "-Wno-unused-function"]
    if platform.machine() in ("x86_64", "AMD64"):
        args.append("-march=native")
        if _amd_family() == 23:
            args.append("-DEXP_SLOW_PDEP")
    return args


def jobs() -> int:
    """Parallel jobs of the build: EXPEDITIONS_JOBS, else the CPUs this process may use."""
    if os.environ.get("EXPEDITIONS_JOBS"):
        return max(1, int(os.environ["EXPEDITIONS_JOBS"]))
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


class ParallelBuildExt(build_ext):
    """build_ext compiling `jobs()` extensions at once unless told otherwise (`-j N`): pip's build
    calls it without flags, and a serial build of the engine takes twice as long on two cores."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = jobs()


def largest_first(names: list[str]) -> list[str]:
    """The modules by the size of their source, largest first: the longest compiles start first, so
    the parallel jobs end together."""
    return sorted(names, key=lambda name: -Path(name.replace(".", "/") + ".pyx").stat().st_size)


def translated(pyx: str) -> bool:
    """Whether the module's C file is newer than the module and every .pxd of this project it
    cimports. Cython's own check also counts its bundled .pxd files, which an isolated build (pip's
    default) installs afresh each time, so a reinstall would translate and compile everything again."""
    c_file = Path(pyx).with_suffix(".c")
    if not c_file.exists() or os.environ.get("EXPEDITIONS_ANNOTATE"):
        return False
    from Cython.Build.Dependencies import create_dependency_tree
    ours = [Path(d) for d in create_dependency_tree().all_dependencies(pyx) if not Path(d).is_absolute()
            or Path(d).resolve().is_relative_to(Path.cwd().resolve())]
    return all(d.stat().st_mtime <= c_file.stat().st_mtime for d in ours)


sources = {name: name.replace(".", "/") + ".pyx" for name in largest_first(compiled_modules())}
stale = [Extension(name, [pyx], extra_compile_args=compile_args()) for name, pyx in sources.items()
         if not translated(pyx)]
fresh = [Extension(name, [pyx[:-4] + ".c"], extra_compile_args=compile_args()) for name, pyx in sources.items()
         if translated(pyx)]  # build_ext then compiles only a C file newer than its built module

setup(
    ext_modules=cythonize(
        stale,
        compiler_directives={"language_level": "3", "embedsignature": True},
        annotate=bool(os.environ.get("EXPEDITIONS_ANNOTATE")),
        nthreads=jobs(),
    ) + fresh,
    cmdclass={"build_ext": ParallelBuildExt},
)
