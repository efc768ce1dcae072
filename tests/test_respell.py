"""``chesskit.respell``: the one place that finds a command-line flag in a message."""

from chesskit.respell import respell


def plugin(name, given):
    return f"--chesskit-{name}"


def keyword(name, given):
    name = name.replace("-", "_")
    return f"{name}={given}" if given else name


def test_each_named_flag_is_respelt_and_nothing_else():
    message = "--max-depth 3 is over --max-nodes; --tags x and --threads 2 are fine"
    assert respell(message, ("max-depth", "max-nodes"), plugin) == (
        "--chesskit-max-depth 3 is over --chesskit-max-nodes; --tags x and --threads 2 are fine"
    )


def test_the_longest_name_wins_where_one_begins_another():
    message = "give --engine-cmd or --engine-option, not --engine"
    spelt = respell(message, ("engine", "engine-option", "engine-cmd"), lambda name, _: name.replace("-", "_"))
    assert spelt == "give engine_cmd or engine_option, not engine"


def test_a_flag_inside_a_longer_word_is_not_one():
    for message in ("--max-depths 3", "x--max-depth 3", "--max-depth-first", "a-b--max-depth"):
        assert respell(message, ("max-depth",), plugin) == message


def test_with_value_the_number_after_the_flag_goes_with_it():
    message = "--max-nodes 1e9 is below the count (--max-depth 4); --tags: none"
    spelt = respell(message, ("max-nodes", "max-depth", "tags"), keyword, value=True)
    assert spelt == "max_nodes=1e9 is below the count (max_depth=4); tags: none"


def test_without_value_the_number_stays():
    assert respell("--max-nodes 1e9 is small", ("max-nodes",), keyword) == "max_nodes 1e9 is small"
