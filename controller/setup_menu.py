"""Choosing the game, the players and the house rules with the table's buttons only.

The table has no keyboard and sometimes only three buttons (UP/DOWN/OK), so every page is a
list with a cursor: UP/DOWN move it, OK acts on the selected row, and each page after the first
has a "< Back" row so BACK is never required. The defaults are always one OK away (the cursor
starts on the row that continues), and a long press on OK starts at once with the defaults of
the pages not visited yet: a café regular plays within two seconds of sitting down.

    menu = SetupMenu(GAMES, defaults=config.table)
    menu.on_button("press", "OK")        # ... until menu.done is a SetupResult
    state = menu.done.new_game()

The menu is a plain state machine (no clock, no pygame): `view()` gives the `TableView` to draw.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence

from display.view import HelpView, MessageView, PromptView, SetupItem, TableView

from .kept_games import KeptGame
from .help_card import HOW_TO_PLAY, SMALLEST_SCREEN, help_card, hint_pressed
from .name_letters import ALPHABETS, LATIN, SHARED, alphabet_of, next_accent, next_alphabet, plain
from .names import clean_name, free_name, stand_in, undrawable
from .short_panel import has_button, without_missing
from .rules import GAMES, GameState, OptionSpec, RulesError, find_game
from .rules.base import FIRST_DRAWN

# pages, in order
GAME, COUNT, NAMES, OPTIONS, START = "game", "count", "names", "options", "start"
PAGES = (GAME, COUNT, NAMES, OPTIONS, START)

MAX_NAME = 12                      # fits a score-sheet column on an 800x480 screen
END = "\0"                         # the "name ends here" mark in the letter cycle
LETTERS: tuple[str, ...] = (END,) + tuple(ALPHABETS[LATIN] + SHARED)     # (the Latin cycle, as before)
BIG_STEP = 10                      # a held UP/DOWN changes a number by this much
NEXT_LABEL, BACK_LABEL = "Next >", "< Back"
READ_ONLY = "(set in config)"


@dataclass(frozen=True)
class SetupResult:
    """What the players chose. `options` holds only the rules that differ from the game's defaults."""

    game: str
    players: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)

    def new_game(self) -> GameState:
        return find_game(self.game).new(self.players, self.options)


@dataclass(frozen=True)
class SetupDefaults:
    """The table's preselection (the `[table]` section of the config has the same attributes)."""

    game: str | None = None
    players: Sequence[str] = ()                              # seat names, clockwise
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # per game name


def option_kind(spec: OptionSpec) -> str:
    """How a rule is edited with buttons: "choice", "bool", "int", or "fixed" (config file only)."""
    if spec.choices is not None:
        return "choice"
    kind = spec.type or type(spec.default)
    if kind is bool:
        return "bool"
    if kind is int:
        return "int"
    return "fixed"


def format_value(spec: OptionSpec, value: Any) -> str:
    if option_kind(spec) == "fixed":
        return READ_ONLY
    if isinstance(value, bool):
        return "yes" if value else "no"
    return spec.words(value)


#: options that name a seat (every game calls its first player's seat so): shown as the player
#: sitting there, and kept within the seats of the game
SEAT_OPTIONS = frozenset({"start_seat"})
#: the start seat's value on the menu while the first player is left to the table
SEAT_DRAWN = "drawn when the game starts"


def option_label(name: str) -> str:
    """A rule's row label: its name in words, capitalised ("low_straight_9_to_K": "Low straight 9 to K")."""
    words = name.replace("_", " ")
    return words[:1].upper() + words[1:]


@dataclass
class _Row:
    label: str
    value: str = ""
    action: Callable[[], None] | None = None     # None: shown, not selectable


def letter_cycle(alphabet: str) -> tuple[str, ...]:
    """What UP goes through on a letter of `alphabet`: the end mark, its letters, then the
    digits and signs (Latin's is LETTERS)."""
    return (END,) + tuple(ALPHABETS[alphabet] + SHARED)


