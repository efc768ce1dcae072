"""The compile cache's files in-process (``chesskit.core.cachefs``, ``cachedir``, the attack
table's check in ``tables``): what is read, what is refused, what a save does when it
cannot. The oracle for the table is a fresh build in this process (its own oracle,
``ray_attacks``, is checked against python-chess in test_attacks.py)."""

from __future__ import annotations

import errno
import io
import json
import os
import stat

import numpy as np
import pytest

from chesskit.core import KEY, cachedir, cachefs, tables


@pytest.fixture(autouse=True)
def fresh_warning(monkeypatch):
    monkeypatch.setattr(cachefs, "_warned", set())


def _private(folder):
    folder.mkdir(mode=0o700, exist_ok=True)
    os.chmod(folder, 0o700)
    return folder


def _file(folder, name="f", data=b"data"):
    path = folder / name
    path.write_bytes(data)
    os.chmod(path, 0o600)
    return path


# ---------------------------------------------------------------- reading


def test_a_private_file_is_read(tmp_path):
    folder = _private(tmp_path / "c")
    _file(folder)
    assert cachefs.read(folder, "f", 100) == b"data"
    assert cachefs.read(folder, "missing", 100) is None


def _fifo(path):
    os.mkfifo(path, 0o600)


def _zero_link(path):
    os.symlink("/dev/zero", path)


def _folder_in_place(path):
    path.mkdir(mode=0o700)


def _group_writable(path):
    path.write_bytes(b"data")
    os.chmod(path, 0o620)


def _world_writable(path):
    path.write_bytes(b"data")
    os.chmod(path, 0o606)


def _too_large(path):
    path.write_bytes(b"x" * 101)
    os.chmod(path, 0o600)


@pytest.mark.parametrize(
    "plant, warns",
    [(_fifo, True), (_zero_link, True), (_folder_in_place, True), (_group_writable, True),
     (_world_writable, True), (_too_large, False)],
    ids=["fifo", "link to /dev/zero", "folder", "group-writable", "world-writable", "over the cap"],
)
def test_what_is_not_a_private_regular_file_is_never_read(tmp_path, capsys, plant, warns):
    """A FIFO would block the reader and /dev/zero would fill memory: neither is opened
    for reading (the test would hang or run out of memory if it were)."""
    folder = _private(tmp_path / "c")
    plant(folder / "f")
    assert cachefs.read(folder, "f", 100) is None
    err = capsys.readouterr().err
    assert (err.count("chesskit: warning: ignoring the cache file") == 1) is warns, err


def test_a_file_in_a_linked_or_shared_subfolder_is_not_read(tmp_path):
    folder = _private(tmp_path / "c")
    elsewhere = _private(tmp_path / "elsewhere")
    _file(elsewhere)
    os.symlink(elsewhere, folder / "sub")
    assert cachefs.read(folder, "sub/f", 100) is None
    shared = folder / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    _file(shared)
    assert cachefs.read(folder, "shared/f", 100) is None
    os.chmod(shared, 0o700)
    assert cachefs.read(folder, "shared/f", 100) == b"data"  # the same file, once private


def test_the_warning_is_printed_once(tmp_path, capsys):
    folder = _private(tmp_path / "c")
    for name in ("a", "b"):
        _fifo(folder / name)
        assert cachefs.read(folder, name, 100) is None
    assert capsys.readouterr().err.count("chesskit: warning:") == 1


# ---------------------------------------------------------------- writing


def test_folders_are_0700_and_files_0600_whatever_the_umask(tmp_path):
    old = os.umask(0)
    try:
        assert cachefs.write(tmp_path / "a" / "b", "sub/f", b"data")
    finally:
        os.umask(old)
    for folder in (tmp_path / "a", tmp_path / "a" / "b", tmp_path / "a" / "b" / "sub"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    assert stat.S_IMODE((tmp_path / "a" / "b" / "sub" / "f").stat().st_mode) == 0o600


def test_a_save_that_fills_the_disk_returns_false_and_leaves_nothing(tmp_path, monkeypatch):
    folder = _private(tmp_path / "c")
    real_write = os.write

    def full(fd, data):
        if os.fstat(fd).st_size > 10:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data[:8])

    monkeypatch.setattr(os, "write", full)
    assert cachefs.write(folder, "f", b"x" * 100) is False
    assert os.listdir(folder) == []


def test_a_save_replaces_a_link_and_never_writes_through_it(tmp_path):
    # written through, the link put the walk's machine code over the file it pointed to
    # (outside the cache), on every run
    folder = _private(tmp_path / "c")
    victim = tmp_path / "notes.txt"
    victim.write_text("my notes")
    os.symlink(victim, folder / "walk.o")
    os.symlink(tmp_path / "nowhere", folder / "walk.json")  # a dangling link: nothing created there
    assert cachefs.write(folder, "walk.o", b"code")
    assert cachefs.write(folder, "walk.json", b"{}")
    assert victim.read_text() == "my notes"
    assert not (tmp_path / "nowhere").exists()
    assert not (folder / "walk.o").is_symlink() and cachefs.read(folder, "walk.o", 100) == b"code"
    assert cachefs.read(folder, "walk.json", 100) == b"{}"


