"""Pack Solitaire's controls: under the board a menu of the tiles (tray and grid) and a Finish
button; choosing a tile opens, for the player only, menus of where it may legally go (cell and
turn) and a button to take it back. The board post follows the game in place.

The best score of the deal is worked out by the engine's exact solver when the game starts, off
the event loop, and kept in the game's extras for the result."""

from __future__ import annotations

import functools

from discord.ui import DynamicItem, Select

from engine.pack_solitaire import TILES, solve
from engine.piecepack import VALUE_NAMES

from .. import texts
from ..components import SourceMenu, builds
from ..errors import UserError
from . import SELECT_SIZE, Adapter, register, stamp


def tile_words(tile: str) -> str:
    """'n25' -> 'null, 2, 5'."""
    return ", ".join(VALUE_NAMES[v] for v in tile)


def best_of_deal(tiles: tuple[str, ...]) -> dict:
    """The deal's best score and one layout reaching it (the game's background work: it runs
    in a worker process, so it is a plain function of plain values)."""
    best = solve(tiles)
    return {"best": best.score, "best_layout": [list(p) for p in best.placements]}


class PackSolitaireAdapter(Adapter):
    option_hints: list[str] = []

    def continues(self, game, old, new, player):
        return True   # one player arranging: the board post is edited, nobody is pinged again

    def turn_prompt(self, game, old, new, player):
        if old is None:
            return super().turn_prompt(game, old, new, player)
        return "Pick a tile below, or `/move`; **Finish** scores your layout."

    def turn_controls(self, game_id, game, state, view, names):
        player = game.to_act(state)
        if not player:
            return []
        stamp_ = stamp(game, state, player[0])
        placed = {p["tile"]: cell for cell, p in view["placed"].items()}
        options = []
        for number in range(1, TILES + 1):
            where = f"on {placed[number]}" if number in placed else "in the tray"
            options.append([str(number), f"Tile {number} ({tile_words(view['tiles'][number - 1])})"
                                         f", {where}"])
        return [["packtile", game_id, stamp_, options],
                ["act", game_id, stamp_, "done", "Finish and score"]]

    def player_controls(self, game_id, game, state, player, names):
        view = game.view(state, player)
        return self.turn_controls(game_id, game, state, view, names), \
            "\nPick a tile, then where it goes."

    def placements(self, game, state, player, tile: int) -> tuple[list[str], bool]:
        """The legal placements of `tile` now, and whether it may be taken back."""
        actions = [str(a) for a in game.legal_actions(state, player)]
        mine = [a for a in actions if a.startswith(f"{tile}@") and "/" in a]
        return mine, f"{tile}@off" in actions

    # ---- the best score ------------------------------------------------------------------

    def background(self, game, state, extras):
        if "best" in extras:
            return None
        # a module-level function and its arguments: it may run in another process
        return functools.partial(best_of_deal, tuple(game.view(state)["tiles"]))

    def extras_at_finish(self, game, state):
        view = game.view(state)
        return {"score": view["score"]} if view["done"] else {}

    def own_result(self, game, state, names, extras):
        """The score once, with the best the deal allows beside it (when known)."""
        view = game.view(state)
        if not view["done"]:
            return None   # given up or out of time: no score
        score, (player,) = view["score"], view["players"]
        text = f"🏁 {texts.name_list([player], names)} finished with **{score} points"
        if "best" not in extras:
            return text + "**."
        return text + f" of a possible {extras['best']}**" \
            + (": a perfect game!" if score == extras["best"] else ".")

    def result_notes(self, game, state, names, extras):
        if "score" not in extras:
            return ""
        score = extras["score"]
        parts = []
        earlier = [e["score"] for e in extras.get("history", []) if "score" in e]
        if earlier:
            top = max(earlier)
            parts.append(f"Your best so far in this server: {max(top, score)}"
                         + (" (a new record!)" if score > top else "") + ".")
        else:
            parts.append("Your first finished game here.")
        return " ".join(parts)

    def final_view(self, game, state, view, extras):
        out = dict(view)
        if "best" in extras:
            out["best"] = extras["best"]
        return out

    def final_posts(self, game, state, extras):
        layout = extras.get("best_layout")
        if not layout or extras.get("score") == extras.get("best"):
            return []
        view = game.view(state)
        player = view["players"][0]
        shown = game.new_game([player], options={"tiles": list(view["tiles"])})
        for tile, cell, turn in layout:
            shown = game.apply(shown, player, f"{tile}@{cell}/{turn}")
        view = dict(game.view(shown, None), title_note=f"One way to {extras['best']}")
        # (in words too, for those who cannot see the image: issue 23)
        from render.describe import layout_words
        return [("\n".join([f"One way to reach {extras['best']}:", *layout_words(view)]), view)]


ADAPTER = PackSolitaireAdapter()
register("pack-solitaire", ADAPTER)


@builds("packtile")
class TileSelect(SourceMenu, DynamicItem[Select], template=r"pp:packt:(?P<gid>\d+):(?P<stamp>[0-9a-f]{8})"):
    """The tiles; choosing one opens (for the player only) where it may go."""

    id_prefix, placeholder, menu_row = "pp:packt", "Tile to place, move, turn or take back", 0

    def next_step(self, value):
        def show_places(row, game, state, player):
            if not value.isdigit() or not 1 <= int(value) <= TILES:
                raise UserError("Choose a tile from the menu.")
            tile = int(value)
            places, back = ADAPTER.placements(game, state, player, tile)
            view = game.view(state, player)
            where = next((c for c, p in view["placed"].items() if p["tile"] == tile), None)
            text = (f"Tile **{tile}** ({tile_words(view['tiles'][tile - 1])}), "
                    + (f"now on {where}." if where else "in the tray."))
            specs = []
            several = len(places) > SELECT_SIZE
            for n in range(0, min(len(places), 4 * SELECT_SIZE), SELECT_SIZE):
                group = places[n:n + SELECT_SIZE]
                labels = [f"{a.split('@')[1].split('/')[0]}, turn {a.split('/')[1]}"
                          for a in group]
                placeholder = f"Places {n + 1}-{n + len(group)}" if several else "Choose where it goes"
                specs.append(["pick", row.id, self.stamp, n // SELECT_SIZE, group, labels, placeholder])
            if back:
                specs.append(["act", row.id, self.stamp, f"{tile}@off", f"Take tile {tile} back"])
            if not places:
                text += " It fits nowhere now: every free cell breaks a condition."
            return text, specs

        return show_places
