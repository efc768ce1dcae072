"""The CI recipes work as written (issue 20 item 4): action.yml and .pre-commit-hooks.yaml
parse with the keys GitHub and pre-commit need, the commands they run pass on a tiny suite
with a correct engine and fail with a buggy one, every YAML block of docs/ci.md parses and
every chesskit command in it is one chesskit accepts, and docs/ci.md's git bisect recipe
finds the commit that broke a count (skipping a commit whose engine cannot start)."""

from __future__ import annotations

import os
import re
import shlex
import stat
import subprocess
import sys

import pytest

from helpers import ENGINES, REPO, need_module, subprocess_env

POS3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -"
TINY = f'{POS3} id "pos3"; D1 14; D2 191;\n'  # bug_ep_rank_pin gives 193 at D2
CORRECT = f"{sys.executable} {ENGINES / 'fake_uci.py'}"
BUGGY = f"{sys.executable} {ENGINES / 'fake_uci.py'} --bug ep_rank_pin"


def _yaml():
    return need_module("yaml", "PyYAML (pip install pyyaml; in chesskit's [test] extra)")


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny.epd"
    path.write_text(TINY)
    return path


@pytest.fixture
def on_path(tmp_path):
    """A ``chesskit`` command on PATH that runs this working copy (as the installed one would)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    shim = folder / "chesskit"
    shim.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m chesskit "$@"\n')
    shim.chmod(shim.stat().st_mode | stat.S_IEXEC)
    env = subprocess_env()
    env["PATH"] = f"{folder}{os.pathsep}{env['PATH']}"
    return env


def _bash(script: str, env: dict, cwd) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", script], env=env, cwd=cwd, capture_output=True, text=True, timeout=300)


def test_action_yml_is_a_composite_action():
    action = _yaml().safe_load((REPO / "action.yml").read_text())
    assert {"name", "description", "inputs", "runs"} <= set(action)
    assert action["inputs"]["engine"]["required"] is True
    assert {"suites", "max-nodes", "junit", "args", "python-version"} <= set(action["inputs"])
    assert all("description" in spec for spec in action["inputs"].values())
    runs = action["runs"]
    assert runs["using"] == "composite"
    for step in runs["steps"]:
        assert "uses" in step or ("run" in step and step["shell"] == "bash"), step
    # every input the steps use is declared
    used = set(re.findall(r"inputs\.([a-z0-9-]+)", (REPO / "action.yml").read_text()))
    assert used <= set(action["inputs"])


def _action_step(name: str) -> dict:
    steps = _yaml().safe_load((REPO / "action.yml").read_text())["runs"]["steps"]
    return next(step for step in steps if step.get("name") == name)


def _action_env(step: dict, inputs: dict) -> dict:
    """The step's environment with the ``${{ inputs.x }}`` expressions filled in."""
    filled = {}
    for key, value in step.get("env", {}).items():
        filled[key] = re.sub(r"\$\{\{\s*inputs\.([a-z0-9-]+)\s*\}\}", lambda m: inputs[m.group(1)], value)
    return filled


def _defaults() -> dict:
    action = _yaml().safe_load((REPO / "action.yml").read_text())
    return {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}


