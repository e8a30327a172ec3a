"""Django's private API is touched in one module only: ``casino_ops/django_internals.py``.

Read on the source's syntax tree, in every Python file of the project (its tests and
benches included, its migrations left out: Django writes them). A use is:

- an attribute whose name begins with ``_`` and that Django's source names
  (``connection._nodb_cursor``, ``queryset._result_cache``), or ``__dict__``, read or written
  on anything reached from a name imported from ``django`` (a name assigned from such a
  value, or bound by ``with … as``, is followed within its module);
- one of Django's internals without an underscore (``INTERNALS``: ``run_on_commit``, the
  SQL compiler's steps);
- an attribute of a class imported from ``django`` assigned to (Django patched:
  ``DatabaseOperations.sql_flush = …``);
- ``getattr``, ``hasattr``, ``setattr`` or ``delattr`` of an underscored name that Django's
  source names, on anything (``getattr(request, "_body", None)``);
- a name beginning with ``_`` imported from ``django`` (outside ``if TYPE_CHECKING:``, where
  the stubs' own names are), or a name its stubs do not know (``debug_transaction``);
- in a class deriving from a Django class, ``self._x`` or ``super()._x`` where ``_x`` is
  Django's own (found in the source of the Django classes it derives from), or a method
  ``_x`` overriding Django's.

Django documents a few names with an underscore, which are not private: ``Model._meta``,
``Model._default_manager``, ``Model._base_manager``, ``Model._state`` (its ``adding``
and ``db``) and a manager's ``_db`` (the custom managers' guide).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ADAPTER = ROOT / "casino_ops" / "django_internals.py"
SKIP_DIRS = {"migrations", ".venv", "node_modules", ".git", "test-output"}
#: Underscored, yet documented by Django (the model's reference).
DOCUMENTED = {"_meta", "_default_manager", "_base_manager", "_state", "_db"}
#: Names of django modules imported although the stubs leave them out.
NOT_IN_STUBS = {("django.db.backends.utils", "debug_transaction")}
#: Django's internals without an underscore (the transaction's on-commit list, the SQL
#: compiler's steps, the wrapper of the driver's errors), on a Django value or in a class
#: deriving from Django's.
INTERNALS = {
    "run_on_commit",
    "savepoint_ids",
    "add_update_values",
    "clear_select_clause",
    "related_updates",
    "get_compiler",
    "wrap_database_errors",
}
#: What Django calls ``self``'s in a method: the receiver names followed in a subclass.
RECEIVERS = {"self", "cls"}


def sources() -> list[Path]:
    return sorted(
        path
        for path in ROOT.rglob("*.py")
        if not SKIP_DIRS.intersection(path.relative_to(ROOT).parts) and path != ADAPTER
    )


def _root(node: ast.AST) -> ast.AST:
    """The name (or ``super()``) an attribute chain, subscript or call starts from."""
    while True:
        if isinstance(node, ast.Attribute | ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id == "super"):
            node = node.func
        else:
            return node


def _private(name: str) -> bool:
    if name == "__dict__":
        return True
    return name.startswith("_") and not name.startswith("__") and name not in DOCUMENTED


@cache
def _all_django_names() -> frozenset[str]:
    """Every underscored name in Django's source: an underscored attribute of a Django value
    that Django never names is the project's own (its backend's held writes)."""
    import django

    names: set[str] = set()
    for path in Path(django.__file__).parent.rglob("*.py"):
        names.update(
            re.findall(r"\b(_[a-z][A-Za-z0-9_]*)\b", path.read_text(encoding="utf-8", errors="replace"))
        )
    return frozenset(names)


@cache
def _django_source_names(qualname: str) -> frozenset[str]:
    """The underscored names the source of a Django class (and of its Django bases) uses."""
    module_name, _, class_name = qualname.rpartition(".")
    try:
        klass = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError):
        return frozenset()
    names: set[str] = set()
    for base in inspect.getmro(klass):
        if not base.__module__.startswith("django."):
            continue
        try:
            text = inspect.getsource(base)
        except (OSError, TypeError):
            continue
        names.update(re.findall(r"\b(_[a-z][A-Za-z0-9_]*)\b", text))
    return frozenset(names)


def _bindings(node: ast.AST) -> list[tuple[ast.AST, ast.AST]]:
    """``(target, value)`` of an assignment or a ``with … as``."""
    if isinstance(node, ast.Assign):
        return [(target, node.value) for target in node.targets]
    if isinstance(node, ast.AnnAssign | ast.NamedExpr) and node.value is not None:
        return [(node.target, node.value)]
    if isinstance(node, ast.withitem) and node.optional_vars is not None:
        return [(node.optional_vars, node.context_expr)]
    return []


class Finder(ast.NodeVisitor):
    def __init__(self, tree: ast.Module) -> None:
        self.found: list[tuple[int, str]] = []
        self.django: dict[str, str] = {}  # name -> what it is in django (dotted)
        self.class_django: list[frozenset[str]] = []
        self._imports(tree)
        self.tainted = set(self.django)
        grown = True
        while grown:  # names bound from a Django value are Django values
            grown = False
            for node in ast.walk(tree):
                for target, value in _bindings(node):
                    root = _root(value)
                    if (
                        isinstance(target, ast.Name)
                        and isinstance(root, ast.Name)
                        and root.id in self.tainted
                        and target.id not in self.tainted
                    ):
                        self.tainted.add(target.id)
                        grown = True

    def _imports(self, tree: ast.Module) -> None:
        typing_only = {
            id(inner)
            for node in ast.walk(tree)
            if isinstance(node, ast.If)
            and ast.unparse(node.test) in {"TYPE_CHECKING", "typing.TYPE_CHECKING"}
            for inner in ast.walk(node)
        }
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue  # the stubs' names, for the type checker only
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "django":
                        bound = alias.asname or alias.name.split(".")[0]
                        self.django[bound] = alias.name if alias.asname else "django"
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "django":
                for alias in node.names:
                    self.django[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                    if alias.name.startswith("_") or (node.module, alias.name) in NOT_IN_STUBS:
                        self.found.append((node.lineno, f"imports {node.module}.{alias.name}"))

    def _django_base(self, node: ast.ClassDef) -> frozenset[str]:
        names: set[str] = set()
        for base in node.bases:
            base = base.value if isinstance(base, ast.Subscript) else base
            dotted = ast.unparse(base)
            head, _, rest = dotted.partition(".")
            if head in self.django:
                qualname = self.django[head] + ("." + rest if rest else "")
                names |= _django_source_names(qualname)
        return frozenset(names)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        django_names = self._django_base(node)
        own = {
            item.name
            for item in node.body
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name not in django_names
        }
        if django_names:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and _private(item.name) and item.name in django_names:
                    self.found.append((item.lineno, f"overrides Django's {item.name}"))
        self.class_django.append(django_names - own)
        self.generic_visit(node)
        self.class_django.pop()

    def visit_Call(self, node: ast.Call) -> None:
        if (
            isinstance(node.func, ast.Name)
            and node.func.id in {"getattr", "hasattr", "setattr", "delattr"}
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(name := node.args[1].value, str)
            and _private(name)
            and name in _all_django_names()
        ):
            self.found.append((node.lineno, ast.unparse(node)))
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        root = _root(node.value)
        django_value = isinstance(root, ast.Name) and root.id in self.tainted
        if (
            isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id in self.django
            and node.value.id[:1].isupper()
            and not _private(node.attr)
        ):
            self.found.append((node.lineno, f"assigns Django's {ast.unparse(node)}"))
        elif node.attr in INTERNALS and (django_value or self.class_django):
            self.found.append((node.lineno, ast.unparse(node)))
        elif _private(node.attr):
            if django_value and (node.attr == "__dict__" or node.attr in _all_django_names()):
                self.found.append((node.lineno, ast.unparse(node)))
            elif self.class_django and node.attr in self.class_django[-1]:
                receiver = (isinstance(root, ast.Name) and root.id in RECEIVERS) or (
                    isinstance(root, ast.Call) and isinstance(root.func, ast.Name) and root.func.id == "super"
                )
                if receiver and node.value is root:
                    self.found.append((node.lineno, f"Django's own {ast.unparse(node)}"))
        self.generic_visit(node)


def uses(path: Path) -> list[str]:
    finder = Finder(tree := ast.parse(path.read_text(), str(path)))
    finder.visit(tree)
    where = path.relative_to(ROOT)
    return [f"{where}:{line}: {what}" for line, what in sorted(set(finder.found))]


def test_private_django_api_only_in_the_adapter() -> None:
    found = [use for path in sources() for use in uses(path)]
    assert not found, "Django's private API outside casino_ops/django_internals.py:\n" + "\n".join(found)


def _uses_of(text: str) -> list[str]:
    finder = Finder(tree := ast.parse(text))
    finder.visit(tree)
    return [what for _, what in sorted(set(finder.found))]


def test_the_finder_finds_each_kind_of_use() -> None:
    """The finder itself, on one example of each kind (and of what it lets pass)."""
    assert _uses_of(
        "from django.db import connection, connections\n"
        "from django.db.backends.postgresql.operations import DatabaseOperations\n"
        "from django.db.backends.utils import debug_transaction\n"
        "with connection._nodb_cursor() as c: pass\n"
        "conn = connections['default']\n"
        "conn.__dict__.get('x')\n"
        "conn.run_on_commit\n"
        "conn._deferred\n"  # the project's own backend's
        "if TYPE_CHECKING:\n"
        "    from django.contrib.admin.options import _FieldGroups\n"
        "DatabaseOperations.sql_flush = None\n"
    ) == [
        "imports django.db.backends.utils.debug_transaction",
        "connection._nodb_cursor",
        "conn.__dict__",
        "conn.run_on_commit",
        "assigns Django's DatabaseOperations.sql_flush",
    ]
    assert _uses_of(
        "from django.db import models\n"
        "class Q(models.QuerySet):\n"
        "    def _mine(self): return self._mine\n"
        "    def update(self):\n"
        "        self._for_write = True\n"
        "        return self._result_cache, super()._fetch_all()\n"
        "    def _clone(self): pass\n"
    ) == [
        "Django's own self._for_write",
        "Django's own self._result_cache",
        "Django's own super()._fetch_all",
        "overrides Django's _clone",
    ]
    assert (
        _uses_of(
            "from django.db import models\n"
            "class M(models.Model):\n"
            "    def f(self): return self._meta, M._default_manager, M._base_manager, self._state.adding\n"
            "thing._private = 1\n"  # not a Django value
        )
        == []
    )
