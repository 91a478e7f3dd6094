"""Thirteen: the 13-category online "Poker Dice" (Yahtzee-like). Spec: shared/rules/thirteen.md.

Each player has 13 turns; a turn is 1 to 3 throws of 5 dice (any subset re-thrown), then the
final dice are written into one open category. Figure categories closed early earn +5 per
unused throw; a repeated five of a kind earns +40 and is a joker.

Speed matters (the hint engine and soak tests play millions of games), so:
- every category score of every sorted 5-dice multiset (252 of them), for each throw number and
  joker status, is computed once per option set (`_Rules`), together with the `Option` objects;
- a state is a small __slots__ object of tuples; `apply` copies only the acting player's card;
- `expects()` is built once per state and cached (states are immutable).
"""
from __future__ import annotations

from itertools import combinations_with_replacement
from operator import itemgetter
from typing import Any, Mapping, NamedTuple

from .base import (
    Cell, Decide, GameOver, GameState, IllegalInput, Input, Option, OptionError, OptionSpec, RerollSpec,
    Result, Row, Sheet, Table, Throw, check_input, first_player_option, rank_by_score, register,
)

# ------------------------------------------------------------------------------- categories
CATEGORIES: tuple[tuple[str, str], ...] = (
    ("ACES", "Aces"), ("TWOS", "Twos"), ("THREES", "Threes"),
    ("FOURS", "Fours"), ("FIVES", "Fives"), ("SIXES", "Sixes"),
    ("TWO_PAIRS", "2 pairs"), ("THREE_KIND", "3 of a kind"), ("FOUR_KIND", "4 of a kind"),
    ("STRAIGHTS", "Straights"), ("FULL_HOUSE", "Full house"), ("FIVE_KIND", "5 of a kind"),
    ("CHANCE", "Chance"),
)
KEYS = tuple(k for k, _ in CATEGORIES)
LABELS = tuple(lbl for _, lbl in CATEGORIES)
INDEX = {k: i for i, k in enumerate(KEYS)}
# the sheet's shorter labels, for a labels' column too narrow for these (320x240's final
# standings, two players: "3 of a ki...", "Full ho...")
SHORT_LABELS = {"THREE_KIND": ("3 kind",), "FOUR_KIND": ("4 kind",), "FIVE_KIND": ("5 kind",),
                "FULL_HOUSE": ("Full",)}
(ACES, TWOS, THREES, FOURS, FIVES, SIXES, TWO_PAIRS, THREE_KIND, FOUR_KIND, STRAIGHTS,
 FULL_HOUSE, FIVE_KIND, CHANCE) = range(13)
UPPER = range(ACES, SIXES + 1)
FIGURES = range(TWO_PAIRS, FIVE_KIND + 1)      # the early-close categories (Chance is not one)
BOTTOM = range(TWO_PAIRS, CHANCE + 1)
TURNS = 13
THROWS = 3

ALL_DICE: tuple[tuple[int, ...], ...] = tuple(combinations_with_replacement(range(1, 7), 5))
_STRAIGHTS = ((1, 2, 3, 4, 5), (2, 3, 4, 5, 6))


# ---------------------------------------------------------------- this game's predicates
def th_signature(dice: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted((dice.count(f) for f in set(dice)), reverse=True))


def th_natural_fits(dice: tuple[int, ...], opts: Mapping[str, Any]) -> dict[int, bool]:
    """Which figure categories sorted `dice` satisfy without a joker (spec §3, T2-T4).

    "At least" (spec README §2.2, T3): under `two_pairs_accepts_four_of_a_kind` a five of a kind,
    which holds four of a kind as the 4 of a kind box says, meets 2 pairs too. Taking (4, 1) only
    scored 6 6 6 6 2 20 there and 6 6 6 6 6 a 0 given up, the better throw losing the bottom bonus.
    """
    sig = th_signature(dice)
    two_pairs = sig == (2, 2, 1) or (sig == (3, 2) and opts["two_pairs_accepts_full_house"]) \
        or (sig[0] >= 4 and opts["two_pairs_accepts_four_of_a_kind"])
    return {TWO_PAIRS: two_pairs, THREE_KIND: sig[0] >= 3, FOUR_KIND: sig[0] >= 4,
            STRAIGHTS: dice in _STRAIGHTS, FULL_HOUSE: sig == (3, 2), FIVE_KIND: sig[0] == 5}