@pytest.mark.slow  # two chesskit processes
def test_action_runs_the_suite_and_writes_junit(tiny, tmp_path, on_path):
    step = _action_step("Run the suites")
    inputs = {**_defaults(), "engine": CORRECT, "suites": str(tiny), "junit": str(tmp_path / "j.xml")}
    done = _bash(step["run"], {**on_path, **_action_env(step, inputs)}, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "j.xml").read_text().count("<testcase") == 2
    # the job fails on a bug (exit 1), and the extra options reach chesskit
    inputs.update(engine=BUGGY, args="--skip-chess960 --position-timeout 60")
    done = _bash(step["run"], {**on_path, **_action_env(step, inputs)}, tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "pos3-after-e2e4" in done.stdout


def test_action_installs_chesskit_from_its_own_folder():
    step = _action_step("Install chesskit")
    assert step["env"]["CHESSKIT_SOURCE"] == "${{ github.action_path }}"
    assert shlex.split(step["run"]) == ["python", "-m", "pip", "install", "$CHESSKIT_SOURCE"]


@pytest.mark.slow  # two chesskit processes
def test_pre_commit_hook(tiny, tmp_path, on_path):
    hooks = _yaml().safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    (hook,) = hooks
    assert {"id", "name", "entry", "language"} <= set(hook)
    assert hook["language"] == "python" and hook["pass_filenames"] is False
    assert "--max-nodes" in hook["entry"]
    # pre-commit runs: entry + the user's args
    command = shlex.split(hook["entry"]) + ["--engine", CORRECT, str(tiny)]
    done = subprocess.run(command, env=on_path, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    command[command.index(CORRECT)] = BUGGY
    done = subprocess.run(command, env=on_path, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1


def _ci_md_blocks(language: str) -> list[str]:
    text = (REPO / "docs" / "ci.md").read_text()
    return re.findall(rf"```{language}\n(.*?)```", text, re.DOTALL)


def _commands(text: str) -> list[list[str]]:
    """Every ``chesskit ...`` command in a script (after ``- `` or ``run:``, ``&&``, ``;``)."""
    found = []
    for line in text.splitlines():
        for part in re.split(r"&&|;|\|\|", line):
            part = re.sub(r"^\s*(-\s+)?(run:\s*)?", "", part).strip().strip("'\"")
            if part.startswith("chesskit "):
                found.append(shlex.split(part))
    return found


def test_ci_md_yaml_blocks_parse_and_their_commands_are_valid():
    yaml = _yaml()
    blocks = _ci_md_blocks("yaml")
    assert len(blocks) >= 4  # GitHub with the action, GitHub without, pre-commit config, GitLab
    commands = []
    for block in blocks:
        data = yaml.safe_load(block)
        assert data, block
        commands += _commands(block)
    for block in _ci_md_blocks("sh"):
        commands += _commands(block)
    assert len(commands) >= 4
    for argv in commands:
        _check_command(argv)


def _check_command(argv: list[str]) -> None:
    """click parses ``argv`` as chesskit would (options, their values and arguments)."""
    import click

    from chesskit.cli.main import main

    command = main.get_command(click.Context(main, info_name="chesskit"), argv[1])
    assert argv[0] == "chesskit" and command is not None, argv
    try:
        command.make_context(argv[1], argv[2:])
    except click.UsageError as err:
        raise AssertionError(f"{' '.join(argv)}: {err}") from None


@pytest.mark.parametrize("argv", [["chesskit", "suite", "--max-nodez", "1"], ["chesskit", "suitе"],
                                  ["chesskit", "compare", "--bisect"]])
def test_the_command_check_catches_a_bad_command(argv):
    with pytest.raises(AssertionError):
        _check_command(argv)


def test_ci_md_names_the_measured_time():
    text = (REPO / "docs" / "ci.md").read_text()
    assert re.search(r"load average", text) and re.search(r"\d+ s", text)


_ENGINE_AT = """#!{python}
import runpy, sys
sys.path.insert(0, {engines!r})
runpy.run_path({script!r}, run_name="__main__")
"""


@pytest.mark.slow
def test_git_bisect_recipe_finds_the_commit(tmp_path, on_path):
    """docs/ci.md's recipe, with a script for the engine: commits good, good, good,
    unstartable (skipped), good, bad (the first), bad."""
    (recipe,) = [c for c in _ci_md_blocks("sh") if "git bisect run" in c][:1]
    run_line = next(line for line in recipe.splitlines() if line.startswith("git bisect run"))
    assert "--bisect" in run_line
    repo = tmp_path / "engine"
    repo.mkdir()
    env = {**on_path, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}

    def git(*args):
        done = subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    git("init", "-q")
    (repo / "suite.epd").write_text(TINY)
    engine = repo / "engine.py"
    commits = {}
    # commit 4, the middle, is bisect's first try: without --bisect its exit 3 would blame it
    for n, kind in enumerate(["good", "good", "good", "broken", "good", "bad", "bad"], 1):
        if kind == "broken":
            engine.write_text("#!/bin/sh\nexit 1\n")  # does not start: bisect must skip it
        else:
            script = ENGINES / ("eng_correct.py" if kind == "good" else "bug_ep_rank_pin.py")
            engine.write_text(_ENGINE_AT.format(python=sys.executable, engines=str(ENGINES), script=str(script)))
        engine.chmod(0o755)
        (repo / "changelog").write_text(f"commit {n}\n")
        git("add", "-A")
        git("commit", "-qm", f"commit {n} ({kind})")
        commits[n] = git("rev-parse", "HEAD").strip()
    git("bisect", "start", commits[7], commits[1])
    # the recipe's command, with this repository's engine and suite in place of its placeholders
    command = run_line.replace("rm -f ./build/myengine; ", "").replace("make -s", "true")
    command = command.replace("./build/myengine", "./engine.py")
    command = command.replace("--engine ./engine.py", "--script ./engine.py suite.epd")
    done = subprocess.run(command, shell=True, cwd=repo, env=env, capture_output=True, text=True, timeout=600)
    assert f"{commits[6]} is the first bad commit" in done.stdout, done.stdout + done.stderr
    assert "running" in done.stdout and "exit 125 for git bisect" in done.stderr  # commit 4 was tried, and skipped


def test_ci_md_installs_chesskit_by_its_distribution_name():
    """A direct reference (``NAME @ git+URL``) must name the distribution pyproject.toml
    builds: pip refuses ``chesskit @ ...`` ("inconsistent name") for chesskit-perft."""
    import tomllib

    name = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["name"]
    text = (REPO / "docs" / "ci.md").read_text()
    named = re.findall(r"pip install \"([\w.-]+) @ ", text)
    assert named and set(named) == {name}, named
