"""What the page needs to draw a board: holes by row and column, blocks, the LED chain, how
each colour looks, what each LED colour means and what each option of the LED menu picks.

The page draws from this description only, so a 9x9 board or another LED chain needs no change
in the JavaScript: hole pixels sit under their holes, arrow pixels along their block's arrow in
chain order, status and card pixels in rows beside the board.
"""

from __future__ import annotations

from typing import Any

from ...colours import MARBLE_COLOURS, light_name, screen_fill
from ...games import SHIPPED, Catalogue, GameSpec, offered
from ...games.spec import MAX_NAME_CHARS
from ...lights.scenes import PLACED_WORDS, TURNING_WORDS
from ...lights.view import PALETTE, SIGNAL_WORDS
from ...profile import Profile
from ...rules import hole_name

DEFAULT_COLOURS = ("white", "black")

def layout(profile: Profile, *, virtual: bool, games: Catalogue = SHIPPED) -> dict[str, Any]:
    """A JSON-able description of ``profile``'s board and LED chain for the page, its games as
    the board offers them (``games``: with its picture library)."""
    g = profile.geometry
    colours = list(profile.colours.values()) or list(DEFAULT_COLOURS)
    return {
        "profile": profile.name,
        "size": g.size,
        "virtual": virtual,
        "sensing": profile.sensing,
        "detents_per_quarter": profile.detents_per_quarter,
        "colours": colours,
        "looks": {name: look(name) for name in (*colours, *MARBLE_COLOURS)},  # any seat colour a game uses
        "legend": legend(tuple(colours), g.size),
        "menu": menu_pages(g.size, games),
        "games": games_offered(tuple(colours), g.size, games),
        "name_chars": MAX_NAME_CHARS,  # a seat's name in the new-game form
        "holes": [_hole(profile, hole) for hole in range(g.hole_count)],
        "blocks": [{"block": b, "holes": list(holes)} for b, holes in enumerate(g.block_holes, 1)],
        "pixels": [_pixel(pixel) for pixel in profile.leds.pixels],
    }


def marble_colours(board_layout: dict[str, Any]) -> tuple[str, ...]:
    """Every marble colour the board's games use, the board's own first: what a player may put
    on the virtual board (a third and fourth seat's marbles in multiplayer, Triple's three)."""
    marbles = (c for game in board_layout["games"] for c in game["marbles"])
    return tuple(dict.fromkeys((*board_layout["colours"], *marbles)))


def look(colour: str) -> dict[str, Any]:
    """How a marble colour is drawn and how its LED glows (name and RGB), from
    :mod:`controller.colours`, the one table of colours: so what the page says and shows agree
    (a black marble glows violet: black light is no light)."""
    return {"marble": screen_fill(colour), "light": light_name(colour),
            "rgb": list(PALETTE.get(colour, (128, 128, 128)))}


def legend(colours: tuple[str, ...], size: int) -> dict[str, Any]:
    """Every LED colour the board shows and what it means: ``all`` for every game a ``size``
    board plays, and ``games``, each game's own (what the page shows first: one game's lights
    fit a phone, every game's are twenty lines)."""
    specs = offered(size)
    return {"all": _legend_of(specs, colours, size),
            "games": {spec.name: _legend_of((spec,), colours, size) for spec in specs}}


