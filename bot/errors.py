"""The bot's answers to users' mistakes (its own module: the games' controls raise them too,
and the game flow imports those controls)."""


class UserError(Exception):
    """Something the user did that we refuse; the message is for them, nothing has changed."""


class StaleControls(UserError):
    """A player used controls of an earlier phase; they are shown the current ones."""
