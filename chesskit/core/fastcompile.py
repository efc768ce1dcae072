"""Every change chesskit makes to numba's compiler, installed in one call.

Each makes numba's own passes cheaper and leaves the compiled code as it was (each module
says how it checks): ``inlinecopy`` (the inliner's copies), ``livemap`` (live variables on
bit sets), ``ssablocks`` (SSA reconstruction over the blocks that need it), ``flagskey``
(the compile flags as a dictionary key). The walk's
process (``native.build``) and the first run's prewarm child (``prewarm.main``) both call
``install``, so a patch added here reaches both. Importing this module does not import numba.
"""

from __future__ import annotations


def install() -> None:
    """Install each patch that fits the numba installed (once per process)."""
    from . import flagskey, inlinecopy, livemap, ssablocks

    flagskey.install()
    inlinecopy.install()
    livemap.install()
    ssablocks.install()