class Entry(NamedTuple):
    """What the dice would score in each category: points, the mask of 'given up' categories
    (requirement not met: they break the bottom bonus and five-of-a-kind eligibility), and the
    ready-made Option of each category."""

    points: tuple[int, ...]
    scratch: int
    options: tuple[Option, ...]


class _Rules:
    """Everything that depends only on the options, computed once per distinct option set."""

    _cache: dict[tuple, "_Rules"] = {}

    def __init__(self, opts: Mapping[str, Any]):
        self.opts = dict(opts)
        self.values = {TWO_PAIRS: opts["two_pairs_value"], THREE_KIND: 25, FOUR_KIND: 35,
                       STRAIGHTS: 30, FULL_HOUSE: 30, FIVE_KIND: 50}
        self.strict_five = opts["extra_five_eligibility"] == "first_five_in_box"
        self.forced = opts["joker_forced_order"]
        self.extra_bonus = opts["extra_five_bonus"]
        self.upper_threshold, self.upper_bonus = opts["upper_bonus_threshold"], opts["upper_bonus"]
        self.bottom_bonus = opts["bottom_bonus"]
        last = CHANCE if opts["bottom_includes_chance"] else FIVE_KIND
        self.bottom_mask = sum(1 << c for c in range(TWO_PAIRS, last + 1))
        made: dict[tuple, Option] = {}
        # table[dice][roll * 2 + joker] for roll 1..3
        self.table: dict[tuple[int, ...], tuple[Entry | None, ...]] = {
            dice: (None, None) + tuple(self._entry(dice, r, j, made) for r in (1, 2, 3) for j in (0, 1))
            for dice in ALL_DICE
        }

    @classmethod
    def get(cls, opts: Mapping[str, Any]) -> "_Rules":
        key = tuple(sorted((k, v) for k, v in opts.items() if k not in ("start_seat", "first_player", "tie")))
        rules = cls._cache.get(key)
        if rules is None:
            if len(cls._cache) >= 32:        # a long-running table sees few option sets; tests many
                cls._cache.clear()
            rules = cls._cache[key] = cls(opts)
        return rules

    def _entry(self, dice: tuple[int, ...], roll: int, joker: int, made: dict) -> Entry:
        o = self.opts
        early = o["early_close_bonus_per_roll"] * (THROWS - roll)
        fits = th_natural_fits(dice, o)
        points, scratch = [], 0
        for c in UPPER:
            p = (c + 1) * dice.count(c + 1)
            points.append(p)
            scratch |= (p == 0) << c
        for c in FIGURES:
            if fits[c]:
                p = self.values[c] + early
            elif joker:                                  # met only through the joker (§4.5)
                p = self.values[c] + (early if o["early_close_on_joker"] else 0)
            else:                                        # given up: 0, no bonus by default (T5)
                p = early if o["early_close_on_zero"] else 0
                scratch |= 1 << c
            points.append(p)
        points.append(sum(dice))
        opts = []
        for c, p in enumerate(points):
            group = "cross" if scratch >> c & 1 else "score"
            note = choice_note(p, bool(scratch >> c & 1), p - self.values[c] if c in self.values else 0)
            opt = made.get((c, p, group, note))
            if opt is None:
                opt = made[(c, p, group, note)] = Option(KEYS[c], LABELS[c], p, KEYS[c], group, note=note)
            opts.append(opt)
        return Entry(tuple(points), scratch, tuple(opts))


def choice_note(points: int, given_up: bool, early: int) -> str:
    """What a category chosen now does besides its points, in words (spec §4.1, §4.2): "give up"
    for a box the dice miss (0, lost to the bottom bonus; "give up, +10 early" under
    early_close_on_zero), "+10 early" for a figure closed before the third throw. The menu said
    "Straights 0" and "3 of a kind 35": the player could not see the box would be given up, nor
    that 10 of the 35 were for closing it early."""
    if given_up:
        return f"give up, +{points} early" if points else "give up"
    return f"+{early} early" if early > 0 else ""


def preview_cell(option: Option) -> Cell:
    """The sheet's preview of `option`: "+25", and in words what the menu's note says ("+0 give
    up", "+35 early"), with the bare figures as the short forms a narrow column takes."""
    p = option.points or 0
    if option.group == "cross":
        bare = f"+0+{p}" if p else "+0"
        return Cell(f"{bare} give up", p, "preview", short=(bare,))
    if option.note:
        return Cell(f"+{p} early", p, "preview", short=(f"+{p}",))
    return Cell(f"+{p}", p, "preview")


