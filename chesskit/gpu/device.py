"""Finding a usable GPU: numba-cuda installed, a CUDA driver, a device. Anything missing is
one ``InputError`` line (exit 2) that says what and how to get it."""

from __future__ import annotations

from chesskit.errors import InputError

INSTALL = "pip install 'chesskit-perft[gpu]'"


def require() -> None:
    """Return if kernels can run here (on a GPU, or numba-cuda's simulator when
    ``NUMBA_ENABLE_CUDASIM=1``); else raise ``InputError``."""
    import importlib.util

    if importlib.util.find_spec("numba_cuda") is None:  # numba's own numba.cuda imports, but is a stub
        raise InputError(f"--device gpu needs numba-cuda (not installed): {INSTALL}")
    try:
        from numba import cuda
    except ImportError as err:  # a broken install
        raise InputError(f"--device gpu needs numba-cuda ({err}): {INSTALL}") from None
    try:
        if cuda.is_available():
            cuda.get_current_device()
            return
        why = "no CUDA driver or NVIDIA GPU found"
    except Exception as err:  # noqa: BLE001 - the driver's own words, on one line
        why = " ".join(str(err).split()) or type(err).__name__
    raise InputError(f"--device gpu: no usable GPU: {why}")