def test_a_save_into_a_linked_subfolder_is_refused_and_said(tmp_path, capsys):
    folder = _private(tmp_path / "c")
    elsewhere = _private(tmp_path / "elsewhere")
    os.symlink(elsewhere, folder / "sub")
    assert cachefs.write(folder, "sub/f.nbi", b"code") is False
    assert os.listdir(elsewhere) == []
    err = capsys.readouterr().err
    assert f"cannot save to the compile cache {folder}: {folder / 'sub'} is a link (not followed)" in err


def test_an_empty_folder_where_a_cache_file_belongs_is_replaced(tmp_path, capsys):
    # a rename cannot replace a folder: every run compiled again, "first run only"
    folder = _private(tmp_path / "c")
    (folder / "walk.o").mkdir()
    assert cachefs.write(folder, "walk.o", b"code")
    assert cachefs.read(folder, "walk.o", 100) == b"code"
    assert capsys.readouterr().err == ""


def test_a_folder_that_is_not_empty_is_kept_and_the_failed_save_said_after_the_read(tmp_path, capsys):
    # the save's warning shared the read's topic, so it was never printed
    folder = _private(tmp_path / "c")
    (folder / "walk.o").mkdir()
    (folder / "walk.o" / "yours").write_text("kept")
    assert cachefs.read(folder, "walk.o", 100) is None
    assert cachefs.write(folder, "walk.o", b"code") is False
    assert (folder / "walk.o" / "yours").read_text() == "kept"
    read, save = capsys.readouterr().err.splitlines()
    assert "ignoring the cache file" in read and "it is not a regular file" in read
    assert save.startswith(f"chesskit: warning: cannot save to the compile cache {folder}: ")
    assert f"{folder / 'walk.o'} is a folder that is not empty; remove it" in save


# ---------------------------------------------------------------- manifests

SCHEMA = {"symbol": str, "undefined": list, "size": int}
GOOD = {"symbol": "walk", "undefined": ["a", "b"], "size": 3}


def test_a_sealed_manifest_reads_back():
    assert cachefs.unseal(cachefs.seal(KEY, GOOD), KEY, SCHEMA) == GOOD


def _resealed(**changes):
    """A manifest whose seal is right for its (wrong) fields: only the schema can refuse it."""
    fields = {**GOOD, **changes}
    return json.dumps({**fields, "key": KEY, "seal": cachefs._seal_of(KEY, fields)}).encode()


@pytest.mark.parametrize(
    "data",
    [
        _resealed(symbol=12),  # the manifest
        _resealed(undefined="a"),
        _resealed(undefined=[1]),
        _resealed(size="3"),
        _resealed(size=True),
        _resealed(extra=1),
        json.dumps({k: v for k, v in json.loads(cachefs.seal(KEY, GOOD)).items() if k != "size"}).encode(),
        cachefs.seal("another build", GOOD),  # self-consistent, of another build
        cachefs.seal(KEY, GOOD).replace(b'"walk"', b'"wall"'),  # edited: the seal no longer matches
        cachefs.seal(KEY, GOOD)[:-5],
        b"[1, 2]",
        b"\xff\xfe",
        b"[" * 100000,
        None,
    ],
    ids=["symbol 12", "list as str", "list of int", "int as str", "bool as int", "extra field",
         "missing field", "other key", "edited", "truncated", "not an object", "not utf-8",
         "deep nesting", "no file"],
)
def test_a_manifest_in_doubt_is_a_miss(data):
    assert cachefs.unseal(data, KEY, SCHEMA) is None


# ---------------------------------------------------------------- the build key


@pytest.mark.parametrize("part", ["sliders", "core", "machine", "numba", "llvmlite", "numpy", "chesskit"])
def test_the_build_key_changes_with_what_built_the_code(monkeypatch, part):
    before = cachedir.build_key("pext")
    if part == "sliders":
        assert cachedir.build_key("magic") != before
        return
    if part == "core":
        monkeypatch.setattr(cachedir, "core_hash", lambda: "edited")
    elif part == "machine":
        monkeypatch.setattr(cachedir, "machine_key", lambda: "another-cpu")
    elif part == "chesskit":
        monkeypatch.setattr(cachedir, "VERSION_SOURCE", cachedir.SHARED_SOURCES[0])
    else:
        stamp = cachedir._package_stamp
        monkeypatch.setattr(cachedir, "_package_stamp", lambda name: "upgraded" if name == part else stamp(name))
    assert cachedir.build_key("pext") != before


# ---------------------------------------------------------------- the saved attack table


