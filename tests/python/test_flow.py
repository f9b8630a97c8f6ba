"""Flows built from Python and run by the daemon: needs as dependencies, and a run again
that submits nothing up to date, only what an input's change makes stale."""

import os

import pytest

import switchyard


def build(folder):
    flow = switchyard.Flow("py-flow", folder=folder)
    prep = flow.step("prep", "sort data.txt > sorted.txt", inputs=["data.txt"], outputs=["sorted.txt"])
    count = flow.step("count", "wc -l < sorted.txt > count.txt", needs=[prep], outputs=["count.txt"], mem="50M")
    flow.step("other", ["sh", "-c", "echo other > other.txt"], outputs=["other.txt"])
    flow.step("report", "cat count.txt other.txt > report.txt", needs=[count, flow.steps[2]], outputs=["report.txt"])
    return flow


def test_a_flow_runs_in_order_and_a_run_again_submits_only_what_changed(tmp_path):
    (tmp_path / "data.txt").write_text("b\na\nc\n")
    first = build(str(tmp_path)).run()
    assert set(first.origins.values()) == {"submitted"}
    assert first.wait(120) == {"prep": "COMPLETED", "count": "COMPLETED", "other": "COMPLETED", "report": "COMPLETED"}
    assert (tmp_path / "report.txt").read_text() == "3\nother\n"
    again = build(str(tmp_path)).run()
    assert set(again.origins.values()) == {"up-to-date"}
    assert again.ids == first.ids  # the same jobs: nothing submitted
    (tmp_path / "data.txt").write_text("b\na\nc\nd\n")
    changed = build(str(tmp_path)).run()
    assert changed.origins == {"prep": "submitted", "count": "submitted", "other": "up-to-date",
                               "report": "submitted"}
    changed.wait(120)
    assert (tmp_path / "report.txt").read_text() == "4\nother\n"
    assert build(str(tmp_path)).run(rerun=["other"]).origins["other"] == "submitted"


def test_bad_steps_are_refused_naming_them(tmp_path):
    flow = switchyard.Flow("bad", folder=str(tmp_path))
    a = flow.step("a", "true")
    with pytest.raises(ValueError, match="step 'a' twice"):
        flow.step("a", "true")
    with pytest.raises(TypeError, match="cpus_per_tusk"):
        flow.step("b", "true", cpus_per_tusk=2)
    other = switchyard.Flow("other", folder=str(tmp_path)).step("x", "true")
    with pytest.raises(ValueError, match="no earlier step"):
        flow.step("c", "true", needs=[a, other])
    flow.step("d", "cat missing.txt", inputs=["missing.txt"])
    with pytest.raises(FileNotFoundError, match="missing.txt is missing"):
        flow.run()
    with pytest.raises(ValueError, match="rerun names no step: zz"):
        flow.run(rerun=["zz"])


def square(x):
    return x * x


def add(a, b):
    return a + b


def fail(message):
    raise KeyError(message)


def test_python_functions_as_steps_pass_their_results_on_and_are_not_run_twice(tmp_path):
    def build():
        flow = switchyard.Flow("py-calls", folder=str(tmp_path))
        three = flow.call("three", square, args=(3,))
        four = flow.call("four", square, args=(4,), mem="100M")
        flow.call("sum", add, args=(three, four))
        flow.call("bad", fail, args=("no key",))
        return flow
    run = build().run()
    assert run.wait(120) == {"three": "COMPLETED", "four": "COMPLETED", "sum": "COMPLETED", "bad": "FAILED"}
    assert run.result("sum") == 25
    with pytest.raises(KeyError, match="no key") as info:
        run.result("bad")
    assert "raised in step 'bad'" in "\n".join(info.value.__notes__)
    again = build().run()
    assert again.origins == {"three": "up-to-date", "four": "up-to-date", "sum": "up-to-date", "bad": "submitted"}
    again.wait(120)


def test_a_step_inside_a_list_argument_is_needed_too(tmp_path):
    flow = switchyard.Flow("nested", folder=str(tmp_path))
    slow = flow.step("slow", "sleep 1; echo 3 > three.txt", outputs=["three.txt"])
    three = flow.call("three", lambda: int(open("three.txt").read()), needs=[slow])
    total = flow.call("total", sum, args=([three, 1],))
    assert total.needs == [three]
    run = flow.run()
    run.wait(120)
    assert run.result("total") == 4
