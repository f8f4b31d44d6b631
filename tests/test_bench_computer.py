"""benchmarks/bench_computer.py, the strength benchmark of issue 24: a target counts as met
only when the 95% interval says so, and sharing the deals among processes plays the same
games as one process."""

from __future__ import annotations

import re
from functools import partial

import computer
from benchmarks import bench_computer as bench


def test_a_target_is_met_only_when_the_interval_is_on_its_side():
    assert bench.verdict(850, 1000, 0.80) == "ok"
    assert bench.wilson(82, 100)[0] < 0.80     # 82%, but the interval reaches below 80%
    assert bench.verdict(82, 100, 0.80) == "not shown by the interval"
    assert bench.verdict(70, 100, 0.80) == "BELOW TARGET"
    assert bench.verdict(0, 0, 0.80) == "BELOW TARGET"   # no decisive game shows nothing
    # the stall rate: under 10%
    assert bench.verdict(20, 1000, 0.10, above=False) == "ok"
    assert bench.verdict(9, 100, 0.10, above=False) == "not shown by the interval"
    assert bench.verdict(30, 100, 0.10, above=False) == "ABOVE TARGET"


def test_deals_shared_among_processes_play_the_same_games(capsys):
    easy = ("easy", partial(computer.get_player, "galaxies", "easy"))
    lines = []
    for jobs in (1, 2):
        times: dict[str, list[float]] = {}
        bench.match("galaxies", 2, easy, ("random", None), 3, times, 0.5, False, 4000, jobs)
        lines.append(re.sub(r"\(\d+ s\)", "", capsys.readouterr().out))
        assert len(times["easy"]) > 10   # every decision timed, in the workers too
    assert lines[0] == lines[1]
    assert re.search(r"\d+ wins +\d+ losses +\d+ draws of 6 ", lines[0])