@pytest.fixture
def table_folder(tmp_path, monkeypatch):
    """A cache folder holding a good saved table (a fresh build: the oracle)."""
    T = np.zeros(tables.table_size(), dtype=np.uint64)
    tables._build(T, tables.ROOK_MAGICS, tables.BISHOP_MAGICS, tables.PEXT)
    folder = _private(tmp_path / "cache")
    monkeypatch.setattr(tables, "CACHE", folder)
    monkeypatch.setattr(tables, "_DIGEST", tables._digest(T))
    tables._save(T)
    return folder, T


def _save_as(folder, array):
    """Replace the saved table by ``array`` with a manifest that vouches for it."""
    data = io.BytesIO()
    np.save(data, array)
    cachefs.write(folder, tables.SAVED, data.getvalue())
    digest = cachefs.digest(array.tobytes())
    cachefs.write(folder, tables.SAVED_MANIFEST, cachefs.seal(KEY, {"sha256": digest, "length": tables.table_size()}))


def test_a_good_saved_table_is_loaded(table_folder):
    _, T = table_folder
    assert np.array_equal(tables._load(), T)


def _clear_a_bit(folder, T):  # the case: one cleared bit gave startpos 1 = 19
    data = bytearray((folder / tables.SAVED).read_bytes())
    at = len(data) - T.nbytes + (tables.N_ATT + 1) * 8  # the knight's attacks from b1
    word = int.from_bytes(data[at : at + 8], "little")
    data[at : at + 8] = (word & ~(1 << (word.bit_length() - 1))).to_bytes(8, "little")  # c3 cleared
    cachefs.write(folder, tables.SAVED, bytes(data))


@pytest.mark.parametrize(
    "damage",
    [
        _clear_a_bit,
        lambda folder, T: (folder / tables.SAVED).write_bytes((folder / tables.SAVED).read_bytes()[:5000]),
        lambda folder, T: _save_as(folder, np.zeros_like(T)),  # vouched for: the sanity check refuses it
        lambda folder, T: _save_as(folder, T.astype(np.int32)),  # was a SIGSEGV
        lambda folder, T: _save_as(folder, T[:5000]),  # was a SIGSEGV
        lambda folder, T: _save_as(folder, T.astype(">u8")),
        lambda folder, T: _save_as(folder, np.where(np.arange(T.shape[0]) == tables.R_SHIFT, 40, T).astype(np.uint64)),
        lambda folder, T: _save_as(folder, np.where(np.arange(T.shape[0]) == tables.B_BASE + 63, T.shape[0], T).astype(np.uint64)),
        lambda folder, T: (folder / tables.SAVED_MANIFEST).write_bytes(b'{"sha256": 12}'),
        lambda folder, T: (folder / tables.SAVED).unlink(),
    ],
    ids=["one bit cleared", "truncated", "all zero", "int32", "short", "big-endian", "shift out of range",
         "base past the end", "bad manifest", "missing"],
)
def test_a_saved_table_in_doubt_is_built_again(table_folder, damage):
    folder, T = table_folder
    damage(folder, T)
    assert tables._load() is None


def test_the_compile_notice_says_every_run_when_no_cache_is_kept(monkeypatch, tmp_path):
    """A private folder (removed at exit: the chosen one could not be used) keeps nothing
    for the next run, so the first-run notice must not promise 'first run only'."""
    from chesskit.core.cachedir import first_run_only

    kept, private = tmp_path / "kept", tmp_path / "private"
    kept.mkdir()  # a folder this run can write (a read-only one keeps nothing new either)
    monkeypatch.setattr(cachedir, "_PRIVATE", {private})
    assert first_run_only(kept) == "first run only"
    assert first_run_only(private).startswith("every run")
    assert first_run_only(None).startswith("every run")


def test_a_save_that_fails_is_said_once(tmp_path, monkeypatch, capsys):
    # a full disk under the cache: every run compiled again (about 30 s) and said nothing
    monkeypatch.setattr(cachefs, "_warned", set())

    def full(path, data, mode, **how):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(cachefs, "write_atomic", full)
    assert not cachefs.write(tmp_path, "walk.o", b"code")
    assert not cachefs.write(tmp_path, "walk.json", b"{}")
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"cannot save to the compile cache {tmp_path}: No space left on device" in err


@pytest.mark.parametrize("code", [errno.EROFS, errno.EACCES])
def test_a_save_to_a_read_only_folder_is_not_told_to_free_space(tmp_path, monkeypatch, capsys, code):
    # a cache folder on a read-only file system was told "free some space"
    monkeypatch.setattr(cachefs, "_warned", set())

    def refused(path, data, mode, **how):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(cachefs, "write_atomic", refused)
    assert not cachefs.write(tmp_path, "walk.o", b"code")
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot save to the compile cache {tmp_path}: {os.strerror(code)}" in err
    assert "the folder is read-only here; set CHESSKIT_CACHE_DIR to a folder you can write" in err
    assert "free some space" not in err

