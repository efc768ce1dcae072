"""chesskit's pytest plugin: an engine's perft checked against the suites, one test per count.

Registered through the ``pytest11`` entry point, so that in an engine author's repository

    pytest --chesskit-engine=./myengine [--chesskit-suite=FILE_OR_DIR ...] [--chesskit-max-nodes=N]
           [--chesskit-variant=NAME]

adds one test per position and depth of the suites (``--chesskit-suite``'s and the suite
files the command line names; default: the bundled positions, but not where the command
line names only files or tests: ``pytest tests/test_mine.py`` runs those), named
``FILE::ID[D<depth>]``. A test fails with compare's descent to the node where the
engine goes wrong; an engine that crashes, hangs (``--chesskit-timeout`` per answer) or
prints what cannot be read makes that test an error, and the next test starts the engine
afresh; one that cannot be started at all, or never answers as it starts, stops the session at its first test. A line of a suite that cannot be run is an error of its own. The fixture
``chesskit_engine`` gives a test the engine (a ``chesskit.Engine``), started: one that
never answers is the first such test's error, and stops the session. Each pytest-xdist
worker starts its own engine.

Without its options the plugin does nothing and imports nothing of chesskit: it is loaded
by every pytest run where chesskit is installed. An option of the engine's tests
(``--chesskit-suite``, ``--chesskit-timeout``, ...) given without an engine is a usage error,
and so is a bad value of any of them, engine or not.
"""

from __future__ import annotations

from itertools import chain
from pathlib import Path

import pytest

# the options that name an engine, as chesskit.Engine's keywords
_ENGINE_OPTIONS = {
    "chesskit_engine": "command",
    "chesskit_engine_cmd": "engine_cmd",
    "chesskit_script": "script",
    "chesskit_python": "python",
}
_STATE = pytest.StashKey["_Run"]()
# the error of the chesskit_engine fixture's engine as it started (pytest_runtest_makereport)
_FIXTURE_FAILED = pytest.StashKey[BaseException]()
_READ = pytest.StashKey[dict]()  # the options' values, read and checked once a session
# the options that only shape the tests of an engine, and their defaults: given without an
# engine, a usage error (they did nothing, silently); each given value is checked either way
_FOR_ENGINE = {
    "chesskit_suite": [],
    "chesskit_engine_option": [],
    "chesskit_dialect": None,
    "chesskit_variant": "chess",
    "chesskit_max_nodes": "1000000",
    "chesskit_max_depth": None,
    "chesskit_skip_chess960": False,
    "chesskit_timeout": "30",
}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("chesskit", "chesskit: check an engine's perft against suites of positions")
    group.addoption(
        "--chesskit-engine",
        metavar="CMD",
        help="The engine's command (UCI 'go perft', a bare perft/divide command: detected as "
        "'chesskit compare --engine' does): adds a test per position and depth of the suites.",
    )
    group.addoption("--chesskit-dialect", metavar="NAME", help="How --chesskit-engine answers perft (chesskit --dialect).")
    group.addoption(
        "--chesskit-engine-cmd", metavar="TEMPLATE", help="A one-shot command line with {fen} {depth} [{moves}] instead."
    )
    group.addoption("--chesskit-script", metavar="PATH", help="A perftree script instead.")
    group.addoption("--chesskit-python", metavar="MODULE:ATTR", help="A Python adapter instead.")
    group.addoption(
        "--chesskit-engine-option",
        metavar="NAME=VALUE",
        action="append",
        default=[],
        help="setoption for a UCI engine (repeatable).",
    )
    group.addoption(
        "--chesskit-variant",
        metavar="NAME",
        help="The rules the engine plays and the suites' lines that name none are read in "
        "(atomic, crazyhouse, ...; without --chesskit-suite, that variant's bundled suites) [default: chess].",
    )
    group.addoption(
        "--chesskit-suite",
        metavar="FILE_OR_DIR",
        action="append",
        default=[],
        help="An EPD or .perft suite, or a folder of them (repeatable) [default: the bundled positions].",
    )
    group.addoption(
        "--chesskit-max-nodes",
        metavar="N",
        help="Leave out the counts expected over N nodes [default: 1000000].",
    )
    group.addoption("--chesskit-max-depth", metavar="D", help="Leave out the depths over D.")
    group.addoption(
        "--chesskit-skip-chess960", action="store_true", help="Leave out the Chess960 positions."
    )
    group.addoption(
        "--chesskit-timeout",
        metavar="SECONDS",
        help="An engine answer that takes longer is an error of that test [default: 30].",
    )


