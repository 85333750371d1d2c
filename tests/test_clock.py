"""town.clock.clock_text: minutes since midnight as a time of day."""

from __future__ import annotations

import pytest

from town.clock import clock_text


@pytest.mark.parametrize(("minutes", "text"), [(0, "00:00"), (7 * 60 + 5, "07:05"), (23 * 60 + 59, "23:59"),
                                               (24 * 60, "24:00")])
def test_clock_text(minutes, text):
    """Two digits each; 1440 minutes is the day's end, 24:00."""
    assert clock_text(minutes) == text