@dataclass
class _NameEdit:
    """Letter-by-letter editing: `chars` may hold END marks; the name stops at the first one."""

    seat: int
    original: str
    chars: list[str]
    pos: int = 0
    alphabet: str = LATIN       # of the end mark's letter: the last letter's, or turned by a long DOWN

    def text(self) -> str:
        out = []
        for i, ch in enumerate(self.chars):
            if i == self.pos:
                out.append(f"[{'_' if ch == END else ch}]")
                if ch == END:
                    break
            elif ch == END:
                break
            else:
                out.append(ch)
        return "".join(out)


@dataclass
class _IntEdit:
    name: str
    original: int


class SetupMenu:
    """The setup pages as a state machine fed with button events."""

    def __init__(self, games: Mapping[str, type[GameState]] = GAMES, defaults: Any = None,
                 max_rows: int = 10, screen_size: tuple[int, int] = SMALLEST_SCREEN,
                 buttons: frozenset[str] | None = None) -> None:
        if not games:
            raise ValueError("no games to choose from")
        self.games: list[type[GameState]] = list(games.values())
        self.defaults = defaults or SetupDefaults()
        self.buttons = buttons           # the panel's, where known: hints name no button it lacks
        self.max_rows = max(3, max_rows)
        self.done: SetupResult | None = None
        self.last: SetupResult | None = None     # the game just played, kept for "play again"
        # games put away by "Still playing?" (set by the app), offered under the games to be taken
        # up again; `take_up` is the one chosen, for the app to resume
        self.kept: tuple[KeptGame, ...] = ()
        self.take_up: KeptGame | None = None
        self.message: MessageView | None = None
        # what the table says while it lasts (the camera or the buttons down; set by the app at
        # each pass), shown when the menu has no message of its own: its banner takes room the
        # card's pages are counted for
        self.notice: MessageView | None = None
        self.page = GAME
        self.cursor: dict[str, int] = {p: 0 for p in PAGES}
        self.editing: _NameEdit | _IntEdit | None = None
        self.help_game: type[GameState] | None = None    # the HINT card shown, if any
        self.help_kept: KeptGame | None = None            # the put-away game whose card it is, if so
        self.help_page = 0                                # its page (a long card's pages are counted
        self.screen_size = screen_size                    # for the screen it is drawn on)
        self.seat_names: list[str] = [clean_name(n) for n in getattr(self.defaults, "players", ()) or ()
                                      if clean_name(n)]
        self.names: list[str] = []
        self._drawable_seats()
        self.count = 0
        self.values: dict[str, Any] = {}
        # the group at the table, once it has chosen (a count, a name, a game started or played):
        # kept when it chooses another game (see _load_game); a fresh menu is the café's again
        self.group_count = 0
        self.rules_kept: dict[str, dict[str, Any]] = {}   # each game's rules as last set, by name
        self.game_index = 0
        wanted = getattr(self.defaults, "game", None)
        names = [g.name for g in self.games]
        if wanted in names:
            self.game_index = names.index(wanted)
        elif wanted:
            self.message = MessageView(f"default game {wanted!r} is unknown; choose one", "warning")
        self._load_game(self.game_index)
        self.cursor[GAME] = self.game_index

    # ------------------------------------------------------------------------------ state
    @property
    def game(self) -> type[GameState]:
        return self.games[self.game_index]

    def played(self, result: SetupResult) -> None:
        """A game started without the menu (resumed from its journal after a restart) taken as
        chosen on it: after that game the games page kept the café's default game under the
        cursor, its "how to play" on the next page was another game's, and "play again" was not
        offered. (A game this menu does not list is left out.)"""
        names = [g.name for g in self.games]
        if result.game not in names:
            return
        self._load_game(names.index(result.game))
        self.cursor[GAME] = self.game_index
        self.count = self.group_count = len(result.players)
        self.names[:self.count] = list(result.players)
        self.values = {spec.name: spec.default for spec in self.game.OPTIONS} | dict(result.options)
        # (as the menu keeps a game's rules, those set otherwise: a journal has the value of every
        # one, and "play again" was not offered after a resumed game)
        self.last = SetupResult(result.game, tuple(result.players), self.options())

    def offer(self, kept: tuple[KeptGame, ...]) -> None:
        """The put-away games to offer under the games, now (the cursor kept on a row that is
        still there: one taken up, or that could not be, is gone from the list)."""
        self.kept = tuple(kept)
        if self.cursor[GAME] >= len(self.games) + len(self.kept):
            self.cursor[GAME] = self.game_index

    def reset(self) -> None:
        """Back to the first page for the next game, keeping the last choices as the defaults."""
        self.last, self.done = self.done or self.last, None
        self.take_up = None
        self.editing = None
        self.help_game = None
        self.page = GAME
        self.cursor[GAME] = self.game_index

    def _load_game(self, index: int) -> None:
        """Select a game: the group's players and that game's rules as last set on this menu, else
        the table's defaults (the config's seats and house rules).

        Why the group's: a group that finished a game and chose another (or only looked at another
        game's player count and came back) found the café's seats instead of the names it had
        typed letter by letter with the buttons, its number of players, and the house rules of the
        game just played: all to be set again, or a game started under other names and rules.
        A fresh menu (the table left alone, a restart) has no group: the café's setup."""
        if self.values:                       # (a game was loaded: its rules, as set, are kept)
            self.rules_kept[self.game.name] = dict(self.values)
        group = list(self.names)
        self.game_index = index
        game = self.game
        wanted = self.group_count or len(self.seat_names) or 2
        self.count = min(max(wanted, game.min_players), game.max_players)
        self.names = []
        for i in range(game.max_players):
            self.names.append(group[i] if i < len(group) and group[i] not in self.names else
                              self.seat_names[i] if i < len(self.seat_names) else self._free_name(i))
        self._distinct_seats()
        self.values = {spec.name: spec.default for spec in game.OPTIONS}
        given = dict((getattr(self.defaults, "options", None) or {}).get(game.name, {}) or {})
        specs = {spec.name: spec for spec in game.OPTIONS}
        for name, value in given.items():
            try:
                if name not in specs:
                    raise RulesError(f"unknown option {name!r} for {game.title}")
                self.values[name] = specs[name].check(value)
            except RulesError as exc:
                self.message = MessageView(f"config ignored: {exc}", "warning")
        self.values.update(self.rules_kept.get(game.name, {}))
        self._seats_within_count()
        self.cursor[COUNT] = self.count - game.min_players
        self.cursor[NAMES] = self.cursor[OPTIONS] = 0

    def _seats_within_count(self) -> None:
        """A rule that names a seat kept to the seats that play (a seat chosen for more players)."""
        for spec in self.game.OPTIONS:
            if spec.name in SEAT_OPTIONS and isinstance(self.values.get(spec.name), int):
                self.values[spec.name] = min(self.values[spec.name], self.count - 1)

    def _drawable_seats(self) -> None:
        """A seat named with letters the screen cannot draw (the config's "日本" was two empty
        boxes, and "한국" the same two) is offered under a free name, and the screen says so."""
        said = []
        for seat, name in enumerate(self.seat_names):
            if not undrawable(name):
                continue
            self.seat_names[seat] = ""      # (an emoji after a name left out: "Zoë 🎲" is "Zoë")
            self.seat_names[seat] = stand_in(name, seat, set(self.seat_names) | set(self.names))
            said.append(f"Seat {seat + 1}'s name has letters this screen lacks: it is "
                        f"{self.seat_names[seat]} for now.")
        if said:                            # (each seat said: the last one alone was)
            self.message = MessageView(" ".join(said), "warning")

    def _distinct_seats(self) -> None:
        """Seats that come into play under a name already playing (a seat renamed while fewer
        played) take a free name: "cannot start: player names must be different" said neither
        which names nor where."""
        for seat in range(self.count):
            if self.names[seat] in self.names[:seat]:
                self.names[seat] = self._free_name(seat)

    def _free_name(self, seat: int) -> str:
        return free_name(seat, set(self.seat_names) | set(self.names))

    def options(self) -> dict[str, Any]:
        """The chosen rules that differ from the game's defaults (short logs)."""
        return {spec.name: self.values[spec.name] for spec in self.game.OPTIONS
                if self.values[spec.name] != spec.default}

    def players(self) -> tuple[str, ...]:
        return tuple(self.names[: self.count])

    # ------------------------------------------------------------------------------ input
    def on_button(self, kind: str, name: str) -> bool:
        """Handle one button event ("press" or "hold"); True if it did something."""
        if self.done is not None or self.take_up is not None or kind not in ("press", "hold"):
            return False
        name = name.upper()
        self.message = None
        if name == "HINT" or self._ok_turns_card(kind, name):
            # how the game under the cursor (or the one chosen) is played, in place of the menu;
            # HINT again turns its page, or closes it after the last; any other button closes it
            # and does what it always does
            self._hint()
            return True
        self.help_game = None
        if kind == "hold" and name == "OK":
            self._start_now()
            return True
        if isinstance(self.editing, _NameEdit):
            if kind == "hold" and name == "UP" and not has_button(self.buttons, "BACK"):
                # (a long UP is BACK, as during a game: on a three-button panel the only way back to
                # a letter passed with OK, or out of a name opened by mistake, was to OK to its end)
                name = "BACK"
            if kind == "hold" and name == "DOWN" and self._accent(self.editing):
                return True
            return self._name_button(self.editing, name)
        if isinstance(self.editing, _IntEdit):
            return self._int_button(self.editing, name, BIG_STEP if kind == "hold" else 1)
        if name in ("UP", "DOWN"):
            self._move(-1 if name == "UP" else 1)
            return True
        if name == "OK":
            row = self._rows()[self.cursor[self.page]]
            if row.action is not None:
                row.action()
            return True
        if name == "BACK":
            return self._back()
        return False

    @property
    def hint_button(self) -> bool:
        """Whether the panel may have HINT: without it the card is a row of the pages after the
        games page (the game chosen), and OK turns it as HINT would."""
        return has_button(self.buttons, "HINT")

    def _ok_turns_card(self, kind: str, name: str) -> bool:
        """Whether this press turns the card shown, as HINT would: a short OK on a panel without HINT."""
        return not self.hint_button and self.help_game is not None and kind == "press" and name == "OK"

    def _show_card(self) -> None:
        """The "How to play" row: the chosen game's card, under the house rules chosen so far."""
        self.help_game, self.help_kept, self.help_page = self.game, None, 0

    def _help_rows(self) -> list[_Row]:
        """The row that opens the card where the panel has no HINT (none where it may have one)."""
        return [] if self.hint_button else [_Row(f"{HOW_TO_PLAY} {self.game.title}", "", self._show_card)]

    def _hint(self) -> None:
        """HINT: the card of the game in view opened, its page turned, or closed after its last."""
        page = hint_pressed(self._help(), "setup", self.screen_size, self.message or self.notice)
        if page is None:
            self.help_game = None
        elif self.help_game is None:
            self.help_game, self.help_kept = self._game_in_view(), self._kept_in_view()
        self.help_page = page or 0

    def _game_in_view(self) -> type[GameState]:
        """The game under the cursor on the games page (a put-away game's too), else the game chosen."""
        kept = self._kept_in_view()
        names = [g.name for g in self.games]
        if kept is not None and kept.game in names:
            return self.games[names.index(kept.game)]
        if self.page == GAME and self.cursor[GAME] < len(self.games):
            return self.games[self.cursor[GAME]]
        return self.game

    def _kept_in_view(self) -> KeptGame | None:
        """The put-away game under the cursor on the games page, if any."""
        index = self.cursor[GAME] - len(self.games)
        if self.page == GAME and 0 <= index < len(self.kept):
            return self.kept[index]
        return None

    def _move(self, step: int) -> None:
        rows = self._rows()
        i = self.cursor[self.page]
        for _ in range(len(rows)):
            i = (i + step) % len(rows)
            if rows[i].action is not None:
                break
        self.cursor[self.page] = i

    def _go(self, page: str, forward: bool = True) -> None:
        """Show `page`; going forward puts the cursor on the row that continues (defaults one OK away)."""
        self.page = page
        rows = self._rows()
        if forward and page == COUNT:
            self.cursor[page] = self.count - self.game.min_players
        elif forward or not 0 <= self.cursor[page] < len(rows) or rows[self.cursor[page]].action is None:
            self.cursor[page] = next(i for i, r in enumerate(rows) if r.action is not None)

    def _back(self) -> bool:
        index = PAGES.index(self.page)
        if index == 0:
            return False
        self._go(PAGES[index - 1], forward=False)
        return True

    def _error(self, text: str) -> None:
        self.message = MessageView(text, "error")

    # ---- actions
    def _pick_game(self, index: int) -> None:
        if index != self.game_index:
            self._load_game(index)
        self._go(COUNT)

    def _pick_count(self, count: int) -> None:
        self.count = self.group_count = count
        self._distinct_seats()
        self._seats_within_count()           # (a seat chosen for more players than now play)
        self._go(NAMES)

    def _edit_name(self, seat: int) -> None:
        name = self.names[seat]
        last = next((a for a in map(alphabet_of, reversed(name[:MAX_NAME])) if a), LATIN)
        self.editing = _NameEdit(seat, name, list(name[:MAX_NAME]) + [END], alphabet=last)

    def _option_action(self, spec: OptionSpec) -> None:
        kind = option_kind(spec)
        current = self.values[spec.name]
        if spec.name in SEAT_OPTIONS and self.values.get("first_player") == FIRST_DRAWN:
            self.message = MessageView("The table draws the first player: set First player to "
                                       "\"the start seat\" to choose it", "info")
        elif kind == "bool":
            self._set_option(spec, not current)
        elif kind == "choice" and len(spec.choices or ()) < 2:
            # (School's tie rule has the one value: OK on it changed nothing and said nothing, and
            # staff pressed on, thinking the panel dead)
            self.message = MessageView(f"{option_label(spec.name)} has no other choice in {self.game.title}: "
                                       f"{self._shown(spec, current)}", "info")
        elif kind == "choice":
            choices = list(spec.choices or ())
            i = choices.index(current) if current in choices else -1
            self._set_option(spec, choices[(i + 1) % len(choices)])
        elif kind == "int":
            self.editing = _IntEdit(spec.name, current)
        else:
            self.message = MessageView(f"{option_label(spec.name)} is set in the config file", "info")

    def _set_option(self, spec: OptionSpec, value: Any) -> bool:
        try:
            self.values[spec.name] = spec.check(value)
            return True
        except RulesError as exc:
            self._error(str(exc))
            return False

    def _start(self) -> None:
        """Validate through the game itself; on error say why and stay on the page."""
        players, options = self.players(), self.options()
        try:
            self.game.new(players, options)
        except (RulesError, ValueError) as exc:
            self._error(f"cannot start: {exc}")
            return
        self.done = SetupResult(self.game.name, players, options)
        self.group_count = len(players)

    def _start_now(self) -> None:
        """Long OK: take what the current page shows, defaults for the rest, and start."""
        if isinstance(self.editing, _NameEdit):
            if not self._finish_name(self.editing):
                return
        self.editing = None
        cursor = self.cursor[self.page]
        kept = self._kept_in_view()
        if kept is not None:               # (a long OK on a put-away game takes it up too)
            self.take_up = kept
            return
        if self.page == GAME:
            if cursor != self.game_index:
                self._load_game(cursor)
        elif self.page == COUNT and cursor <= self.game.max_players - self.game.min_players:
            self.count = self.game.min_players + cursor     # (a count's row, not "How to play" or "< Back")
            self._distinct_seats()
            self._seats_within_count()
        self._start()

    # ---- editing a name letter by letter
    def _accent(self, edit: _NameEdit) -> bool:
        """A long DOWN: the letter under the cursor turned into its next accented form (e, é, è,
        ... ë ... e; o ... ø; l ... ł): the cycle had none, and Zoë could only be "Zoe". False
        for a letter without accents (a long DOWN there is a DOWN, as before)."""
        ch = edit.chars[edit.pos]
        if ch == END:           # (on the end mark: the letter's alphabet turned, Latin, Greek, Cyrillic)
            edit.alphabet = next_alphabet(edit.alphabet)
            return True
        turned = next_accent(ch)
        if turned == ch:
            return False
        edit.chars[edit.pos] = turned
        return True

    def _name_button(self, edit: _NameEdit, name: str) -> bool:
        if name in ("UP", "DOWN"):
            ch = plain(edit.chars[edit.pos])      # (an accented letter steps on from its plain one)
            edit.alphabet = alphabet_of(ch) or edit.alphabet
            cycle = letter_cycle(edit.alphabet)
            i = cycle.index(ch) if ch in cycle else 0
            edit.chars[edit.pos] = cycle[(i + (1 if name == "UP" else -1)) % len(cycle)]
            return True
        if name == "OK":
            if edit.chars[edit.pos] == END or edit.pos + 1 >= MAX_NAME:
                if self._finish_name(edit):
                    self.editing = None
                return True
            edit.pos += 1
            if edit.pos == len(edit.chars):
                edit.chars.append(END)
            return True
        if name == "BACK":
            if edit.pos > 0:
                edit.pos -= 1
            else:
                self.editing = None          # cancel: the name stays as it was
            return True
        return False

    def _finish_name(self, edit: _NameEdit) -> bool:
        text = "".join(edit.chars).split(END)[0][:MAX_NAME].strip()
        if text == edit.original[:MAX_NAME].strip():
            text = edit.original         # a config's longer name, opened and left as it was, kept whole
        others = [n for i, n in enumerate(self.players()) if i != edit.seat]
        if not text:
            self._error("a name needs at least one letter")
            return False
        if text in others:
            self._error(f"{text!r} is already playing: choose another name")
            return False
        self.names[edit.seat] = text
        return True

    # ---- editing a number
    def _int_button(self, edit: _IntEdit, name: str, step: int) -> bool:
        spec = next(s for s in self.game.OPTIONS if s.name == edit.name)
        if name in ("UP", "DOWN"):
            value = self.values[spec.name] + (step if name == "UP" else -step)
            if spec.minimum is not None:
                value = max(spec.minimum, value)
            if spec.maximum is not None:
                value = min(spec.maximum, value)
            if spec.name in SEAT_OPTIONS:
                value = min(value, self.count - 1)
            self._set_option(spec, value)
            return True
        if name == "OK":
            self.editing = None
            return True
        if name == "BACK":
            self.values[spec.name] = edit.original
            self.editing = None
            return True
        return False

    # ------------------------------------------------------------------------------ pages
    def _rows(self) -> list[_Row]:
        return {GAME: self._game_rows, COUNT: self._count_rows, NAMES: self._name_rows,
                OPTIONS: self._option_rows, START: self._start_rows}[self.page]()

    def _game_rows(self) -> list[_Row]:
        rows = [_Row(g.title, _player_range(g), lambda i=i: self._pick_game(i)) for i, g in enumerate(self.games)]
        return rows + [_Row(k.row(), ", ".join(k.players), lambda k=k: self._take_up(k)) for k in self.kept]

    def _take_up(self, kept: KeptGame) -> None:
        self.take_up = kept

    def _count_rows(self) -> list[_Row]:
        game = self.game
        rows = [_Row(f"{n} player{'s' if n > 1 else ''}", "", lambda n=n: self._pick_count(n))
                for n in range(game.min_players, game.max_players + 1)]
        return rows + self._help_rows() + [_Row(BACK_LABEL, "", self._back)]

    def _name_rows(self) -> list[_Row]:
        rows = [_Row(NEXT_LABEL, "", lambda: self._go(OPTIONS))]
        for seat, name in enumerate(self.players()):
            if isinstance(self.editing, _NameEdit) and self.editing.seat == seat:
                name = self.editing.text()
            rows.append(_Row(f"Seat {seat + 1}", name, lambda s=seat: self._edit_name(s)))
        return rows + [_Row(BACK_LABEL, "", self._back)]

    def _option_rows(self) -> list[_Row]:
        rows = [_Row(NEXT_LABEL, "", lambda: self._go(START))]
        if not self.game.OPTIONS:
            rows.append(_Row("No house rules for this game"))
        for spec in self.game.OPTIONS:
            value = self._shown(spec, self.values[spec.name])
            if isinstance(self.editing, _IntEdit) and self.editing.name == spec.name:
                value = f"< {value} >"
            rows.append(_Row(option_label(spec.name), value, lambda s=spec: self._option_action(s)))
        return rows + [_Row(BACK_LABEL, "", self._back)]

    def _start_rows(self) -> list[_Row]:
        rows = [_Row("Game", self.game.title), _Row("Players", ", ".join(self.players()))]
        changed = self.options()
        specs = {s.name: s for s in self.game.OPTIONS}
        if not changed:
            rows.append(_Row("House rules", "standard"))
        for name, value in changed.items():
            if name in SEAT_OPTIONS and changed.get("first_player") == FIRST_DRAWN:
                continue                      # ("First player: drawn by the table" says it)
            rows.append(_Row(option_label(name), self._shown(specs[name], value)))
        return rows + [_Row("Start game", "", self._start)] + self._help_rows() + [_Row(BACK_LABEL, "", self._back)]

    def _shown(self, spec: OptionSpec, value: Any) -> str:
        """A rule's value as the setup screen shows it: a seat as the player sitting there."""
        players = self.players()
        if spec.name in SEAT_OPTIONS and self.values.get("first_player") == FIRST_DRAWN:
            return SEAT_DRAWN                 # (the seat set is not the one that will start)
        if spec.name in SEAT_OPTIONS and isinstance(value, int) and 0 <= value < len(players):
            return f"{players[value]} (seat {value + 1})"
        return format_value(spec, value)

    # ------------------------------------------------------------------------------- view
    def view(self) -> TableView:
        rows = self._rows()
        cursor = self.cursor[self.page]
        items = [SetupItem(r.label, r.value, i == cursor) for i, r in enumerate(rows)]
        view = TableView(mode="setup", title=_TITLES[self.page],
                         status=f"{self.game.title} · step {PAGES.index(self.page) + 1} of {len(PAGES)}",
                         prompt=self._panel_prompt(rows[cursor]), message=self.message or self.notice,
                         help=self._help())
        return replace(view, setup=self._window(items, cursor, self._rows_fit(view)))

    def _rows_fit(self, view: TableView) -> int:
        """How many rows the screen shows legibly under this view's banner and above its foot: at
        320x240 ten rows over a house rule's description were 13 px each, the cursor's bar too
        thin for its words."""
        from display.render import setup_rows      # (pygame: only where a screen shows them)
        return setup_rows(view, self.screen_size)

    def _start_now_words(self) -> str:
        """What a long OK on the games page starts: the same game again, with the same players and
        rules, is named (the last group's choices are kept, unseen on this page)."""
        again = self.last
        if (again is not None and self.cursor[GAME] == self.game_index and again.game == self.game.name
                and again.players == self.players() and again.options == self.options()):
            return f"play again ({', '.join(again.players)})"
        return "start now"

    def _about(self, spec: OptionSpec) -> str:
        """What a house rule does, and its standard value (a rule set in the config file has none to show)."""
        if option_kind(spec) == "fixed":
            return spec.doc
        return f"{spec.doc} (standard: {self._shown(spec, spec.default)})"

    def _help(self) -> HelpView | None:
        """The HINT card, if shown, under the house rules that game would be played with."""
        if self.help_game is None:
            return None
        kept = self.help_kept if self.help_kept is not None and self.help_kept.game == self.help_game.name else None
        rules = self._checked(self.help_game, kept.options) if kept is not None else self._rules_of(self.help_game)
        return help_card(self.help_game, rules, self.help_page, "HINT" if self.hint_button else "OK")

    def _rules_of(self, game: type[GameState]) -> dict[str, Any]:
        """The house rules `game` would start with: those chosen so far for the chosen game, else
        the table's configured ones (a value the game refuses is left out: its default stands)
        under those this group last set for it, as `_load_game` loads them (the card told the
        config's: a group back on the games page after setting a game's rules and choosing
        another read on that game's HINT card rules it would not be played under)."""
        if game is self.game:
            return self.values
        given = (getattr(self.defaults, "options", None) or {}).get(game.name, {}) or {}
        return self._checked(game, given) | self.rules_kept.get(game.name, {})

    @staticmethod
    def _checked(game: type[GameState], given: Mapping[str, Any]) -> dict[str, Any]:
        """The rules of `given` that `game` takes (a value it refuses is left out: its default
        stands), for a HINT card: a put-away game's header or the config may hold an old value."""
        given = dict(given)
        specs = {spec.name: spec for spec in game.OPTIONS}
        out = {}
        for name, value in given.items():
            try:
                out[name] = specs[name].check(value)
            except (KeyError, RulesError):
                pass
        return out

    def _window(self, items: list[SetupItem], cursor: int, fit: int | None = None) -> tuple[SetupItem, ...]:
        """At most `max_rows` rows around the cursor (and no more than the screen `fit`s, three
        at the least), so long rule lists stay legible."""
        most = self.max_rows if fit is None else max(3, min(self.max_rows, fit))
        if len(items) <= most:
            return tuple(items)
        size = most - 2                             # room for the "more" markers
        first = min(max(0, cursor - size // 2), len(items) - size)
        shown = items[first:first + size]
        above, below = first, len(items) - first - size
        head = [SetupItem("...", f"{above} more")] if above else []
        tail = [SetupItem("...", f"{below} more")] if below else []
        return tuple(head + shown + tail)

    def _panel_prompt(self, row: _Row) -> PromptView:
        """The prompt, its hint naming no button the panel lacks (a "< Back" row stands for BACK)."""
        prompt = self._prompt(row)
        return replace(prompt, hint=without_missing(prompt.hint, self.buttons, ("HINT", "BACK")))

    def _prompt(self, row: _Row) -> PromptView:
        if isinstance(self.editing, _NameEdit):
            back = "BACK previous" if has_button(self.buttons, "BACK") else "hold UP: previous letter"
            where = "" if self.editing.alphabet == LATIN else f" ({self.editing.alphabet} letters)"
            return PromptView("", f"Type the name letter by letter{where}",
                              hint=f"UP/DOWN letter · hold DOWN: accents (é ø ł), on _: Greek, Cyrillic · "
                                   f"OK next letter · OK on _ ends the name · {back}")
        if isinstance(self.editing, _IntEdit):
            spec = next((s for s in self.game.OPTIONS if s.name == self.editing.name), None)
            return PromptView("", self._about(spec) if spec else option_label(self.editing.name),
                              hint="UP/DOWN change (hold: by 10) · OK done · BACK cancel")
        text = _TITLES[self.page]
        kept = self._kept_in_view()
        if kept is not None:
            how = " · HINT: how to play" if self.hint_button else ""
            moves = f"{kept.moves} move{'s' if kept.moves != 1 else ''}"
            return PromptView("", f"{kept.title} ({', '.join(kept.players)}), put away after {moves}: "
                              "OK goes on with it.",
                              hint=f"UP/DOWN choose · OK: take it up{how}")
        if self.page == GAME and self.cursor[GAME] < len(self.games):
            shown = self.games[self.cursor[GAME]]
            text = next(iter(shown.rules_card(self._rules_of(shown))), text)
        if self.page == OPTIONS:
            spec = next((s for s in self.game.OPTIONS if option_label(s.name) == row.label), None)
            if spec is not None:
                text = self._about(spec)
        how = "HINT: how to play" if self.hint_button else "how to play: on the next page"
        hints = {GAME: f"UP/DOWN choose · OK next · hold OK: {self._start_now_words()} · {how}",
                 COUNT: "UP/DOWN choose · OK next · hold OK: start now",
                 NAMES: "OK on a seat: rename it · OK on Next: continue · hold OK: start now",
                 OPTIONS: "OK on a rule changes it · OK on Next: continue · hold OK: start now",
                 START: "OK: start the game · BACK: change something"}
        return PromptView("", text, hint=hints[self.page])


_TITLES = {GAME: "Choose a game", COUNT: "How many players?", NAMES: "Players",
           OPTIONS: "House rules", START: "Ready to play"}


def _player_range(game: type[GameState]) -> str:
    if game.min_players == game.max_players:
        return f"{game.min_players} players"
    return f"{game.min_players}-{game.max_players} players"
