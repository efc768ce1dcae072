"""The package layers hold: imports point down, never in a cycle, also inside functions.

Every module of ``chesskit/`` is parsed with ``ast`` and each of its imports of another
chesskit module (at module level or inside a function) is checked against the layers:

    vocab, geometry, invariants, errors,
    timer, outpath, variants, glyphs, respell,
    words                                       the base: pure Python, no numba
    core                                        the numba-compiled core (no click, no rich)
    board                                       FEN, Board, perft/divide orchestration and threads
    gpu                                         --device gpu: the core's rules compiled with numba-cuda
    compare                                     descent, classification, state comparison, engines
    suites        cluster                       suites use compare; the cluster uses only the board
    fuzz                                        uses compare and the suites' positions
    report                                      SVG board, HTML report (from JSON data; the board only)
    explore                                     the explorer: its state (UI-free), REPL, Textual app
    api                                         the Python API: perft, divide, stats, Engine,
                                                compare, run_suite over the layers below
    cli           pytest_plugin                 click wiring and rendering, and the pytest
                                                plugin: may use everything below them

Rules with one owner are checked the same way: ``chesskit/board/fen.py`` is the one EPD
reader (a second one read ``perft kiwipete`` and ``suite`` differently, issue 25), so no
other module splits EPD operations (a loop that honours quotes around ``;``), spells
the opcode or id patterns, or reads the ``hmvc``/``fmvn`` clock operations. Board geometry
has owners too (issue 25): the start FEN is written only in ``chesskit/geometry.py`` and the
pieces' step tables only in ``chesskit/vocab.py``; and no function outside the compiled core
is longer than 80 lines. A module-level constant has one owner: no two modules define the
same name with the same value (``SUITE_HASH_MB``, the suites' table, was written in the API
and again in the CLI). A dialect's ``"about"`` description is left out of the JSON by
``chesskit/compare/engines/dialects.py``'s ``without_about`` alone (five modules each wrote
the comprehension). Textual is imported by ``chesskit/explore/app.py`` alone.

The checker is run on the real tree, and on doctored copies to show that it catches an
upward import, a cycle, a second EPD parser, a copied start FEN or step table, a copied
constant and a long function.
"""

from __future__ import annotations

import ast
import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import REPO

PACKAGE = REPO / "chesskit"

BASE = (
    "chesskit.vocab",
    "chesskit.geometry",
    "chesskit.invariants",
    "chesskit.errors",
    "chesskit.timer",
    "chesskit.outpath",
    "chesskit.variants",
    "chesskit.glyphs",
    "chesskit.typed",
    "chesskit.respell",
    "chesskit.words",
)
# what each layer may import (besides itself and the standard library)
ALLOWED = {
    "base": {"base"},
    "core": {"base", "core"},
    "board": {"base", "core", "board"},
    # the root package re-exports Board and the API lazily (its __getattr__)
    "root": {"base", "core", "board", "api"},
    "gpu": {"base", "core", "board", "gpu"},
    "compare": {"base", "core", "board", "compare"},
    "suites": {"base", "core", "board", "compare", "gpu", "suites"},
    "cluster": {"base", "core", "board", "root", "cluster"},
    "fuzz": {"base", "core", "board", "compare", "suites", "fuzz"},
    # the HTML report and the SVG board: drawn from the commands' JSON data, never their code
    "report": {"base", "core", "board", "report"},
    "explore": {"base", "core", "board", "compare", "suites", "explore"},
    # the API sits above the suites and the fuzzer (the cluster stays the CLI's)
    "api": {"base", "core", "board", "gpu", "compare", "suites", "fuzz", "api"},
    "cli": {
        "base", "core", "board", "root", "compare", "suites", "cluster", "fuzz", "gpu", "report", "explore", "api", "cli",
    },
    # the pytest plugin (an entry point): beside the CLI, whose rendering of a descent it shows
    "pytest_plugin": {"base", "root", "api", "cli", "pytest_plugin"},
}
FORBIDDEN_IN_CORE = ("click", "rich")
TEXTUAL_OWNER = "chesskit.explore.app"
EPD_OWNER = "chesskit.board.fen"
# the patterns an EPD reader needs: an opcode, the id operation (suites/formats.scan_id owns that one)
EPD_PATTERNS = {"[A-Za-z][A-Za-z0-9_+-]*": EPD_OWNER, 'id\\s+(?:"([^"]*)"|([^\\s;"]+))': "chesskit.suites.formats"}


