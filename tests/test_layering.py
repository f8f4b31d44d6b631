"""Imports flow one way, bot -> render -> engine, and nothing pulls in Pillow."""

from __future__ import annotations

import ast
import re
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent

# package -> top-level modules it must never import
FORBIDDEN = {
    # The rules are pure: no I/O, no clock, no chance but the seeded one in the state.
    "engine": {"render", "bot", "discord", "aiosqlite", "asyncpg", "random", "secrets", "os",
               "time", "datetime", "asyncio"},
    "render": {"bot", "discord", "aiosqlite", "asyncpg", "PIL"},
    # Computer players decide from a view with their own seeded chance: no clock, no I/O.
    "computer": {"render", "bot", "discord", "aiosqlite", "asyncpg", "random", "secrets", "os",
                 "time", "datetime", "asyncio"},
}


def imported_modules(path: Path, package_dir: Path) -> set[str]:
    """Top-level names of every module `path` (inside `package_dir`) imports, with relative
    imports resolved: the package's own name, or a sibling package's."""
    package = package_dir.name
    tree = ast.parse(path.read_text(), filename=str(path))
    depth = len(path.relative_to(package_dir).parts)  # 1 for package/x.py
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                names.add(node.module.split(".")[0])
            elif node.level > depth:
                # `from .. import x` from a package's top level reaches a sibling package
                names.add((node.module or node.names[0].name).split(".")[0])
            else:
                names.add(package)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
            "import_module", "__import__"
        ) and node.args and isinstance(node.args[0], ast.Constant):
            names.add(str(node.args[0].value).lstrip(".").split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_layers_import_only_downwards(package):
    files = sorted((ROOT / package).rglob("*.py"))
    if package == "engine":
        assert files, "engine has no modules?"
    offences = {
        str(path.relative_to(ROOT)): sorted(imported_modules(path, ROOT / package) & FORBIDDEN[package])
        for path in files
    }
    assert {path: bad for path, bad in offences.items() if bad} == {}


def test_the_checker_sees_relative_and_dynamic_imports(tmp_path):
    pkg = tmp_path / "engine" / "sub"
    pkg.mkdir(parents=True)
    probe = tmp_path / "engine" / "probe.py"
    probe.write_text("import random\nfrom ..render import svg\nfrom . import core\n"
                     "from importlib import import_module\nimport_module('discord.ui')\n")
    deep = pkg / "deep.py"
    deep.write_text("from ...bot import app\nfrom .. import core\nimport PIL.Image\n")
    engine_dir = tmp_path / "engine"
    assert imported_modules(probe, engine_dir) == {"random", "render", "engine", "importlib", "discord"}
    assert imported_modules(deep, engine_dir) == {"bot", "engine", "PIL"}


# --------------------------------------------------------------------------- no Pillow


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def dependency_tree(root: str, extras=()) -> set[str]:
    """Normalised names of every distribution `root` requires, directly or not, for the
    given extras of the root (sub-dependencies are followed without extras)."""
    seen: set[str] = set()
    todo = [(root, tuple(extras))]
    while todo:
        name, wanted = todo.pop()
        dist = metadata.distribution(name)
        for text in dist.requires or []:
            req = Requirement(text)
            if req.marker is not None and not any(
                req.marker.evaluate({"extra": extra}) for extra in ("", *wanted)
            ):
                continue
            key = _normal(req.name)
            if key not in seen:
                seen.add(key)
                todo.append((req.name, tuple(req.extras)))
    return seen


def test_no_pillow_anywhere_in_the_dependency_tree():
    tree = dependency_tree("piecepack-bot", extras=("test", "postgres"))
    assert {"discord-py", "aiosqlite", "resvg", "pytest", "asyncpg"} <= tree
    assert "pillow" not in tree


def test_the_walk_reaches_indirect_dependencies():
    """The walk follows requirements down the tree (so a Pillow deep inside would show)."""
    tree = dependency_tree("piecepack-bot")
    assert "aiohttp" in tree          # discord.py -> aiohttp
    assert "yarl" in tree             # discord.py -> aiohttp -> yarl