def _option(config: pytest.Config, name: str):
    """The value of the plugin's option ``name`` (``chesskit_timeout``), its default when not given."""
    value = config.getoption(name)
    return _FOR_ENGINE[name] if value is None else value


def _checked_values(config: pytest.Config) -> dict:
    """The engine's and the suites' limits read (``timeout``, ``max_nodes``, ``max_depth``,
    ``variant``: their defaults where not given), and ``--chesskit-dialect`` and
    ``--chesskit-engine-option`` checked: a bad value is a usage error naming the option
    and why, with an engine or without. Read once a session: later calls get the same."""
    if _READ in config.stash:
        return config.stash[_READ]
    from chesskit.api.position import variant_rules
    from chesskit.cli.engine_options import check_engine_values, parse_timeout
    from chesskit.cli.options import parse_count, parse_depth
    from chesskit.errors import InputError

    depth = config.getoption("chesskit_max_depth")
    try:
        check_engine_values(tuple(config.getoption("chesskit_engine_option")), config.getoption("chesskit_dialect"))
        read = {
            "timeout": parse_timeout(_option(config, "chesskit_timeout"), "--chesskit-timeout"),
            "max_nodes": parse_count(_option(config, "chesskit_max_nodes"), "--chesskit-max-nodes"),
            "max_depth": None if depth is None else parse_depth(depth, name="--chesskit-max-depth"),
        }
    except InputError as err:
        raise pytest.UsageError(f"chesskit: {_plugin_flags(str(err))}") from None
    try:
        read["variant"] = variant_rules(_option(config, "chesskit_variant"), None)[0]
    except InputError as err:
        raise pytest.UsageError(f"chesskit: --chesskit-variant: {err}") from None
    config.stash[_READ] = read
    return read


def _engine_kwargs(config: pytest.Config) -> dict | None:
    """chesskit.Engine's arguments from the options, or None when no engine is named."""
    named = {key: config.getoption(option) for option, key in _ENGINE_OPTIONS.items()}
    named = {key: value for key, value in named.items() if value is not None}
    if not named:
        return None
    from chesskit.cli.engine_options import check_engine_choice
    from chesskit.errors import InputError

    read = _checked_values(config)
    dialect = config.getoption("chesskit_dialect")
    options = tuple(config.getoption("chesskit_engine_option"))
    try:
        # before any test: two engines were one error per test, each "give exactly one"
        check_engine_choice(
            named.get("command"), named.get("script"), named.get("python"), named.get("engine_cmd"), options, dialect
        )
    except InputError as err:
        raise pytest.UsageError(f"chesskit: {_plugin_flags(str(err))}") from None
    if "python" in named:
        from chesskit.cli.engine_options import check_python_spec

        try:
            check_python_spec(named["python"], "--chesskit-python")
        except InputError as err:
            raise pytest.UsageError(f"chesskit: {err}") from None
    return {
        **named,
        "dialect": dialect,
        "options": options,
        "timeout": read["timeout"],
        "variant": _option(config, "chesskit_variant"),
    }


def _plugin_flags(message: str) -> str:
    """The CLI's engine and suite flags in ``message`` as this plugin spells them (--engine:
    --chesskit-engine, --max-depth: --chesskit-max-depth)."""
    from chesskit.cli.engine_options import prefixed_flags
    from chesskit.respell import respell

    message = prefixed_flags(message, "chesskit-")
    return respell(message, ("max-nodes", "max-depth", "skip-chess960"), lambda name, _: f"--chesskit-{name}")


