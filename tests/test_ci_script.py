"""`.ci/run` runs the README's test command exactly as the README writes it (a drifted copy
once ran every test, the slow ones too, and then the slow ones again), followed by the slow
tests, so that CI runs each test once."""

from __future__ import annotations

import re

from helpers import REPO


def readme_commands() -> list[str]:
    text = (REPO / "README.md").read_text()
    blocks = re.findall(r"```sh\n(.*?)```", text, flags=re.S)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def test_ci_runs_the_readme_test_command_then_the_slow_tests():
    commands = readme_commands()
    tests = [c for c in commands if " -m pytest " in c]
    assert len(tests) == 1, commands
    readme_test = tests[0]
    assert '-m "not slow"' in readme_test
    script = (REPO / ".ci" / "run").read_text()
    runs = [line.strip() for line in script.splitlines() if line.strip().startswith("run_pytest ")]
    pytest_runs = [re.sub(r"\s*\|\|.*$", "", line[len("run_pytest "):]) for line in runs]
    assert pytest_runs[0] == readme_test
    # the slow step lets an idle worker take tests queued behind a long one (the variants'
    # walks are compiled before the workers start: tests/conftest.py)
    assert pytest_runs[1] == readme_test.replace('-m "not slow"', "-m slow --dist worksteal")
    assert len(pytest_runs) == 2
