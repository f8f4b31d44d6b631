"""Tournaments (issue 25). This package's pure part: pairing and standings, plain data in and
out (no discord, no database, no asyncio); the flow that runs events builds on it."""

from .pairing import (FORMATS, Result, Round, Table, default_rounds, formats_for, pair_round,
                      round_robin_schedule, table_sizes)
from .standings import (Standing, best_possible_note, standings, standings_table,
                        standings_text, table_points, tiebreak_names)

__all__ = [
    "FORMATS", "Result", "Round", "Standing", "Table", "best_possible_note", "default_rounds",
    "formats_for", "pair_round", "round_robin_schedule", "standings", "standings_table",
    "standings_text", "table_points", "table_sizes", "tiebreak_names",
]
