"""Pokerdice with objective cards ("objective-cards"): spec /work/shared/rules/objective-cards.md.

Every player holds 10 objective cards (the 2-player strategic variant: 20, two of each). Each
round the active player throws the 5 dice once, then every player commits a card in secret, the
active player's card is revealed, he may throw again up to twice, and every committed card is
resolved against the final dice: met -> the owner wins its printed points; failed -> discarded
(active player) or captured by the active player for 1 point (anyone else). 10 rounds.

The predicates live here, not in dice.py: "Small straight" is a 4-run in this game only.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any, Iterable, Mapping, Sequence

from .base import (
    Cell, Decide, Expectation, GameOver, GameState, IllegalInput, Input, Option, OptionError,
    OptionSpec, RerollSpec, Result, Row, Sheet, Table, Throw, check_input, register,
)

# (key, label, printed points) in the order of the spec's §3 table: the sheet's rows.
OBJECTIVES: tuple[tuple[str, str, int], ...] = (
    ("JOKER", "Joker", 1),
    ("ONE_PAIR", "One pair", 1),
    ("THREE_OF_A_KIND", "Three of a kind", 2),
    ("TWO_PAIRS", "Two pairs", 3),
    ("SMALL_STRAIGHT", "Small straight", 3),
    ("NO_EVENS", "No evens", 4),
    ("NO_ODDS", "No odds", 4),
    ("FULL_HOUSE", "Full house", 5),
    ("LONG_STRAIGHT", "Long straight", 7),
    ("FOUR_OF_A_KIND", "Four of a kind", 7),
)
KEYS = tuple(k for k, _, _ in OBJECTIVES)
# the sheet's shorter labels (then with no points), for a labels' column too narrow for the
# label: at 320x240 "Three of...", "Small st...", "No even..." named no objective
SHORT = {"ONE_PAIR": "Pair", "THREE_OF_A_KIND": "3 kind", "TWO_PAIRS": "2 pairs", "SMALL_STRAIGHT": "Sm. str.",
         "NO_EVENS": "No even", "NO_ODDS": "No odd", "FULL_HOUSE": "Full", "LONG_STRAIGHT": "Lg. str.",
         "FOUR_OF_A_KIND": "4 kind"}
LABEL = {k: label for k, label, _ in OBJECTIVES}
POINTS = {k: p for k, _, p in OBJECTIVES}
INDEX = {k: i for i, k in enumerate(KEYS)}
ROUNDS = 10
MAX_ROLLS = 3
STOP = "STOP"

_RUNS4 = (frozenset({1, 2, 3, 4}), frozenset({2, 3, 4, 5}), frozenset({3, 4, 5, 6}))
_RUNS5 = (frozenset({1, 2, 3, 4, 5}), frozenset({2, 3, 4, 5, 6}))
_ODD, _EVEN = frozenset({1, 3, 5}), frozenset({2, 4, 6})


def satisfied(dice: Sequence[int], options: Mapping[str, Any] | None = None) -> set[str]:
    """The objectives the 5 final dice meet ("he who can do more can do less", §3)."""
    if len(dice) != 5 or any(not 1 <= d <= 6 for d in dice):
        raise ValueError(f"objectives are checked on 5 dice showing 1..6, not {list(dice)}")
    opts = options or {}
    count = Counter(dice)
    top = max(count.values())
    faces = frozenset(count)
    out = {"JOKER"}
    if top >= 2:
        out.add("ONE_PAIR")
    if top >= 3:
        out.add("THREE_OF_A_KIND")
    if top >= 4:
        out.add("FOUR_OF_A_KIND")
    pairs = sum(1 for n in count.values() if n >= 2)
    if pairs >= 2 or (top >= 4 and opts.get("two_pairs_same_face_allowed", False)):
        out.add("TWO_PAIRS")
    if sorted(count.values()) == [2, 3] or (top == 5 and opts.get("full_house_accepts_five_of_a_kind", False)):
        out.add("FULL_HOUSE")
    if any(run <= faces for run in _RUNS4):
        out.add("SMALL_STRAIGHT")
    if faces in _RUNS5:
        out.add("LONG_STRAIGHT")
    if faces <= _ODD:
        out.add("NO_EVENS")
    if faces <= _EVEN:
        out.add("NO_ODDS")
    return out


def active_seat(round_no: int, n: int, start_seat: int) -> int:
    """Seat of the active player in round `round_no` (1-based): the role moves one seat left."""
    return (start_seat + round_no - 1) % n


def last_active_round(seat: int, n: int, start_seat: int, rounds: int = ROUNDS) -> int:
    """The last round in which `seat` is the active player (spec §1 table)."""
    offset = (seat - start_seat) % n
    return offset + 1 + ((rounds - offset - 1) // n) * n


def rank_players(scores: Sequence[int], last_active: Sequence[int], tie_break: str = "last_active",
                 names: Sequence[str] | None = None) -> tuple[tuple[tuple[int, ...], ...], str]:
    """Ranking groups, best first, and the words explaining any tie broken (spec §5)."""
    names = names or [f"seat {i}" for i in range(len(scores))]
    by_score: dict[int, list[int]] = {}
    for seat, score in enumerate(scores):
        by_score.setdefault(score, []).append(seat)
    groups: list[tuple[int, ...]] = []
    words: list[str] = []
    for score in sorted(by_score, reverse=True):
        tied = by_score[score]
        if len(tied) == 1 or tie_break == "shared":
            groups.append(tuple(tied))
            continue
        tied = sorted(tied, key=lambda s: last_active[s], reverse=True)
        groups.extend((s,) for s in tied)
        order = " > ".join(f"{names[s]} round {last_active[s]}" for s in tied)
        words.append(f"{_listed([names[s] for s in sorted(tied)])} tied on {score} points; "
                     f"the most recently active ranks first ({order})")
    return tuple(groups), "; ".join(words)


def _listed(names: Sequence[str]) -> str:
    """"A and B", "A, B and C": three tied players read "A and B and C" on the final screen."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _hand_is_pairable(hand: Sequence[int], rounds_left: int) -> bool:
    """Can `hand` (2 × rounds_left cards) still be played as 2 different objectives per round?"""
    return max(hand) <= rounds_left