class _Run:
    """The engine the generated tests share in this process, started again after a failure."""

    def __init__(self, kwargs: dict):
        self.kwargs = kwargs
        self.engine = None
        self.started = False  # whether the engine ever started (and found its dialect) in this process
        self.cases = None  # the suites' (cases, bad lines), once read
        self.paths: dict[str, str] = {}  # each suite file as test ids name it (its node path)
        self.collected: set[str] = set()  # the suite files pytest collected (their node paths)

    def open(self):
        from chesskit.api.engine import Engine

        if self.engine is None:
            self.engine = Engine.with_flags(**self.kwargs)
            if not self.started:
                # start it before its first position, as `chesskit suite` does: an engine
                # that refuses to start (an --engine-option it does not have) fails here and
                # stops the session, instead of being every test's error
                self.engine.dialect
            self.started = True
        return self.engine

    def discard(self) -> None:
        """Stop the engine (its whole process group); the next test starts a new one."""
        if self.engine is not None:
            engine, self.engine = self.engine, None
            engine.close()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "chesskit: a count of a suite checked by chesskit's plugin")
    kwargs = _engine_kwargs(config)
    if kwargs is None:
        given = [name for name in _FOR_ENGINE if config.getoption(name) not in (None, [], False)]
        if given:
            _checked_values(config)  # a bad value says why first: it would be wrong with an engine too
            flag = "--" + given[0].replace("_", "-")
            raise pytest.UsageError(f"{flag} needs an engine: --chesskit-engine (or --chesskit-script, ...)")
        return
    config.stash[_STATE] = _Run(kwargs)


def pytest_unconfigure(config: pytest.Config) -> None:
    run = config.stash.get(_STATE, None)
    if run is not None:
        run.discard()


def _cases(config: pytest.Config):
    """The suites' counts, bad lines and positions over the limits, read once a session
    (``chesskit.api.suite_tests`` with the plugin's limits); an InputError is a usage error."""
    run = config.stash[_STATE]
    if run.cases is None:
        from chesskit.api.suite import suite_tests
        from chesskit.errors import InputError

        limits = _checked_values(config)
        try:
            run.cases = suite_tests(
                _suite_paths(config),
                max_depth=limits["max_depth"],
                max_nodes=limits["max_nodes"],
                skip_chess960=config.getoption("chesskit_skip_chess960"),
                variant=_option(config, "chesskit_variant"),
            )
        except InputError as err:
            raise pytest.UsageError(f"chesskit: {_plugin_flags(str(err))}") from None
        run.paths = {file: _node_path(config, file) for file in {entry.file for entry in chain(*run.cases)}}
    return run.cases


def _command_line_suites(config: pytest.Config) -> set[Path]:
    """The suite files the command line names (outside ``--chesskit-suite``), resolved."""
    held = {Path(path).resolve() for path in config.getoption("chesskit_suite")}
    return {Path(path).resolve() for path in _suite_paths(config)} - held


def _suite_paths(config: pytest.Config) -> list[str]:
    """The suites: ``--chesskit-suite``'s, and each suite file the command line names that
    they do not hold (``pytest --chesskit-engine=... tests/perft.epd``, or one of its tests
    by the id a FAILED line shows: pytest said "not found" without ``--chesskit-suite``);
    none: the bundled positions."""
    from chesskit.api.suite import SUITE_SUFFIXES

    given = list(config.getoption("chesskit_suite"))
    held = [Path(path).resolve() for path in given]
    here = config.invocation_params.dir
    for arg in config.args:
        file = (here / arg.partition("::")[0]).resolve()
        if file.suffix.lower() in SUITE_SUFFIXES and file.is_file() and not any(
            file == path or path in file.parents for path in held
        ):
            given.append(str(file))
            held.append(file)
    return given


