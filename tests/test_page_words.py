"""The browser page's own words (static/words.js): every key once per language, in both languages."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

WORDS = Path(__file__).parent.parent / "src" / "osteria" / "server" / "static" / "words.js"


def keys_by_language(text: str) -> dict[str, list[str]]:
    """The keys of each language's block of UI, in their order (a key written twice listed twice)."""
    found: dict[str, list[str]] = {}
    language = None
    for line in text.splitlines():
        if opened := re.match(r"^  (\w+): \{$", line):
            language = opened.group(1)
            found[language] = []
        elif line == "  },":
            language = None
        elif language is not None and (key := re.match(r"^    (\w+):", line)):
            found[language].append(key.group(1))
    return found


def test_every_word_once_in_italian_and_in_english() -> None:
    keys = keys_by_language(WORDS.read_text(encoding="utf-8"))
    assert set(keys) == {"it", "en"}
    for language, listed in keys.items():
        assert [k for k, n in Counter(listed).items() if n > 1] == [], f"{language}: a key written twice"
    assert set(keys["it"]) == set(keys["en"])
