"""The image has no Docker engine to be built here: at least check that the Dockerfile copies
every package the project installs (a package left out fails at start, inside the image)."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_image_copies_every_package_it_installs():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = {p.rstrip("*") for p in project["tool"]["setuptools"]["packages"]["find"]["include"]}
    copied = set(re.findall(r"^COPY (\w+) \./\1$", (ROOT / "Dockerfile").read_text(), re.M))
    assert packages and packages <= copied, f"not copied into the image: {packages - copied}"
