"""Settings: environment, .env file, the missing-token message, and a log that hides the token."""

import io
import logging
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import Settings, SettingsError, load_settings, setup_logging

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def restore_log_levels():
    names = ["", "discord", "discord.http", "discord.gateway", "discord.state", "discord.webhook",
             "aiosqlite"]
    levels = {name: logging.getLogger(name).level for name in names}
    yield
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


def test_defaults_with_only_a_token(tmp_path):
    s = load_settings({"DISCORD_TOKEN": TOKEN}, cwd=tmp_path)
    assert s.token == TOKEN and s.db_path == "./piecepack.sqlite3"
    assert (s.api_base, s.gateway_url, s.log_level, s.default_deadline, s.reminder_hours) == \
        (None, None, "INFO", "none", 24.0)


def test_dotenv_is_read_and_the_environment_wins(tmp_path):
    (tmp_path / ".env").write_text(
        "# comment\nexport DISCORD_TOKEN='from-file'\nPIECEPACK_DB=/data/x.sqlite3\n"
        "PIECEPACK_DEFAULT_DEADLINE=3d\nLOG_LEVEL=debug\n\n")
    s = load_settings({"PIECEPACK_DB": "env.sqlite3", "DISCORD_API_BASE": "http://h/api/v10/"},
                      cwd=tmp_path)
    assert s.token == "from-file" and s.db_path == "env.sqlite3"
    assert s.default_deadline == "3d" and s.log_level == "DEBUG"
    assert s.api_base == "http://h/api/v10"


