"""School against a reference model written from the spec (/work/shared/rules/school.md), not
from the engine: random legal play under random house rules, and after every input the engine's
options, sheets, awards, reserves, next player and end of game must be the model's.

The model is deliberately plain (lists, the spec's words as comments) so that a misreading of the
spec in the engine does not hide behind the same code. It uses the engine only for the row names.
"""
from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules import Decide, IllegalInput, Throw, new_game
from controller.rules.base import choose_input, dice_input, reroll_input
from controller.rules.school import CROSS, ROWS, figure_scores
from test_rules_school import OPTION_VALUES

X = "X"                                       # a cross in the model (the engine writes -1)
SCHOOL_ROWS = ROWS[:6]


def spec_figures(dice, same_face: bool, poker_full: bool) -> dict[str, int]:
    """§3: the base score of every non-School row the dice qualify for."""
    cnt = Counter(dice)
    sig = sorted(cnt.values(), reverse=True)
    out = {"CHANCE": sum(dice)}
    pairs = [f for f in cnt if cnt[f] >= 2]
    if pairs:
        out["PAIR"] = 2 * max(pairs)                              # the highest pair
    two = [2 * a + 2 * b for a in pairs for b in pairs if a != b]  # two different faces
    if same_face:
        two += [4 * f for f in cnt if cnt[f] >= 4]                # option: 4 x v
    if two:
        out["TWO_PAIRS"] = max(two)
    for f in cnt:
        if cnt[f] >= 3:
            out["TRIPLET"] = 3 * f
        if cnt[f] >= 4:
            out["FOUR_OF_A_KIND"] = 4 * f
    if sig == [5]:
        out["POKER"] = sum(dice)
    if sig == [3, 2] or (poker_full and sig == [5]):
        out["FULL_HOUSE"] = sum(dice)
    if sorted(dice) == [1, 2, 3, 4, 5]:
        out["SMALL_STRAIGHT"] = 15
    if sorted(dice) == [2, 3, 4, 5, 6]:
        out["LARGE_STRAIGHT"] = 20
    return out