def layer(module: str) -> str:
    if module in BASE:
        return "base"
    if module == "chesskit":
        return "root"
    if module == "chesskit.__main__":
        return "cli"
    part = module.split(".")[1]
    if part not in ALLOWED:
        raise AssertionError(f"{module} is in no layer: add it to tests/test_architecture.py")
    return part


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.lru_cache(maxsize=None)
def parse(text: str) -> ast.Module:
    """``ast.parse``, once per source text: the doctored copies repeat the real tree's
    modules, each read by several checks (issue 25: the test run's time). Callers only
    read the tree."""
    return ast.parse(text)


def module_names(root: Path) -> frozenset[str]:
    return frozenset(module_name(p, root) for p in root.rglob("*.py"))


def imports(path: Path, root: Path, modules: frozenset[str] | None = None) -> list[tuple[str, int, bool]]:
    """``(imported module, line, inside a function)`` for every import in ``path``;
    ``modules``: ``module_names(root)``, when the caller has it."""
    return list(_imports(path.read_text(), module_name(path, root), path.name == "__init__.py",
                         module_names(root) if modules is None else modules))


@functools.lru_cache(maxsize=None)
def _imports(text: str, name: str, is_package: bool, modules: frozenset[str]) -> tuple[tuple[str, int, bool], ...]:
    tree = parse(text)
    found = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            nested = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                found.extend((alias.name, child.lineno, in_function) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    package = name.split(".") if is_package else name.split(".")[:-1]
                    package = package[: len(package) - (child.level - 1)]
                    base = ".".join(package + ([child.module] if child.module else []))
                else:
                    base = child.module
                for alias in child.names:
                    target = f"{base}.{alias.name}"
                    found.append((target if target in modules else base, child.lineno, in_function))
            visit(child, nested)

    visit(tree, False)
    return tuple(found)


def import_graph(root: Path) -> dict[str, list[tuple[str, int, bool]]]:
    """chesskit module -> the chesskit modules it imports."""
    graph = {}
    modules = module_names(root)
    for path in sorted(root.rglob("*.py")):
        targets = [(t, line, f) for t, line, f in imports(path, root, modules) if t == "chesskit" or t.startswith("chesskit.")]
        graph[module_name(path, root)] = targets
    return graph


def layer_violations(graph) -> list[str]:
    bad = []
    for module, targets in graph.items():
        for target, line, in_function in targets:
            if layer(target) not in ALLOWED[layer(module)]:
                where = "in a function" if in_function else "at module level"
                bad.append(f"{module}:{line} ({layer(module)}) imports {target} ({layer(target)}) {where}")
    return bad


def cycles(graph) -> list[list[str]]:
    """The import cycles (each once, as a closed path), module level and functions alike."""
    edges = {m: sorted({t for t, _, _ in targets if t in graph and t != m}) for m, targets in graph.items()}
    found, state = [], {}

    def visit(module, stack):
        state[module] = "open"
        stack.append(module)
        for target in edges[module]:
            if state.get(target) == "open":
                found.append(stack[stack.index(target) :] + [target])
            elif target not in state:
                visit(target, stack)
        stack.pop()
        state[module] = "done"

    for module in sorted(edges):
        if module not in state:
            visit(module, [])
    return found


def third_party(root: Path, module_prefix: str) -> list[str]:
    """Top-level names of non-chesskit imports of the modules under ``module_prefix``."""
    names = []
    modules = module_names(root)
    for path in root.rglob("*.py"):
        if module_name(path, root).startswith(module_prefix):
            names += [t.split(".")[0] for t, _, _ in imports(path, root, modules) if not t.startswith("chesskit")]
    return names


# ---------------------------------------------------------------- the real tree


def test_every_module_is_in_a_layer_and_imports_only_downwards():
    graph = import_graph(PACKAGE)
    assert len(graph) > 50  # the whole package was read
    assert layer_violations(graph) == []


def test_no_import_cycles():
    assert cycles(import_graph(PACKAGE)) == []


def test_the_core_uses_no_cli_libraries():
    used = set(third_party(PACKAGE, "chesskit.core"))
    assert "numba" in used  # the scan sees the core's imports
    assert not used & set(FORBIDDEN_IN_CORE)


def test_only_the_explorers_app_imports_textual():
    # Textual loads only for the full-screen explorer: no other command pays for it
    modules = module_names(PACKAGE)
    users = sorted(
        module_name(path, PACKAGE)
        for path in PACKAGE.rglob("*.py")
        if "textual" in {t.split(".")[0] for t, _, _ in imports(path, PACKAGE, modules)}
    )
    assert users == [TEXTUAL_OWNER]


@pytest.mark.parametrize(
    "module",
    [
        "chesskit.vocab",
        "chesskit.geometry",
        "chesskit.invariants",
        "chesskit.cli.main",
        # a warm perft runs the saved walk: nothing on its way may load numba
        "chesskit.board.board",
        "chesskit.board.threads",
        "chesskit.core.entry",
        "chesskit.core.native",
        "chesskit.core.state",
        "chesskit.core.tables",
        "chesskit.core.hashtable",
        "chesskit.core.api",
        "chesskit.core.numbaguard",  # guards numba's cache before numba loads
        "chesskit.cli.perft_cmd",
        # importing the API costs nothing until it is called
        "chesskit",
        "chesskit.api",
        # loaded by every pytest run where chesskit is installed: inert until its options are given
        "chesskit.pytest_plugin",
    ],
)
def test_importing_does_not_load_numba(module):
    code = f"import sys, {module}; print('numba' in sys.modules)"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=REPO, check=True)
    assert out.stdout.strip() == "False"