def how_to_play_under(o: Mapping[str, Any]) -> tuple[str, ...]:
    """The HINT card under the options `o` (all of them given)."""
    if not o["two_player_strategic_variant"]:
        picks = "one of their unplayed cards"
    elif o["allow_duplicate_objective_in_round"]:
        picks = "two of their unplayed cards"
    else:
        picks = "two different ones of their unplayed cards"
    same, five = o["two_pairs_same_face_allowed"], o["full_house_accepts_five_of_a_kind"]
    if same and five:
        faces = "Four alike also make Two pairs, and five alike a Full house."
    elif same:
        faces = "Four alike also make Two pairs; Full house needs two different faces."
    elif five:
        faces = "Five alike also make a Full house; Two pairs needs two different faces."
    else:
        faces = "Two pairs and Full house need two different faces."
    cards = "cards are" if o["two_player_strategic_variant"] else "card is"
    tie = ("a tie goes to whoever was active last" if o["tie_break"] == "last_active"
           else "a tie is shared")
    return (
        "Ten rounds of secret objective cards: meet yours, and catch the others failing theirs.",
        f"Each round the active player throws all five dice; then everyone, the active player first, "
        f"secretly picks {picks}. The active player's {cards} shown, and they may throw any of the "
        "dice again, up to twice.",
        "Every card is then checked against the final dice. Met: its owner scores its points. "
        "Failed: the active player's own card is lost; anyone else's goes to the active player "
        "for 1 point.",
        # (the Joker's "automatically wins" (spec §3, NB1): the card did not say it, and a player
        # holding one could not tell it from the objectives the dice must make)
        f"More meets less: three alike also make One pair; Small straight is four in a row; "
        f"the Joker is always met. {faces}",
        f"The active player moves one seat each round. After ten rounds the most points wins; {tie}.",
    )


