"""The image has no Docker engine to be built here: check what can be checked without one. The
Dockerfile copies every package the project installs (a package left out fails at start, inside
the image), its user is 10001:10001, it builds alike on every architecture, and compose.yaml
runs it with its volume, health check and capped logs."""

import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_image_copies_every_package_it_installs():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = {p.rstrip("*") for p in project["tool"]["setuptools"]["packages"]["find"]["include"]}
    copied = set(re.findall(r"^COPY (\w+) \./\1$", (ROOT / "Dockerfile").read_text(), re.M))
    assert packages and packages <= copied, f"not copied into the image: {packages - copied}"


def dockerfile() -> str:
    return (ROOT / "Dockerfile").read_text()


def instruction(name: str, containing: str) -> str:
    """The Dockerfile instruction `name` that contains `containing`, its lines joined."""
    text = re.sub(r"\\\n\s*", " ", dockerfile())
    (found,) = [line for line in text.splitlines()
                if line.startswith(name + " ") and containing in line]
    return found[len(name) + 1:]


def test_the_user_s_uid_and_gid_match():
    """Files the bot writes in the volume belong to 10001:10001, which an admin can give a
    host directory (chown 10001:10001) without guessing a group."""
    assert instruction("USER", "") == "10001:10001"
    commands = [part.split() for part in instruction("RUN", "useradd").split("&&")]
    (groupadd,) = [c for c in commands if c[0] == "groupadd"]
    (useradd,) = [c for c in commands if c[0] == "useradd"]
    assert groupadd[-1] == useradd[-1] == "piecepack"
    assert "--gid" in groupadd and groupadd[groupadd.index("--gid") + 1] == "10001"
    assert "--uid" in useradd and useradd[useradd.index("--uid") + 1] == "10001"
    assert "--gid" in useradd and useradd[useradd.index("--gid") + 1] in ("10001", "piecepack")


@pytest.mark.skipif(os.name != "posix" or not shutil.which("useradd") or os.geteuid() != 0,
                    reason="runs the image's useradd (as root, on files of its own)")