def epd_parsers(root: Path) -> list[str]:
    """``module:function: why`` for each piece of an EPD reader outside its owner."""
    found = []
    for path in sorted(root.rglob("*.py")):
        module = module_name(path, root)
        tree = parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                for pattern, owner in EPD_PATTERNS.items():
                    if pattern in node.value and module != owner:
                        found.append(f"{module}:{node.lineno}: the EPD pattern {pattern!r} (owner: {owner})")
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or module == EPD_OWNER:
                continue
            compared = {
                c.value
                for cmp in ast.walk(node)
                if isinstance(cmp, ast.Compare)
                for c in [cmp.left, *cmp.comparators]
                if isinstance(c, ast.Constant)
            }
            words = {c.value for c in ast.walk(node) if isinstance(c, ast.Constant)}
            if {";", '"'} <= compared:
                found.append(f"{module}:{node.name}: splits EPD operations (';' outside quotes)")
            if {"hmvc", "fmvn"} <= words:
                found.append(f"{module}:{node.name}: reads the hmvc/fmvn clock operations")
    return found


def test_one_epd_reader():
    assert epd_parsers(PACKAGE) == []


START_PLACEMENT = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
START_OWNER = "chesskit.geometry"
STEPS_OWNER = "chesskit.vocab"
STEP_TABLES = {
    "knight": {(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)},
    "king": {(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)},
    "rook": {(1, 0), (0, 1), (-1, 0), (0, -1)},
    "bishop": {(1, 1), (-1, 1), (-1, -1), (1, -1)},
}