@register
class ObjectiveCards(GameState):
    """One state of the game; immutable, `apply` builds a new one from shallow tuple copies."""

    name = "objective-cards"
    title = "Objective cards"
    min_players = 2
    max_players = 5
    max_inputs_per_player = 200
    OPTIONS = (
        OptionSpec("two_player_strategic_variant", False,
                   "2 players only: two sets each, two cards committed per round"),
        OptionSpec("allow_duplicate_objective_in_round", True,
                   "variant: both cards of a round may show the same objective"),
        OptionSpec("two_pairs_same_face_allowed", False, "four/five of a kind also meet Two pairs"),
        OptionSpec("full_house_accepts_five_of_a_kind", False, "five of a kind also meets Full house"),
        OptionSpec("tie_break", "last_active", "equal totals: most recently active player wins, or shared",
                   choices=("last_active", "shared")),
        OptionSpec("start_seat", 0, "seat of the active player of round 1 (the youngest)", type=int, minimum=0),
    )
    how_to_play = how_to_play_under({spec.name: spec.default for spec in OPTIONS})

    @classmethod
    def _card(cls, o: Mapping[str, Any]) -> tuple[str, ...]:
        return how_to_play_under(o)

    __slots__ = ("players", "options", "n", "per_round", "round", "phase", "dice", "held", "rolls",
                 "hands", "commits", "won", "lost", "captured", "scores", "last", "_exp")

    # phases: "first_roll" -> "choose" -> "reroll" <-> "rethrow" -> (resolve) -> next round | "over"

    @classmethod
    def _create(cls, players: tuple[str, ...], options: dict[str, Any]) -> "ObjectiveCards":
        n = len(players)
        if options["two_player_strategic_variant"] and n != 2:
            raise OptionError(f"option 'two_player_strategic_variant' is for 2 players only, not {n}")
        if options["start_seat"] >= n:
            raise OptionError(f"option 'start_seat': {options['start_seat']} is not a seat of {n} players")
        self = object.__new__(cls)
        self.players, self.options, self.n = players, dict(options), n
        self.per_round = 2 if options["two_player_strategic_variant"] else 1
        self.round, self.phase, self.dice, self.held, self.rolls = 1, "first_roll", (), (), 0
        self.hands = ((self.per_round,) * len(KEYS),) * n
        self.commits = ((),) * n
        self.won = ((0,) * len(KEYS),) * n           # own cards met, count per objective
        self.lost: tuple[tuple[tuple[str, int | None], ...], ...] = ((),) * n  # (key, taker or None)
        self.captured, self.scores = (0,) * n, (0,) * n
        self.last: dict[str, Any] | None = None       # the last round's resolution, for the notes
        self._exp = None
        return self

    def _replace(self, **changes: Any) -> "ObjectiveCards":
        new = object.__new__(type(self))
        for slot in self.__slots__:
            setattr(new, slot, changes[slot] if slot in changes else getattr(self, slot))
        new._exp = None
        return new

    # --------------------------------------------------------------------------- who and what
    @property
    def active(self) -> int:
        return active_seat(self.round, self.n, self.options["start_seat"])

    def _chooser(self) -> int:
        """Next player to commit: from the active player clockwise, each commits all his cards."""
        for k in range(self.n):
            seat = (self.active + k) % self.n
            if len(self.commits[seat]) < self.per_round:
                return seat
        raise AssertionError("everyone has committed")

    def _legal_cards(self, seat: int) -> list[str]:
        hand, done = self.hands[seat], self.commits[seat]
        keys = [k for k in KEYS if hand[INDEX[k]] > 0]
        if self.per_round == 1 or self.options["allow_duplicate_objective_in_round"]:
            return keys
        # no duplicate in a round: never leave a hand that would force one in a later round
        left = ROUNDS - self.round
        out = []
        for key in keys:
            if key in done:
                continue
            rest = list(hand)
            rest[INDEX[key]] -= 1
            if done:
                ok = _hand_is_pairable(rest, left)
            else:
                ok = any(rest[INDEX[y]] > 0 and y != key and _hand_is_pairable(
                    [c - (i == INDEX[y]) for i, c in enumerate(rest)], left) for y in KEYS)
            if ok:
                out.append(key)
        return out

    def _active_points_now(self) -> int:
        met = satisfied(self.dice, self.options)
        return sum(POINTS[k] for k in self.commits[self.active] if k in met)

    def expects(self) -> Expectation:
        if self._exp is None:
            self._exp = self._expects()
        return self._exp

    def _expects(self) -> Expectation:
        who = self.players[self.active]
        if self.phase == "over":
            return GameOver()
        if self.phase == "first_roll":
            return Throw(self.active, 5, prompt=f"{who}: throw all 5 dice", purpose="throw")
        if self.phase == "rethrow":
            count = 5 - len(self.held)
            return Throw(self.active, count, held=self.held, purpose="rethrow",
                         prompt=f"{who}: throw {count} {'die' if count == 1 else 'dice'} again")
        if self.phase == "choose":
            seat = self._chooser()
            met = satisfied(self.dice, self.options)
            # (the sheet's shorter names where a menu row's 92 px at 320x240 cut "Long straight (7)")
            opts = tuple(Option(k, f"{LABEL[k]} ({POINTS[k]})", POINTS[k] if k in met else 0, row=k, group="card",
                                short=(f"{SHORT[k]} ({POINTS[k]})",) if k in SHORT else ())
                         for k in self._legal_cards(seat))
            if last_cards(self.hands[seat], self.per_round - len(self.commits[seat])):
                # (round 10: the card left is no secret, the sheet shows it in hand; the table had
                # each player open a secret menu, the others look away, to pick the only card)
                left = [f"{LABEL[k]} ({POINTS[k]})" for k in KEYS for _ in range(self.hands[seat][INDEX[k]])]
                return Decide(seat, opts, prompt=last_cards_words(self.players[seat], left))
            which = ("first " if not self.commits[seat] else "second ") if self.per_round == 2 else ""
            return Decide(seat, opts, prompt=f"{self.players[seat]}: choose your {which}objective card in secret",
                          secret=True)
        # reroll decision
        # STOP turns every card over (OTHERS_REVEAL): it reveals, so no table takes it back
        stop = Option(STOP, "Stop: the dice are final", self._active_points_now(), group="stop", reveals=True,
                      short=("Stop: dice final", "Stop"))
        return Decide(self.active, (stop,), reroll=RerollSpec(self.dice, 1, 5),
                      prompt=f"{who}: stop, or hold dice and throw again (throw {self.rolls} of {MAX_ROLLS})")

    # --------------------------------------------------------------------------------- apply
    def apply(self, data: Input) -> "ObjectiveCards":
        exp = self.expects()
        rec = check_input(exp, data)
        if self.phase == "first_roll":
            return self._replace(phase="choose", dice=tuple(rec["values"]), rolls=1)
        if self.phase == "rethrow":
            nxt = self._replace(phase="reroll", dice=self.held + tuple(rec["values"]), held=(), rolls=self.rolls + 1)
            return nxt._resolve() if nxt.rolls >= MAX_ROLLS else nxt
        if self.phase == "choose":
            seat, key = exp.player, rec["option"]
            hand = list(self.hands[seat])
            hand[INDEX[key]] -= 1
            hands = self.hands[:seat] + (tuple(hand),) + self.hands[seat + 1:]
            commits = self.commits[:seat] + (self.commits[seat] + (key,),) + self.commits[seat + 1:]
            done = all(len(c) == self.per_round for c in commits)
            return self._replace(hands=hands, commits=commits, phase="reroll" if done else "choose")
        # reroll decision
        if rec["type"] == "choose":
            return self._resolve()
        if self.rolls >= MAX_ROLLS:  # not reachable through expects(); kept as a guard
            raise IllegalInput("you may throw again at most twice")
        return self._replace(phase="rethrow", held=tuple(rec["keep"]))

    def _resolve(self) -> "ObjectiveCards":
        """Reveal every card and score it against the final dice (§4), then start the next round."""
        met = satisfied(self.dice, self.options)
        active = self.active
        won = [list(w) for w in self.won]
        lost = list(self.lost)
        captured, scores = list(self.captured), list(self.scores)
        events: list[tuple[int, str, str]] = []   # (owner, key, "met" | "discarded" | "captured")
        for k in range(self.n):
            seat = (active + k) % self.n
            for key in self.commits[seat]:
                if key in met:
                    won[seat][INDEX[key]] += 1
                    scores[seat] += POINTS[key]
                    events.append((seat, key, "met"))
                elif seat == active:
                    lost[seat] = lost[seat] + ((key, None),)
                    events.append((seat, key, "discarded"))
                else:
                    lost[seat] = lost[seat] + ((key, active),)
                    captured[active] += 1
                    scores[active] += 1
                    events.append((seat, key, "captured"))
        last = {"round": self.round, "active": active, "dice": list(self.dice), "events": events}
        over = self.round >= ROUNDS
        return self._replace(
            round=self.round if over else self.round + 1, phase="over" if over else "first_roll",
            dice=(), held=(), rolls=0, commits=((),) * self.n, won=tuple(tuple(w) for w in won),
            lost=tuple(lost), captured=tuple(captured), scores=tuple(scores), last=last)

    # --------------------------------------------------------------------------------- sheet
    def _hidden(self, seat: int) -> bool:
        """Are `seat`'s committed cards still secret? (The active one is revealed once all commit.)"""
        return self.phase == "choose" or (self.phase in ("reroll", "rethrow") and seat != self.active)

    def _cell(self, seat: int, key: str, met_now: set[str], acting: int | None) -> Cell:
        i = INDEX[key]
        hand = self.hands[seat][i]
        committed = self.commits[seat].count(key)
        if self._hidden(seat):          # a secret card still looks like a card in hand
            hand, committed = hand + committed, 0
        parts: list[tuple[str, ...]] = []       # (words, their shorter forms)
        value = None
        if self.won[seat][i]:
            value = self.won[seat][i] * POINTS[key]
            parts.append((f"won {value}",) * 2)
        fates = Counter(None if taker is None else self.players[taker]
                        for lost_key, taker in self.lost[seat] if lost_key == key)
        parts += [_fate(taker, times) for taker, times in fates.items()]
        kind = "score" if value is not None else ("cross" if parts else "empty")
        # the cell without what the dice now would score (`Cell.settled`): "won 6" stands
        settled = (list(parts), value, kind)
        highlight = False
        if committed:
            now = POINTS[key] * committed if key in met_now else 0
            preview = self.phase == "reroll"
            times = " ×2" if committed == 2 else ""
            gain = f": +{now} now" if preview else ""
            # (its points alone last: "+6", where "chosen ×2: +6 now" is cut before them)
            parts.append((f"committed{times}{gain}", f"chosen{times}{gain}") + ((f"+{now}",) if preview else ()))
            settled[0].append((f"committed{times}", f"chosen{times}"))
            kind, highlight = ("preview", True) if preview else ("info", True)
            if preview:
                value = now
        if hand:
            # ("hand" in a narrow column: 5 players' "in hand" cells at 800x480 were a word
            # space apart, read across the row as "in hand in hand in hand")
            twice = ' ×2' if hand == 2 else ''
            plain = (f"in hand{twice}", f"hand{twice}")
            settled[0].append(plain)
            if seat == acting and key in met_now:     # a card choice pending: what it would score now
                # (two players' columns at 320x240 cut it to "in ha...", the points it would
                # score, what the choice is made on, left off: "hand: +1", else "+1")
                parts.append((f"in hand{twice}: +{POINTS[key]} now", f"hand{twice}: +{POINTS[key]}", f"+{POINTS[key]}"))
                kind, value = "preview", POINTS[key]
            else:
                parts.append(plain)
                kind = kind if parts[:-1] else "hand"
        if kind != "preview":
            return _words_cell(parts, value, kind, highlight)
        return replace(_words_cell(parts, value, kind, highlight), settled=_settled_cell(*settled))

    def _committed_cell(self, seat: int) -> Cell:
        done = len(self.commits[seat])
        if self.phase == "choose":
            if done == self.per_round:
                return _committed(done)
            if seat == self._chooser():
                if not done:
                    # ("picks": two players' columns at 320x240 cut "picking" in its outline)
                    return Cell("choosing…", kind="info", highlight=True, short=("picking", "picks"))
                return Cell("1 of 2 committed, choosing…", kind="info", highlight=True, short=("1 of 2, picking",))
            return Cell("1 of 2 committed", kind="info", short=("1 of 2",)) if done else Cell()
        if self.phase in ("reroll", "rethrow"):
            if seat == self.active:
                return Cell(" + ".join(LABEL[k] for k in self.commits[seat]), kind="info", highlight=True)
            return _committed(self.per_round)
        return Cell()

    def sheet(self) -> Sheet:
        over = self.phase == "over"
        met_now = satisfied(self.dice, self.options) if len(self.dice) == 5 else set()
        exp = self.expects()
        acting = exp.player if isinstance(exp, Decide) and self.phase == "choose" else None
        seats = range(self.n)
        rows = [Row(k, f"{LABEL[k]} ({POINTS[k]})", tuple(self._cell(s, k, met_now, acting) for s in seats),
                    short=(f"{SHORT[k]} ({POINTS[k]})", SHORT[k]) if k in SHORT else (LABEL[k],))
                for k in KEYS]
        rows.append(Row("committed", "This round", tuple(self._committed_cell(s) for s in seats),
                        short=("Round",)))
        won_pts = [sum(c * POINTS[k] for c, k in zip(self.won[s], KEYS)) for s in seats]
        winners = set(self.result().winners) if over else set()
        rows.append(Row("won_points", "Won points", tuple(Cell(str(v), v, "total") for v in won_pts), "subtotal",
                        ("Won pts",)))
        rows.append(Row("captured", "Captured (1 each)",
                        tuple(Cell(str(v), v, "total") for v in self.captured), "subtotal", ("Captured",)))
        rows.append(Row("total", "Total", tuple(Cell(str(v), v, "total", s in winners)
                                                for s, v in enumerate(self.scores)), "total"))
        active_col = None if over else getattr(exp, "player", None)
        table = Table("Objective cards", self.players, tuple(rows), active_col)
        return Sheet(self.name, self.title, self.players, (table,), self.scores, self._status(exp), self._notes())

    def _status(self, exp: Expectation) -> str:
        if self.phase == "over":
            return f"Game over after {ROUNDS} rounds"
        who = self.players[self.active]
        dice = f", dice {' '.join(map(str, sorted(self.dice)))}" if self.dice else ""
        return (f"Round {self.round} of {ROUNDS} — active: {who}, rolls used {self.rolls} of {MAX_ROLLS}{dice}"
                f" — {exp.prompt}")

    def _notes(self) -> tuple[str, ...]:
        notes = []
        if self.phase in ("reroll", "rethrow"):
            cards = " + ".join(f"{LABEL[k]} ({POINTS[k]})" for k in self.commits[self.active])
            notes.append(f"{self.players[self.active]} revealed {cards}")
        if self.last:
            p = self.players
            active = self.last["active"]
            words = []
            for seat, key, what in self.last["events"]:
                if what == "met":
                    words.append(f"{p[seat]} met {LABEL[key]} +{POINTS[key]}")
                elif what == "discarded":
                    words.append(f"{p[seat]}'s {LABEL[key]} discarded")
                else:
                    words.append(f"{p[active]} captured {p[seat]}'s {LABEL[key]} +1")
            dice = " ".join(map(str, sorted(self.last["dice"])))
            notes.append(f"Round {self.last['round']} (dice {dice}): " + "; ".join(words))
        return tuple(notes)

    # -------------------------------------------------------------------------------- result
    def result(self) -> Result:
        """Final ranking; before the end, the standing so far with ties shared."""
        start = self.options["start_seat"]
        last = [last_active_round(s, self.n, start) for s in range(self.n)]
        mode = self.options["tie_break"] if self.phase == "over" else "shared"
        ranking, words = rank_players(self.scores, last, mode, self.players)
        won_pts = [sum(c * POINTS[k] for c, k in zip(self.won[s], KEYS)) for s in range(self.n)]
        return Result(self.players, self.scores, ranking, ranking[0], words,
                      {"won_points": dict(zip(self.players, won_pts)),
                       "captured": dict(zip(self.players, self.captured)),
                       "last_active_round": dict(zip(self.players, last))})

    def snapshot(self) -> dict[str, Any]:
        return {
            "game": self.name, "players": list(self.players), "options": dict(self.options),
            "round": self.round, "phase": self.phase, "dice": list(self.dice), "held": list(self.held),
            "rolls": self.rolls,
            "hands": [{k: c for k, c in zip(KEYS, h) if c} for h in self.hands],
            "commits": [list(c) for c in self.commits],
            "won": [{k: c for k, c in zip(KEYS, w) if c} for w in self.won],
            "lost": [[[k, t] for k, t in lost] for lost in self.lost],
            "captured": list(self.captured), "scores": list(self.scores),
            "last": None if self.last is None else {**self.last, "events": [list(e) for e in self.last["events"]]},
        }