def _items(parent, config: pytest.Config, file: str | None = None, collected=frozenset()) -> list:
    """The tests of the suites' counts and bad lines, each named ``ID[D<depth>]`` under its
    file's node: those of the suite file ``file`` (a ``SuiteFile``'s), else those of every
    suite file not in ``collected``."""
    cases, bad, over = _cases(config)
    paths = config.stash[_STATE].paths
    bundled = not _suite_paths(config)
    items = []
    entries = [
        *((case, PerftItem, case.name, {"case": case}) for case in cases),
        *((line, BadLineItem, line.id or (f"line {line.line}" if line.line else "file"), {"line": line}) for line in bad),
        # a position over the limits: each of its depths a skipped test, by the id it runs as
        *((p, SkippedItem, f"{p.id}[D{depth}]", {"position": p}) for p in over for depth in p.depths),
    ]
    for entry, kind, name, given in entries:
        path = paths[entry.file]
        if (path != file) if file is not None else (path in collected):
            continue
        # as a string: under the session it is named as if under its file; under its
        # SuiteFile, pytest >= 9.2 reads a string's `[D2]` as the test's parameters, as it
        # reads the ids --lf, --ff and --sw stored (an id built from the name alone held
        # them in the name, matched none of those, and --lf ran everything)
        given["nodeid"] = f"{path if file is None else parent.nodeid}::{name}"
        item = kind.from_parent(parent, name=name, **given)
        if bundled and kind is PerftItem and entry.task.record.notes:
            item.add_marker(pytest.mark.skip(reason=_left_out(entry)))
        items.append(item)
    return items


def _left_out(case) -> str:
    """Why a position that cannot arise in a game is skipped when the bundled suites run
    against an engine, as ``chesskit suite --engine`` leaves it out (a correct engine may
    count it its own way: Stockfish does one), and how to run it."""
    from chesskit.api.suite import LEFT_OUT

    return f"{LEFT_OUT}; --chesskit-suite={case.file} runs it"


def pytest_collect_file(file_path, parent):
    """A file of the suites that pytest reaches (named on the command line, or under a
    folder it walks) is a ``SuiteFile``, so that ``FILE::ID[D2]`` selects one of its tests;
    any other ``.epd`` it walks past is not a suite of the run."""
    config = parent.config
    if _STATE not in config.stash or file_path.suffix == ".py":
        return None
    # named by its stem: -k matches the names of a test's parents too, and "-k ep" is for
    # the en-passant positions, not every test of a .epd file
    try:
        _cases(config)
    except pytest.UsageError as err:
        # said by pytest_collection_modifyitems, as a usage error; but where the command
        # line names the file and nothing else of the suites, that hook adds nothing, and
        # pytest said "not found" (an empty file, every count over --chesskit-max-nodes)
        named = _command_line_suites(config)
        return SuiteFile.from_parent(parent, path=file_path, name=file_path.stem, error=str(err)) if file_path.resolve() in named else None
    if _node_path(config, str(file_path)) not in config.stash[_STATE].paths.values():
        return None
    return SuiteFile.from_parent(parent, path=file_path, name=file_path.stem)


class SuiteFile(pytest.File):
    """A suite file pytest collects: the tests of its counts and bad lines. (A sibling of
    a file named on the command line is made but not collected: its tests come from
    ``pytest_collection_modifyitems``, as those of every suite out of pytest's reach.)
    ``error``: why the suites cannot be run (its collection error)."""

    def __init__(self, *, error: str | None = None, **kwargs):
        super().__init__(**kwargs)
        self.error = error

    def collect(self):
        if self.error is not None:
            raise self.CollectError(self.error)
        path = _node_path(self.config, str(self.path))
        self.config.stash[_STATE].collected.add(path)
        return _items(self, self.config, file=path)


@pytest.hookimpl(tryfirst=True)  # before -k and -m select among the tests
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list) -> None:
    if _STATE not in config.stash or _only_files_named(config):
        return
    added = _named(config, _items(session, config, collected=config.stash[_STATE].collected))
    items.extend(added)
    # as a collector's report would: "collected N items" counts them
    config.hook.pytest_collectreport(report=pytest.CollectReport("", "passed", None, added))


def _named(config: pytest.Config, added: list) -> list:
    """Of the suites' tests added to the session, those the command line names where it
    names tests or files of the suites (``pytest 'a.epd::pos3[D3]' --chesskit-suite a.epd
    --chesskit-suite b.epd`` ran every test of b.epd too); all of them where it names a
    folder, nothing, or only files of its own (``--chesskit-suite``'s tests come then)."""
    here = config.invocation_params.dir
    suites = set(config.stash[_STATE].paths.values())
    named = []
    for arg in config.args:
        file, _, test = arg.partition("::")
        if (here / file).is_dir():
            return added
        path = _node_path(config, str(here / file))
        if path in suites:
            named.append(path + (f"::{test}" if test else ""))
    if not named:
        return added
    return [item for item in added if any(item.nodeid == n or item.nodeid.startswith(n + "::") for n in named)]


