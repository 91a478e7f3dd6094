"""Classic poker dice (the Danish "Poker Dice Regler" leaflet), spec /work/shared/rules/classic.md.

Every player throws five poker dice (9 10 J Q K A), keeps any of them and throws the others
once more; the best poker hand wins the round. A match is a number of rounds (default 2N) or
"first to W round wins". The betting variant (§6) puts a bankroll and a betting round between
the first and the second throw.

Dice inputs are die faces 1..6 as the camera reads them; `face_mapping` turns them into ranks
9..14. Categories are exact patterns (a full house is not also three of a kind), and ranking
keys follow §3.3 of the spec: `evaluate()` and `compare()` are public for tests and hints.
"""
from __future__ import annotations

from collections import Counter
from enum import IntEnum
from typing import Any, Iterable, Mapping, Sequence

from .base import (
    Cell, Decide, Expectation, GameOver, GameState, Input, Option, OptionError, OptionSpec,
    RerollSpec, Result, Row, Sheet, Table, Throw, check_input, first_player_option,
    rank_by_score, register, shown,
)


# ------------------------------------------------------------------------------ hand ranking
class Category(IntEnum):
    """The eight exact categories of §3.1, low to high (the value orders them)."""

    NO_PAIR = 1
    ONE_PAIR = 2
    TWO_PAIRS = 3
    THREE_OF_A_KIND = 4
    STRAIGHT = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    FIVE_OF_A_KIND = 8


RANK_LABEL = {9: "9", 10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}
LABEL_RANK = {label: rank for rank, label in RANK_LABEL.items()}
DEFAULT_MAPPING = (9, 10, 11, 12, 13, 14)           # face 1..6 -> rank
HIGH_STRAIGHT = frozenset((10, 11, 12, 13, 14))
LOW_STRAIGHT = frozenset((9, 10, 11, 12, 13))


