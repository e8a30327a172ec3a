"""The tests' shared support is one package, ``tests/support/``, read on the source's syntax tree:
no test module imports a name from another test module (anything under ``tests/`` but
``tests/support/`` and the ``conftest.py`` files), and none defines again a helper the package
offers under the same name (a leading underscore aside: ``_free_port`` is ``free_port``)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
SUPPORT = TESTS / "support"
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _test_modules() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if SUPPORT not in p.parents)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_modules(path: Path, tree: ast.Module) -> list[tuple[int, str]]:
    """Every module ``path`` imports (``from x import y``: ``x`` and ``x.y``, either may be a
    module), relative imports made absolute."""
    package = _module_name(path).rsplit(".", 1)[0] if path.name != "__init__.py" else _module_name(path)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[: len(parent) - (node.level - 1)]
                base = ".".join([*parent, base] if base else parent)
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def _is_test_module(name: str) -> bool:
    """A module of the tests that is neither the support package nor a conftest."""
    path = ROOT.joinpath(*name.split("."))
    if not (path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()):
        return False  # a package's name, or a name inside a module
    if path.is_dir():
        return False  # a package's __init__ holds nothing to share
    parts = name.split(".")
    return parts[0] == "tests" and parts[1:2] != ["support"] and parts[-1] != "conftest"


def _is_fixture(node: ast.AST) -> bool:
    """Decorated with ``pytest.fixture`` (called or not)."""
    for decorator in getattr(node, "decorator_list", []):
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Attribute) and target.attr == "fixture":
            return True
    return False


def _offered() -> dict[str, tuple[str, bool]]:
    """The helpers ``tests/support`` offers, by name (leading underscores dropped): every
    public function and class its modules define, with its module and whether it is a fixture."""
    offered: dict[str, tuple[str, bool]] = {}
    for path in sorted(SUPPORT.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, DEFINITIONS) and not node.name.startswith("_"):
                offered[node.name] = (_module_name(path), _is_fixture(node))
    return offered


def _defined_again(path: Path, node: ast.AST, offered: dict[str, tuple[str, bool]]) -> str | None:
    """Whether ``node`` (a definition at the top of ``path``) defines again what the support
    package offers. Two idioms of pytest are not: a fixture that extends the one it overrides
    (it asks for it by its own name), and a conftest's fixture made with the builder of the
    same name (``sent_order``: the order the builder sends, for every test of the folder)."""
    assert isinstance(node, DEFINITIONS)
    name = node.name.lstrip("_")
    if name not in offered:
        return None
    module, offered_fixture = offered[name]
    fixture = _is_fixture(node)
    if fixture and isinstance(node, ast.FunctionDef) and node.name in {a.arg for a in node.args.args}:
        return None
    if fixture and path.name == "conftest.py" and not offered_fixture:
        return None
    return f"{path.relative_to(ROOT)}:{node.lineno} {node.name} (tests.support: {module})"


def _app_of_the_tests(name: str) -> str | None:
    """The app the tests install (``tests/recipe_example``: a package with its migrations) that
    module ``name`` belongs to, if any: its modules (model, rules, service) import each other as
    any app's do."""
    parts = name.split(".")
    if len(parts) > 2 and parts[0] == "tests" and (TESTS / parts[1] / "migrations").is_dir():
        return ".".join(parts[:2])
    return None


def test_no_test_module_imports_from_another() -> None:
    wrong = []
    for path in _test_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        app = _app_of_the_tests(_module_name(path))
        for line, name in _imported_modules(path, tree):
            if app is not None and _app_of_the_tests(name) == app and not path.name.startswith("test_"):
                continue  # the app's own modules, not a test module importing another
            if _is_test_module(name) and name != _module_name(path):
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    assert not wrong, "move what two test modules share to tests/support/:\n" + "\n".join(sorted(set(wrong)))


def test_no_test_module_defines_again_a_helper_of_the_support_package() -> None:
    offered = _offered()
    assert {"assert_refused", "signed_in", "users", "make_user"} <= set(offered)
    wrong = []
    for path in _test_modules():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, DEFINITIONS) and (found := _defined_again(path, node, offered)):
                wrong.append(found)
    assert not wrong, "use the support package's helper:\n" + "\n".join(wrong)


def test_the_check_tells_a_helper_defined_again_from_a_fixture_extended() -> None:
    offered = {"signed_in": ("tests.support.clients", False), "samples": ("tests.support.samples", True)}
    here = TESTS / "inspection" / "portal" / "test_example.py"
    tree = ast.parse(
        "def _signed_in(user): ...\n"
        "@pytest.fixture\ndef samples(samples, settings): ...\n"
        "@pytest.fixture\ndef signed_in(users): ...\n"
    )
    found = [_defined_again(here, node, offered) for node in tree.body]
    assert found == [
        "tests/inspection/portal/test_example.py:1 _signed_in (tests.support: tests.support.clients)",
        None,
        "tests/inspection/portal/test_example.py:5 signed_in (tests.support: tests.support.clients)",
    ]
    in_conftest = _defined_again(TESTS / "portal" / "conftest.py", tree.body[2], offered)
    assert in_conftest is None  # the fixture made with the builder of its name


def test_the_check_finds_an_import_from_another_test_module() -> None:
    """The walk itself: a relative import of a test module is found, one of the support package
    or of a conftest is not."""
    here = TESTS / "inspection" / "portal" / "test_example.py"
    tree = ast.parse(
        "from .test_browser import chromium\nfrom .conftest import clients\nfrom tests.support import builders\n"
    )
    names = [name for _line, name in _imported_modules(here, tree) if _is_test_module(name)]
    assert names == ["tests.inspection.portal.test_browser"]
