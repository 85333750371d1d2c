"""The reader of typed text (:func:`town.reading.read_fact`): what it takes as an open invitation."""

from datetime import datetime

import pytest

from town.reading import read_fact

PLACES = {"hobbs cafe": "v:Hobbs Cafe"}
NAMES = ["Isabella Rodriguez", "Tom Moreno"]
MONDAY = datetime(2023, 2, 13, 8)


@pytest.mark.parametrize("tail, open_", [
    ("and I want to invite everyone.", True),   # the seeded party's own words
    ("anyone can come.", True),
    ("everyone is welcome.", True),
    ("it is open to all.", True),
    ("and I will invite all of my friends.", False),  # named guests, not everyone
    ("and I will invite my sister.", False),
    ("everyone knows the cafe.", False),
])
def test_an_open_invitation_is_read_in_its_usual_words_and_only_those(tail, open_):
    """Each sentence, read by hand: only the ones inviting everyone are open invitations."""
    fact = read_fact(f"I am planning a quiz at Hobbs Cafe tomorrow from 5pm to 7pm, {tail}", MONDAY, PLACES, NAMES,
                     "Isabella Rodriguez")
    assert fact is not None and fact.place == "v:Hobbs Cafe" and fact.start == datetime(2023, 2, 14, 17)
    assert fact.open_invitation is open_
