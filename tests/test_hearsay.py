"""town.hearsay: the words a heard line leaves in memory, and reading them back."""

from __future__ import annotations

from town.hearsay import HEARD, told, unwrap


def test_a_retold_line_unwraps_to_its_tellers_and_statement():
    """Two retellings: the tellers outermost first, then the original words."""
    text = told("Klaus Mueller", told("Isabella Rodriguez", "The party is on Friday at 5pm."))
    assert text == 'Klaus Mueller told me: "Isabella Rodriguez told me: "The party is on Friday at 5pm.""'
    assert unwrap(text) == (["Klaus Mueller", "Isabella Rodriguez"], "The party is on Friday at 5pm.")


def test_own_words_are_heard_from_nobody():
    """A memory in the persona's own words (even one quoting someone) has no teller."""
    assert unwrap('I said "hello" to Maria.') == ([], 'I said "hello" to Maria.')
    assert HEARD.match("Maria told me about a book.") is None


def test_a_statement_may_span_lines_and_hold_quotes():
    """The statement is everything between the first '"' after 'told me:' and the last '"'."""
    m = HEARD.match('Ada told me: "line one\nshe said "hi" twice"')
    assert (m.group("speaker"), m.group("statement")) == ("Ada", 'line one\nshe said "hi" twice')
