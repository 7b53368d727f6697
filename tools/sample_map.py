"""Draw a demo of render/core.py: the map with a few states filled, hatched and
marked, callouts in use, and a side panel. For eyeballing changes to the shared
map; renderers can read it as an example of the API.

    .venv/bin/python tools/sample_map.py [out.png]     (default /tmp/sample_map.png)
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image, ImageDraw  # noqa: E402

from render.core import (  # noqa: E402
    INK_MUTED, PAPER, Hatch, PanelRow, USMap, draw_marker, draw_panel, draw_text,
    draw_wrapped, encode_png, font, player,
)


def main(out: Path) -> None:
    m = USMap(1400)
    blue, red, green = player(0), player(1), player(2)
    fills = {"CA": blue.color, "NY": blue.light, "MA": blue.color, "DC": blue.color, "HI": blue.color,
             "TX": red.color, "AK": red.color, "NJ": red.color, "FL": green.color, "MD": player(4).color,
             "PA": player(3).color, "OH": player(6).color, "MT": player(7).color}
    hatches = {"PA": Hatch(red.color, red.hatch), "OH": Hatch(player(5).color, "cross"),
               "WI": Hatch(green.color, "dots"), "MI": Hatch(player(4).color, "back")}
    img = m.paint(fills, hatches)
    draw = ImageDraw.Draw(img)
    for i, code in enumerate(["IA", "NV", "CO", "VA"]):
        (x, y), _ = m.spot(code)
        draw_marker(img, (x, y + 28), i, 30)
    for i, code in enumerate(["VT", "RI", "DE"]):
        (x, y), r = m.spot(code)
        draw_marker(img, (x, y), i + 3, r * 1.6)
    (x, y), _ = m.spot("MA")
    draw_text(draw, (x, y), "12", font(18, bold=True))

    # Map plus a side panel, as a game's board image might be laid out.
    panel_w = 380
    board = Image.new("RGB", (m.width + panel_w, m.height), PAPER)
    board.paste(img, (0, 0))
    bdraw = ImageDraw.Draw(board)
    rows = [PanelRow(f"Player {p.letter} ({p.name})", (10 * i + 3, 270 - 20 * i), player=i, highlight=i == 1,
                     muted=i == 7) for i, p in enumerate(player(i) for i in range(8))]
    y = draw_panel(board, (m.width + 10, 10, m.width + panel_w - 10, m.height - 120), rows,
                   title="Electoral votes", headers=("won", "left"))
    draw_wrapped(bdraw, (m.width + 20, y + 10, m.width + panel_w - 20, m.height - 10),
                 "Round 3 of 12. Player B plays a campaign card in Pennsylvania; "
                 "Ohio is contested (hatched).", font(17), fill=INK_MUTED)
    data = encode_png(board)
    out.write_bytes(data)
    print(f"wrote {out}: {board.size[0]}x{board.size[1]}, {len(data) / 1024:.0f} KB")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/tmp/sample_map.png"))