def last_cards(hand: Sequence[int], to_commit: int) -> bool:
    """Whether a player's cards left in `hand` (a count per objective) are all to be committed now:
    no choice and no secret (spec §2 SECRET_CHOICE hides a choice; the cards in hand are public)."""
    return sum(hand) <= to_commit


def last_cards_words(name: str, labels: Sequence[str]) -> str:
    """The prompt of a forced pick: "Bob: play your last card: Joker (1), known to all"."""
    if len(labels) == 1:
        return f"{name}: play your last card: {labels[0]}, known to all"
    return f"{name}: play your last cards: {' and '.join(labels)}, known to all"


def _fate(taker: str | None, times: int) -> tuple[str, str]:
    """How a lost card went, and its short form for a narrow column: "captured by Eve" / "to
    Eve" (the active player took it), "discarded" / "lost" (the active player's own)."""
    words = ("discarded", "lost") if taker is None else (f"captured by {taker}", f"to {taker}")
    return words if times == 1 else (f"{words[0]} ×{times}", f"{words[1]} ×{times}")


def _committed(cards: int) -> Cell:
    """A player's "This round" cell once their cards are chosen (secret, or revealed elsewhere)."""
    if cards == 1:
        return Cell("card committed", kind="info", short=("chosen",))
    return Cell("2 cards committed", kind="info", short=("2 chosen",))


