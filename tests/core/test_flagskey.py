"""numba's compile flags as a dictionary key (``chesskit.core.flagskey``): it fits the numba
installed, and its hash and equality answer as numba's own do, on flags set as numba sets
them and on every pair of a random sample."""

from __future__ import annotations

import itertools
import random

from numba.core.compiler import Flags
from numba.core.targetconfig import TargetConfig

from chesskit.core import flagskey


def _value(option, rng):
    """A value for ``option`` other than its default where one can be made, else the default."""
    if option.type is bool:
        return rng.choice([True, False])
    if option.type is int:
        return rng.choice([0, 1, 2, 3])
    return option.default


def _sample(n: int, seed: int = 27) -> list[Flags]:
    """Flags with a few options set (some to their default), and copies of each."""
    rng = random.Random(seed)
    names = list(Flags.options)
    flags = [Flags()]
    for _ in range(n):
        made = Flags()
        for name in rng.sample(names, rng.randint(1, 4)):
            option = Flags.options[name]
            try:
                setattr(made, name, _value(option, rng))
            except (TypeError, ValueError):
                continue
        flags.append(made)
        flags.append(Flags(made))  # numba's copy
    return flags


def test_it_fits_the_numba_installed():
    assert flagskey.install()
    assert TargetConfig.__hash__ is flagskey.key_hash and TargetConfig.__eq__ is flagskey.key_eq


def test_hash_and_equality_answer_as_numbas_own():
    flagskey.install()
    numbas_hash, numbas_eq = flagskey._original
    flags = _sample(60)
    equal = unequal = 0
    for a, b in itertools.product(flags, repeat=2):
        assert flagskey.key_eq(a, b) == numbas_eq(a, b), (a, b)
        assert (a == b) == numbas_eq(a, b)
        equal += numbas_eq(a, b) is True
        unequal += numbas_eq(a, b) is False
    assert equal > len(flags) and unequal > len(flags)  # both answers were asked
    for a in flags:
        assert hash(a) == numbas_hash(a)
    assert flagskey.key_eq(Flags(), object()) is NotImplemented  # another type: numba's answer


def test_an_option_set_to_its_default_equals_one_left_unset():
    flagskey.install()
    a, b = Flags(), Flags()
    name = next(name for name, option in Flags.options.items() if option.type is bool)
    setattr(b, name, Flags.options[name].default)
    assert a == b and b == a and flagskey._original[1](a, b)
    setattr(b, name, not Flags.options[name].default)
    assert a != b and not flagskey._original[1](a, b)


def test_a_numba_whose_hash_reads_the_values_is_left_alone():
    class Hashing(Flags):  # a numba whose hash would depend on the values
        def __hash__(self):
            return hash(tuple(sorted(self.values().items(), key=str)))

    assert not flagskey._fits(TargetConfig, Hashing)
    assert flagskey._fits(TargetConfig, Flags)