def _only_files_named(config: pytest.Config) -> bool:
    """Whether the command line names only files or tests (``pytest tests/test_mine.py``,
    ``pytest 'suite.epd::ep[D2]'``) and no ``--chesskit-suite``: pytest then runs what is
    named, and the bundled positions' tests are not added (they are where it names no
    path, or a folder)."""
    if config.getoption("chesskit_suite"):
        return False
    here = config.invocation_params.dir
    return bool(config.args) and all(not (here / arg.split("::")[0]).is_dir() for arg in config.args)


def _node_path(config: pytest.Config, file: str) -> str:
    """A suite file as test ids name files: relative to the rootdir, else as shown."""
    try:
        return Path(file).resolve().relative_to(config.rootpath.resolve()).as_posix()
    except ValueError:
        return Path(file).as_posix()


class PerftItem(pytest.Item):
    """One count of a suite. The engine is asked in the setup phase, so that a crash, a
    hang or an unreadable answer is an error of the test; the call phase fails on a
    mismatch, with compare's descent as its message."""

    def __init__(self, *, case, **kwargs):
        super().__init__(**kwargs)
        self.case = case
        self.result = None
        self.add_marker("chesskit")
        _position_keywords(self, case.task.record, case.file)

    def setup(self) -> None:
        from chesskit.api.suite import check_case
        from chesskit.errors import EngineError, EngineNotStarted

        run = self.config.stash[_STATE]
        try:
            self.result = check_case(run.open(), self.case)
        except EngineError as err:
            if isinstance(err, EngineNotStarted) or not run.started:
                # its command's fault (not found, not executable, an adapter that does not
                # load): every test would fail the same, so the session stops, as `chesskit
                # suite` ends its run
                self.session.shouldstop = f"chesskit: {_plugin_flags(str(err))}"
            run.discard()
            raise
        except BaseException:  # Ctrl-C, or anything unforeseen: no engine left half-way
            run.discard()
            raise

    def runtest(self) -> None:
        if not self.result.ok:
            raise PerftMismatch(_mismatch_text(self.result))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, PerftMismatch):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.case.file, self.case.line - 1, f"{self.case.id} D{self.case.depth}"


def _position_keywords(item: pytest.Item, record, file: str) -> None:
    """-k also selects a position's tests by its tags and its file's name ("not cannot-arise",
    "impossible": a bundled file has no node of its own to match)."""
    item.extra_keyword_matches.update(record.tags)
    item.extra_keyword_matches.add(Path(file).stem)
    if record.notes:
        item.extra_keyword_matches.add("cannot-arise")


class SkippedItem(pytest.Item):
    """A depth of a position the limits leave out (every count over --chesskit-max-nodes,
    every depth over --chesskit-max-depth): skipped, saying why, so that pytest's summary
    shows what is not checked (the CLI's ``skip`` line), and a suite file named on the
    command line with only such positions is found (pytest said "not found")."""

    def __init__(self, *, position, **kwargs):
        super().__init__(**kwargs)
        self.position = position
        _position_keywords(self, position.record, position.file)
        self.add_marker(pytest.mark.skip(reason=_plugin_flags(position.reason)))

    def runtest(self) -> None:  # never reached: skipped
        raise AssertionError("unreachable")

    def reportinfo(self):
        return self.position.file, self.position.line - 1, self.name


class BadLineItem(pytest.Item):
    """A suite line that cannot be run: an error, with the line and why."""

    def __init__(self, *, line, **kwargs):
        super().__init__(**kwargs)
        self.line = line

    def setup(self) -> None:
        from chesskit.errors import InputError

        raise InputError(self.line.reason)

    def runtest(self) -> None:  # never reached: setup raises
        raise AssertionError("unreachable")

    def reportinfo(self):
        return self.line.file, max(self.line.line - 1, 0), self.name