def _legend_of(specs: tuple[GameSpec, ...], colours: tuple[str, ...], size: int) -> list[dict[str, Any]]:
    """The lights of ``specs``' games, one entry per colour as it looks (a colour with several
    meanings says each): the turn colour of every seat they have (the board's own, then the
    further seat colours), the marble colours a game lights on its holes (Triple's prompts,
    Picture-Puzzle's build), and under a new marble in the games judged at once (dim while it
    is read, full once accepted) and on a block's arrow there (dim while it is read turning for
    the twist due), then the signals."""
    seats = {spec.name: _seat_colours(spec, max(spec.choice("players").values), colours, size) for spec in specs}
    meanings = [(c, f"turn pixels: {c} to move, or {c} won") for c in dict.fromkeys(c for s in seats.values() for c in s)]
    meanings += [light for spec in specs for light in spec.lights]
    placed = dict.fromkeys(c for spec in specs if spec.eager for c in seats[spec.name])
    meanings += [(c, words) for c in placed for words in (PLACED_WORDS, TURNING_WORDS)]
    entries: dict[str, dict[str, Any]] = {}
    for colour, means in meanings:
        entry = entries.setdefault(look(colour)["light"], {"rgb": look(colour)["rgb"], "means": []})
        entry["means"].append(means)
    for name, (looks, means) in SIGNAL_WORDS.items():
        entries[looks] = {"rgb": list(PALETTE[name]), "means": [means]}
    return [{"rgb": entry["rgb"], "looks": looks, "means": "; ".join(entry["means"])} for looks, entry in entries.items()]


def menu_pages(size: int, catalogue: Catalogue = SHIPPED) -> dict[str, Any]:
    """The LED menu of a ``size`` board, in words: the games offered (the first page's options)
    and each game's own pages, every option as ``{value, means}`` in the order its hole lights
    (a1, b1, ...; a page's values may depend on the board, as Picture-Puzzle's pictures do), and
    each page's name in words (``labels``: "First k", never ``start_k``).
    From the games' registry (as ``catalogue`` offers them: the board's own pictures too), so the
    page explains any game added there."""
    games = catalogue.offered(size)
    return {"games": [{"value": spec.name, "means": spec.title} for spec in games],
            "pages": {spec.name: {choice.name: [{"value": value, "means": choice.means(value)}
                                                for value in choice.menu_values(size)]
                                  for choice in spec.pages()}
                      for spec in games},
            "labels": {spec.name: {choice.name: choice.heading() for choice in spec.pages()} for spec in games}}


def games_offered(board: tuple[str, ...], size: int, games: Catalogue = SHIPPED) -> list[dict[str, Any]]:
    """Every game a ``size`` board plays, for the page's new-game form: its name and title, its
    options (each with its name in words, its default, its values in words and whether the LED menu asks it; a
    ``new_game`` command takes them by name; a free option, such as Triple's cards, says how a
    form asks it in ``input``; the values a board offers, as its menu: Picture-Puzzle's pictures
    are the board's own, saved ones too) and each number of players' seat colours, seat 1
    first (partners share a colour in team play; Triple's seats wear no marble colour), and the
    marble colours it is played with (``marbles``)."""
    return [{"name": spec.name, "title": spec.title,
             "options": [{"name": c.name, "label": c.heading(), "default": c.default, "menu": c.menu and len(c.values) > 1,
                          "values": [{"value": v, "means": c.means(v)} for v in c.menu_values(size)],
                          "input": c.input}  # a free option's field: "text" or "number"
                         for c in spec.choices],
             "seats": {str(n): _seat_colours(spec, n, board, size, games) for n in spec.choice("players").values},
             "marbles": list(spec.colours(spec.options({"players": max(spec.choice("players").values)}, size), board))}
            for spec in games.offered(size)]


def _seat_colours(spec: Any, players: int, board: tuple[str, ...], size: int, games: Catalogue = SHIPPED) -> list[str]:
    """The seats' colours as the game's flow shows them (the one place that decides them); its
    flow checks with ``games``, the catalogue ``spec`` came from."""
    flow = spec.flow(games, board, size)
    flow.new_game(spec.options({"players": players}, size), 0.0)
    return [flow.seat_colour(seat) for seat in range(1, players + 1)]


def _hole(profile: Profile, hole: int) -> dict[str, Any]:
    column, row = profile.geometry.column_row(hole)
    return {"hole": hole, "name": hole_name(hole, profile.geometry), "column": column, "row": row,
            "block": profile.geometry.block_of[hole]}


def _pixel(pixel: Any) -> dict[str, Any]:
    return {"kind": pixel.kind, "hole": pixel.hole, "block": pixel.block,
            "clockwise": pixel.clockwise, "index": pixel.index, "card": pixel.card}