def _docstrings(tree) -> set[int]:
    """ids of the docstring constants (a start FEN in an example is not a declaration)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _int_pairs(node) -> set[tuple[int, int]] | None:
    """The (file, rank) steps a tuple or list literal of integer pairs spells, else None."""
    if not isinstance(node, (ast.Tuple, ast.List)) or not node.elts:
        return None
    pairs = set()
    for elt in node.elts:
        try:
            value = ast.literal_eval(elt)
        except ValueError:
            return None
        if not (isinstance(value, tuple) and len(value) == 2 and all(type(v) is int for v in value)):
            return None
        pairs.add(value)
    return pairs


def geometry_copies(root: Path) -> list[str]:
    """``module:line: what`` for each start FEN or piece-step table written outside its owner."""
    found = []
    for path in sorted(root.rglob("*.py")):
        module = module_name(path, root)
        tree = parse(path.read_text())
        docstrings = _docstrings(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and START_PLACEMENT in node.value
                and id(node) not in docstrings
                and module != START_OWNER
            ):
                found.append(f"{module}:{node.lineno}: the start FEN (owner: {START_OWNER}.START_FEN)")
            if module != STEPS_OWNER:
                pairs = _int_pairs(node)
                for piece, steps in STEP_TABLES.items():
                    if pairs == steps:
                        found.append(f"{module}:{node.lineno}: the {piece}'s steps (owner: {STEPS_OWNER})")
    return found


def test_one_owner_for_the_start_fen_and_the_piece_steps():
    assert geometry_copies(PACKAGE) == []


def constant_copies(root: Path) -> list[str]:
    """``NAME: module, module`` for each module-level constant (an upper-case name bound to a
    literal) that more than one module defines with the same value: a default written twice
    (``SUITE_HASH_MB = 64`` in the API and in the CLI) drifts apart when one is changed."""
    owners: dict[tuple[str, str], list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        module = module_name(path, root)
        for node in parse(path.read_text()).body:
            value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            if not isinstance(value, ast.Constant):
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and target.id.isupper():
                    owners.setdefault((target.id, repr(value.value)), []).append(module)
    return [f"{name}: {', '.join(modules)}" for (name, _), modules in owners.items() if len(modules) > 1]


def test_one_owner_for_each_constant():
    assert constant_copies(PACKAGE) == []


ABOUT_OWNER = "chesskit.compare.engines.dialects"


def about_strips(root: Path) -> list[str]:
    """``module:line`` for each ``!= "about"`` test outside ``ABOUT_OWNER``: a second writer of
    what ``without_about`` does (a dialect's JSON value without its description)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        module = module_name(path, root)
        if module == ABOUT_OWNER:
            continue
        for node in ast.walk(parse(path.read_text())):
            if isinstance(node, ast.Compare) and any(isinstance(op, ast.NotEq) for op in node.ops):
                if any(isinstance(c, ast.Constant) and c.value == "about" for c in [node.left, *node.comparators]):
                    found.append(f"{module}:{node.lineno}")
    return found


def test_one_owner_for_a_dialect_without_its_description():
    assert about_strips(PACKAGE) == []


MAX_FUNCTION_LINES = 80
# functions over the limit that another issue is splitting (not to be added to): none left
LONG_FUNCTIONS_ALLOWED: set[str] = set()


def long_functions(root: Path) -> list[str]:
    """``module:function (n lines)`` for each function outside the compiled core longer than
    MAX_FUNCTION_LINES (decorators not counted)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        module = module_name(path, root)
        if module.startswith("chesskit.core"):
            continue
        for node in ast.walk(parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES and f"{module}:{node.name}" not in LONG_FUNCTIONS_ALLOWED:
                    found.append(f"{module}:{node.name} ({lines} lines)")
    return found


def test_no_long_functions_outside_the_core():
    assert long_functions(PACKAGE) == []


# ---------------------------------------------------------------- the checker catches what it should


@pytest.fixture
def copy(tmp_path) -> Path:
    root = tmp_path / "chesskit"
    shutil.copytree(PACKAGE, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text() + "\n\n" + text + "\n")


def test_an_upward_import_inside_a_function_is_caught(copy):
    _append(copy / "core" / "position.py", "def _render():\n    from chesskit.cli import output\n    return output\n")
    bad = layer_violations(import_graph(copy))
    assert len(bad) == 1
    assert "chesskit.core.position" in bad[0] and "chesskit.cli.output (cli) in a function" in bad[0]


def test_the_cluster_may_not_use_the_cli(copy):
    _append(copy / "cluster" / "plan.py", "from chesskit.cli.options import parse_depth")
    assert [b for b in layer_violations(import_graph(copy)) if "chesskit.cluster.plan" in b]


def test_a_cycle_through_a_function_import_is_caught(copy):
    _append(copy / "board" / "fen.py", "def _board():\n    from chesskit.board.board import Board\n    return Board\n")
    found = cycles(import_graph(copy))
    assert found
    assert {"chesskit.board.fen", "chesskit.board.board"} <= set(found[0])
    assert layer_violations(import_graph(copy)) == []  # same layer: only the cycle check sees it


def test_relative_imports_are_resolved(copy):
    _append(copy / "core" / "tt.py", "from . import perft\nfrom .move import encode")
    targets = {t for t, _, _ in import_graph(copy)["chesskit.core.tt"]}
    assert {"chesskit.core.perft", "chesskit.core.move"} <= targets
    assert cycles(import_graph(copy))  # perft imports tt


def test_click_in_the_core_is_caught(copy):
    _append(copy / "core" / "perft.py", "import click")
    assert "click" in third_party(copy, "chesskit.core")


SECOND_EPD_SPLITTER = """
def split_ops(text):
    chunks, current, quoted = [], "", False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        elif ch == ";" and not quoted:
            chunks.append(current)
            current = ""
        else:
            current += ch
    return chunks + [current]
"""


@pytest.mark.parametrize(
    "text, why",
    [
        (SECOND_EPD_SPLITTER, "splits EPD operations"),
        ("import re\nOP = re.compile(r'[A-Za-z][A-Za-z0-9_+-]*')", "the EPD pattern"),
        ("import re\nID = re.compile(r'(?:^|[;\\s])id\\s+(?:\"([^\"]*)\"|([^\\s;\"]+))')", "the EPD pattern"),
        ("def clocks(ops):\n    return ops.get('hmvc'), ops.get('fmvn')", "reads the hmvc/fmvn"),
    ],
)
def test_a_second_epd_parser_is_caught(copy, text, why):
    _append(copy / "suites" / "positions.py", text)
    found = epd_parsers(copy)
    assert len(found) == 1 and found[0].startswith("chesskit.suites.positions:") and why in found[0], found


@pytest.mark.parametrize(
    "text, why",
    [
        ('START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"', "the start FEN"),
        ('def start():\n    return "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"', "the start FEN"),
        ("JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))", "the knight's steps"),
        ("AROUND = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]", "the king's steps"),
        ("LINES = ((0, 1), (1, 0), (0, -1), (-1, 0))", "the rook's steps"),
        ("def diagonals():\n    return [(1, 1), (1, -1), (-1, 1), (-1, -1)]", "the bishop's steps"),
    ],
)
def test_a_copied_start_fen_or_step_table_is_caught(copy, text, why):
    _append(copy / "compare" / "statecmp.py", text)
    found = geometry_copies(copy)
    assert len(found) == 1 and found[0].startswith("chesskit.compare.statecmp:") and why in found[0], found


def test_a_start_fen_in_a_docstring_is_not_a_copy(copy):
    _append(copy / "compare" / "statecmp.py", 'def f():\n    """rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"""')
    assert geometry_copies(copy) == []


def test_a_long_function_is_caught_outside_the_core_only(copy):
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES))  # with its def: one line too many
    _append(copy / "compare" / "statecmp.py", f"def too_long():\n{body}")
    _append(copy / "core" / "perft.py", f"def long_but_compiled():\n{body}")
    assert long_functions(copy) == [f"chesskit.compare.statecmp:too_long ({MAX_FUNCTION_LINES + 1} lines)"]
    _append(copy / "board" / "fen.py", "def short_enough():\n" + body[: body.rindex("    x")])
    assert len(long_functions(copy)) == 1


def test_a_copied_constant_is_caught(copy):
    _append(copy / "cli" / "perft_cmd.py", "SUITE_HASH_MB = 64")
    _append(copy / "explore" / "state.py", "SUITE_HASH_MB = 32")  # another value: another constant
    found = constant_copies(copy)
    assert len(found) == 1 and found[0].startswith("SUITE_HASH_MB: ") and "chesskit.cli.perft_cmd" in found[0], found
    assert "chesskit.explore.state" not in found[0]


def test_a_second_about_strip_is_caught(copy):
    _append(copy / "cli" / "suite_render.py", 'def plain(d):\n    return {k: v for k, v in d.items() if k != "about"}')
    found = about_strips(copy)
    assert len(found) == 1 and found[0].startswith("chesskit.cli.suite_render:"), found
