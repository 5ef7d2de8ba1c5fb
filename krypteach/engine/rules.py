"""Rule options (variants) of Krypkasino and of classic Kasino.

:class:`Rules` is a frozen dataclass: ``Rules()`` is the game exactly as the
project's RULES.md plays it, every keyword is one variant. ``game`` chooses
the game: ``"krypkasino"`` (the default) or ``"kasino"`` (classic Kasino with
builds, one 52-card deck; RULES.md's last section), and the options a keyword
leaves out take that game's default (``Rules(game="kasino").tabbe_points`` is 1). Presets name common
combinations (:meth:`Rules.preset`). Everything that depends on the options
(deal sizes, team seats, card values of an ace) is derived here, never from
module constants.

>>> Rules().players, Rules().capture, Rules().givar_count
(2, 'maximal', 2)
>>> Rules(players=4, teams="pairs").team_of(2)
0
>>> Rules.from_dict(Rules(players=3).to_dict()) == Rules(players=3)
True
>>> k = Rules(game="kasino"); k.deck_size, k.table_next, k.capture, k.tabbe_points, k.target
(52, 0, 'free', 1, 16)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from ..i18n import N_, _, ngettext
from ..i18n.numbers import number, signed

__all__ = ["Rules", "RulesError", "PRESETS", "deal_plan", "preset_description"]

CAPTURE_MODES = ("maximal", "maximum", "free")
TEAM_MODES = ("none", "pairs", "threes")
GAMES = ("krypkasino", "kasino")
OWNER_DUTIES = ("take-or-raise", "no-trail", "none")
FACE_CARD_MODES = ("values", "own-rank")
#: how a parti played to a target is decided (``Rules.target_count``)
TARGET_COUNTS = ("end-of-giv", "in-order")

#: Each game's defaults for the options whose default depends on the game (the
#: dataclass default ``None`` means "the game's default"). Krypkasino's are RULES.md's
#: rules; classic Kasino's are RULES.md's last section and seed 004.
GAME_DEFAULTS: dict[str, dict[str, Any]] = {
    "krypkasino": {
        "table_next": 4, "capture": "maximal", "forced_tabbe": True, "dubbeltabbe": True, "cancel_marks": True,
        "last_capture_point": 0, "tabbe_points": 5, "dukning_points": -5,
        "multiple_builds": False, "owner_duty": "none", "face_cards": "values", "draw": False, "target": None,
        "lowest_wins": True, "target_count": "end-of-giv", "raise_gathers": False, "lone_ace_builds": False,
    },
    "kasino": {
        "table_next": 0, "capture": "free", "forced_tabbe": False, "dubbeltabbe": False, "cancel_marks": False,
        "last_capture_point": 1, "tabbe_points": 1, "dukning_points": 0,
        "multiple_builds": True, "owner_duty": "take-or-raise", "face_cards": "values", "draw": False, "target": 16,
        "lowest_wins": False, "target_count": "end-of-giv", "raise_gathers": True, "lone_ace_builds": True,
    },
}
#: Options that only classic Kasino has (left out of Krypkasino's ``to_dict``, so its records are as before).
KASINO_ONLY = ("game", "multiple_builds", "owner_duty", "face_cards", "draw", "target", "lowest_wins",
               "target_count", "raise_gathers", "lone_ace_builds")
#: Options that mean nothing in classic Kasino (it has no dukning, no dubbeltabbe, no marks turned
#: down): a Kasino rule set keeps their Kasino defaults and refuses any other value.
KRYPKASINO_ONLY = ("dubbeltabbe", "cancel_marks", "dukning_points")

_ACE_ALIASES = {
    "1or14": "1or14", "1 or 14": "1or14", "1/14": "1or14", "14/1": "1or14", "both": "1or14",
    "1": "1", "one": "1", "low": "1",
    "14hand": "14hand", "14 from the hand": "14hand", "14-hand": "14hand", "14": "14hand",
}
_TEAM_ALIASES = {
    "none": "none", "off": "none", "no": "none", "false": "none", "": "none",
    "pairs": "pairs", "pair": "pairs", "2": "pairs", "on": "pairs", "true": "pairs",
    "threes": "threes", "three": "threes", "triples": "threes", "3": "threes",
}


class RulesError(ValueError):
    """An invalid rule option or combination of options."""


@dataclass(frozen=True)
class Rules:
    """The rule options of one game of Krypkasino (or of classic Kasino, ``game="kasino"``).

    Options (defaults are RULES.md's rules; an option marked *(game)* takes the
    chosen game's default when it is left out, see :data:`GAME_DEFAULTS`):

    - ``game``: ``"krypkasino"`` (default) or ``"kasino"``: classic Kasino with
      builds, one 52-card deck, 2–4 players (RULES.md's last section, seed 004).

    - ``players``: 2–6.
    - ``teams``: ``"none"``; ``"pairs"`` (4 players: seats 0+2 and 1+3; 6
      players: 0+3, 1+4, 2+5); ``"threes"`` (6 players: 0+2+4 and 1+3+5).
      ``True`` means pairs, ``False`` none.
    - ``hand_size`` / ``table_first`` / ``table_next``: cards to each hand per
      *utdelning* (deal), cards laid on the table in the first / later deals.
    - ``capture``: ``"maximal"`` (a capturing card takes all it can; any
      maximal union of träffar), ``"maximum"`` (must take the largest number
      of cards) or ``"free"`` (classic Kasino: any union of träffar, or creep).
    - ``forced_tabbe``: *tvångstabbe*, a card that can take the whole table
      must be played and take it.
    - ``ace``: ``"1or14"`` (a played ace counts 14 and also takes single table
      aces; table aces count 1), ``"1"`` (ace is always 1), ``"14hand"``
      (14 from the hand, 1 on the table: a played ace takes no lone table ace).
    - ``dubbeltabbe``: taking the lone table card with its identical twin
      counts as two tabbar.
    - ``cancel_marks``: when everyone (every team) has a tabbe mark, each
      turns one down.
    - ``last_capture_point``: extra points to the last capturer (0 or 1).
    - ``tabbe_points`` / ``dukning_points``: points per tabbe mark / per
      *dukning* (setting up another's tabbe), default +5 / −5.
    - ``givar``: number of givar in a *parti*; ``None`` (default) means one
      per player. Must be a multiple of ``players``.

    Classic Kasino's own options (``game="kasino"`` only; see docs/engine.md):

    - ``multiple_builds``: a build may hold several groups of the same value
      (*dubbelt nio*); such a build is locked (never raised). Default on.
    - ``owner_duty``: what the owner of a build must do on each turn while it
      owns one: ``"take-or-raise"`` (default: take it, raise it or add to it,
      seed 004's "most common Swedish reading"), ``"no-trail"`` (anything but
      trailing) or ``"none"``.
    - ``face_cards``: ``"values"`` (default: J 11, Q 12, K 13 in sums and
      builds, the Swedish way) or ``"own-rank"`` (a face card takes only its
      own rank and is never part of a sum or a build).
    - ``draw``: *dragkasino*, draw from the stock after each play up to the hand size.
    - ``target``: a parti is played giv after giv until a side reaches this many points (16; 21
      is the variant); the best total then wins (the highest; in avig kasino the lowest), and a
      tie for the best plays another giv. ``givar``, when set, is the most givar such a parti
      lasts (else :data:`~krypteach.engine.scoring.MAX_PARTI_GIVAR`).
    - ``target_count``: when the target is looked at: ``"end-of-giv"`` (default: after each
      giv, the whole giv counted) or ``"in-order"`` (the giv's points counted line by line in
      the order of the scoring table, stora kasino, lilla kasino, aces, most spades, most
      cards, sistan, tabbar: the parti is decided at the first line after which a side has
      reached the target, so the first to reach it wins, even if another ends the giv higher).
    - ``lowest_wins``: misère, the lowest score wins (Krypkasino, avig kasino).
    - ``raise_gathers``: a raise may gather more in the same move: the card goes on one
      unlocked build, and other groups of the new value on the table (a loose card, loose
      cards adding up to it, another build of it) go into the same pile, a locked multiple
      build (RULES.md; needs ``multiple_builds``). Default on; off: a raise is the card alone
      on one build.
    - ``lone_ace_builds``: an ace is 1 or 14 as the player chooses in the move (seed 004), so
      a lone table ace may stand as a group worth 14 in a multiple build of 14 (inside a sum
      of several cards an ace counts 1; with ``ace="1or14"`` only). Default on.
    """

    players: int = 2
    teams: str = "none"
    hand_size: int = 4
    table_first: int = 4
    # (game): None is "the game's default", filled in by __post_init__
    table_next: int = None  # type: ignore[assignment]
    capture: str = None  # type: ignore[assignment]
    forced_tabbe: bool = None  # type: ignore[assignment]
    ace: str = "1or14"
    dubbeltabbe: bool = None  # type: ignore[assignment]
    cancel_marks: bool = None  # type: ignore[assignment]
    last_capture_point: int = None  # type: ignore[assignment]
    tabbe_points: int = None  # type: ignore[assignment]
    dukning_points: int = None  # type: ignore[assignment]
    givar: int | None = None
    # derived, not options
    _team_of: tuple[int, ...] = field(init=False, repr=False, compare=False, default=())
    # classic Kasino (game="kasino"); at Krypkasino's values they are left out of repr and to_dict
    game: str = "krypkasino"
    multiple_builds: bool = None  # type: ignore[assignment]
    owner_duty: str = None  # type: ignore[assignment]
    face_cards: str = None  # type: ignore[assignment]
    draw: bool = None  # type: ignore[assignment]
    target: int | None = None
    lowest_wins: bool = None  # type: ignore[assignment]
    target_count: str = "end-of-giv"
    raise_gathers: bool = None  # type: ignore[assignment]
    lone_ace_builds: bool = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        game = str(self.game).strip().lower()
        if game not in GAMES:
            raise RulesError(_("{name}={value} is not allowed: choose one of {choices}").format(name="game", value=repr(self.game), choices=", ".join(GAMES)))
        set_(self, "game", game)
        defaults = GAME_DEFAULTS[game]
        for name, value in defaults.items():  # (Krypkasino's target stays None: it plays no target)
            if getattr(self, name) is None:
                set_(self, name, value)
        # normalise friendly spellings first
        teams = self.teams
        if teams is None or isinstance(teams, bool):
            teams = "pairs" if teams else "none"
        if not isinstance(teams, str) or teams.strip().lower() not in _TEAM_ALIASES:
            raise RulesError(_("{name}={value} is not allowed: choose one of {choices}").format(name="teams", value=repr(self.teams),
                                                                                         choices=", ".join(TEAM_MODES)))
        set_(self, "teams", _TEAM_ALIASES[teams.strip().lower()])
        ace = str(self.ace).strip().lower()
        if ace not in _ACE_ALIASES:
            raise RulesError(
                _("ace={value} is not allowed: choose '1or14' (default), '1' or "
                  "'14hand' (14 from the hand, 1 on the table)").format(value=repr(self.ace))
            )
        set_(self, "ace", _ACE_ALIASES[ace])
        capture = str(self.capture).strip().lower()
        if capture not in CAPTURE_MODES:
            raise RulesError(_("{name}={value} is not allowed: choose one of {choices}").format(name="capture", value=repr(self.capture),
                                                                                         choices=", ".join(CAPTURE_MODES)))
        set_(self, "capture", capture)

        def need_int(name: str, lo: int, hi: int) -> None:
            v = getattr(self, name)
            whole = isinstance(v, int) and not isinstance(v, bool)
            if not whole or v < lo or v > hi:
                span = _("{low}–{high}").format(low=number(lo), high=number(hi))
                raise RulesError((_("{name}={value} is not allowed: it must be {span}") if whole else
                                  _("{name}={value} is not allowed: it must be a whole number, {span}")).format(
                    name=name, value=repr(v), span=span))

        need_int("players", 2, 6 if game == "krypkasino" else 4)
        need_int("hand_size", 1, 26)
        need_int("table_first", 0, 52)
        need_int("table_next", 0, 52)
        need_int("last_capture_point", 0, 10)
        need_int("tabbe_points", -100, 100)
        need_int("dukning_points", -100, 100)
        for flag in ("forced_tabbe", "dubbeltabbe", "cancel_marks", "multiple_builds", "draw", "lowest_wins",
                     "raise_gathers", "lone_ace_builds"):
            if not isinstance(getattr(self, flag), bool):
                raise RulesError(_("{name}={value} is not allowed: it must be true or false").format(
                    name=flag, value=repr(getattr(self, flag))))
        n = self.players
        if self.players * self.hand_size + self.table_first > self.deck_size:
            raise RulesError(
                (_("hand_size={hand} with players={players} and table_first={table} needs more than the "
                   "104 cards of the double deck") if game == "krypkasino" else
                 _("hand_size={hand} with players={players} and table_first={table} needs more than the "
                   "52 cards of the deck")).format(hand=self.hand_size, players=n, table=self.table_first)
            )
        if self.owner_duty not in OWNER_DUTIES:
            raise RulesError(_("{name}={value} is not allowed: choose one of {choices}").format(name="owner_duty", value=repr(self.owner_duty),
                                                                                         choices=", ".join(OWNER_DUTIES)))
        if self.face_cards not in FACE_CARD_MODES:
            raise RulesError(_("{name}={value} is not allowed: choose one of {choices}").format(name="face_cards", value=repr(self.face_cards),
                                                                                         choices=", ".join(FACE_CARD_MODES)))
        if self.target is not None:
            need_int("target", 1, 1000)
        if self.target_count not in TARGET_COUNTS:
            raise RulesError(_("{name}={value} is not allowed: choose one of {choices}").format(
                name="target_count", value=repr(self.target_count), choices=", ".join(TARGET_COUNTS)))
        if game == "krypkasino":
            for name in KASINO_ONLY[1:]:
                if getattr(self, name) != defaults[name]:
                    raise RulesError(_("{name}={value} is an option of classic Kasino only: "
                                       "use game='kasino' (or the preset 'kasino')").format(
                        name=name, value=repr(getattr(self, name))))
        else:
            for name in KRYPKASINO_ONLY:
                if getattr(self, name) != defaults[name]:
                    raise RulesError(_("{name}={value} is an option of Krypkasino only: classic Kasino has "
                                       "no dukning, no dubbeltabbe and no marks turned down").format(
                        name=name, value=repr(getattr(self, name))))
            if self.teams == "threes":
                raise RulesError(_("teams='threes' needs 6 players, and classic Kasino is for 2–4"))
        if self.givar is not None:
            need_int("givar", 1, 600)
            if self.givar % n:
                raise RulesError(
                    _("givar={givar} is not allowed: it must be a multiple of players={players} "
                      "so that everyone deals equally often").format(givar=self.givar, players=n)
                )
        if self.teams == "pairs" and n not in (4, 6):
            raise RulesError(_("teams='pairs' needs players=4 or 6, not players={players}").format(players=n))
        if self.teams == "threes" and n != 6:
            raise RulesError(_("teams='threes' needs players=6, not players={players}").format(players=n))
        if self.teams == "pairs":
            team_of = tuple(s % (n // 2) for s in range(n))
        elif self.teams == "threes":
            team_of = tuple(s % 2 for s in range(n))
        else:
            team_of = tuple(range(n))
        set_(self, "_team_of", team_of)

    def __repr__(self) -> str:
        # Krypkasino's repr is as it always was: classic Kasino's options only for game="kasino"
        items = self.to_dict().items()
        return "Rules(" + ", ".join(f"{k}={v!r}" for k, v in items) + ")"

    # --- derived ----------------------------------------------------------
    @property
    def is_kasino(self) -> bool:
        """Classic Kasino (``game="kasino"``, builds, one deck), not Krypkasino."""
        return self.game == "kasino"

    @property
    def deck_size(self) -> int:
        """Cards in a giv: 104 (two decks) for Krypkasino, 52 for classic Kasino."""
        return 52 if self.game == "kasino" else 104

    @property
    def copies(self) -> int:
        """How many times each card is in the deck: 2 (Krypkasino) or 1."""
        return 1 if self.game == "kasino" else 2

    @property
    def team_count(self) -> int:
        """Number of sides: players, or teams in team play."""
        return max(self._team_of) + 1

    @property
    def givar_count(self) -> int:
        """Givar in a parti (``givar`` or one per player)."""
        return self.givar if self.givar is not None else self.players

    def team_of(self, seat: int) -> int:
        """Team number of a seat (the seat itself without teams)."""
        return self._team_of[seat]

    def team_members(self, team: int) -> tuple[int, ...]:
        """Seats of a team, e.g. ``(0, 2)``."""
        return tuple(s for s, t in enumerate(self._team_of) if t == team)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated).

        >>> Rules().replace(capture="free").capture
        'free'

        Changing ``game`` starts from the new game's defaults (keeping the
        players, teams and givar unless changed too):

        >>> Rules().replace(game="kasino").tabbe_points
        1
        """
        if "game" in changes and str(changes["game"]).strip().lower() != self.game:
            keep = {"players": self.players, "teams": self.teams, "givar": self.givar}
            return Rules(**{**keep, **changes})
        return dataclasses.replace(self, **changes)

    # --- dict / text ------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """All options as a plain JSON-able dict (Krypkasino's leaves out classic
        Kasino's own options, so that its records read as they always did)."""
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.init}
        if self.game == "krypkasino":
            for name in KASINO_ONLY:
                del d[name]
        else:  # left out at their defaults: records written before read the same
            for name in ("target_count", "raise_gathers", "lone_ace_builds"):
                if d[name] == GAME_DEFAULTS["kasino"][name]:
                    del d[name]
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from :meth:`to_dict` output; unknown keys are an error.

        >>> Rules.from_dict({"players": 3}).players
        3
        """
        if not isinstance(data, dict):
            raise RulesError(_("rules must be a mapping of option names to values (a JSON object), "
                               "got {type}").format(type=type(data).__name__))
        names = [f.name for f in dataclasses.fields(cls) if f.init]
        for key in data:
            if not isinstance(key, str):
                raise RulesError(_("rule option names must be text, got {key} ({type}): "
                                   "the options are {options}").format(
                    key=repr(key), type=type(key).__name__, options=", ".join(names)))
            if key not in names:
                raise RulesError(_("unknown rule option {key}: the options are {options}").format(
                    key=repr(key), options=", ".join(names)))
        return cls(**data)

    @classmethod
    def preset(cls, name: str, **changes: Any) -> Rules:
        """A named variant (see :data:`PRESETS`), optionally changed further.

        >>> Rules.preset("table-grows-by-creeping").table_next
        0
        """
        key = name.strip().lower().replace("_", "-").replace(" ", "-")
        key = _PRESET_ALIASES.get(key, key)
        if key not in PRESETS:
            raise RulesError(_("unknown preset {name}: choose one of {choices}").format(
                name=repr(name), choices=", ".join(PRESETS)))
        return cls(**{**PRESETS[key][1], **changes})

    def describe(self) -> str:
        """The options that differ from the default, in words a learner reads.

        >>> Rules(table_next=0).describe()
        'Krypkasino, 2 players (no new table cards after the first deal)'
        >>> Rules(players=4, teams="pairs", ace="1", tabbe_points=10).describe()
        'Krypkasino, 4 players (in pairs, the ace counts 1 only, a tabbe mark +10)'
        """
        default = Rules(players=self.players, game=self.game)
        diffs = [(_("at most {count} givar per parti").format(count=v) if k == "givar" and self.target is not None
                  else _option_words(k, v)) for k, v in self.to_dict().items() if getattr(default, k) != v]
        name = "Krypkasino" if self.game == "krypkasino" else ("Avig kasino" if self.lowest_wins else "Kasino")
        if diffs:
            # i18n: {game} is Krypkasino, Kasino or Avig kasino; {options} the options that differ, with commas
            return _("{game}, {players} players ({options})").format(game=name, players=self.players,
                                                                     options=", ".join(diffs))
        return _("{game}, {players} players").format(game=name, players=self.players)


def _signed(n: int) -> str:
    return signed(n)


#: an option's value in words (Rules.describe); an option not named here reads ``name=value``
_WORDS: dict[str, Any] = {
    "teams": lambda v: {"pairs": _("in pairs"), "threes": _("two teams of three"), "none": _("no teams")}.get(v, v),
    "hand_size": lambda v: _("{count} cards per hand").format(count=v),
    "table_first": lambda v: _("{count} table cards in the first deal").format(count=v),
    "table_next": lambda v: (_("no new table cards after the first deal") if v == 0
                             else _("{count} table cards in later deals").format(count=v)),
    "capture": lambda v: {"maximum": _("take the most cards"), "free": _("free capture: any träffar, or creep"),
                          "maximal": _("take all you can")}.get(v, v),
    "forced_tabbe": lambda v: _("tvångstabbe") if v else _("no tvångstabbe"),
    "ace": lambda v: {"1": _("the ace counts 1 only"), "14hand": _("a played ace counts 14, a table ace 1"),
                      "1or14": _("the ace counts 1 or 14")}.get(v, v),
    "dubbeltabbe": lambda v: _("a dubbeltabbe counts two") if v else _("a dubbeltabbe counts as one tabbe"),
    "cancel_marks": lambda v: _("tabbe marks cancel") if v else _("tabbe marks do not cancel"),
    "last_capture_point": lambda v: ngettext("sistan: {count} point for the last capture",
                                             "sistan: {count} points for the last capture", v).format(count=v),
    "tabbe_points": lambda v: _("a tabbe mark {points}").format(points=_signed(v)),
    "dukning_points": lambda v: _("a dukning {points}").format(points=_signed(v)),
    "givar": lambda v: _("{count} givar per parti").format(count=v),
    "draw": lambda v: _("dragkasino: draw up to 4 after each play") if v else _("no drawing"),
    "target": lambda v: _("first to {points}").format(points=v),
    "target_count": lambda v: (_("the first to reach the target, counting in the order of the scoring table, wins")
                               if v == "in-order" else
                               _("the target is looked at after each giv; several over it: the best total wins")),
    "face_cards": lambda v: (_("face cards take only their own rank") if v == "own-rank"
                             else _("face cards count 11, 12, 13")),
    "lowest_wins": lambda v: _("lowest wins") if v else _("highest wins"),
    "multiple_builds": lambda v: (_("multiple builds (dubbelt bygge), locked") if v
                                  else _("no multiple builds: a build makes its value once")),
    "owner_duty": lambda v: {"take-or-raise": _("the builder takes or raises the build on the next turn"),
                             "no-trail": _("the builder may not trail while owning a build"),
                             "none": _("no duty for the builder")}.get(v, v),
    "raise_gathers": lambda v: (_("a raise may gather other groups of its new value (a locked multiple build)") if v
                                else _("a raise is the card alone on one build")),
    "lone_ace_builds": lambda v: (_("a lone table ace may stand as 14 in a build of 14") if v
                                  else _("a table ace counts 1 in every build")),
}


def _option_words(name: str, value: Any) -> str:
    say = _WORDS.get(name)
    return str(say(value)) if say is not None else f"{name}={value!r}"


#: The presets: name -> (what it is, in words: marked ``N_``, shown translated with
#: :func:`preset_description`; the options it sets).
PRESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "krypkasino": (N_("Krypkasino as these lessons teach it (the default)"), {}),
    "table-grows-by-creeping": (
        N_("After the first deal no new table cards: the table grows only by creeping"),
        {"table_next": 0},
    ),
    "two-player-5-6": (
        N_("Two players, five cards each and six to the table in every deal"),
        {"players": 2, "hand_size": 5, "table_first": 6, "table_next": 6},
    ),
    "last-capture-point": (
        N_("One extra point to the last capturer, 43 in all"),
        {"last_capture_point": 1},
    ),
    "ace-low": (N_("The ace counts 1 only"), {"ace": "1"}),
    "ace-14-hand": (N_("A played ace counts 14, a table ace 1; a played ace takes no lone table ace"),
                    {"ace": "14hand"}),
    "maximum-capture": (N_("A capturing card must take the largest number of cards"), {"capture": "maximum"}),
    "free-capture": (N_("Capture any union of träffar or creep, as in classic Kasino; no tvångstabbe"),
                     {"capture": "free", "forced_tabbe": False}),
    "four-pairs": (N_("Four players in two teams (0+2 against 1+3)"), {"players": 4, "teams": "pairs"}),
    "six-pairs": (N_("Six players in three pairs (0+3, 1+4, 2+5)"), {"players": 6, "teams": "pairs"}),
    "six-threes": (N_("Six players in two teams of three (0+2+4 against 1+3+5)"), {"players": 6, "teams": "threes"}),
    "kasino": (N_("Classic Kasino with builds: one deck, 4 each and 4 to the table, then 4 each; "
                  "highest wins, first to 16"), {"game": "kasino"}),
    "avig-kasino": (N_("Avig kasino: classic Kasino played misère, lowest wins, with forced capture and "
                       "forced tabbe"),
                    {"game": "kasino", "lowest_wins": True, "capture": "maximal", "forced_tabbe": True}),
    "dragkasino": (N_("Kasino where each player draws up to 4 after every play"),
                   {"game": "kasino", "draw": True}),
    "kasino-21": (N_("Kasino played to 21 points"), {"game": "kasino", "target": 21}),
    "kasino-pairs": (N_("Partnerkasino: four players in two pairs, 0+2 against 1+3"),
                     {"game": "kasino", "players": 4, "teams": "pairs"}),
    "kasino-ace-low": (N_("Kasino with the ace counting 1 only"), {"game": "kasino", "ace": "1"}),
    "kasino-face-own-rank": (N_("Kasino where face cards take only their own rank"),
                             {"game": "kasino", "face_cards": "own-rank"}),
    "kasino-tabbe-2": (N_("Kasino with every tabbe worth 2"), {"game": "kasino", "tabbe_points": 2}),
}
# "avig" meant Krypkasino before avig kasino existed; nothing in the project used it
# (lessons, classroom files, tests): it now names avig kasino, classic Kasino misère.
_PRESET_ALIASES = {"default": "krypkasino", "standard": "krypkasino", "avig": "avig-kasino",
                   "classic": "kasino", "casino": "kasino", "drag-kasino": "dragkasino",
                   "partnerkasino": "kasino-pairs"}


def preset_description(name: str) -> str:
    """What the preset ``name`` is, in words, in the current language (``PRESETS[name][0]``
    is the English text).

    >>> preset_description("ace-low")
    'The ace counts 1 only'
    """
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = _PRESET_ALIASES.get(key, key)
    if key not in PRESETS:
        raise RulesError(_("unknown preset {name}: choose one of {choices}").format(
            name=repr(name), choices=", ".join(PRESETS)))
    return _(PRESETS[key][0])


def deal_plan(rules: Rules, total: int | None = None) -> list[tuple[int, int]]:
    """The utdelningar of one giv as ``(cards per hand, cards to the table)``.

    The last deals share what is left: each player gets ``stock // players``,
    the table up to its count, and cards that cannot go one to every player
    go to the table too, so all ``total`` cards are dealt.

    >>> deal_plan(Rules(players=5))[-1]
    (1, 3)
    >>> deal_plan(Rules(players=6))
    [(4, 4), (4, 4), (4, 4), (3, 2)]

    Classic Kasino deals its 52 cards; *dragkasino* deals the first utdelning
    only, then every player draws one card after each play (``(1, 0)`` per draw
    here, one seat at a time: see :func:`~krypteach.engine.game.deal_giv`):

    >>> deal_plan(Rules(game="kasino"))
    [(4, 4), (4, 0), (4, 0), (4, 0), (4, 0), (4, 0)]
    >>> len(deal_plan(Rules(game="kasino", draw=True)))
    41
    """
    if total is None:
        total = rules.deck_size
    n = rules.players
    if rules.draw:  # the first utdelning, then one card a draw
        first = min(rules.hand_size, total // n)
        t = min(rules.table_first, total - first * n)
        return [(first, t)] + [(1, 0)] * (total - first * n - t)
    stock = total
    plan: list[tuple[int, int]] = []
    while stock > 0:
        table_count = rules.table_first if not plan else rules.table_next
        if stock >= n * rules.hand_size:
            k = rules.hand_size
        else:
            k = stock // n
        stock -= k * n
        t = min(table_count, stock)
        stock -= t
        if 0 < stock < n:  # cannot go one to every player: to the table
            t += stock
            stock = 0
        if k == 0:  # pragma: no cover - guarded by the rule above
            raise RulesError("deal with no cards to the hands")
        plan.append((k, t))
    return plan
