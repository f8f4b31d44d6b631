"""Every command the README shows runs as written: the ones that can run offline are run, in
the README's order, in one scratch directory (with a database of two games, the backup the
restore example names, `piecepack-bot` and `.venv/bin/python` meaning this checkout); each
of the others must match a reason in SKIPPED, so a new command is either run or explained."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot import storage
from bot.storage import Store
from tests import pg
from tests.test_bot_admin import add_game

ROOT = Path(__file__).resolve().parents[1]

# The first word of a command; a code block or an inline span starting otherwise (a URL, an
# option, a value) is not a command.
PROGRAM = re.compile(r"^(python3?|\.venv[/\\]\S*|piecepack-bot|pg_dump|pg_restore|docker|git|sudo|apt(-get)?|pip|"
                     r"\.|cd|\.ci/\S*|/tmp/\S*)(\s|$)")

# Commands the test does not run, and why (the first pattern that matches).
SKIPPED: list[tuple[str, str]] = [
    (r"^docker ", "needs Docker and the image (the platform checks build it)"),
    (r"^git |^cd piecepack-bot$", "needs the network and the repository's address"),
    (r"^(sudo )?apt ", "installs system packages (root, the network)"),
    (r"pip (install|download)", "downloads packages"),
    (r"^\.ci/run$", "runs the whole test suite, twice"),
    (r"^\.ci/check-platforms$", "asks PyPI for every platform's wheels: needs the network"),
    (r"benchmarks/bench_", "benchmarks take minutes and print figures, not results"),
    (r"^\. \.venv/bin/activate$|^\.venv\\Scripts\\activate$", "changes the calling shell"),
    (r"^((\.venv/bin/)?piecepack-bot|python -m bot)$", "runs the bot: needs a token and Discord"),
    (r"^piecepack-bot sync\b", "talks to Discord: needs a token"),
    (r"^piecepack-bot migrate-db --to postgresql://", "needs a PostgreSQL server (run below, "
                                                      "on the tests' PostgreSQL)"),
    (r"^pg_(dump|restore) ", "needs a PostgreSQL server (run below, on the tests' PostgreSQL)"),
    (r"^piecepack-bot daily ", "not a command: the line /record share posts"),
    (r"\[|\b(FILE|ID)\b", "a syntax summary with placeholders (its examples run)"),
]

# Placeholders an example may use, and what they stand for here.
PLACEHOLDERS = {"SERVER_ID": "123456789012345678"}

# Exit statuses other than 0 that a command shows on purpose.
EXPECTED_STATUS = {"piecepack-bot health": 1}   # no bot runs here: "unhealthy"


def readme_commands(text: str) -> list[str]:
    """The commands of the README's code blocks (indented after a blank line; `\\` joins
    lines) and of its inline code spans, in order."""
    found: list[tuple[int, str]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == "" and i + 1 < len(lines) and lines[i + 1].startswith("    ") \
                and not lines[i + 1].lstrip().startswith(("- ", "* ", "|")):
            indent = len(lines[i + 1]) - len(lines[i + 1].lstrip())
            offset = sum(len(line) + 1 for line in lines[:i + 1])
            block, i = [], i + 1
            while i < len(lines) and (lines[i].startswith(" " * indent) or
                                      (block and block[-1].endswith("\\"))):
                block.append(lines[i].strip())
                i += 1
            joined = re.sub(r"\\\n\s*", " ", "\n".join(block))
            found += [(offset + n, line.strip())
                      for n, line in enumerate(joined.splitlines()) if line.strip()]
            continue
        i += 1
    for match in re.finditer(r"`([^`]+)`", text):
        found.append((match.start(), " ".join(match.group(1).split())))
    return [command for _, command in sorted(found) if PROGRAM.match(command)]


def skip_reason(command: str) -> str | None:
    return next((why for pattern, why in SKIPPED if re.search(pattern, command)), None)


def scratch_directory(folder: Path) -> dict[str, str]:
    """A directory like a checkout's after the README's set-up: `.venv/bin/python` and
    `piecepack-bot` run this checkout's code; a database with two games; the backup that the
    restore example names. Returns the environment to run commands in."""
    bin_dir = folder / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for name, run in (("python", f'"{sys.executable}" "$@"'),
                      ("piecepack-bot", f'"{sys.executable}" -m bot "$@"')):
        script = bin_dir / name
        script.write_text(f"#!/bin/sh\nexec {run}\n")
        script.chmod(script.stat().st_mode | stat.S_IEXEC)

    async def database():
        store = await Store.open(str(folder / "piecepack.sqlite3"))
        await add_game(store, 123456789012345678)
        await add_game(store, 5)
        await store.close()

    asyncio.run(database())
    saved = folder / "saved.sqlite3"
    storage.backup(str(folder / "piecepack.sqlite3"), str(saved))
    return {"PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}",
            "PYTHONPATH": str(ROOT), "HOME": str(folder)}


def test_the_readme_lists_commands_and_each_runs_or_says_why_not():
    commands = readme_commands((ROOT / "README.md").read_text(encoding="utf-8"))
    run = [c for c in commands if skip_reason(c) is None]
    # what a parsing mistake would silently lose
    for expected in ("piecepack-bot backup backups/piecepack-$(date +%F).sqlite3",
                     "piecepack-bot restore backups/piecepack-2026-11-24.sqlite3",
                     "piecepack-bot forget-guild SERVER_ID", "piecepack-bot health",
                     ".venv/bin/python -m render relativity --seed 7 --out board.png"):
        assert expected in run
    assert any("variant=diagonal" in c and "--moves" in c for c in run)
    assert "docker build -t piecepack-bot ." in commands and ".ci/run" in commands


@pytest.mark.skipif(shutil.which("bash") is None, reason="the README's commands are for a POSIX shell")
def test_every_runnable_readme_command_runs_as_written(tmp_path):
    env = scratch_directory(tmp_path)
    commands = [c for c in readme_commands((ROOT / "README.md").read_text(encoding="utf-8"))
                if skip_reason(c) is None]
    for command in commands:
        if "restore backups/piecepack-2026-11-24.sqlite3" in command:
            # the backup it names, made before the example backup made its folder
            storage.backup(str(tmp_path / "saved.sqlite3"),
                           str(tmp_path / "backups" / "piecepack-2026-11-24.sqlite3"))
        line = command
        for placeholder, value in PLACEHOLDERS.items():
            line = re.sub(rf"\b{placeholder}\b", value, line)
        done = subprocess.run(["bash", "-c", line], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=120)
        output = done.stdout + done.stderr
        assert done.returncode == EXPECTED_STATUS.get(command, 0), f"{command}\n{output}"
        assert "Traceback" not in output, f"{command}\n{output}"
    for image in ("board.png", "gw.png", "galaxies.png", "gw-turn1.png"):
        assert (tmp_path / image).read_bytes().startswith(b"\x89PNG")


# The README's PostgreSQL set-up and commands (its "Running a public instance"), as written
# against the tests' PostgreSQL: its URL stands for the server the README calls localhost.
README_URL = "postgresql://piecepack:PASSWORD@localhost/piecepack"
PG_COMMAND = re.compile(r"^(piecepack-bot|pg_dump|pg_restore) .*" + re.escape(README_URL))


def public_instance_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Running a public instance")
    return text[start:text.index("\n## ", start + 1)]


def url_on_the_tests_server() -> str:
    """README_URL on the tests' server: its host (a unix socket folder, or PIECEPACK_TEST_PG's)."""
    parts = urlsplit(pg.SERVER.url)
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, f"piecepack:PASSWORD@{host}", "/piecepack", parts.query, ""))


@pytest.mark.parametrize("engine", ["postgresql"])   # (left out, as the PostgreSQL half, without a server)
def test_the_public_instance_postgresql_commands_run_as_written(tmp_path, pg_server, engine):
    section = public_instance_section()
    statements = [line.strip() for line in section.splitlines()
                  if line.strip().startswith(("CREATE ROLE", "CREATE DATABASE"))]
    commands = [c for c in readme_commands(section) if PG_COMMAND.match(c)]
    assert len(statements) == 2 and [c.split()[0] for c in commands] == [
        "piecepack-bot", "pg_dump", "pg_restore"], (statements, commands)
    pg.SERVER.admin('DROP DATABASE IF EXISTS "piecepack" WITH (FORCE)', "DROP ROLE IF EXISTS piecepack")
    try:
        pg.SERVER.admin(*statements)   # (as PostgreSQL's superuser, as the README says)
        env = scratch_directory(tmp_path)   # (a SQLite database of two games to migrate)
        if pg.pg_bin():
            env["PATH"] = f"{pg.pg_bin()}{os.pathsep}{env['PATH']}"
        url = url_on_the_tests_server()
        for command in commands:
            if "pg_restore" in command:   # the dump it names: the one just made
                made = next(tmp_path.glob("piecepack-*.dump"))
                shutil.copy(made, tmp_path / "piecepack-2026-11-24.dump")
            done = subprocess.run(["bash", "-c", command.replace(README_URL, url)], cwd=tmp_path,
                                  env=env, capture_output=True, text=True, timeout=120)
            output = done.stdout + done.stderr
            assert done.returncode == 0 and "Traceback" not in output, f"{command}\n{output}"

        async def games() -> int:
            store = await Store.open(url)
            try:
                async with store.engine.connection() as tx:
                    return (await tx.first("SELECT COUNT(*) FROM games"))[0]
            finally:
                await store.close()

        assert pg.in_thread(games()) == 2   # migrated, dumped and restored: both games there
    finally:
        pg.SERVER.admin('DROP DATABASE IF EXISTS "piecepack" WITH (FORCE)',
                        "DROP ROLE IF EXISTS piecepack")
