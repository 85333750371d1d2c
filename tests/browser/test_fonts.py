"""Glyphs the fonts lack: a persona's emoji or CJK name that no installed font draws is shown as
initials (or the id as words), never as empty boxes.

What the fonts draw is asked of fontconfig (`fc-list :charset=HEX`), which is where chromium on
Linux finds its fallback fonts; the page itself detects it by drawing on a canvas.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(shutil.which("fc-list") is None, reason="fc-list (fontconfig) is the oracle")]

KLAUS_EMOJI = "📚"
MARIA_NAME = "玛丽亚"  # Maria in Chinese


def fonts_draw(text: str) -> bool:
    """Whether some installed font has a glyph for every character of ``text`` (fontconfig)."""
    for ch in text:
        found = subprocess.run(["fc-list", f":charset={ord(ch):x}", "family"], capture_output=True,
                               text=True, timeout=30, check=True).stdout
        if not found.strip():
            return False
    return True


@pytest.fixture
def cjk_town(town_copy):
    """the_ville with Maria named in Chinese characters."""
    folder = town_copy()
    path = folder / "maria_lopez.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("name: Maria Lopez", f"name: {MARIA_NAME}", 1),
                    encoding="utf-8")
    return folder


def test_missing_glyphs_fall_back_to_initials(live_town, cjk_town, page, artifacts):
    """Residents list and persona panel: emoji and names the fonts lack become initials and the id."""
    town = live_town(cjk_town, paused=True)
    page.goto(town.url)
    page.wait_for_selector("#persona-item-maria_lopez")
    klaus_dot = page.text_content("#persona-item-klaus_mueller .dot")
    maria_name = page.text_content("#persona-item-maria_lopez b")
    maria_dot = page.text_content("#persona-item-maria_lopez .dot")
    # this machine's fonts decide which: both outcomes are worked out from fontconfig, not the page
    assert klaus_dot == (KLAUS_EMOJI if fonts_draw(KLAUS_EMOJI) else "KM")
    assert maria_name == (MARIA_NAME if fonts_draw(MARIA_NAME) else "Maria Lopez")
    assert maria_dot == ("🎮" if fonts_draw("🎮") else "ML")
    page.click("#persona-item-maria_lopez")
    page.wait_for_selector("#persona-name")
    assert page.text_content("#persona-name") == maria_name
    assert page.text_content(".who-emoji") == maria_dot
    page.screenshot(path=str(artifacts / "fonts_fallback.png"))
    assert page.errors == []


def test_glyphs_the_fonts_have_are_kept(live_town, page):
    """Latin names stay as they are; the page's own check agrees with fontconfig on each sample."""
    town = live_town(paused=True)
    page.goto(town.url)
    page.wait_for_selector("#persona-item-klaus_mueller")
    assert page.text_content("#persona-item-klaus_mueller b") == "Klaus Mueller"
    samples = ["é", "ß", KLAUS_EMOJI, MARIA_NAME, "\U0001F3AE"]
    got = page.evaluate("async (xs) => { const m = await import('/static/js/dom.js');"
                        " return xs.map((x) => m.canDraw(x)); }", samples)
    assert got == [fonts_draw(s) for s in samples]
