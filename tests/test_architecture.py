"""The shape of the code base, tested: the layers import downwards only, and every error the
project raises is one family.

engine (rules) <- protocol (the bot interface and its transport) <- bots (policies) <- arena, rl
(the learning environments, beside the arena and apart from it) <- the command line. The protocol's value types (`Limits`, options, `Policy`, the compiled `Decider`)
live in protocol/, so protocol/ never imports bots/.
"""
from __future__ import annotations

import ast
import io
import importlib
import inspect
import pkgutil
import re
import tokenize
from pathlib import Path

import pytest

from engine.errors import ExpeditionsError

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "protocol", "bots", "arena", "rl", "gui", "expeditions")
_CIMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+c?import|c?import\s+([\w.]+))", re.M)


def _imported_modules(path: Path) -> set[str]:
    """The modules a source file imports (Python via its syntax tree, Cython by its import lines)."""
    text = path.read_text()
    if path.suffix == ".py":
        found = set()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module)
        return found
    return {m.group(1) or m.group(2) for m in _CIMPORT.finditer(text)}


def _sources(package: str) -> list[Path]:
    return sorted(p for p in (ROOT / package).rglob("*") if p.suffix in (".py", ".pyx", ".pxd"))


@pytest.mark.parametrize("lower, upper", [("engine", "protocol"), ("engine", "bots"), ("engine", "arena"),
                                          ("protocol", "bots"), ("protocol", "arena"), ("bots", "arena"),
                                          *((lower, "gui") for lower in ("engine", "protocol", "bots", "arena")),
                                          ("engine", "rl"), ("protocol", "rl"), ("bots", "rl"), ("arena", "rl"),
                                          ("rl", "arena")])
def test_a_layer_does_not_import_the_layers_above_it(lower, upper):
    offenders = [f"{path.relative_to(ROOT)} imports {module}" for path in _sources(lower)
                 for module in _imported_modules(path) if module == upper or module.startswith(upper + ".")]
    assert not offenders, offenders


FRAMEWORKS = ("numpy", "gymnasium", "pettingzoo", "pyspiel", "open_spiel")
"""What rl/ needs beyond the engine: the optional extra `rl`, without which its modules are left out."""


def _product_modules() -> list[str]:
    names = []
    for package in PACKAGES:
        module = importlib.import_module(package)
        names.append(package)
        names.extend(info.name for info in pkgutil.walk_packages(module.__path__, package + ".")
                     if not info.name.endswith("__main__"))
    return [name for name in names if _importable(name)]


def _importable(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as err:
        if name.startswith("rl.") and (err.name or "").split(".")[0] in FRAMEWORKS:
            return False
        raise
    return True


def test_every_error_of_the_project_is_an_expeditions_error():
    """One family: the command line (and any caller) catches `ExpeditionsError` and gets them all.
    The reference models are left out: they import nothing of the engine, to stay independent."""
    strays = []
    for name in _product_modules():
        if ".reference" in name:
            continue
        module = importlib.import_module(name)
        for value in vars(module).values():
            if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == name \
                    and not issubclass(value, ExpeditionsError):
                strays.append(f"{name}.{value.__name__}")
    assert not strays, strays


# ----- the edition seam -----------------------------------------------------------------------------

def _family_folders() -> set[Path]:
    """The folders of the edition families: an engine package with an `edition.py`, and its
    namesakes in the layers above (bots/cards, bots/board, ...)."""
    names = {path.parent.name for path in (ROOT / "engine").glob("*/edition.py")}
    return {ROOT / package / name for package in PACKAGES for name in names if (ROOT / package / name).is_dir()}


def _code_strings(path: Path) -> list[tuple[int, str]]:
    """(line, text) of the string literals of a source file that are code, not documentation: a
    string standing alone as a statement (a docstring) does not count."""
    out = []
    tokens = list(tokenize.generate_tokens(io.StringIO(path.read_text()).readline))
    for i, token in enumerate(tokens):
        if token.type != tokenize.STRING:
            continue
        before = next((t for t in reversed(tokens[:i]) if t.type not in (tokenize.NL, tokenize.COMMENT)), None)
        after = next((t for t in tokens[i + 1:] if t.type not in (tokenize.NL, tokenize.COMMENT)), None)
        alone = (before is None or before.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)) \
            and (after is None or after.type in (tokenize.NEWLINE, tokenize.ENDMARKER))
        if not alone:
            out.append((token.start[0], token.string))
    return out


def _outside_the_families() -> list[Path]:
    families = _family_folders()
    return [path for package in PACKAGES for path in _sources(package) + sorted((ROOT / package).rglob("*.pyi"))
            if not any(folder in path.parents for folder in families)]


def test_no_module_outside_an_editions_own_files_names_an_edition():
    """An edition is added in one place: what the upper layers know of it comes from its record, so
    no module outside its family's folders names it in code (docstrings, whose examples use
    editions, are documentation)."""
    import engine

    names = "|".join(sorted(engine.EDITIONS))
    word = re.compile(rf"(?<![\w.-])({names})(?![\w-])")
    offenders = [f"{path.relative_to(ROOT)}:{line}: {text[:70]}" for path in _outside_the_families()
                 for line, text in _code_strings(path) if word.search(text)]
    assert not offenders, "\n".join(offenders)


def test_no_module_outside_an_editions_own_files_imports_them():
    families = _family_folders()
    dotted = {".".join(folder.relative_to(ROOT).parts) for folder in families}
    offenders = [f"{path.relative_to(ROOT)} imports {module}" for path in _outside_the_families()
                 for module in _imported_modules(path)
                 if any(module == family or module.startswith(family + ".") for family in dotted)]
    assert not offenders, offenders