class Model:
    """The whole table as the spec describes it."""

    def __init__(self, n: int, o: dict):
        self.o = o
        self.n = n
        self.cells = [{r: [None] * 3 for r in ROWS} for _ in range(n)]
        self.doubled = [{r: [False] * 3 for r in ROWS} for _ in range(n)]
        self.award = [{r: None for r in ROWS} for _ in range(n)]
        self.col = [[None] * 3 for _ in range(n)]
        self.res = [[0] * 7 for _ in range(n)]                     # reserve[f], f = 1..6
        self.eligible = [True] * n

    # ------------------------------------------------------------------ what may be written
    def open_columns(self, p: int, row: str) -> list[int]:
        empty = [k for k in range(3) if self.cells[p][row][k] is None]
        if self.o["row_fill_order"] == "left_to_right":
            return empty[:1]                                        # the leftmost empty column
        return empty

    def school(self, p: int, row: str, dice, last: bool) -> list[tuple[int, int]]:
        """§4.2: (points, reserve change) of each legal School score."""
        f = int(row[1])
        c, R, mode = dice.count(f), self.res[p][f], self.o["school_reserve_mode"]
        if c >= 3:
            if mode == "none":
                return [(f * c, 0)]
            if mode == "fixed_three":
                # "surplus dice (c - 3) are banked automatically": in the last cell too when unused
                # banked dice score at the end (a surplus dropped there was the only one lost)
                dropped = last and self.o["unused_reserve_at_end"] != "scored"
                return [(3 * f, 0 if dropped else c - 3)]
            return [(f * (c - b), b) for b in range(0 if last else c - 3, -1, -1)]
        if mode != "none" and c + R >= 3 and c >= self.o["reserve_min_real_dice"]:
            return [(3 * f, -(3 - c))]
        return []

    def legal(self, p: int, dice, throw: int) -> dict[str, tuple]:
        """key -> (points, row, column, reserve change, doubled) of every legal entry."""
        o = self.o
        any_col = o["row_fill_order"] == "any_free_column"
        figures = spec_figures(dice, o["two_pairs_same_face_allowed"], o["full_house_accepts_poker"])
        scores, crosses = {}, {}
        for row in ROWS:
            last = self.cells[p][row].count(None) == 1
            for k in self.open_columns(p, row):
                key = f"{row}_C{k + 1}" if any_col else row
                if row in SCHOOL_ROWS:                              # never doubled
                    for pts, delta in self.school(p, row, dice, last):
                        bank = f"_BANK{delta}" if delta > 0 and o["school_reserve_mode"] == "player_choice" else ""
                        scores[key + bank] = (pts, row, k, delta, False)
                elif row in figures:
                    dbl = throw == 1 and o["double_on_first_throw"] and (
                        row != "CHANCE" or o["double_applies_to_chance"])
                    scores[key] = (figures[row] * (2 if dbl else 1), row, k, 0, dbl)
                crosses["X_" + key] = (0, row, k, 0, False)
        if scores and not o["voluntary_cross_allowed"]:
            crosses = {}                                            # a cross only when nothing scores
        return {**scores, **crosses}

    # -------------------------------------------------------------------------- one entry
    def write(self, p: int, entry: tuple, is_cross: bool) -> None:
        pts, row, k, delta, dbl = entry
        o = self.o
        self.cells[p][row][k] = X if is_cross else pts
        self.doubled[p][row][k] = dbl
        f = ROWS.index(row) + 1
        if row in SCHOOL_ROWS:
            self.res[p][f] += delta
        if is_cross:                                                # §4.3 / §4.4: own award cells
            if self.award[p][row] is None:
                self.award[p][row] = X
            if self.col[p][k] is None:
                self.col[p][k] = X
            if row in SCHOOL_ROWS and o["school_cross_penalty"] != "none":   # §4.5
                self.award[p] = {r: (X if v is not None else None) for r, v in self.award[p].items()}
                self.col[p] = [X if v is not None else None for v in self.col[p]]
                if o["school_cross_penalty"] == "forfeit_all_awards":
                    self.eligible[p] = False
                    self.award[p] = {r: X for r in ROWS}
                    self.col[p] = [X] * 3
            return
        line = self.cells[p][row]
        if None not in line and X not in line:                       # §4.3 row award
            if self.eligible[p] and self.award[p][row] is None:
                v3 = line[2] // (2 if self.doubled[p][row][2] and not o["award_copies_doubling"] else 1)
                self.award[p][row] = v3
                self.block_row(p, row)
            elif not self.eligible[p] and o["ineligible_player_blocks_award"]:
                self.block_row(p, row)
        column = [self.cells[p][r][k] for r in ROWS]
        if None not in column and X not in column:                   # §4.4 column award
            if self.eligible[p] and self.col[p][k] is None:
                self.col[p][k] = o["column_award_value"]
                self.block_col(p, k)
            elif not self.eligible[p] and o["ineligible_player_blocks_award"]:
                self.block_col(p, k)

    def block_row(self, p: int, row: str) -> None:
        for q in range(self.n):
            if q == p:
                continue
            if self.award[q][row] is None:
                self.award[q][row] = X
            if self.o["award_block_scope"] == "row_cells_too":
                for k in range(3):
                    if self.cells[q][row][k] is None:
                        self.cells[q][row][k] = X                   # not the player's own cross:
                        if self.col[q][k] is None:                  # no School penalty
                            self.col[q][k] = X

    def block_col(self, p: int, k: int) -> None:
        for q in range(self.n):
            if q != p and self.col[q][k] is None:
                self.col[q][k] = X

    # ------------------------------------------------------------------------- the table
    def full(self, p: int) -> bool:
        return all(None not in line for line in self.cells[p].values())

    def next_seat(self, p: int) -> int | None:
        """Clockwise, skipping full sheets; None when every sheet is full."""
        return next((q for q in ((p + i) % self.n for i in range(1, self.n + 1)) if not self.full(q)), None)

    def total(self, p: int) -> int:
        cells = sum(v for line in self.cells[p].values() for v in line if v not in (None, X))
        awards = sum(v for v in list(self.award[p].values()) + self.col[p] if v not in (None, X))
        reserve = sum(f * self.res[p][f] for f in range(1, 7)) if self.o["unused_reserve_at_end"] == "scored" else 0
        return cells + awards + reserve


def engine_view(state, p: int) -> tuple:
    """The engine's sheet of player p in the model's terms."""
    s = state.sheets[p]
    conv = (lambda v: X if v == CROSS else v)
    cells = {r: [conv(v) for v in s.cells[i * 3:i * 3 + 3]] for i, r in enumerate(ROWS)}
    return (cells, {r: conv(s.awards[i]) for i, r in enumerate(ROWS)}, [conv(v) for v in s.col_awards],
            list(s.reserve), s.eligible)


def model_view(m: Model, p: int) -> tuple:
    return m.cells[p], m.award[p], m.col[p], m.res[p][1:], m.eligible[p]


