"""``python -m chesskit``: the same CLI as the ``chesskit`` command."""

from chesskit.cli.main import main

if __name__ == "__main__":
    main(prog_name="chesskit")
