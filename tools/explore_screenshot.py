"""Write docs/explore.png, the README's picture of ``chesskit explore``: kiwipete at depth 2
against tests/engines/bug_no_ep.py (en passant never generated), after ``a`` found the node
where the engine misses b4a3, with the CPW counters of that move shown.

    python tools/explore_screenshot.py            # rewrite docs/explore.png

Textual saves the screen as SVG; a headless Chromium turns it into the PNG."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET = REPO / "docs" / "explore.png"
SIZE = (120, 40)
CELL = (12.2, 24.4)  # an SVG cell's width and height in pixels, as Textual draws them


async def shoot(svg: Path) -> None:
    from chesskit.board.board import Board
    from chesskit.compare.engines import open_engine
    from chesskit.explore.app import ExplorerApp
    from chesskit.explore.state import Explorer
    from chesskit.suites.positions import resolve_position

    fen, _ = resolve_position("kiwipete")
    adapter = "tests/engines/bug_no_ep.py:Adapter"  # as typed in the repository's folder
    explorer = Explorer(Board(fen), 2, fen, lambda: open_engine(python=adapter), state_pushes=0)
    app = ExplorerApp(explorer)
    try:
        async with app.run_test(size=SIZE) as pilot:
            for key in ("a", "s"):
                await pilot.pause(0.5)
                while app._cancel is not None:
                    await pilot.pause(0.1)
                await pilot.press(key)
            await pilot.pause(0.5)
            while app._cancel is not None:
                await pilot.pause(0.1)
            await pilot.pause(0.5)
            app.save_screenshot(filename=svg.name, path=str(svg.parent))
    finally:
        explorer.close()


def main() -> int:
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if browser is None:
        print("explore_screenshot: no chromium to turn the SVG into a PNG", file=sys.stderr)
        return 1
    os.chdir(REPO)
    with tempfile.TemporaryDirectory() as tmp:
        svg = Path(tmp) / "explore.svg"
        asyncio.run(shoot(svg))
        width, height = int(SIZE[0] * CELL[0] + 40), int(SIZE[1] * CELL[1] + 60)
        subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             f"--window-size={width},{height}", f"--screenshot={TARGET}", svg.as_uri()],
            check=True, capture_output=True, timeout=120,
        )
    print(TARGET)
    return 0


if __name__ == "__main__":
    sys.exit(main())
