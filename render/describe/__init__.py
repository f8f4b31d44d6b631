"""Words for the ear beside every drawing: alt text for a board image and a full description
of the position, both from the same view the image is drawn from (so from nothing the viewer
may not know).

    alt_text(view, names)   -> at most ALT_LIMIT characters: the game, who is asked what, the
                               last change, the scores (and as much of the position as fits)
    describe(view, names)   -> every piece in reading order, for a player who plays without
                               the image

No symbols a screen reader would spell out: values are words ("null", "ace", "2"), suits are
named, cells are the game's own coordinates.
"""

from __future__ import annotations

from .common import ALT_LIMIT, _names, clip  # noqa: F401 (ALT_LIMIT: for callers)
from .relativity import relativity_alt, relativity_full
from .global_warming import global_warming_alt, global_warming_full
from .galaxies import hand_words, galaxies_alt, galaxies_full
from .byop1 import byop1_alt, byop1_full
from .pack_solitaire import pack_solitaire_alt, layout_words, pack_solitaire_full

ALT = {"relativity": relativity_alt, "global-warming": global_warming_alt, "galaxies": galaxies_alt,
       "byop1": byop1_alt, "pack-solitaire": pack_solitaire_alt}
FULL = {"relativity": relativity_full, "global-warming": global_warming_full, "galaxies": galaxies_full,
        "byop1": byop1_full, "pack-solitaire": pack_solitaire_full}


def alt_text(view: dict, names: dict | None = None) -> str:
    """The image's alt text, at most ALT_LIMIT characters."""
    n = _names(view, names)
    return clip(ALT[view["game"]](view, n))


def describe(view: dict, names: dict | None = None) -> str:
    """The whole position in words, one statement a line."""
    n = _names(view, names)
    parts = FULL[view["game"]](view, n)
    return "\n".join(p for p in parts if p)