_REROLL: dict[tuple[int, ...], RerollSpec] = {d: RerollSpec(d, 1, 5) for d in ALL_DICE}


def _keeps(dice: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
    """Every sorted sub-multiset of `dice` that leaves 1 to 5 dice to throw again."""
    return frozenset(tuple(dice[i] for i in range(5) if m >> i & 1) for m in range(31))


LEGAL_KEEPS = {d: _keeps(d) for d in ALL_DICE}
OPEN_CATS = tuple(tuple(c for c in range(13) if m >> c & 1) for m in range(1 << 13))


def _picker(cats: tuple[int, ...]):
    """A C-speed `lambda opts: tuple(opts[c] for c in cats)`."""
    if len(cats) == 1:
        return lambda opts, c=cats[0]: (opts[c],)
    return itemgetter(*cats) if cats else (lambda opts: ())


PICK_OPEN = tuple(_picker(cats) for cats in OPEN_CATS)   # open-category mask -> options picker
ALL_OPEN = (1 << 13) - 1


# ------------------------------------------------------------------------------ player card
class Card(NamedTuple):
    """One player's sheet: 13 scores (None = open), the mask of open categories, the 'given up' mask,
    the number of extra five-of-a-kind bonuses, and where the first scored five of a kind went
    (0 none yet, 1 into the 5-of-a-kind box, 2 elsewhere: only the strict eligibility reads it)."""

    scores: tuple[int | None, ...]
    open: int
    scratch: int
    extras: int
    first_five: int


EMPTY_CARD = Card((None,) * 13, ALL_OPEN, 0, 0, 0)


def upper_sum(card: Card) -> int:
    return sum(s for s in card.scores[:6] if s is not None)


def bottom_sum(card: Card) -> int:
    return sum(s for s in card.scores[6:] if s is not None)


def upper_bonus_earned(card: Card, rules: _Rules) -> bool:
    return upper_sum(card) >= rules.upper_threshold


def bottom_bonus_earned(card: Card, rules: _Rules) -> bool:
    """All bottom categories filled, none given up (§4.4)."""
    mask = rules.bottom_mask
    filled = all(card.scores[c] is not None for c in BOTTOM if mask >> c & 1)
    return filled and not card.scratch & mask


def card_total(card: Card, rules: _Rules) -> int:
    return (upper_sum(card) + bottom_sum(card) + card.extras * rules.extra_bonus
            + (rules.upper_bonus if upper_bonus_earned(card, rules) else 0)
            + (rules.bottom_bonus if bottom_bonus_earned(card, rules) else 0))


def joker_applies(card: Card, dice: tuple[int, ...], rules: _Rules) -> bool:
    """A repeated five of a kind (§4.5): the box holds a met five of a kind (default), and under
    the strict reading the player's first scored five of a kind went into it."""
    if dice[0] != dice[4] or card.scores[FIVE_KIND] is None or card.scratch >> FIVE_KIND & 1:
        return False
    return not rules.strict_five or card.first_five == 1


def joker_choices(card: Card, dice: tuple[int, ...]) -> tuple[int, ...]:
    """Yahtzee-style forced order: matching upper box, else any bottom box, else any upper box."""
    match = dice[0] - 1
    if card.scores[match] is None:
        return (match,)
    cats = OPEN_CATS[card.open]
    return tuple(c for c in cats if c >= TWO_PAIRS) or cats


def pending_extra_cell(earned: int, bonus: int) -> Cell:
    """The extra line while a joker decision is pending: the +bonus it would add, beside what the
    earlier jokers earned (a second joker's "+40" alone hid the 40 already in the total, and the
    sheet's lines no longer added up to it)."""
    if not earned:
        return Cell(f"+{bonus}", bonus, "preview")
    return Cell(f"{earned} +{bonus}", earned, "award", short=(str(earned),), settled=Cell(str(earned), earned, "award"))


def joker_words(bonus: int) -> str:
    """The Decide prompt's head for a joker: "+0 if scored!" promised nothing (extra_five_bonus=0)."""
    return f"joker, +{bonus} if scored! " if bonus else "joker! "


def _listed(names: list[str]) -> str:
    """"Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# --------------------------------------------------------------------------------- the card
def _two_pairs_words(o: Mapping[str, Any]) -> str:
    """What makes 2 pairs under the house rules: the card said nothing, and a player whose full
    house or four of a kind the table took (or refused) as 2 pairs could not tell why."""
    full_house = o["two_pairs_accepts_full_house"]
    if o["two_pairs_accepts_four_of_a_kind"]:
        return "2 pairs, a full house or 4 alike" if full_house else "2 pairs or 4 alike, not a full house"
    return "2 different pairs or a full house" if full_house else "2 different pairs, not a full house"


def how_to_play_under(o: Mapping[str, Any]) -> tuple[str, ...]:
    """The HINT card under the options `o` (all of them given): its numbers are the rules' own."""
    card = [
        "13 turns each: up to three throws of five dice, holding any between throws, then fill a box.",
        "Score any open box: Aces to Sixes add up the dice of their "
        f"face; figures: 2 pairs {o['two_pairs_value']} ({_two_pairs_words(o)}), 3 of a kind 25, "
        "4 of a kind 35, Straights 30 (1-5 or 2-6), Full house 30, 5 of a kind 50; Chance adds all five. "
        "A box the dice miss scores 0: given up.",
    ]
    early = o["early_close_bonus_per_roll"]
    if early:
        box = "filled before the third throw, even given up," if o["early_close_on_zero"] else \
            "met before the third throw"
        card.append(f"A figure box {box} earns +{early} for each throw not used"
                    + ("" if o["early_close_on_joker"] else " (not a box met only as a joker)") + ".")
    bonuses = []
    if o["upper_bonus"]:
        bonuses.append(f"+{o['upper_bonus']} for {o['upper_bonus_threshold']} or more in Aces to Sixes")
    if o["bottom_bonus"]:
        bonuses.append(f"+{o['bottom_bonus']} if no figure box is given up")
    held = "once the 5 of a kind box holds one" if o["extra_five_eligibility"] == "five_box_nonzero" \
        else "if your first one went into the 5 of a kind box"
    earns = f"earns +{o['extra_five_bonus']} and " if o["extra_five_bonus"] else ""
    joker = "is a joker: its face's box first if open, else a lower box, else any box" \
        if o["joker_forced_order"] else "fits any box as a joker"
    card.append(("Bonuses: " + "; ".join(bonuses) + ". " if bonuses else "")
                + f"A further 5 of a kind, {held}, {earns}{joker}.")
    tie = {"shared": "equal totals share the win",
           "upper_total": "on equal totals the higher Aces to Sixes total ranks first",
           "fewer_zeros": "on equal totals fewer boxes given up ranks first"}[o["tie"]]
    card.append(f"After everyone's 13th turn, the highest total wins; {tie}.")
    return tuple(card)


# ------------------------------------------------------------------------------------ state
class _Game:
    """The per-game constants every state of one game shares (players, options, rules), and memos
    of expectations that recur (prompts, re-throws): pure caches, never part of the state."""

    __slots__ = ("players", "options", "rules", "n", "last_turn", "start", "throw0", "throws", "prompts")

    def __init__(self, players: tuple[str, ...], options: dict[str, Any]):
        self.players, self.options, self.n = players, options, len(players)
        self.last_turn = TURNS * self.n
        self.rules = _Rules.get(options)
        self.start = options["start_seat"]
        self.throw0 = tuple(Throw(s, 5, (), f"{p}: throw all 5 dice", "throw") for s, p in enumerate(players))
        self.throws: dict[tuple, Throw] = {}
        self.prompts: dict[tuple, str] = {}

    def rethrow(self, seat: int, roll: int, held: tuple[int, ...]) -> Throw:
        key = (seat, roll, held)
        exp = self.throws.get(key)
        if exp is None:
            k = 5 - len(held)
            exp = self.throws[key] = Throw(seat, k, held, f"{self.players[seat]}: throw {k} "
                                           f"{'die' if k == 1 else 'dice'} again (throw {roll + 1} of 3)",
                                           "rethrow")
        return exp

    def decide_prompt(self, seat: int, roll: int, joker: int) -> str:
        key = (seat, roll, joker)
        text = self.prompts.get(key)
        if text is None:
            head = f"{self.players[seat]}: " + (joker_words(self.rules.extra_bonus) if joker else "")
            tail = ", or hold dice and throw again" if roll < THROWS else ""
            text = self.prompts[key] = f"{head}choose a category{tail} (throw {roll} of 3)"
        return text


@register
class ThirteenState(GameState):
    name = "thirteen"
    title = "Thirteen"
    min_players = 1
    max_players = 6
    max_inputs_per_player = TURNS * 2 * THROWS
    OPTIONS = (
        OptionSpec("two_pairs_value", 20, "points of 2 pairs (an example in the original rules reads as 25)",
                   minimum=0),
        OptionSpec("two_pairs_accepts_full_house", True, "a full house counts as 2 pairs"),
        OptionSpec("two_pairs_accepts_four_of_a_kind", False,
                   "four of a kind (or five) counts as 2 pairs"),
        OptionSpec("early_close_bonus_per_roll", 5, "bonus per unused throw on a met figure category",
                   minimum=0),
        OptionSpec("early_close_on_zero", False, "the early-close bonus also goes to a figure given up (0)"),
        OptionSpec("early_close_on_joker", True, "the early-close bonus also goes to a figure met only as joker"),
        OptionSpec("upper_bonus_threshold", 60, "Aces to Sixes total that earns the upper bonus (this or more)",
                   minimum=0),
        OptionSpec("upper_bonus", 20, "upper bonus points", minimum=0),
        OptionSpec("bottom_bonus", 30, "bonus when no bottom category is given up", minimum=0),
        OptionSpec("bottom_includes_chance", True, "Chance is part of the bottom-bonus test"),
        OptionSpec("extra_five_bonus", 40, "bonus for each repeated five of a kind", minimum=0),
        OptionSpec("extra_five_eligibility", "five_box_nonzero", "a further five of a kind earns the bonus and "
                   "joker once the 5 of a kind box holds one, or only if the first one went there",
                   choices=("five_box_nonzero", "first_five_in_box"),
                   shown=(("five_box_nonzero", "box holds one"), ("first_five_in_box", "first went there"))),
        OptionSpec("joker_forced_order", False, "a joker must go to its face's box among Aces to Sixes if open, "
                   "else to a lower box, else to any open box (scoring 0)"),
        OptionSpec("tie", "shared", "equal totals: shared, or ranked by the Aces to Sixes total, or by fewer "
                   "boxes given up", choices=("shared", "upper_total", "fewer_zeros"),
                   shown=(("upper_total", "Aces-Sixes total"), ("fewer_zeros", "fewer given up"))),
        OptionSpec("start_seat", 0, "seat of the first player", minimum=0),
        first_player_option(),
    )
    how_to_play = how_to_play_under({spec.name: spec.default for spec in OPTIONS})

    @classmethod
    def _card(cls, o: Mapping[str, Any]) -> tuple[str, ...]:
        return how_to_play_under(o)

    __slots__ = ("_g", "cards", "turn", "roll", "held", "dice", "history", "_exp", "_entry")

    def __init__(self, g: _Game, cards: tuple[Card, ...], turn: int, roll: int,
                 held: tuple[int, ...], dice: tuple[int, ...] | None, history: tuple | None):
        self._g = g
        self.cards = cards        # one Card per seat
        self.turn = turn          # turns completed by all players together (0 .. 13 n)
        self.roll = roll          # throws made in this turn (0 .. 3)
        self.held = held          # dice kept for the next throw (sorted)
        self.dice = dice          # the 5 dice on the table (sorted) when a decision is due, else None
        self.history = history    # (entry, previous history): a cons list of scored turns
        self._exp = None          # memo of expects()
        self._entry = None        # memo: (Entry, joker) of the pending decision

    @classmethod
    def _create(cls, players: tuple[str, ...], options: dict[str, Any]) -> "ThirteenState":
        if options["start_seat"] >= len(players):
            raise OptionError(f"option 'start_seat': {options['start_seat']} is not a seat "
                              f"(0 to {len(players) - 1})")
        return cls(_Game(players, options), (EMPTY_CARD,) * len(players), 0, 0, (), None, None)

    # read-only views ----------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:    # type: ignore[override]
        return self._g.players

    @property
    def options(self) -> Mapping[str, Any]:  # type: ignore[override]
        return self._g.options

    @property
    def seat(self) -> int | None:
        """The player to act, None at game over."""
        g = self._g
        return None if self.turn >= TURNS * g.n else (g.start + self.turn) % g.n

    @property
    def round(self) -> int:
        return min(self.turn // self._g.n + 1, TURNS)

    def scored_turns(self) -> list[tuple]:
        """(seat, category, dice, throw, points, joker) of every scored turn, oldest first."""
        out, node = [], self.history
        while node is not None:
            out.append(node[0])
            node = node[1]
        return out[::-1]

    # the state machine ----------------------------------------------------------------------
    def expects(self):
        exp = self._exp
        if exp is None:
            exp = self._exp = self._expectation()
        return exp

    def _expectation(self):
        g = self._g
        if self.turn >= g.last_turn:
            return GameOver(prompt=self._winners_line())
        seat = (g.start + self.turn) % g.n
        roll = self.roll
        if self.dice is None:
            return g.throw0[seat] if roll == 0 else g.rethrow(seat, roll, self.held)
        rules, card, dice = g.rules, self.cards[seat], self.dice
        joker = dice[0] == dice[4] and joker_applies(card, dice, rules)
        entry = rules.table[dice][roll * 2 + joker]
        self._entry = (entry, joker)
        if joker and rules.forced:
            options = tuple([entry.options[c] for c in joker_choices(card, dice)])
        else:
            options = PICK_OPEN[card.open](entry.options)
        return Decide(seat, options, g.decide_prompt(seat, roll, joker), _REROLL[dice] if roll < THROWS else None)

    def apply(self, data: Input) -> "ThirteenState":
        exp = self._exp or self.expects()
        # Fast path for the well-formed inputs a table really sends: it accepts strictly less than
        # check_input does; anything else takes the uniform checks (and their words) below. (A seat
        # compared by == alone let True pass for seat 1 and 0.0 for seat 0: check_input refuses both.)
        if type(data) is dict and self.turn < self._g.last_turn and type(data.get("player")) is int \
                and data["player"] == exp.player:
            kind = data.get("type")
            if self.dice is None:
                values = data.get("values")
                if kind == "dice" and type(values) is list and len(values) == exp.count:
                    for v in values:
                        if type(v) is not int or not 0 < v < 7:
                            break
                    else:
                        return ThirteenState(self._g, self.cards, self.turn, self.roll + 1, (),
                                             tuple(sorted(self.held + tuple(values))), self.history)
            elif kind == "choose":
                key = data.get("option")
                cat = INDEX.get(key) if type(key) is str else None
                if cat is not None and self.cards[exp.player].open >> cat & 1 and \
                        not (self._entry[1] and self._g.rules.forced):
                    return self._score(exp.player, cat)
            elif kind == "reroll" and exp.reroll is not None:
                keep = data.get("keep")
                if type(keep) is list:
                    for v in keep:
                        if type(v) is not int:
                            break
                    else:
                        held = tuple(sorted(keep))
                        if held in LEGAL_KEEPS[self.dice]:
                            return ThirteenState(self._g, self.cards, self.turn, self.roll, held, None,
                                                 self.history)
        return self._apply_checked(exp, data)

    def _apply_checked(self, exp, data: Any) -> "ThirteenState":
        try:
            data = check_input(exp, data)
        except IllegalInput as exc:
            raise IllegalInput(self._explain(data) or str(exc)) from None
        kind = data["type"]
        if kind == "dice":
            dice = tuple(sorted(self.held + tuple(data["values"])))
            return ThirteenState(self._g, self.cards, self.turn, self.roll + 1, (), dice, self.history)
        if kind == "reroll":
            return ThirteenState(self._g, self.cards, self.turn, self.roll, tuple(data["keep"]), None,
                                 self.history)
        return self._score(exp.player, INDEX[data["option"]])

    def _score(self, seat: int, cat: int) -> "ThirteenState":
        entry, joker = self._entry
        dice, card = self.dice, self.cards[seat]
        points = entry.points[cat]
        first_five = card.first_five
        if not first_five and dice[0] == dice[4]:
            first_five = 1 if cat == FIVE_KIND else 2
        bit = 1 << cat
        new_card = tuple.__new__(Card, (card.scores[:cat] + (points,) + card.scores[cat + 1:], card.open & ~bit,
                                        card.scratch | (entry.scratch & bit), card.extras + joker, first_five))
        cards = self.cards[:seat] + (new_card,) + self.cards[seat + 1:]
        history = ((seat, cat, dice, self.roll, points, bool(joker)), self.history)
        return ThirteenState(self._g, cards, self.turn + 1, 0, (), None, history)

    def _explain(self, data: Any) -> str | None:
        """A player-friendly reason for the common mistakes (check_input's words otherwise)."""
        exp = self.expects()
        if not isinstance(exp, Decide) or not isinstance(data, Mapping):
            return None
        player = data.get("player", exp.player)
        if type(player) is not int or player != exp.player:     # (True is not seat 1: check_input says so)
            return None
        card = self.cards[exp.player]
        key = data.get("option")
        if data.get("type") == "choose" and isinstance(key, str) and key in INDEX and exp.option(key) is None:
            cat = INDEX[key]
            if card.scores[cat] is not None:
                return f"{LABELS[cat]} is already filled"
            allowed = ", ".join(o.label for o in exp.options)
            return f"a joker must be scored in: {allowed}"
        if data.get("type") == "reroll" and exp.reroll is None:
            return "you may throw again at most twice: choose a category"
        return None

    # sheet and result -------------------------------------------------------------------------
    def totals(self) -> tuple[int, ...]:
        rules = self._g.rules
        return tuple(card_total(c, rules) for c in self.cards)

    def sheet(self) -> Sheet:
        g, rules = self._g, self._g.rules
        exp = self.expects()
        over = isinstance(exp, GameOver)
        totals = self.totals()
        winners = set(self.result().winners) if over else set()
        preview: dict[int, Option] = {}
        joker_seat = None
        if isinstance(exp, Decide):
            preview = {INDEX[o.key]: o for o in exp.options}
            if joker_applies(self.cards[exp.player], self.dice, rules):
                joker_seat = exp.player
        last = self.history[0] if self.history else None

        def cat_cell(seat: int, cat: int) -> Cell:
            card = self.cards[seat]
            s = card.scores[cat]
            if s is not None:
                hl = last is not None and last[0] == seat and last[1] == cat
                if card.scratch >> cat & 1:
                    # a figure given up early earns its bonus (house rule early_close_on_zero):
                    # "0+10", never a bare "10", which differed from a scored 10 by red alone
                    return Cell(f"0+{s}" if s else "0", s, "cross", hl)
                return Cell(str(s), s, "score", hl)
            if isinstance(exp, Decide) and seat == exp.player and cat in preview:
                # "+25", never a bare "25": a preview and a written score in one column differed
                # by colour alone (blue and green, one colour to a tritanope; faint from a metre)
                return preview_cell(preview[cat])
            return Cell()

        def row(key: str, label: str, make, kind: str = "normal", short: tuple[str, ...] = ()) -> Row:
            return Row(key, label, tuple(make(s) for s in range(g.n)), kind, short)

        def upper_bonus_cell(seat: int) -> Cell:
            card = self.cards[seat]
            if upper_bonus_earned(card, rules):
                return Cell(str(rules.upper_bonus), rules.upper_bonus, "award")
            if all(s is not None for s in card.scores[:6]):
                return Cell("0", 0, "cross")
            # ("−48" where a narrow column has no room for the words: 6 players at 800x480)
            left = rules.upper_threshold - upper_sum(card)
            return Cell(f"{left} to go", None, "info", short=(f"−{left}",))

        def bottom_bonus_cell(seat: int) -> Cell:
            card = self.cards[seat]
            if bottom_bonus_earned(card, rules):
                return Cell(str(rules.bottom_bonus), rules.bottom_bonus, "award")
            if card.scratch & rules.bottom_mask:
                return Cell("0", 0, "cross")
            return Cell()

        def extra_cell(seat: int) -> Cell:
            earned = self.cards[seat].extras * rules.extra_bonus
            if seat == joker_seat and rules.extra_bonus:
                return pending_extra_cell(earned, rules.extra_bonus)
            return Cell(str(earned), earned, "award") if self.cards[seat].extras else Cell()

        rows = [row(KEYS[c], LABELS[c], lambda s, c=c: cat_cell(s, c)) for c in UPPER]
        rows.append(row("UPPER_SUM", "Upper total", lambda s: Cell(str(upper_sum(self.cards[s])),
                                                                    upper_sum(self.cards[s]), "total"),
                        "subtotal", ("Up. total",)))
        rows.append(row("UPPER_BONUS", f"Bonus ({rules.upper_threshold}+)", upper_bonus_cell, "bonus",
                        (f"Bonus {rules.upper_threshold}+", "Up. bonus", "Up. bon.")))
        rows += [row(KEYS[c], LABELS[c], lambda s, c=c: cat_cell(s, c), short=SHORT_LABELS.get(KEYS[c], ()))
                 for c in BOTTOM]
        rows.append(row("BOTTOM_BONUS", "Bottom bonus", bottom_bonus_cell, "bonus", ("Lo. bonus", "Lo. bon.")))
        rows.append(row("EXTRA_FIVE", "Extra 5 of a kind", extra_cell, "bonus", ("Extra 5K",)))
        rows.append(row("TOTAL", "Total", lambda s: Cell(str(totals[s]), totals[s], "total", s in winners),
                        "total"))
        table = Table("", g.players, tuple(rows), None if over else exp.player)
        return Sheet(self.name, self.title, g.players, (table,), totals, self._status(exp),
                     self._notes())

    def _status(self, exp) -> str:
        if isinstance(exp, GameOver):
            return f"Game over: {exp.prompt}"
        head = f"Round {self.round} of {TURNS}: {self.players[exp.player]}"
        if isinstance(exp, Throw):
            return f"{head}, throw {self.roll + 1} of 3"
        return f"{head}, choose a category (throw {self.roll} of 3)"

    def _notes(self) -> tuple[str, ...]:
        if self.history is None:
            return ()
        seat, cat, dice, roll, points, joker = self.history[0]
        if points and self.cards[seat].scratch >> cat & 1:     # (early_close_on_zero: "scored 10" hid it)
            note = f"{self.players[seat]} gave up {LABELS[cat]} after throw {roll}: 0+{points}"
        else:
            note = f"{self.players[seat]} scored {points} in {LABELS[cat]} after throw {roll}"
        if joker and self._g.rules.extra_bonus:
            note += f", +{self._g.rules.extra_bonus} for another 5 of a kind"
        return (note,)

    def result(self) -> Result:
        totals = self.totals()
        tie = self._g.options["tie"]
        if tie == "upper_total":
            second = [upper_sum(c) for c in self.cards]
        elif tie == "fewer_zeros":
            second = [-bin(c.scratch).count("1") for c in self.cards]
        else:
            second = [0] * len(totals)
        ranking = rank_by_score(totals, key=lambda i: (totals[i], second[i]))
        details = {"upper": [upper_sum(c) for c in self.cards], "bottom": [bottom_sum(c) for c in self.cards],
                   "extra_fives": [c.extras for c in self.cards]}
        return Result(self.players, totals, ranking, ranking[0], self._tie_words(totals, second, ranking), details)

    def _tie_words(self, totals: tuple[int, ...], second: list[int], ranking) -> str:
        """Who was tied and the figures that placed them apart. "equal totals ranked by the upper
        total" named neither: Bob, placed second on the same 35 points, could not tell from it
        what Ann had more of (spec §5 has no tie-break; the `tie` option is a house rule)."""
        tie = self._g.options["tie"]
        if tie == "shared":
            return ""
        rule = "the higher Aces to Sixes total" if tie == "upper_total" else "fewer boxes given up"
        sign = " > " if tie == "upper_total" else " < "
        names = self.players
        words = []
        for group in rank_by_score(totals):
            if len(group) < 2 or set(group) in map(set, ranking):
                continue                                # not tied, or tied on both: shared
            places = [g for g in ranking if set(g) <= set(group)]
            unit = "" if tie == "upper_total" else " given up"
            figures = sign.join(", ".join(f"{names[i]} {abs(second[i])}{unit}" for i in g) for g in places)
            words.append(f"{_listed([names[i] for i in group])} tied on {totals[group[0]]} points; "
                         f"{rule} ranks first ({figures})")
        return "; ".join(words)

    def _winners_line(self) -> str:
        res = self.result()
        names = ", ".join(self.players[i] for i in res.winners)
        best = res.scores[res.winners[0]]
        return f"{names} win{'' if len(res.winners) > 1 else 's'} with {best}"

    def snapshot(self) -> dict[str, Any]:
        return {
            "game": self.name, "players": list(self.players), "options": dict(self.options),
            "turn": self.turn, "seat": self.seat, "roll": self.roll, "held": list(self.held),
            "dice": None if self.dice is None else list(self.dice),
            "cards": [{"scores": dict(zip(KEYS, c.scores)), "given_up": [KEYS[i] for i in range(13)
                                                                         if c.scratch >> i & 1],
                       "extra_fives": c.extras, "first_five": c.first_five} for c in self.cards],
            "history": [{"seat": s, "category": KEYS[c], "dice": list(d), "throw": r, "points": p,
                         "joker": j} for s, c, d, r, p, j in self.scored_turns()],
        }
