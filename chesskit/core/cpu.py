"""Which slider lookup this processor runs fastest: PEXT or magic multiplication.

Both index the same slices of the attack table by the blocking squares of a slider. The
BMI2 instruction PEXT gathers those squares' bits directly; a magic number multiplies
them to the top of a word instead. PEXT saves a multiply, a shift and two table loads
per lookup (about 7% of perft measured here, 11% on Kiwipete), where it is fast: Intel
since Haswell and AMD since Zen 3. AMD's Zen 1 and 2 and older cores run it in microcode
at tens of cycles, so they keep the magics, as does any processor without BMI2.

``CHESSKIT_SLIDERS=pext`` or ``=magic`` overrides the choice (``pext`` is ignored on a
processor without BMI2, where it would crash; that and any other value get one warning
line). This module must not import numba: the
choice names the compile cache folder, which is set before numba loads.
"""

import functools
import hashlib
import os

SLOW_PEXT_CPUS = ("znver1", "znver2", "bdver", "btver", "amdfam10", "k8")


def pext_is_fast(cpu_name: str, features: dict) -> bool:
    """Whether PEXT is available and fast on a processor of this LLVM name and features."""
    if not features.get("bmi2", False):
        return False
    return not cpu_name.startswith(SLOW_PEXT_CPUS)


def slider_mode() -> str:
    """``"pext"`` or ``"magic"`` for this machine (and the environment's override)."""
    from llvmlite import binding

    try:
        features = dict(binding.get_host_cpu_features())
    except RuntimeError:  # LLVM cannot tell on some platforms: no PEXT then
        features = {}
    given = os.environ.get("CHESSKIT_SLIDERS", "")
    wanted = given.strip().lower()
    if wanted == "magic":
        return "magic"
    if wanted == "pext" and features.get("bmi2", False):
        return "pext"
    chosen = "pext" if pext_is_fast(binding.get_host_cpu_name(), features) else "magic"
    if wanted:
        from .cachefs import warn

        why = "this processor has no BMI2" if wanted == "pext" else "it is neither pext nor magic"
        warn(f"CHESSKIT_SLIDERS={given!r} is ignored ({why}): using {chosen}", topic="sliders")
    return chosen


@functools.cache
def machine_key() -> str:
    """This processor as LLVM sees it, and llvmlite's version: ``name-hash`` of its
    features (the saved walk's name carries it; the cache's build key counts it)."""
    from llvmlite import __version__ as llvmlite_version, binding

    try:
        features = binding.get_host_cpu_features().flatten()
    except RuntimeError:  # LLVM cannot tell on some platforms
        features = ""
    digest = hashlib.sha256(f"{features}|{llvmlite_version}|{binding.get_process_triple()}".encode()).hexdigest()[:12]
    return f"{binding.get_host_cpu_name()}-{digest}"
