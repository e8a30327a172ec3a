"""The project speaks of its rules, not of its tracker: no comment, docstring or page cites
an issue number where the rule or the article should be named."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
SKIP = {".venv", ".git", "test-output", "var", "node_modules", "__pycache__", "locale"}
CITES_AN_ISSUE = re.compile(r"\bissues?\s*#?\d+|\(#\d+\)", re.IGNORECASE)


def _files() -> list[pathlib.Path]:
    found = []
    for path in ROOT.rglob("*"):
        if path.suffix not in {".py", ".html", ".md", ".sh", ".txt", ".toml"} or not path.is_file():
            continue
        if SKIP.intersection(path.relative_to(ROOT).parts):
            continue
        found.append(path)
    return found


def test_no_file_cites_an_issue_number_instead_of_the_rule() -> None:
    files = _files()
    assert len(files) > 100
    offending = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in files
        if path.name != "test_project_text.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if CITES_AN_ISSUE.search(line)
    ]
    assert offending == []
