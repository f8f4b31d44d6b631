"""Which tests run on which database engine (see tests/pg.py).

The storage and bot tests (BOTH_ENGINES) run twice, on SQLite and on PostgreSQL (`[sqlite]` and
`[postgresql]` in their names), their databases named by `tests.pg.database_for(path)`; a test
marked `sqlite_only` tests SQLite itself and runs once, one marked `postgresql_only` runs on
PostgreSQL only. PIECEPACK_TEST_ENGINES=sqlite runs the SQLite half alone. Without a PostgreSQL
server the PostgreSQL half is left out, saying so in one line, unless PIECEPACK_REQUIRE_PG=1
(CI), which makes that an error.
"""

import os

import pytest

from tests import pg


def _engines() -> list[str]:
    return [e for e in os.environ.get("PIECEPACK_TEST_ENGINES", "sqlite,postgresql").split(",") if e]


def _skipping_postgresql() -> bool:
    return ("postgresql" in _engines() and not pg.available()
            and not os.environ.get("PIECEPACK_REQUIRE_PG"))


def pytest_report_header(config):
    return pg.SKIPPED if _skipping_postgresql() else None


def pytest_terminal_summary(terminalreporter):
    # the header is not shown in quiet runs (the project's default): say it at the end then
    if _skipping_postgresql() and not terminalreporter.showheader:
        terminalreporter.write_line(pg.SKIPPED)


# Modules whose tests run on both engines (by name prefix), and the ones among them that test
# SQLite's files themselves (backup, restore, the lock file, a file that is not a database, a
# clean stop leaving no -wal file).
BOTH_ENGINES = ("test_storage", "test_bot_")
SQLITE_MODULES = {"test_bot_admin", "test_bot_settings", "test_bot_shutdown"}


def pytest_generate_tests(metafunc):
    module = metafunc.module.__name__.rsplit(".", 1)[-1]
    if not module.startswith(BOTH_ENGINES) or module in SQLITE_MODULES:
        return   # SQLite only: db_engine's default
    engines = [e for e in _engines() if e in ("sqlite", "postgresql")]
    if metafunc.definition.get_closest_marker("sqlite_only"):
        engines = ["sqlite"]
    if metafunc.definition.get_closest_marker("postgresql_only"):
        engines = [e for e in engines if e == "postgresql"]
    if metafunc.definition.get_closest_marker("two_processes_too"):
        # also as a public instance runs: two processes (shards 0 and 1 of 2) on one PostgreSQL
        setups = [(e, 1) for e in engines] + [("postgresql", 2)] * ("postgresql" in engines)
        metafunc.parametrize(("db_engine", "processes"), setups, indirect=True,
                             ids=engines + ["postgresql-two-processes"] * ("postgresql" in engines))
        return
    metafunc.parametrize("db_engine", engines, indirect=True)


def pytest_collection_modifyitems(config, items):
    wanted = "postgresql" in _engines()   # (tests named [postgresql] outside BOTH_ENGINES too)
    if wanted and pg.available():
        return
    if wanted and os.environ.get("PIECEPACK_REQUIRE_PG"):
        raise pytest.UsageError("PIECEPACK_REQUIRE_PG=1 but there is no PostgreSQL: install "
                                "Debian's postgresql or set PIECEPACK_TEST_PG to a server's URL.")
    kept = [item for item in items if "[postgresql" not in item.nodeid]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept


@pytest.fixture(scope="session")
def pg_server():
    url = pg.SERVER.start()
    yield url
    pg.SERVER.stop()


@pytest.fixture
def processes(request):
    """How many bot processes a `two_processes_too` test runs (tests/processes.py's Instance)."""
    return getattr(request, "param", 1)


@pytest.fixture(autouse=True)   # (autouse: the modules of BOTH_ENGINES need not name it)
def db_engine(request):
    name = getattr(request, "param", "sqlite")
    if name == "postgresql":
        request.getfixturevalue("pg_server")
    pg.ENGINE["name"] = name
    yield name
    pg.ENGINE["name"] = "sqlite"
    if name == "postgresql":
        pg.SERVER.drop_made()
