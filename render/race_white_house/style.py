"""What every image of Race for the White House shares: the width and margin, the parties' colours
and names, the pawns."""
from __future__ import annotations

from typing import TYPE_CHECKING

from PIL import Image

from ..core import INK, draw_marker, mix, player

if TYPE_CHECKING:
    from engines.race_white_house.views import PartyView, PlayerView, RWHView


PREFIX = "race-white-house"
PARTIES = ("D", "R")
PARTY_INDEX = {"D": 0, "R": 1}           # render/core palette: blue circle, vermillion square
PARTY_NAME = {"D": "Democrats", "R": "Republicans"}
PARTY_ONE = {"D": "Democrat", "R": "Republican"}
ROLE_NAME = {"P": "President", "VP": "Vice President"}
CAT_ABBR = {"UNION": "UN", "LIBERAL": "LIB", "CONSERVATIVE": "CON", "MINORITY": "MIN", "FARM": "FARM"}
PREMARK_CAT = {"D": "LIBERAL", "R": "CONSERVATIVE"}
TO_WIN = 270

W = 1200                  # every image is 1200 px wide: a phone shows it whole once tapped
MARGIN = 14
RULE = (205, 205, 198)    # light grid lines
ZEBRA = (243, 243, 238)


def pcolor(party: str):
    return player(PARTY_INDEX[party]).color


def plight(party: str):
    return player(PARTY_INDEX[party]).light


def pdark(party: str):
    return mix(pcolor(party), INK, 0.45)


def money(v: int) -> str:
    """$12,500,000 -> '$12.5M'."""
    if v == 0:
        return "$0"
    m = v / 1_000_000
    return f"${m:.1f}M".replace(".0M", "M") if abs(m) >= 1 else f"${v:,}"


def _pawn_label(p: PlayerView) -> str:
    return p["party"] if p["role"] != "VP" else "VP"


def draw_pawn(img: Image.Image, xy, p: PlayerView, size: float) -> None:
    party = p["party"]
    if party not in PARTY_INDEX:
        draw_marker(img, xy, 7, size=size, label="?")
        return
    draw_marker(img, xy, PARTY_INDEX[party], size=size if p["role"] != "VP" else size * 0.86,
                label=_pawn_label(p))


def players_of(view: RWHView) -> list[PlayerView]:
    return list(view["players"])


def party_view(view: RWHView, party: str) -> PartyView | None:
    return view["parties"].get(party)
