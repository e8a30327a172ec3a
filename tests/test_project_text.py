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


# A document named in a file: ``hand-log.md``, ``docs/operations.md``, ``(refusals.md)``.
CITES_A_DOCUMENT = re.compile(r"(?<![\w/.-])((?:\.\./)*[\w./-]*?[\w-]+\.md)\b")


def test_no_file_cites_a_document_the_repository_does_not_hold() -> None:
    """A page, comment or docstring that sends the reader to a document sends him to one the
    repository holds: by its path from the root or from the citing file, or, named alone
    (``hand-log.md §3``), by its name."""
    files = _files()
    names = {path.name for path in files if path.suffix == ".md"}
    missing = []
    for path in files:
        if path.name == "test_project_text.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for cited in CITES_A_DOCUMENT.findall(line):
                held = (
                    (ROOT / cited).is_file()
                    or (path.parent / cited).is_file()
                    or ("/" not in cited and cited in names)
                )
                if not held:
                    missing.append(f"{path.relative_to(ROOT)}:{number}: {cited}")
    assert missing == []


def test_the_hand_log_page_names_every_refusal_and_discrepancy() -> None:
    """docs/hand-log.md, for the people who produce logs: every refusal a log may meet at
    reception, every discrepancy of the replay and of the comparison with its séance."""
    from casino_ops.refusal_table import raised_in
    from casino_ops.refusals import Refusal
    from tables.blackjack.rules import DISCREPANCY_CODES

    page = (ROOT / "docs" / "hand-log.md").read_text(encoding="utf-8")
    sources = ("tables.rules.logs", "tables.rules.uploads", "tables.services.hand_logs")
    where = raised_in()
    raised = {r.code for r in Refusal if where.get(r.name, frozenset()) & set(sources)}
    for source in sources:
        text = (ROOT / (source.replace(".", "/") + ".py")).read_text(encoding="utf-8")
        raised |= set(re.findall(r'"code": "([A-Z_]+)"', text))
    raised -= {"EXPLANATION_REQUIRED"}  # the director's, when he takes note (not the producer's)
    raised |= {"SESSION_WITHOUT_DECKS", "DAY_CLOSED", "ROLE_REQUIRED", "TOKEN_NOT_ALLOWED"}
    assert {"HAND_LOG_REJECTED", "HAND_LOG_TABLE", "SHOE_UNKNOWN"} <= raised
    absent = sorted(code for code in raised | set(DISCREPANCY_CODES) if f"`{code}`" not in page)
    assert absent == []