@pytest.mark.parametrize("env, message", [
    ({}, "DISCORD_TOKEN is not set"),
    ({"DISCORD_TOKEN": "t", "PIECEPACK_DEFAULT_DEADLINE": "2d"}, "none, 1d, 3d or 7d"),
    ({"DISCORD_TOKEN": "t", "PIECEPACK_REMINDER_HOURS": "soon"}, "PIECEPACK_REMINDER_HOURS must be a number"),
    ({"DISCORD_TOKEN": "t", "LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
])
def test_bad_settings_say_what_to_fix(tmp_path, env, message):
    with pytest.raises(SettingsError, match=message):
        load_settings(env, cwd=tmp_path)


def test_repr_never_shows_the_token():
    assert TOKEN not in repr(Settings(token=TOKEN)) and TOKEN not in str(Settings(token=TOKEN))


def test_logs_hide_the_token_in_messages_arguments_and_tracebacks():
    stream = io.StringIO()
    handler = setup_logging(Settings(token=TOKEN, log_level="DEBUG"), stream)
    try:
        log = logging.getLogger("piecepack.test")
        log.info("connecting with %s", TOKEN)
        log.warning(f"header Bot {TOKEN}")
        try:
            raise RuntimeError(f"bad token {TOKEN}")
        except RuntimeError:
            log.exception("failed")
    finally:
        logging.getLogger().removeHandler(handler)
    text = stream.getvalue()
    assert "connecting with" in text and "bad token" in text and "Traceback" in text
    assert TOKEN not in text and "[token hidden]" in text


def test_missing_token_exits_2_with_instructions(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr and "developers/applications" in done.stderr


def test_debug_logging_keeps_discord_payloads_out():
    """discord.py logs gateway events and request bodies (secret choices, DMs) at DEBUG."""
    handler = setup_logging(Settings(token=TOKEN, log_level="DEBUG"), io.StringIO())
    try:
        assert logging.getLogger("bot.flow").isEnabledFor(logging.DEBUG)
        for name in ("discord.http", "discord.gateway", "discord.webhook", "aiosqlite"):
            assert not logging.getLogger(name).isEnabledFor(logging.DEBUG)
    finally:
        logging.getLogger().removeHandler(handler)


def test_logs_hide_what_a_player_chose_in_components():
    """discord.py logs a failed item's repr (label, custom_id); a request URL or body may hold
    a custom_id too."""
    stream = io.StringIO()
    handler = setup_logging(Settings(token=TOKEN), stream)
    try:
        log = logging.getLogger("discord.ui.view")
        log.error("Ignoring exception in dynamic item callback for <Button label='5' "
                  "custom_id='pp:sec:12:3:0a1b2c3d:5' style=2>")
        log.warning('body {"custom_id": "pp:act:4:0a1b2c3d:red up", "values": ["2,3>6,3"]}')
        log.warning("task discord-ui-dynamic-item-PickSelect-pp:pick:4:0a1b2c3d:0 failed")
    finally:
        logging.getLogger().removeHandler(handler)
    text = stream.getvalue()
    assert "Ignoring exception" in text and "pp:sec:12:" in text and "pp:act:4:" in text
    for secret in ("'5'", ":5'", "red up", "2,3>6,3"):
        assert secret not in text, text


def test_all_of_discord_py_stops_at_info():
    handler = setup_logging(Settings(token=TOKEN, log_level="DEBUG"), io.StringIO())
    try:
        for name in ("discord", "discord.client", "discord.ui.view", "discord.some_new_module"):
            assert not logging.getLogger(name).isEnabledFor(logging.DEBUG)
        assert logging.getLogger("discord.client").isEnabledFor(logging.INFO)
    finally:
        logging.getLogger().removeHandler(handler)


@pytest.mark.parametrize("token", ["x", "abc", "t0ken", "none"])
def test_a_short_placeholder_token_is_hidden_only_where_it_stands_whole(token):
    """A placeholder such as `x` must not garble log lines ("/none[token hidden]istent")."""
    stream = io.StringIO()
    handler = setup_logging(Settings(token=token), stream)
    try:
        log = logging.getLogger("piecepack.test")
        log.error("Cannot open /nonexistent/x.sqlite3 (none-such, xabcx, t0kens, nonexistent)")
        log.error("Authorization: Bot %s", token)
        log.error("token=%s; '%s', (%s). %s", token, token, token, token)
    finally:
        logging.getLogger().removeHandler(handler)
    lines = stream.getvalue().splitlines()
    assert lines[0].endswith("Cannot open /nonexistent/x.sqlite3 (none-such, xabcx, t0kens, "
                             "nonexistent)")
    assert lines[1].endswith("Authorization: Bot [token hidden]")
    assert lines[2].endswith("token=[token hidden]; '[token hidden]', ([token hidden]). "
                             "[token hidden]")


def test_a_real_token_is_hidden_even_inside_other_text():
    stream = io.StringIO()
    handler = setup_logging(Settings(token=TOKEN), stream)
    try:
        logging.getLogger("piecepack.test").error("a%sb x%s.y", TOKEN, TOKEN)
    finally:
        logging.getLogger().removeHandler(handler)
    assert stream.getvalue().rstrip().endswith("a[token hidden]b x[token hidden].y")


def test_render_setting_offers_only_what_keeps_boards_off_the_event_loop(tmp_path):
    """`inline` is the worker pools' mode for tools (drawing on the calling thread): for the
    bot it would stall every game while a board is drawn or a computer thinks."""
    with pytest.raises(SettingsError) as error:
        load_settings({"DISCORD_TOKEN": "t", "PIECEPACK_RENDER": "inline"}, cwd=tmp_path)
    assert str(error.value) == "PIECEPACK_RENDER must be process (the default) or thread, not 'inline'."


def test_lease_seconds_default_and_bounds(tmp_path):
    assert load_settings({"DISCORD_TOKEN": "t"}, cwd=tmp_path).lease_seconds == 30.0
    assert load_settings({"DISCORD_TOKEN": "t", "PIECEPACK_LEASE_SECONDS": "2"},
                         cwd=tmp_path).lease_seconds == 2.0
    for bad in ("0", "soon", "3600"):
        with pytest.raises(SettingsError, match="PIECEPACK_LEASE_SECONDS"):
            load_settings({"DISCORD_TOKEN": "t", "PIECEPACK_LEASE_SECONDS": bad}, cwd=tmp_path)