def test_the_image_s_user_commands_give_10001_10001(tmp_path):
    """The Dockerfile's own groupadd and useradd, run against a fresh system's account files
    (--prefix: nothing of this machine's is touched)."""
    etc = tmp_path / "etc"
    etc.mkdir()
    (etc / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (etc / "group").write_text("root:x:0:\n")
    (etc / "shadow").write_text("root:*:19000:0:99999:7:::\n")
    (etc / "gshadow").write_text("root:*::\n")
    for part in instruction("RUN", "useradd").split("&&"):
        words = part.split()
        if words[0] in ("groupadd", "useradd"):
            subprocess.run([words[0], "--prefix", str(tmp_path), *words[1:]], check=True,
                           capture_output=True)
    (user,) = [line.split(":") for line in (etc / "passwd").read_text().splitlines()
               if line.startswith("piecepack:")]
    assert user[2:4] == ["10001", "10001"]


def test_no_step_depends_on_the_machine():
    """One Dockerfile for linux/amd64 and linux/arm64 (`docker buildx build --platform`): a
    multi-arch base image, and nothing that names or asks for an architecture."""
    assert re.search(r"^FROM python:3\.\d+-slim$", dockerfile(), re.M)
    assert not re.search(r"amd64|x86_64|aarch64|arm64|TARGETARCH|TARGETPLATFORM|uname|"
                         r"--print-architecture", dockerfile().split("FROM", 1)[1])


def test_compose_runs_the_image_with_its_volume_health_check_and_capped_logs():
    compose = (ROOT / "compose.yaml").read_text()
    service = re.search(r"^services:\n  (\w+):\n((?:    .*\n|\n)+)", compose, re.M)
    assert service, "one service under services:"
    body = service.group(2)
    assert re.search(r"^    build: \.$", body, re.M)
    assert re.search(r"^    env_file: \.env$", body, re.M)
    assert re.search(r"^    restart: (unless-stopped|always)$", body, re.M)
    # the database's directory is a named volume, declared at the top level
    (volume,) = re.findall(r"^      - (\S+):/data$", body, re.M)
    assert re.search(rf"^volumes:\n  {volume}:", compose, re.M)
    # the same health check as the image's
    options, command = instruction("HEALTHCHECK", "CMD").split(" CMD ")
    check = re.search(r"^    healthcheck:\n((?:      .*\n)+)", body, re.M).group(1)
    assert re.search(r"^      test: (.*)$", check, re.M).group(1) == '["CMD", ' + command[1:]
    for name, value in re.findall(r"--([\w-]+)=(\S+)", options):
        assert f"\n      {name.replace('-', '_')}: {value}\n" in f"\n{check}"
    # logs cannot fill the disk
    assert re.search(r"^    logging:\n      driver: json-file\n      options:\n"
                     r"        max-size: \d+m\n        max-file: \"\d+\"$", body, re.M)
    assert "compose.yaml" in (ROOT / ".dockerignore").read_text().split()


def test_the_image_installs_the_postgres_extra():
    """The image runs on a PostgreSQL URL too: its requirements (the Dockerfile's own snippet,
    run on pyproject.toml) are the dependencies and the extra `postgres`."""
    code = re.search(r"python -c '([^']+)'", instruction("RUN", "tomllib")).group(1)
    listed = subprocess.run(["python3", "-c", code], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.split()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert listed == project["dependencies"] + project["optional-dependencies"]["postgres"]
    assert any(r.startswith("asyncpg") for r in listed)


def compose_services(text: str) -> dict[str, str]:
    """Each service's lines (without their indentation of 4) by name."""
    block = re.search(r"^services:\n((?:  .*\n|\n)+)", text, re.M).group(1)
    return {name: re.sub(r"^    ", "", body, flags=re.M)
            for name, body in re.findall(r"^  ([\w-]+):\n((?:    .*\n|\n)+)", block, re.M)}


def test_the_postgresql_compose_file_checks_health_and_keeps_its_data():
    compose = (ROOT / "compose.postgres.yaml").read_text()
    services = compose_services(compose)
    db = services.pop("db")
    assert set(services) == {"bot-a", "bot-b"}
    # PostgreSQL: its data in a named volume, declared at the top level; healthy when it answers
    assert re.search(r"^image: postgres:\d+$", db, re.M)
    (volume,) = re.findall(r"^  - (\S+):/var/lib/postgresql/data$", db, re.M)
    assert re.search(rf"^volumes:\n(  \S+:\n)*  {volume}:", compose, re.M)
    check = re.search(r"^healthcheck:\n((?:  .*\n)+)", db, re.M).group(1)
    assert re.search(r'^  test: \["CMD", "pg_isready", "-U", "(\w+)", "-d", "(\w+)"\]$', check, re.M)
    user = re.search(r"^  POSTGRES_USER: (\w+)$", db, re.M).group(1)
    database = re.search(r"^  POSTGRES_DB: (\w+)$", db, re.M).group(1)
    assert f'"-U", "{user}", "-d", "{database}"' in check
    # each bot: the image's health check, on a heartbeat of its own, started once the database
    # is healthy, on that database, with capped logs
    options, command = instruction("HEALTHCHECK", "CMD").split(" CMD ")
    hearts = set()
    for name, bot in services.items():
        assert re.search(r"^image: piecepack-bot$", bot, re.M), name
        assert re.search(r"^env_file: \.env$", bot, re.M), name
        check = re.search(r"^healthcheck:\n((?:  .*\n)+)", bot, re.M).group(1)
        assert re.search(r"^  test: (.*)$", check, re.M).group(1) == '["CMD", ' + command[1:]
        for option, value in re.findall(r"--([\w-]+)=(\S+)", options):
            assert f"\n  {option.replace('-', '_')}: {value}\n" in f"\n{check}", name
        hearts.add(re.search(r"^  PIECEPACK_HEALTH_FILE: (\S+)$", bot, re.M).group(1))
        assert re.search(r"^depends_on:\n  db:\n    condition: service_healthy$", bot, re.M), name
        url = re.search(r"^  PIECEPACK_DB: (\S+)$", bot, re.M).group(1)
        assert re.fullmatch(rf"postgresql://{user}:\$\{{POSTGRES_PASSWORD\}}@db:5432/{database}", url)
        assert re.search(r"^logging:\n  driver: json-file\n  options:\n"
                         r"    max-size: \d+m\n    max-file: \"\d+\"$", bot, re.M), name
        assert re.search(r"^restart: (unless-stopped|always)$", bot, re.M), name
    assert len(hearts) == len(services)   # one heartbeat per process
    assert re.search(r"^build: \.$", services["bot-a"], re.M)
    assert "compose.postgres.yaml" in (ROOT / ".dockerignore").read_text().split()