def _settled_cell(parts: list[tuple[str, ...]], value: int | None, kind: str) -> Cell:
    """What a preview cell holds that stands without the pending choice (its cards won, lost,
    committed or in hand): an abandoned game's final sheet shows this."""
    if kind == "empty":
        kind = "info" if any(w.startswith("committed") for w, *_ in parts) else "hand" if parts else "empty"
    return _words_cell(parts, value, kind, False)


def _words_cell(parts: list[tuple[str, ...]], value: int | None, kind: str, highlight: bool) -> Cell:
    """A card's cell from its parts' (words, short forms...): each shorter form of the cell joins
    the parts' forms of that rank (a part with fewer keeps its last), the ones alike dropped."""
    forms: list[str] = []
    for rank in range(max((len(p) for p in parts), default=1)):
        form = ", ".join(p[min(rank, len(p) - 1)] for p in parts)
        if form not in forms:
            forms.append(form)
    return Cell(forms[0], value, kind, highlight, tuple(forms[1:]))


def discarded(state: ObjectiveCards) -> list[str]:
    """The discard pile (active players' failed cards), oldest first."""
    return [k for lost in state.lost for k, taker in lost if taker is None]


def won_cards(state: ObjectiveCards, seat: int) -> Iterable[str]:
    """The seat's own cards won face up, one key per card."""
    for key, count in zip(KEYS, state.won[seat]):
        yield from (key,) * count