def key_universe(any_col: bool) -> list[str]:
    """Every well-formed option key of the game, legal or not."""
    cols = [f"_C{k}" for k in (1, 2, 3)] if any_col else [""]
    keys = []
    for row, col in itertools.product(ROWS, cols):
        keys += [row + col, "X_" + row + col]
        if row in SCHOOL_ROWS:
            keys += [f"{row}{col}_BANK{b}" for b in (1, 2)]
    return keys


OPTION_SPACE = st.fixed_dictionaries({**OPTION_VALUES, "column_award_value": st.sampled_from([0, 60, 75])})


def biased_dice(rng: random.Random, count: int) -> list[int]:
    """Dice that often repeat a face (so that School, reserve and awards happen), sometimes at random."""
    if rng.random() < 0.5:
        face = rng.randint(1, 6)
        return [face if rng.random() < 0.6 else rng.randint(1, 6) for _ in range(count)]
    return [rng.randint(1, 6) for _ in range(count)]


def check_decision(state, model: Model, p: int, throw: int, rng: random.Random) -> dict:
    """The engine's options are the model's; keys the model allows are taken, every key it forbids
    is refused, the state unchanged."""
    exp = state.expects()
    assert isinstance(exp, Decide) and exp.player == p
    legal = model.legal(p, list(state.dice), throw)
    assert {o.key: o.points for o in exp.options} == {k: v[0] for k, v in legal.items()}
    assert (exp.reroll is None) == (throw == 3)                     # at most 3 throws
    before = state.snapshot()
    illegal = [k for k in key_universe(model.o["row_fill_order"] == "any_free_column") if k not in legal]
    for key in rng.sample(illegal, min(4, len(illegal))):
        try:
            state.apply(choose_input(p, key))
        except IllegalInput:
            pass
        else:
            raise AssertionError(f"{key} was accepted; the spec forbids it")
    for key in rng.sample(sorted(legal), min(4, len(legal))):
        state.apply(choose_input(p, key))                           # never refused
    assert state.snapshot() == before
    return legal


def play_one_game(n: int, options: dict, seed: int) -> None:
    rng = random.Random(seed)
    state = new_game("school", ["A", "B", "C", "D", "E", "F"][:n], options)
    model = Model(n, options)
    seat = 0
    turns = [0] * n
    while seat is not None:
        p = state.expects().player
        assert p == seat
        exp = state.expects()
        assert isinstance(exp, Throw) and exp.count == 5 and exp.held == ()
        state = state.apply(dice_input(p, biased_dice(rng, 5)))
        throw = 1
        while True:
            legal = check_decision(state, model, p, throw, rng)
            if throw < 3 and rng.random() < 0.45:                   # hold some, throw the rest
                keep = list(state.dice)
                rng.shuffle(keep)
                keep = keep[:rng.randint(0, 4)]
                state = state.apply(reroll_input(p, keep))
                exp = state.expects()
                assert isinstance(exp, Throw) and exp.count == 5 - len(keep)
                assert sorted(exp.held) == sorted(keep)
                state = state.apply(dice_input(p, biased_dice(rng, exp.count)))
                throw += 1
                continue
            scoring = [k for k in legal if not k.startswith("X_")]
            key = rng.choice(scoring if scoring and rng.random() < 0.85 else list(legal))
            state = state.apply(choose_input(p, key))
            model.write(p, legal[key], key.startswith("X_"))
            turns[p] += 1
            break
        for q in range(n):
            assert engine_view(state, q) == model_view(model, q), f"player {q} after {key}"
            assert state.total(q) == model.total(q)
        seat = model.next_seat(p)
        assert state.is_over == (seat is None)
    assert list(state.result().scores) == [model.total(q) for q in range(n)]
    best = max(model.total(q) for q in range(n))
    assert set(state.result().winners) == {q for q in range(n) if model.total(q) == best}   # ties shared
    if options["award_block_scope"] == "award_cell_only":
        assert turns == [45] * n                                   # 45 entries each, one a turn


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 6), options=OPTION_SPACE)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_engine_plays_as_the_reference_model(seed, n, options):
    play_one_game(n, options, seed)


def test_reference_figures_agree_on_every_throw():
    """§3 on all 252 throws under the four combinations of the two figure options (exhaustive)."""
    for dice in itertools.combinations_with_replacement(range(1, 7), 5):
        for same_face, poker_full in itertools.product((False, True), repeat=2):
            assert figure_scores(dice, same_face, poker_full) == spec_figures(dice, same_face, poker_full), dice
