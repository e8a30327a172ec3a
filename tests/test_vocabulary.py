"""One word per thing (docs/glossary.md): no banned synonym in the French texts of the product,
the catalogue's msgids, the templates, the code's strings and the docs."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.conf import settings

from tests.support.catalogue import PO, read_po

ROOT = Path(settings.BASE_DIR)
GLOSSARY = ROOT / "docs" / "glossary.md"
APPS = ("audit", "cards_registry", "casino_ops", "house_books", "inspection", "tables", "templates")


def glossary() -> list[tuple[str, str, list[str]]]:
    """(French word, English word, banned French synonyms) of each row of the glossary's table."""
    rows = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("thing", "---") or set(cells[0]) <= {"-"}:
            continue
        rows.append((cells[1], cells[2], [w.strip() for w in cells[3].split(",") if w.strip()]))
    return rows


def banned() -> re.Pattern[str]:
    words = [w for _, _, synonyms in glossary() for w in synonyms]
    return re.compile(r"(?<![\w-])(" + "|".join(re.escape(w) for w in words) + r")(?![\w-])", re.I)


def _code_strings(path: Path) -> list[str]:
    return [
        node.value
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def french_texts() -> list[tuple[str, str]]:
    """(where, text) of every French text of the product."""
    texts = [(f"django.po: {e['msgid'][:40]}", e["msgid"]) for e in read_po(PO)]
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*")):
            where = str(path.relative_to(ROOT))
            if path.suffix == ".html":
                texts.append((where, path.read_text(encoding="utf-8")))
            elif path.suffix == ".py" and "migrations" not in path.parts:
                texts += [(where, s) for s in _code_strings(path)]
    for path in sorted((ROOT / "docs").glob("*.md")):
        if path != GLOSSARY:
            texts.append((str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")))
    texts.append(("README.md", (ROOT / "README.md").read_text(encoding="utf-8")))
    return texts


def test_the_glossary_names_the_chosen_words_and_their_banned_synonyms() -> None:
    words = {french: (english, synonyms) for french, english, synonyms in glossary()}
    assert words["manche"] == ("round", ["donne", "donnes"])
    assert words["journal de mains"][0] == "hand log"
    assert "journal de donnes" in words["journal de mains"][1]


def test_no_banned_synonym_in_the_french_texts() -> None:
    pattern = banned()
    found = [(where, m.group(0)) for where, text in french_texts() for m in pattern.finditer(text)]
    assert found == [], f"banned synonyms (docs/glossary.md says which word to use): {found[:20]}"


def test_the_check_finds_a_banned_synonym() -> None:
    pattern = banned()
    assert pattern.search("Erreurs de donne par table")
    assert pattern.search("le rejeu d'un Journal de donnes")
    assert not pattern.search("les données du journal de mains")  # another word
