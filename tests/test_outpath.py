"""chesskit.outpath's check before any work: it finds out for real whether the output can be
written (not by asking ``os.access``, which says yes to root for ``/proc``), and leaves
nothing behind."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from helpers import ENGINES, one_line, subprocess_env

from chesskit import outpath
from chesskit.errors import InputError


@pytest.fixture
def access_says_yes(monkeypatch):
    """``os.access`` as root sees it: every folder allowed."""
    monkeypatch.setattr(outpath.os, "access", lambda *args, **kwargs: True)


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc")
@pytest.mark.parametrize("append", [False, True])
def test_a_folder_that_takes_no_new_file_is_refused_whatever_os_access_says(access_says_yes, append):
    with pytest.raises(InputError) as caught:
        outpath.check_output("/proc/chesskit-report.html", "--html", append=append)
    assert str(caught.value) == (
        "cannot write --html /proc/chesskit-report.html: cannot create a file in /proc: no such file or directory"
    )


@pytest.mark.parametrize("append", [False, True])
def test_the_check_leaves_no_file_behind(tmp_path, append):
    outpath.check_output(tmp_path / "new.html", "--html", append=append)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("append", [False, True])
def test_the_check_leaves_an_existing_file_as_it_was(tmp_path, append):
    old = tmp_path / "old.epd"
    old.write_text("kept\n")
    os.utime(old, (1_000_000, 1_000_000))
    outpath.check_output(old, "--save", append=append)
    assert old.read_text() == "kept\n"
    assert old.stat().st_mtime == 1_000_000
    assert [p.name for p in tmp_path.iterdir()] == ["old.epd"]


def test_a_name_the_atomic_write_cannot_make_is_refused_before_the_report(cli, tmp_path):
    """A 250-letter name is a valid file name, but write_atomic's temporary file beside it
    is not: the report was printed, then the write failed (exit 2 after the work)."""
    page = tmp_path / ("r" * 245 + ".html")
    result = cli("compare", "kiwipete", "2", "--script", str(ENGINES / "bug_ep_rank_pin.py"), "--html", str(page))
    one_line(result, 2, "cannot write --html", "file name too long")
    assert result.stdout == ""
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not os.path.isdir("/proc/self") or sys.platform != "linux", reason="needs Linux's /proc")
def test_compare_html_into_proc_is_one_line_before_any_work(cli, access_says_yes):
    result = cli("compare", "kiwipete", "2", "--script", str(ENGINES / "bug_ep_rank_pin.py"), "--html", "/proc/x.html")
    one_line(result, 2, "cannot write --html /proc/x.html", "cannot create a file in /proc")
    assert result.stdout == ""


@pytest.mark.parametrize("option", ["--svg", "--html"])
def test_a_symbolic_link_is_written_through_and_stays_a_link(tmp_path, option):
    # QA 40 #1: the rename replaced the link with a file, and the file it names kept its old text
    real = tmp_path / "real"
    real.mkdir()
    (real / "out").write_text("old\n")
    link = tmp_path / "out"
    link.symlink_to("real/out")
    outpath.check_output(link, option)
    outpath.write_atomic(link, "new\n")
    assert link.is_symlink() and os.readlink(link) == "real/out"
    assert (real / "out").read_text() == "new\n"
    assert sorted(p.name for p in real.iterdir()) == ["out"]


def test_a_dangling_link_gets_its_file_made(tmp_path):
    link = tmp_path / "out.svg"
    link.symlink_to("made.svg")
    outpath.check_output(link, "--svg")
    outpath.write_atomic(link, "<svg/>")
    assert link.is_symlink() and (tmp_path / "made.svg").read_text() == "<svg/>"


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs Linux's /proc")
def test_the_commands_own_stdout_through_a_link_is_refused_and_the_link_kept(tmp_path):
    # QA 40 #1: ``--svg /dev/stdout`` with stdout redirected to a file replaced /dev/stdout
    # itself (as root); a link of the test's own to /proc/self/fd/1 stands in for it
    link = tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")
    with open(tmp_path / "shown.txt", "w") as shown:
        done = subprocess.run(
            [sys.executable, "-m", "chesskit", "show", "startpos", "--svg", str(link)],
            stdout=shown, stderr=subprocess.PIPE, text=True, env=subprocess_env(), timeout=60,
        )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == (
        f"chesskit: cannot write --svg {link}: it is this command's stdout, which carries its own text; give a file name"
    )
    assert link.is_symlink()
    assert (tmp_path / "shown.txt").read_text() == ""