def evaluate(ranks: Sequence[int], *, low_straight_9_to_K: bool = False,
             full_house_pair_tiebreak: bool = False) -> tuple[Category, tuple[int, ...]]:
    """(category, key) of a five-dice hand of ranks 9..14; higher (category, key) wins.

    Keys follow §3.3: quads, triples and full houses compare only the group's rank (kickers
    ignored), two pairs (high, low, fifth), one pair (pair, kickers high to low), no pair all five.
    """
    if len(ranks) != 5 or any(r not in RANK_LABEL for r in ranks):
        raise ValueError(f"a hand is five ranks 9..14, not {list(ranks)!r}")
    groups = sorted(Counter(ranks).items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    sig = tuple(n for _, n in groups)
    top = groups[0][0]
    if sig == (5,):
        return Category.FIVE_OF_A_KIND, (top,)
    if sig == (4, 1):
        return Category.FOUR_OF_A_KIND, (top,)
    if sig == (3, 2):
        return Category.FULL_HOUSE, ((top, groups[1][0]) if full_house_pair_tiebreak else (top,))
    if sig == (3, 1, 1):
        return Category.THREE_OF_A_KIND, (top,)
    if sig == (2, 2, 1):
        return Category.TWO_PAIRS, tuple(r for r, _ in groups)
    if sig == (2, 1, 1, 1):
        return Category.ONE_PAIR, tuple(r for r, _ in groups)
    present = frozenset(ranks)
    if present == HIGH_STRAIGHT:
        return Category.STRAIGHT, ((14,) if low_straight_9_to_K else ())
    if low_straight_9_to_K and present == LOW_STRAIGHT:
        return Category.STRAIGHT, (13,)
    return Category.NO_PAIR, tuple(sorted(ranks, reverse=True))


def compare(a: Sequence[int], b: Sequence[int], **options: bool) -> int:
    """1 if hand `a` beats `b`, -1 if `b` wins, 0 for a tie (options as for `evaluate`)."""
    ea, eb = evaluate(a, **options), evaluate(b, **options)
    return (ea > eb) - (ea < eb)


def describe(ranks: Sequence[int], **options: bool) -> str:
    """Poker notation with the category: "K K K Q 10 · Three K"."""
    order, names = _named(ranks, **options)
    return " ".join(RANK_LABEL[r] for r in order) + " · " + names[0]


def short_names(ranks: Sequence[int], **options: bool) -> tuple[str, ...]:
    """The category's shorter names, longest first, for a sheet column too narrow for it:
    "Two pairs K and 9" -> "Two pairs K+9", "Pairs K+9" (6 players at 800x480: ~50 px)."""
    return _named(ranks, **options)[1][1:]


def _named(ranks: Sequence[int], **options: bool) -> tuple[list[int], tuple[str, ...]]:
    """The ranks in poker order (the biggest group first) and the hand's names, longest first."""
    cat, key = evaluate(ranks, **options)
    counts = Counter(ranks)
    order = sorted(ranks, key=lambda r: (counts[r], r), reverse=True)
    lab = RANK_LABEL
    # the last form of each, three or four characters, is for 8 players at 800x480 (~44 px):
    # "3×K" three kings, "K+9" two pairs, "A/J" aces full of jacks
    names = {
        Category.FIVE_OF_A_KIND: lambda: (f"Five {lab[key[0]]}", f"5×{lab[key[0]]}"),
        Category.FOUR_OF_A_KIND: lambda: (f"Four {lab[key[0]]}", f"4×{lab[key[0]]}"),
        Category.FULL_HOUSE: lambda: (f"Full house {lab[order[0]]} over {lab[order[3]]}",
                                      f"Full house {lab[order[0]]}/{lab[order[3]]}",
                                      f"Full {lab[order[0]]}/{lab[order[3]]}", f"{lab[order[0]]}/{lab[order[3]]}"),
        Category.STRAIGHT: lambda: (("Straight", "Str.") if frozenset(ranks) == HIGH_STRAIGHT
                                    else ("Straight (low)", "Low str.", "Low")),
        Category.THREE_OF_A_KIND: lambda: (f"Three {lab[key[0]]}", f"3×{lab[key[0]]}"),
        Category.TWO_PAIRS: lambda: (f"Two pairs {lab[key[0]]} and {lab[key[1]]}",
                                     f"Two pairs {lab[key[0]]}+{lab[key[1]]}", f"Pairs {lab[key[0]]}+{lab[key[1]]}",
                                     f"{lab[key[0]]}+{lab[key[1]]}"),
        Category.ONE_PAIR: lambda: (f"Pair {lab[key[0]]}", f"2×{lab[key[0]]}"),
        Category.NO_PAIR: lambda: (f"No pair, {lab[key[0]]} high", f"{lab[key[0]]} high", f"{lab[key[0]]} hi"),
    }[cat]()
    return order, names


FACE_KEYS = ("1", "2", "3", "4", "5", "6")


def parse_mapping(value: Any) -> tuple[int, ...]:
    """The `face_mapping` option as ranks of faces 1..6; must be a permutation of 9..14.

    Accepted: a list of six ranks for faces 1..6 (ints 9..14 or labels "9".."A"), or a dict
    face -> rank with faces 1..6 as ints or digit strings (JSON keys are strings).
    """
    def rank(v: Any) -> int:
        if isinstance(v, str) and v.strip().upper() in LABEL_RANK:
            return LABEL_RANK[v.strip().upper()]
        if isinstance(v, int) and not isinstance(v, bool) and v in RANK_LABEL:
            return v
        raise OptionError(f"option 'face_mapping': {shown(v)} is not a rank (9, 10, J, Q, K or A)")

    if isinstance(value, dict):
        by_face: dict[int, int] = {}
        for face, v in value.items():
            # (ASCII digits: "²".isdigit() is true, and int() refuses it)
            f = int(face) if isinstance(face, str) and face.strip() in FACE_KEYS else face
            if not isinstance(f, int) or isinstance(f, bool) or not 1 <= f <= 6:
                raise OptionError(f"option 'face_mapping': {shown(face)} is not a die face 1..6")
            by_face[f] = rank(v)
        if sorted(by_face) != [1, 2, 3, 4, 5, 6]:
            raise OptionError("option 'face_mapping' must give a rank for each face 1..6")
        ranks = tuple(by_face[f] for f in range(1, 7))
    elif isinstance(value, (list, tuple)):
        if len(value) != 6:
            raise OptionError("option 'face_mapping' must list six ranks, for faces 1..6")
        ranks = tuple(rank(v) for v in value)
    else:
        raise OptionError(f"option 'face_mapping': {shown(value)} is not a list or a dict")
    if sorted(ranks) != list(DEFAULT_MAPPING):
        raise OptionError("option 'face_mapping' must use each rank 9, 10, J, Q, K, A exactly once")
    return ranks


# ------------------------------------------------------------------------------------- card
def _rounds(n: int) -> str:
    return f"{n} round" if n == 1 else f"{n} rounds"


def how_to_play_under(o: Mapping[str, Any]) -> tuple[str, ...]:
    """The HINT card under the options `o` (all of them given)."""
    betting = o["variant"] == "betting"
    card = ["Poker hands with five dice showing 9 10 J Q K A: the best hand wins each round."]
    if not betting:
        card.append("Each round, every player in turn throws all five dice, may hold some and throw the "
                    "others once more (or stand); the next players see the hand to beat.")
    elif o["keep_declared_in_phase1"]:
        card.append("Each round, all throw five dice once and say which to hold, then bet; then each player "
                    "still in throws the others once more.")
    else:
        card.append("Each round, all throw five dice once, then bet; then each player still in may hold "
                    "some dice and throw the others once more (or stand).")
    straight = "straight (10 to A; 9 to K just below)" if o["low_straight_9_to_K"] else "straight (10 to A)"
    card.append("Hands, best first: five of a kind, four of a kind, full house, " + straight
                + ", three of a kind, two pairs, a pair, nothing.")
    if betting:
        tie = "split the pot"
    elif o["round_tie"] == "roll_off":
        tie = "throw all five again, once, until one is best"
    else:
        tie = "all win the round"
    pair = " (then a full house's pair)" if o["full_house_pair_tiebreak"] else ""
    card.append(f"Same hand: higher dice win, but of three or more alike only those count{pair}; "
                f"equal best hands {tie}.")
    if o["match_length"] == "first_to":
        length = f"The match ends when someone has won {_rounds(o['first_to'])}"
    elif o["rounds"]:
        length = f"The match is {_rounds(o['rounds'])}"
    else:
        length = "The match is two rounds per player"
    if betting:
        card.append(f"{length}: the most points wins; a player with none left is out.")
        bets = (f"stakes 0 to {o['max_bet']}" if o["betting_model"] == "simple_pot"
                else f"checks, bets, calls, raises ({o['max_bet']} at most in all) or folds")
        ante = f", ante {o['ante']} a round" if o["ante"] else ""
        card.append(f"All start with {o['starting_bankroll']} points{ante}. Betting: each in turn {bets}; "
                    "the best hand takes the pot.")
    else:
        tie = "sudden-death rounds break a tie" if o["match_tie"] == "sudden_death" else "a tie is shared"
        card.append(f"{length}: the most rounds won wins; {tie}.")
        card.append("With the betting house rule, players bet between the two throws and play for the pot.")
    return tuple(card)


# ------------------------------------------------------------------------------------- game
@register
class ClassicPokerDice(GameState):
    """The state machine of §2.1 (base) and §6 (betting); immutable, `apply` returns a copy."""

    name = "classic"
    title = "Classic poker dice"
    min_players = 2
    max_players = 8
    OPTIONS = (
        OptionSpec("face_mapping", list(DEFAULT_MAPPING),
                   "ranks of die faces 1..6: a list of 6 ranks (9..14 or 9,10,J,Q,K,A) or a dict face->rank",
                   type=(list, dict), validate=parse_mapping),
        OptionSpec("start_seat", 0, "seat of the first round's first player", minimum=0, maximum=7),
        first_player_option(),
        OptionSpec("rotate_first_player", True, "the first player moves one seat clockwise each round"),
        OptionSpec("match_length", "rounds", "a fixed number of rounds, or the first to win 'First to' rounds",
                   choices=("rounds", "first_to")),
        OptionSpec("rounds", 0, "number of rounds; 0 means twice the number of players", minimum=0, maximum=200),
        OptionSpec("first_to", 3, "round wins that end the match, when Match length is 'first to'",
                   minimum=1, maximum=50),
        OptionSpec("round_tie", "shared", "tied best hands (base game): all win the round, or a roll-off",
                   choices=("shared", "roll_off")),
        OptionSpec("match_tie", "shared", "tied match (base game): shared, or sudden-death rounds",
                   choices=("shared", "sudden_death")),
        OptionSpec("low_straight_9_to_K", False, "9-10-J-Q-K is a straight, just below 10-J-Q-K-A"),
        OptionSpec("full_house_pair_tiebreak", False, "full houses with equal triples compare the pair"),
        OptionSpec("variant", "base", "base game or the betting variant", choices=("base", "betting")),
        OptionSpec("starting_bankroll", 20, "betting: points each player starts with", minimum=1, maximum=100_000),
        OptionSpec("ante", 0, "betting: paid into the pot by each player at round start", minimum=0, maximum=1000),
        OptionSpec("max_bet", 5, "betting: most a player puts in per round (capped by the smallest bankroll)",
                   minimum=1, maximum=100),
        OptionSpec("betting_model", "call_raise_fold", "betting: fixed-limit call/raise/fold, or one stake each",
                   choices=("call_raise_fold", "simple_pot")),
        OptionSpec("keep_declared_in_phase1", False, "betting: the keep is chosen before the betting"),
    )
    how_to_play = how_to_play_under({spec.name: spec.default for spec in OPTIONS})

    @classmethod
    def _card(cls, o: Mapping[str, Any]) -> tuple[str, ...]:
        return how_to_play_under(o)

    # -------------------------------------------------------------------------- construction
    @classmethod
    def _create(cls, players: tuple[str, ...], options: dict[str, Any]) -> "ClassicPokerDice":
        ranks = parse_mapping(options["face_mapping"])
        n = len(players)
        if options["start_seat"] >= n:
            raise OptionError(f"option 'start_seat': {options['start_seat']} is not a seat of {n} players")
        s = object.__new__(cls)
        s.players, s.options = players, options
        s.ranks = ranks
        s.labels = tuple(RANK_LABEL[r] for r in ranks)
        s.eval_opts = {"low_straight_9_to_K": options["low_straight_9_to_K"],
                       "full_house_pair_tiebreak": options["full_house_pair_tiebreak"]}
        s.betting = options["variant"] == "betting"
        s.n_rounds = options["rounds"] or 2 * n
        s.wins = (0,) * n
        s.bank = (options["starting_bankroll"],) * n if s.betting else ()
        s.carry = 0
        s.history = ()
        s.step = "over"
        s._start_round(tuple(range(n)) if not s.betting else s._solvent(), sudden=False)
        return s

    def _clone(self) -> "ClassicPokerDice":
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        return new

    def _solvent(self) -> tuple[int, ...]:
        return tuple(i for i, b in enumerate(self.bank) if b > 0)

    def _start_round(self, seats: Sequence[int], sudden: bool) -> None:
        """Set up round len(history) for `seats` (mutates self: only called on fresh copies)."""
        n = len(self.players)
        start = self.options["start_seat"]
        nominal = (start + len(self.history)) % n if self.options["rotate_first_player"] else start
        self.order = tuple(sorted(seats, key=lambda s: (s - nominal) % n))
        self.sudden = sudden
        self.step, self.pos = "throw", 0
        self.dice, self.kept = (), ()
        self.hands = (None,) * n
        self.rolloff, self.roll_hands, self.rolloffs = (), (), ()
        if self.betting:
            bank = list(self.bank)
            antes = 0
            for s in self.order:
                paid = min(self.options["ante"], bank[s])
                bank[s] -= paid
                antes += paid
            self.bank = tuple(bank)
            self.pot, self.carry = self.carry + antes, 0
            self.cap = min([self.options["max_bet"]] + [bank[s] for s in self.order])
            self.first = (None,) * n
            self.keeps = (None,) * n
            self.contrib = (0,) * n
            self.folded = (False,) * n
            self.high, self.acted, self.actor = 0, (), None

    # ------------------------------------------------------------------------------ helpers
    def strength(self, faces: Iterable[int]) -> tuple[Category, tuple[int, ...]]:
        return evaluate([self.ranks[f - 1] for f in faces], **self.eval_opts)

    def hand_text(self, faces: Iterable[int]) -> str:
        return describe([self.ranks[f - 1] for f in faces], **self.eval_opts)

    def hand_cell(self, faces: Iterable[int], kind: str, highlight: bool = False, folded: bool = False) -> Cell:
        """A hand's sheet cell: its notation and name, with the name's short forms for a narrow
        column (a folded hand's too: its name alone is what a narrow column shows of it)."""
        ranks = [self.ranks[f - 1] for f in faces]
        text = describe(ranks, **self.eval_opts)
        return Cell("folded · " + text if folded else text, kind=kind, highlight=highlight,
                    short=short_names(ranks, **self.eval_opts))

    def _best(self, entries: Iterable[tuple[int, tuple[int, ...]]]) -> tuple[int, ...]:
        """Seats with the strictly best hand among (seat, faces) entries."""
        scored = [(self.strength(f), s) for s, f in entries]
        top = max(k for k, _ in scored)
        return tuple(s for k, s in scored if k == top)

    def _live(self) -> tuple[int, ...]:
        if not self.betting:
            return self.order
        return tuple(s for s in self.order if not self.folded[s])

    def _face_list(self, faces: Iterable[int]) -> str:
        return " ".join(self.labels[f - 1] for f in sorted(faces, key=lambda f: -self.ranks[f - 1]))

    # -------------------------------------------------------------------------- expectations
    def expects(self) -> Expectation:
        step = self.step
        if step == "over":
            return GameOver()
        if step == "roll_off":
            seat = self.rolloff[self.pos]
            return Throw(seat, 5, (), f"{self.players[seat]}: roll-off, throw all 5 dice once",
                         "roll_off", self.labels)
        if step == "bet":
            return self._bet_decision()
        seat = self.order[self.pos]
        who = self.players[seat]
        if step == "throw":
            return Throw(seat, 5, (), f"{who}: throw all 5 dice", "throw", self.labels)
        if step == "rethrow":
            k = 5 - len(self.kept)
            return Throw(seat, k, self.kept, f"{who}: throw the other {k} {'die' if k == 1 else 'dice'} once more", "rethrow", self.labels)
        if step == "stake":
            return Decide(seat, tuple(Option(f"STAKE_{a}", f"Stake {a}", group="bet") for a in range(self.cap + 1)),
                          f"{who}: stake 0 to {self.cap} points")
        prompt = (f"{who}: choose the dice to keep after the betting, or keep all 5" if step == "declare"
                  else f"{who}: keep dice and throw the others once, or keep all 5")
        return Decide(seat, (Option("STAND", "Keep all 5", row=self._row_key(), group="score"),), prompt,
                      reroll=RerollSpec(self.dice, min_rethrow=1, max_rethrow=5))

    def _bet_decision(self) -> Decide:
        seat, high, cap = self.actor, self.high, self.cap
        c = self.contrib[seat]
        opts = [Option("CHECK", "Check", group="bet")] if c == high else [Option("CALL", f"Call {high - c}", group="bet")]
        word, label = ("BET", "Bet") if high == 0 else ("RAISE", "Raise to")
        opts += [Option(f"{word}_{a}", f"{label} {a}", group="bet") for a in range(high + 1, cap + 1)]
        if c < high:
            opts.append(Option("FOLD", "Fold", group="bet"))
        who = self.players[seat]
        # the prompt names only what the menu offers: at the cap no raise ("Dee: call 2, raise or
        # fold" over a menu of Call 2 and Fold)
        more = word.lower() if cap > high else ""
        if c == high:
            prompt = f"{who}: check or {more}" if more else f"{who}: check"
        else:
            prompt = f"{who}: call {high - c}, {more} or fold" if more else f"{who}: call {high - c} or fold"
        return Decide(seat, tuple(opts), f"{prompt} (pot {self.pot})")

    def _row_key(self) -> str:
        return f"round_{len(self.history) + 1}"

    # ---------------------------------------------------------------------------------- apply
    def apply(self, data: Input) -> "ClassicPokerDice":
        inp = check_input(self.expects(), data)     # everything legal is decided by the expectation
        s = self._clone()
        step = self.step
        if step == "throw":
            s._after_first_throw(tuple(inp["values"]))
        elif step in ("keep", "declare"):
            keep = tuple(self.dice) if inp["type"] == "choose" else tuple(inp["keep"])
            s._after_keep(keep)
        elif step == "rethrow":
            s._record(self.order[self.pos], self.kept + tuple(inp["values"]))
        elif step == "roll_off":
            s._after_roll_off(tuple(inp["values"]))
        elif step == "bet":
            s._after_bet(inp["option"])
        elif step == "stake":
            s._after_stake(int(inp["option"].split("_")[1]))
        return s

    # The methods below mutate `self`; apply only calls them on its fresh copy.
    def _after_first_throw(self, faces: tuple[int, ...]) -> None:
        seat = self.order[self.pos]
        if not self.betting:
            self.dice, self.step = faces, "keep"
            return
        self.first = _put(self.first, seat, faces)
        if self.options["keep_declared_in_phase1"]:
            self.dice, self.step = faces, "declare"
        else:
            self._next_phase1()

    def _after_keep(self, keep: tuple[int, ...]) -> None:
        seat = self.order[self.pos]
        if self.step == "declare":
            self.keeps = _put(self.keeps, seat, keep)
            self._next_phase1()
        elif len(keep) == 5:
            self._record(seat, self.dice)
        else:
            self.kept, self.step = keep, "rethrow"

    def _next_phase1(self) -> None:
        self.pos += 1
        if self.pos < len(self.order):
            self.step = "throw"
        elif self.cap == 0:                    # nobody can bet: straight to the second throws
            self._next_phase2(0)
        elif self.options["betting_model"] == "simple_pot":
            self.pos, self.step = 0, "stake"
        else:
            self.step, self.actor = "bet", self.order[0]

    def _pay(self, seat: int, amount: int) -> None:
        self.bank = _put(self.bank, seat, self.bank[seat] - amount)
        self.contrib = _put(self.contrib, seat, self.contrib[seat] + amount)
        self.pot += amount

    def _after_stake(self, amount: int) -> None:
        self._pay(self.order[self.pos], amount)
        self.pos += 1
        if self.pos == len(self.order):
            self._next_phase2(0)

    def _after_bet(self, key: str) -> None:
        seat = self.actor
        if key == "FOLD":
            self.folded = _put(self.folded, seat, True)
        elif key in ("CHECK", "CALL"):
            self._pay(seat, self.high - self.contrib[seat])
            self.acted += (seat,)
        else:                                  # BET_a / RAISE_a: raise the high bet to a
            amount = int(key.split("_")[1])
            self._pay(seat, amount - self.contrib[seat])
            self.high, self.acted = amount, (seat,)
        live = self._live()
        if len(live) == 1:                     # everyone else folded: the pot goes now
            self._award(live)
        elif all(s in self.acted for s in live):
            self.actor = None
            self._next_phase2(0)
        else:
            i = self.order.index(seat)
            k = len(self.order)
            self.actor = next(self.order[(i + d) % k] for d in range(1, k) if not self.folded[self.order[(i + d) % k]])

    def _next_phase2(self, pos: int) -> None:
        """Move to the next un-folded player's second throw, or to the showdown."""
        while pos < len(self.order):
            seat = self.order[pos]
            if not self.folded[seat]:
                keep = self.keeps[seat]
                if keep is None:
                    self.pos, self.step, self.dice, self.kept = pos, "keep", self.first[seat], ()
                    return
                if len(keep) < 5:
                    self.pos, self.step, self.dice, self.kept = pos, "rethrow", self.first[seat], keep
                    return
                self.hands = _put(self.hands, seat, self.first[seat])
            pos += 1
        live = self._live()
        self._award(self._best((s, self.hands[s]) for s in live))

    def _record(self, seat: int, faces: tuple[int, ...]) -> None:
        self.hands = _put(self.hands, seat, faces)
        self.dice, self.kept = (), ()
        if self.betting:
            self._next_phase2(self.pos + 1)
            return
        self.pos += 1
        if self.pos < len(self.order):
            self.step = "throw"
            return
        best = self._best((s, self.hands[s]) for s in self.order)
        if len(best) > 1 and self.options["round_tie"] == "roll_off":
            self.rolloff, self.roll_hands, self.pos, self.step = best, (), 0, "roll_off"
        else:
            self._finish_round(best)

    def _after_roll_off(self, faces: tuple[int, ...]) -> None:
        self.roll_hands += ((self.rolloff[self.pos], faces),)
        self.pos += 1
        if self.pos < len(self.rolloff):
            return
        self.rolloffs += (self.roll_hands,)
        best = self._best(self.roll_hands)
        if len(best) > 1:
            self.rolloff, self.roll_hands, self.pos = best, (), 0
        else:
            self._finish_round(best)

    def _award(self, winners: tuple[int, ...]) -> None:
        """Betting: split the pot among `winners`; an indivisible remainder is carried over."""
        share, rest = divmod(self.pot, len(winners))
        bank = list(self.bank)
        for s in winners:
            bank[s] += share
        self.bank, self.carry = tuple(bank), rest
        self._finish_round(winners, share)

    def _finish_round(self, winners: tuple[int, ...], share: int | None = None) -> None:
        wins = list(self.wins)
        for s in winners:
            wins[s] += 1
        self.wins = tuple(wins)
        rec: dict[str, Any] = {"order": self.order, "sudden": self.sudden, "hands": self.hands,
                               "winners": winners, "rolloffs": self.rolloffs}
        if self.betting:
            rec.update(first=self.first, folded=self.folded, stakes=self.contrib, pot=self.pot,
                       share=share, carried=self.carry, bank=self.bank)
        self.history += (rec,)
        self._next_round()

    def _next_round(self) -> None:
        regular = sum(1 for r in self.history if not r["sudden"])
        if self.options["match_length"] == "first_to":
            done = max(self.wins) >= self.options["first_to"]
        else:
            done = regular >= self.n_rounds
        if self.betting:
            solvent = self._solvent()
            if done or len(solvent) <= 1:
                self.step = "over"
            else:
                self._start_round(solvent, sudden=False)
            return
        if self.sudden or done:
            leaders = self.leaders()
            if len(leaders) > 1 and self.options["match_tie"] == "sudden_death":
                self._start_round(leaders, sudden=True)
            else:
                self.step = "over"
        else:
            self._start_round(range(len(self.players)), sudden=False)

    def leaders(self) -> tuple[int, ...]:
        scores = self.scores()
        return tuple(i for i, v in enumerate(scores) if v == max(scores))

    def scores(self) -> tuple[int, ...]:
        """Round wins (base game) or bankrolls (betting variant)."""
        return self.bank if self.betting else self.wins

    # ---------------------------------------------------------------------------------- views
    def _round_label(self, index: int, rec_sudden: bool) -> str:
        if rec_sudden:
            return f"Sudden death {1 + sum(1 for r in self.history[:index] if r['sudden'])}"
        return f"Round {1 + sum(1 for r in self.history[:index] if not r['sudden'])}"

    def _cells_of(self, rec: Mapping[str, Any]) -> tuple[Cell, ...]:
        cells = []
        for s in range(len(self.players)):
            hand = rec["hands"][s]
            if s not in rec["order"]:
                cells.append(Cell("out" if self.betting else "", kind="info" if self.betting else "empty"))
            elif self.betting and rec["folded"][s]:
                cells.append(self.hand_cell(rec["first"][s], "info", folded=True))
            elif hand is None:             # won by folds before the second throw
                cells.append(self.hand_cell(rec["first"][s], "hand", s in rec["winners"]))
            else:
                cells.append(self.hand_cell(hand, "hand", s in rec["winners"]))
        return tuple(cells)

    def _current_cells(self) -> tuple[Cell, ...]:
        exp = self.expects()
        acting = getattr(exp, "player", None)
        cells = []
        for s in range(len(self.players)):
            if s not in self.order:
                cells.append(Cell("out" if self.betting else "", kind="info" if self.betting else "empty"))
            elif self.hands[s] is not None:
                cells.append(self.hand_cell(self.hands[s], "hand"))
            elif self.betting and self.folded[s]:
                cells.append(self.hand_cell(self.first[s], "info", folded=True))
            elif s == acting and self.step in ("keep", "declare"):
                cells.append(self.hand_cell(self.dice, "preview", True))
            elif s == acting and self.step == "rethrow":
                kept, more = self._face_list(self.kept), 5 - len(self.kept)
                # (narrow columns: "9 9 9 +2", then "+2", the dice kept being on the tray)
                cells.append(Cell(f"{kept} + {more} dice".strip(), kind="preview", highlight=True,
                                  short=(f"{kept} +{more}".strip(), f"+{more}")))
            elif self.betting and self.first[s] is not None:
                cells.append(self.hand_cell(self.first[s], "info", s == acting))
            else:
                cells.append(Cell("", kind="empty", highlight=s == acting))
        return tuple(cells)

    def sheet(self) -> Sheet:
        n = len(self.players)
        rows = [Row(f"round_{i + 1}", self._round_label(i, rec["sudden"]), self._cells_of(rec),
                    short=_round_short(self._round_label(i, rec["sudden"])))
                for i, rec in enumerate(self.history)]
        over = self.step == "over"
        if not over:
            label = self._round_label(len(self.history), self.sudden)
            rows.append(Row(self._row_key(), label, self._current_cells(), short=_round_short(label)))
        if self.options["match_length"] == "rounds" and not over:   # the rounds still to come
            rows += [Row(f"round_{i + 1}", f"Round {i + 1}", tuple(Cell() for _ in range(n)), short=(f"Rd {i + 1}",))
                     for i in range(len(rows), self.n_rounds)]
        lead = set(self.leaders()) if over else set()
        win_kind = "subtotal" if self.betting else "total"
        rows.append(Row("round_wins", "Round wins",
                        tuple(Cell(str(w), w, "total", highlight=not self.betting and i in lead)
                              for i, w in enumerate(self.wins)), win_kind, ("Wins",)))
        if self.betting:
            if not over:
                rows.append(Row("stake", "In the pot", tuple(Cell(str(c), c, "info") for c in self.contrib)))
            rows.append(Row("bankroll", "Bankroll", tuple(Cell(str(b), b, "total", highlight=i in lead)
                                                          for i, b in enumerate(self.bank)), "total"))
        exp = self.expects()
        active = getattr(exp, "player", None)
        title = f"Rounds · pot {self.pot}" if self.betting and not over else "Rounds"
        table = Table(title, self.players, tuple(rows), active)
        return Sheet(self.name, self.title, self.players, (table,), self.scores(), self._status(), self._notes())

    def _status(self) -> str:
        if self.step == "over":
            names = ", ".join(self.players[i] for i in self.leaders())
            return f"Game over — {'winners' if len(self.leaders()) > 1 else 'winner'}: {names}"
        r = len(self.history)
        if self.sudden:
            head = self._round_label(r, True)
        elif self.options["match_length"] == "first_to":
            head = f"Round {r + 1} (first to {self.options['first_to']} wins)"
        else:
            head = f"Round {1 + sum(1 for x in self.history if not x['sudden'])} of {self.n_rounds}"
        pot = f" · pot {self.pot}" if self.betting and self.step != "bet" else ""   # bet prompts say it
        return f"{head}{pot} — {self.expects().prompt}"

    def _notes(self) -> tuple[str, ...]:
        notes = []
        if self.history:
            rec = self.history[-1]
            names = _listed(self.players[i] for i in rec["winners"])
            # ("the last round" read as the game's last one after round 1 of 6; a sudden-death
            # round is named as its row is, not "round 5" of a 4-round match)
            label = self._round_label(len(self.history) - 1, rec["sudden"])
            text = f"{names} {'share' if len(rec['winners']) > 1 else 'wins'} {label[0].lower()}{label[1:]}"
            if self.betting:
                text += f" and {rec['share']} points" + (" each" if len(rec["winners"]) > 1 else "")
                if rec["carried"]:
                    text += "; " + self._carried_words(rec["carried"])
            notes.append(text)
            for n_ro, passes in enumerate(rec["rolloffs"], 1):
                notes.append(f"roll-off {n_ro}: " + ", ".join(f"{self.players[s]} {self.hand_text(f)}" for s, f in passes))
        for passes in ((self.roll_hands,) if self.step == "roll_off" and self.roll_hands else ()):
            notes.append("roll-off: " + ", ".join(f"{self.players[s]} {self.hand_text(f)}" for s, f in passes))
        return tuple(notes)

    def _carried_words(self, carried: int) -> str:
        """What became of a remainder of the pot: the next round's pot, or nobody's once the
        match is over (there is no next pot to carry it to)."""
        if self.step != "over":
            return f"{carried} carried to the next pot"
        return f"{carried} point{'s' if carried > 1 else ''} left in the pot, won by nobody: the match is over"

    def result(self) -> Result:
        scores = self.scores()
        ranking = rank_by_score(scores)
        tie_break = ""
        sd = [r for r in self.history if r["sudden"]]
        if sd:
            tie_break = "sudden-death rounds between " + _listed(self.players[i] for i in sd[0]["order"])
        details = {"round_wins": dict(zip(self.players, self.wins)), "rounds_played": len(self.history)}
        if self.betting:
            details["pot_carried"] = self.carry
        return Result(self.players, scores, ranking, ranking[0], tie_break, details)

    def snapshot(self) -> dict[str, Any]:
        keys = ["step", "pos", "order", "sudden", "dice", "kept", "hands", "rolloff", "roll_hands", "rolloffs",
                "wins", "history", "n_rounds", "ranks"]
        if self.betting:
            keys += ["bank", "carry", "pot", "cap", "first", "keeps", "contrib", "folded", "high", "acted", "actor"]
        out = {k: _jsonable(getattr(self, k)) for k in keys}
        out.update(players=list(self.players), options=_jsonable(self.options))
        return out


def _listed(names: Iterable[str]) -> str:
    """Names as a sentence lists them: "A", "A and B", "A, B and C" (not "A and B and C")."""
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _put(t: tuple, i: int, v: Any) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


def _jsonable(v: Any) -> Any:
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    return v


def _round_short(label: str) -> tuple[str, ...]:
    """A round's label for a narrow labels' column: "Sudden 2" for "Sudden death 2" (cut, at
    320x240, to "Sudden d...", which no longer said which round it was)."""
    if label.startswith("Sudden death "):
        return (label.replace("Sudden death ", "Sudden ", 1),)
    # ("Rd 2": three players' columns at 320x240 need the room "Round 2" kept, their hands cut to "4...")
    return (label.replace("Round ", "Rd ", 1),) if label.startswith("Round ") else ()
