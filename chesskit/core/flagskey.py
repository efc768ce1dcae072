"""numba's compile flags as a dictionary key, cheaper: a first run's compile, faster.

numba keys its cache of overload implementations (``typing.templates._get_impl``) by the
compile's flags, a ``TargetConfig``. Its ``__hash__`` builds a dict of every option's value
and hashes the sorted keys of that dict, the option names alone (the values never enter
it), and its ``__eq__`` builds that dict on both sides and compares them. The walk's
compile asks about 12,000 of each, each building a dict of 22 properties: about 0.6 s of
a first run's main process under cProfile (docs/benchmarks.md, 2026-11-30, session 27).

``install()`` gives ``TargetConfig`` the same answers for less: the hash, which depends on
the class's option names only, is worked out once per class by numba's own ``__hash__``;
two configs of the same class are compared on the options set on either side (each
option's value is the one set, else the option's default), and a pair of two classes by
numba's own ``__eq__``. Counted on the walk's compile (11,908 hashes and 10,208
comparisons, half of them unequal): 6 to 0.1 µs a hash, 9 to 0.8 µs a comparison, about
0.17 s of the compile, in each of a first run's two processes.

numba's private API, touched only here: ``install`` checks first that ``__hash__`` still
ignores the values and that a config keeps what was set in ``_values`` (what numba's
properties read); elsewhere it changes nothing (a compile is then slower, never
different). ``tests/core/test_flagskey.py`` compares the answers with numba's. Importing
this module does not import numba.
"""

from __future__ import annotations

_original: tuple | None = None  # numba's own (``__hash__``, ``__eq__``) once replaced
_hashes: dict[type, int] = {}  # by TargetConfig class: its hash (numba's, of the option names)


def key_hash(config) -> int:
    """``hash(config)`` as numba's ``TargetConfig.__hash__`` answers, once per class."""
    cls = type(config)
    found = _hashes.get(cls)
    if found is None:
        found = _hashes[cls] = _original[0](config)
    return found


def key_eq(config, other):
    """``config == other`` as numba's ``TargetConfig.__eq__`` answers: of the same class,
    equal where each option set on either side has the same value on both (the value set,
    else the option's default; an option set on neither is the default on both)."""
    if type(other) is not type(config):
        return _original[1](config, other)
    mine, theirs = config._values, other._values
    if mine == theirs:
        return True
    options = config.options
    for name in mine.keys() | theirs.keys():
        default = options[name].default
        if mine.get(name, default) != theirs.get(name, default):
            return False
    return True


def _fits(target_config, flags) -> bool:
    """Whether numba's TargetConfig is the one this was written for: its hash the same
    whatever the values, and each option read from ``_values`` or its default."""
    try:
        a, b = flags(), flags()
        name = next(iter(a.options))
        option = a.options[name]
        if not isinstance(a._values, dict) or getattr(a, name) != option.default:
            return False
        setattr(b, name, not option.default if option.type is bool else option.default)
        if b._values.get(name) is None or getattr(b, name) != b._values[name]:
            return False
        return hash(a) == hash(b) == hash(tuple(sorted(a.options))) and isinstance(a, target_config)
    except Exception:  # noqa: BLE001 (any other numba: leave it as it is)
        return False


def install() -> bool:
    """Give numba's TargetConfig these (once per process); True when they are in place."""
    global _original
    if _original is not None:
        return True
    from numba.core.compiler import Flags
    from numba.core.targetconfig import TargetConfig

    if not _fits(TargetConfig, Flags):
        return False
    _original = (TargetConfig.__hash__, TargetConfig.__eq__)
    TargetConfig.__hash__ = key_hash
    TargetConfig.__eq__ = key_eq
    return True
