"""Workflow files sent to the web: run as `yard run` runs them, with their graph; resumed
without running again what completed; bad files refused naming the line, nothing stored."""

import os

FRAGILE = """name: fragile
steps:
  - name: prepare
    command: echo prepared >> prepare.log
    outputs: [prepare.log]
  - name: solve
    needs: [prepare]
    command: test -e fixed || { echo broken; exit 3; }; echo solved > solved.txt
    outputs: [solved.txt]
  - name: report
    needs: [solve]
    command: cat prepare.log solved.txt > report.txt
    outputs: [report.txt]
"""


def steps_of(run):
    return {s["name"]: s for s in run["steps"]}


def test_a_workflow_file_runs_and_resumes_without_running_again_what_completed(site):
    c = site.client()
    c.login("alice")
    status, body = c.call("POST", "/api/v1/workflows", {"workflow": FRAGILE})
    assert status == 201, body
    run = body["run"]
    assert run["name"] == "fragile" and run["template"] == ""
    assert [s["name"] for s in run["steps"]] == ["prepare", "solve", "report"]
    assert run["steps"][2]["needs"] == ["solve"]
    failed = c.wait_run(run["id"])["run"]
    assert failed["state"] == "FAILED"
    first = steps_of(failed)
    assert first["prepare"]["state"] == "COMPLETED" and first["solve"]["state"] == "FAILED"

    # The cause mended in the run's directory, the run resumed: prepare is not run again.
    open(os.path.join(site.site_dir, "runs", str(run["id"]), "fixed"), "w").close()
    status, body = c.call("POST", f"/api/v1/runs/{run['id']}/resume")
    assert status == 200, body
    assert body["run"]["id"] == run["id"] and body["run"]["state"] != "FAILED"
    done = c.wait_run(run["id"])["run"]
    assert done["state"] == "COMPLETED", done
    again = steps_of(done)
    assert again["prepare"]["jobs"] == first["prepare"]["jobs"]
    assert again["solve"]["jobs"] != first["solve"]["jobs"] and again["solve"]["state"] == "COMPLETED"
    status, res, data = c.request("GET", f"/api/v1/runs/{run['id']}/files/report.txt")
    assert status == 200 and data == b"prepared\nsolved\n"

    # Resumed again with everything done: nothing runs, the jobs stay those of the run.
    status, body = c.call("POST", f"/api/v1/runs/{run['id']}/resume")
    assert status == 200 and steps_of(body["run"])["report"]["jobs"] == again["report"]["jobs"]

    # Only a workflow file's run resumes; another user's is not there for bob.
    status, templated = c.call("POST", "/api/v1/runs", {"template": "hello", "values": {"count": 1}})
    status, body = c.call("POST", f"/api/v1/runs/{templated['run']['id']}/resume")
    assert status == 409 and "/rerun" in body["error"]
    bob = site.client()
    bob.login("bob")
    assert bob.call("POST", f"/api/v1/runs/{run['id']}/resume")[0] == 404


def test_run_again_starts_a_new_run_of_the_same_file(site):
    c = site.client()
    c.login("alice")
    flow = "steps:\n  - name: hello\n    command: echo hello from {who}\nparams: {who: web}\n"
    status, body = c.call("POST", "/api/v1/workflows", {"workflow": flow, "name": "greeting"})
    assert status == 201, body
    run = body["run"]
    assert run["name"] == "greeting"
    assert c.wait_run(run["id"])["run"]["state"] == "COMPLETED"
    status, body = c.call("POST", f"/api/v1/runs/{run['id']}/rerun")
    assert status == 201 and body["run"]["id"] != run["id"] and body["run"]["name"] == "greeting"
    assert c.wait_run(body["run"]["id"])["run"]["state"] == "COMPLETED"


def test_a_bad_workflow_file_is_refused_naming_where_and_nothing_is_stored(site):
    c = site.client()
    c.login("bob")
    before = c.call("GET", "/api/v1/runs")[1]["runs"]
    runs_dir = os.path.join(site.site_dir, "runs")
    dirs = sorted(os.listdir(runs_dir)) if os.path.exists(runs_dir) else []
    for body, field, words in [
        ({"workflow": "steps:\n  - name: a\n    command: true\n    needs: [nowhere]\n"}, "workflow", "nowhere"),
        ({"workflow": "steps:\n  - name: a\n    comand: true\n"}, "workflow", "comand"),
        ({"workflow": "steps: [\n"}, "workflow", "workflow"),
        ({"workflow": ""}, "workflow", "the text of a workflow file"),
        ({"workflow": 3}, "workflow", "the text of a workflow file"),
        ({"workflow": "steps: []\n", "uploads": ["../etc/passwd"]}, "uploads", "not a file name"),
        ({"workflow": "steps: []\n", "uploads": ["absent.csv"]}, "uploads", "no uploaded file"),
        ({"workflow": "steps: []\n", "name": 4}, "name", "text"),
        ({"workflow": "steps: []\n", "colour": "red"}, "colour", "unknown field"),
    ]:
        status, reply = c.call("POST", "/api/v1/workflows", body)
        assert status == 400, (body, reply)
        assert reply["field"] == field and words in reply["error"], (body, reply)
    assert c.call("GET", "/api/v1/runs")[1]["runs"] == before
    assert (sorted(os.listdir(runs_dir)) if os.path.exists(runs_dir) else []) == dirs
