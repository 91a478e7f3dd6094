"""HINT cards at a real table: the card tells the rules the game on the table is played under.

A card that tells other rules than those in force is worse than none: the players trust the
table's word over their memory of the box.
"""
from __future__ import annotations

from controller.config import parse_config
from test_between_games import Evening, _left_alone, _throw


def test_hint_on_take_up_row_tells_the_put_away_games_own_rules(tmp_path):
    """Ann and Bob's 2-player Objective cards (two cards a round: the café's house rule that
    evening) was put away by *Still playing?*. The staff then took the variant out of the config
    and restarted. The games page offers *Take up Objective cards*; HINT on that row told the
    config's rules (one card a round), while OK takes the game up under its own (two a round)."""
    evening = Evening(tmp_path, 'idle_minutes = 30\nplayers = ["Ann", "Bob"]\ngame = "objective-cards"\n'
                                '[table.options.objective-cards]\ntwo_player_strategic_variant = true\n')
    evening.press("OK")
    evening.hold()                                          # Objective cards, Ann and Bob, 2 cards a round
    assert evening.app.flow.state.per_round == 2
    _throw(evening, [1, 2, 3, 4, 6])
    _left_alone(evening)

    evening.config = parse_config(f'[table]\njournal_dir = "{tmp_path}"\nplayers = ["Ann", "Bob"]\n'
                                  'game = "objective-cards"\n')
    evening.power_on()                                      # the staff's new config: no variant
    evening.down_to("Take up Objective cards")
    evening.press("HINT")
    card = evening.menu.view().help
    assert card is not None and card.title == "How to play Objective cards"
    text = " ".join(card.paragraphs)
    assert "two of their unplayed cards" in text, text
    assert "one of their unplayed cards" not in text

    evening.press("HINT")                                   # (turned or closed: any other button closes it)
    evening.press("DOWN", "UP")
    evening.down_to("Objective cards")                      # the game itself: the config's rules, one card
    evening.press("HINT")
    assert "one of their unplayed cards" in " ".join(evening.menu.view().help.paragraphs)
