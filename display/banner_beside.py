"""Where a banner goes on the play screen when the lower left cannot hold it and the prompt.

At 320x240 the lower left under a three-line banner (a die in the lamp's glare: *Die 4 is in
the lamp's glare: check it, then OK.*) left the reading's prompt 58 px: it showed *Is this
right? Ch...* and one line of its hint, never *OK accepts · hold OK to correct · BACK to throw
again*: the players were never told what to press. Without the banner the prompt shows whole
there (it may take 2/5 of the tray's height, as a correction's does). The sheet's column is
2.5 times wider: the banner takes two lines at its top, the sheet shows the rows that fit
(a dotted line where it leaves rows off), as the final screen's messages do beside the standings.
"""
from __future__ import annotations

SHEET_SHARE = 1 / 3     # the most of the sheet's column a banner moved there may take


def banner_over_sheet(prompt_whole_alone: bool, banner_h_over_sheet: int, sheet_h: int) -> bool:
    """Whether the banner goes at the top of the sheet's column rather than over a prompt cut
    under it (one with no menu: a reading to check, a correction): where the prompt is whole
    without it and the banner takes no more than `SHEET_SHARE` of the sheet's column
    (`banner_h_over_sheet` high there, of `sheet_h`)."""
    return prompt_whole_alone and banner_h_over_sheet <= sheet_h * SHEET_SHARE
