"""The type stubs (`.pyi`) of the compiled modules against the modules themselves, with mypy's
stubtest, so that a stub cannot rot silently: every public name a stub declares exists in its
compiled module and every public name of the module is in its stub, functions with the same
parameters (names, defaults, kinds), classes with the same members, read-only properties as such.

stubtest imports each module and introspects it; Cython's functions carry their signatures
(`inspect.signature` reads them), so it checks compiled modules as it checks Python ones. It does
not see parameter types (Cython keeps them in C); mypy checks the stubs' types against their uses.
"""
from __future__ import annotations

import ast
import contextlib
import importlib
import io
import re
import tomllib
from pathlib import Path

from mypy import stubtest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["packages"]
"""The packages mypy checks (pyproject.toml): every compiled module among them has a stub."""
COMPILED = sorted(".".join(path.relative_to(ROOT).with_suffix("").parts)
                  for package in PACKAGES for path in (ROOT / package).rglob("*.pyx"))

ALLOWED = [
    # What Cython adds to every module and class: its C API table, doctest hook and pickling.
    r".*\.__(pyx_capi|test|reduce_cython|setstate_cython)__",
    # Rules() raises TypeError: an edition's rules module makes its one Rules object.
    r"engine\._core\.Rules\.__init__",
    # Likewise Observation(): an edition's observation module makes its Observation objects.
    r"engine\.observation\.Observation\.__init__",
]

_FROM_IMPORT = re.compile(r"^from\s+\S+\s+import\s+(?:\([^)]*\)|.*)$", re.MULTILINE)


def _imported(module: str) -> list[str]:
    """The names a compiled module binds by `from … import …` at its top level: another module's
    face, which stubtest (reading no Cython source) would take for the module's own."""
    source = (ROOT / module.replace(".", "/")).with_suffix(".pyx").read_text()
    statements = (ast.parse(match.group(0)).body[0] for match in _FROM_IMPORT.finditer(source))
    return [alias.asname or alias.name for statement in statements for alias in statement.names]


def _installed(module: str, name: str) -> Path:
    """The file `name` beside `module` as it is installed (the wheel's, or the checkout's)."""
    return Path(importlib.import_module(module).__file__).with_name(name)


def test_every_compiled_module_ships_a_stub_and_every_package_a_marker():
    assert COMPILED, "no compiled module found"
    missing = [module for module in COMPILED if not _installed(module, module.rpartition(".")[2] + ".pyi").exists()]
    assert not missing, f"compiled modules installed without their stub: {missing}"
    unmarked = [package for package in PACKAGES if not _installed(package, "py.typed").exists()]
    assert not unmarked, f"packages installed without a py.typed marker: {unmarked}"


def test_the_stubs_match_the_compiled_modules(tmp_path, monkeypatch):
    allowlist = tmp_path / "allowlist.txt"
    allowlist.write_text("\n".join(ALLOWED + [re.escape(f"{module}.{name}")
                                              for module in COMPILED for name in _imported(module)]) + "\n")
    monkeypatch.chdir(ROOT)  # where mypy finds the stubs
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        # Only some of the imported names would be reported (stubtest sees where a class or a
        # function comes from), so entries may go unused.
        code = stubtest.test_stubs(stubtest.parse_options(
            ["--concise", "--ignore-unused-allowlist", "--allowlist", str(allowlist), *COMPILED]))
    assert code == 0, f"the stubs differ from the compiled modules:\n{out.getvalue()}"


def test_the_names_a_module_imports_are_read_from_its_source():
    imported = _imported("engine.cards.state")
    assert {"CARD_TEXT", "card_list", "NotationError", "resolve_options"} <= set(imported)
    assert "State" not in imported  # a cimport binds no Python name
