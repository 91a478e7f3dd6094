"""The table's phases (not the game's), and when a die counts as read: what the table flow
(controller/table.py) and the screen it hands to display (controller/table_screen.py) both go by.
"""
from __future__ import annotations

WAIT_DICE = "wait_dice"      # the game expects dice: waiting for a final reading that fits
CONFIRM = "confirm"          # a fitting reading is shown for a moment before it is applied
CORRECT = "correct"          # players are correcting a misread die with the buttons
DECIDE = "decide"            # the game expects a decision: menu and holds
OVER = "over"

# A die read at least this sure (0.5 included) is taken; below, it is asked for as unread (and
# outlined on the screen as doubtful).
MIN_CONFIDENCE = 0.5