class PerftMismatch(AssertionError):
    """The engine's count is not the suite's."""


def _cannot_arise(case) -> list[str]:
    """Why ``case``'s position cannot arise in a game, where it cannot, for a mismatch or an
    engine's failure there (an engine may count it its own way: Stockfish crashes on one)."""
    from chesskit.cli.suite_render import cannot_arise_lines

    return [f"{line} (-k 'not cannot-arise' leaves such positions out)" for line in cannot_arise_lines(case.task.record.notes)]


def _mismatch_text(result) -> str:
    from chesskit.cli.compare_render import plain_text  # the CLI's rendering of a descent

    case = result.case
    head = f"{case.id} D{case.depth}: expected {case.expected}, the engine counted {result.nodes} ({case.file}:{case.line})"
    for line in _cannot_arise(case):
        head += f"\n{line}"
    if result.compare is None:
        return head
    doubt = ""
    if result.compare.agree:
        doubt = "\nchesskit agrees with the engine here: the suite's expected count is in doubt"
    return f"{head}{doubt}\n\n{plain_text(result.compare.report).rstrip()}"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """An engine failure or a bad line of a generated test reads as chesskit's one line, not a traceback."""
    report = yield
    if isinstance(item, (PerftItem, BadLineItem)) and call.excinfo is not None:
        from chesskit.errors import ChesskitError, EngineNotStarted

        if isinstance(call.excinfo.value, ChesskitError):
            # as `chesskit suite` says it: an engine that fails at a Chess960 position (once
            # it has answered: one that crashes, hangs or refuses an option as it starts
            # fails everywhere, and the first test happens to be a Chess960 one) may not
            # play Chess960
            started = item.config.stash[_STATE].started and not isinstance(call.excinfo.value, EngineNotStarted)
            hint = "; --chesskit-skip-chess960 leaves the Chess960 positions out" if started and _chess960(item) else ""
            line = f"chesskit: {_plugin_flags(str(call.excinfo.value))}{hint}"
            if started and isinstance(item, PerftItem):  # where: a crash says no position
                case = item.case
                line += f"\n{case.id} D{case.depth} ({case.file}:{case.line}): {case.task.record.shown_fen}"
                line += "".join(f"\n{note}" for note in _cannot_arise(case))
            report.longrepr = line
    elif call.excinfo is not None and "chesskit_engine" in getattr(item, "fixturenames", ()):
        from chesskit.errors import EngineNotStarted

        err = call.excinfo.value
        if isinstance(err, EngineNotStarted) or err is item.config.stash.get(_FIXTURE_FAILED, None):
            # a test of the user's own with the engine fixture: the engine cannot be started
            # at all, or never answered as it started (the fixture's error), so every such
            # test would fail the same; one line, and the session stops
            line = f"chesskit: {_plugin_flags(str(err))}"
            report.longrepr = line
            item.session.shouldstop = line
    return report


def _chess960(item) -> bool:
    """Whether ``item`` asks its engine a Chess960 question (c960-518 is standard chess)."""
    return isinstance(item, PerftItem) and item.case.played_as_960


@pytest.fixture(scope="session")
def chesskit_engine(pytestconfig: pytest.Config):
    """The engine named by --chesskit-engine (or --chesskit-script, ...), a ``chesskit.Engine``,
    stopped at the end of the session; the test is skipped when none is named."""
    kwargs = _engine_kwargs(pytestconfig)
    if kwargs is None:
        pytest.skip("no engine: run pytest with --chesskit-engine=CMD")
    from chesskit.api.engine import Engine
    from chesskit.errors import EngineError

    with Engine.with_flags(**kwargs) as engine:
        try:
            # started now, as the generated tests' engine is before their first position: one
            # that never answers (it crashes as it starts, no dialect is found, it refuses an
            # option or the variant, it is too slow to say 'uciok') is the error of the first
            # test that uses it, said in one line, and the session stops there; pytest keeps
            # a session fixture's error, so no later test would detect it all over again
            engine.dialect
        except EngineError as err:
            pytestconfig.stash[_FIXTURE_FAILED] = err
            raise
        yield engine
