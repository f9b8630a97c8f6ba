"""Runs from templates: started with the CLI's validation, followed, collected, cancelled
and started again; bad input refused with the field it names, and nothing stored."""

import json


def test_a_run_from_a_template_completes_with_its_output(site):
    c = site.client()
    c.login("alice")
    run = c.start("hello", {"greeting": "tyres", "count": 3})
    assert run["owner"] == "alice" and run["template"] == "hello" and run["values"] == {"greeting": "tyres", "count": 3}
    done = c.wait_run(run["id"])
    assert done["run"]["state"] == "COMPLETED" and done["run"]["exit_code"] == 0
    assert [e["state"] for e in done["events"]][:1] == ["PENDING"] and done["events"][-1]["state"] == "COMPLETED"
    status, logs = c.call("GET", f"/api/v1/runs/{run['id']}/logs")
    assert status == 200 and logs["data"] == "tyres\n" * 3 and logs["ended"]
    status, files = c.call("GET", f"/api/v1/runs/{run['id']}/files")
    assert "result.txt" in [f["path"] for f in files["files"]]
    status, res, data = c.request("GET", f"/api/v1/runs/{run['id']}/files/result.txt")
    assert status == 200 and data == b"tyres\n" * 3
    assert 'filename="result.txt"' in res.getheader("Content-Disposition")


def test_the_job_is_charged_to_the_users_account_and_its_values_reach_it_unparsed(site):
    c = site.client()
    c.login("alice")
    hostile = "$(touch /tmp/yard-web-pwned); `id` ' \" ;"
    run = c.start("hello", {"greeting": hostile, "count": 1})
    c.wait_run(run["id"])
    assert c.call("GET", f"/api/v1/runs/{run['id']}/logs")[1]["data"] == hostile + "\n"
    charged = json.loads(site.yard("accounts", "--by", "target", "--json").stdout)
    assert any(row["account"] == "alice" and row["jobs"] >= 1 for row in charged)


def test_bad_values_name_their_field_and_store_nothing(site):
    c = site.client()
    c.login("bob")
    before = c.call("GET", "/api/v1/runs")[1]["runs"]
    cases = [
        ({"template": "hello", "values": {"count": 99}}, "count", "at most 10"),
        ({"template": "hello", "values": {"count": "three"}}, "count", "not an integer"),
        ({"template": "hello", "values": {"count": 1.5}}, "count", "whole number"),
        ({"template": "hello", "values": {"colour": "red"}}, "colour", "not a field"),
        ({"template": "hello", "values": {"greeting": "x" * 201}}, "greeting", "at most 200"),
        ({"template": "nope"}, "template", "no template"),
        ({"template": "hello", "extra": 1}, "extra", "unknown field"),
        ({"template": 5}, "template", "template"),
        ({"template": "hello", "webhook": "http://127.0.0.1/"}, "webhook", "sends no webhooks"),
    ]
    for body, field, words in cases:
        status, reply = c.call("POST", "/api/v1/runs", body)
        assert status in (400, 404), (body, reply)
        assert reply["field"] == field and words in reply["error"], (body, reply)
    for raw in (b"{", b"[1,2]", b"null"):
        status, reply = c.call("POST", "/api/v1/runs", raw, headers={"Content-Type": "application/json"})
        assert status == 400 and reply["error"]
    status, reply = c.call("POST", "/api/v1/runs", b"{" + b" " * (2 << 20) + b"}")
    assert status == 413
    assert c.call("GET", "/api/v1/runs")[1]["runs"] == before


def test_cancel_and_run_again(site):
    c = site.client()
    c.login("alice")
    run = c.start("sleeper", {"seconds": 600})
    c.wait_run(run["id"], states=("RUNNING",))
    status, body = c.call("POST", f"/api/v1/runs/{run['id']}/cancel")
    assert status == 200
    assert c.wait_run(run["id"])["run"]["state"] == "CANCELLED"
    status, body = c.call("POST", f"/api/v1/runs/{run['id']}/rerun")
    assert status == 201 and body["run"]["id"] != run["id"] and body["run"]["values"] == {"seconds": 600}
    c.call("POST", f"/api/v1/runs/{body['run']['id']}/cancel")


def test_a_workflow_template_runs_its_steps_in_order(site):
    c = site.client()
    c.login("alice")
    run = c.start("three-steps")
    done = c.wait_run(run["id"])
    steps = done["run"]["steps"]
    assert [s["name"] for s in steps] == ["prepare", "solve", "report"]
    assert [s["state"] for s in steps] == ["COMPLETED"] * 3 and steps[2]["needs"] == ["solve"]
    assert steps[0]["end_time"] <= steps[1]["start_time"] and steps[1]["end_time"] <= steps[2]["start_time"]
    status, res, data = c.request("GET", f"/api/v1/runs/{run['id']}/files/report.txt")
    assert status == 200 and data.split()[0] == b"2"


def test_lists_page_by_cursor_and_filter(site):
    c = site.client()
    c.login("bob")
    ids = [c.start("hello", {"count": 1})["id"] for _ in range(3)]
    status, page = c.call("GET", "/api/v1/runs?limit=2")
    assert [r["id"] for r in page["runs"]] == ids[::-1][:2] and page["next"] == ids[1]
    status, rest = c.call("GET", f"/api/v1/runs?limit=2&after={page['next']}")
    assert [r["id"] for r in rest["runs"]][:1] == [ids[0]]
    assert c.call("GET", "/api/v1/runs?limit=0")[0] == 400
    assert c.call("GET", "/api/v1/runs?state=SLEEPING")[1]["field"] == "state"
    for i in ids:
        c.wait_run(i)
    status, done = c.call("GET", "/api/v1/runs?state=COMPLETED&template=hello")
    assert {r["id"] for r in done["runs"]} >= set(ids)
    status, usage = c.call("GET", "/api/v1/usage?months=2")
    assert status == 200 and len(usage["months"]) == 2
    assert usage["months"][-1]["jobs_by_state"]["COMPLETED"] >= 3


def test_a_program_submits_a_job_as_the_cli_describes_it(site):
    c = site.client()
    status, body = c.call("POST", "/api/v1/tokens", {"name": "bob", "password": "bob-password"})
    c.token = body["token"]
    status, body = c.call("POST", "/api/v1/jobs", {"name": "sum", "command": ["sh", "-c", "echo $((2 + 3))"],
                                                   "options": {"cpus-per-task": 1, "time": "0:05:00"}})
    assert status == 201, body
    run = body["run"]
    assert run["template"] == "" and run["name"] == "sum" and run["requested"]["walltime_s"] == 300
    c.wait_run(run["id"])
    assert c.call("GET", f"/api/v1/runs/{run['id']}/logs")[1]["data"] == "5\n"
    status, again = c.call("POST", f"/api/v1/runs/{run['id']}/rerun")
    assert status == 201 and again["run"]["values"]["command"] == ["sh", "-c", "echo $((2 + 3))"]
    c.wait_run(again["run"]["id"])
    before = c.call("GET", "/api/v1/runs")[1]["runs"]
    for bad, field, words in [
        ({"command": ["true"], "options": {"cpus-per-task": "lots"}}, "options", "--cpus-per-task"),
        ({"command": ["true"], "options": {"colour": "red"}}, "options", "colour"),
        ({"command": ["true"], "script": "#!/bin/sh\n"}, "script", "one of them"),
        ({"options": {}}, "command", "one of them"),
        ({"command": "true"}, "command", "a list of words"),
        ({"command": ["true"], "options": {"mem": [1]}}, "options", "a word"),
        ({"command": ["true"], "queue": "x"}, "queue", "unknown field"),
        ({"command": ["true"], "name": 5}, "name", "text"),
    ]:
        status, reply = c.call("POST", "/api/v1/jobs", bad)
        assert status == 400 and reply["field"] == field and words in reply["error"], (bad, reply)
    assert c.call("GET", "/api/v1/runs")[1]["runs"] == before
    assert c.call("POST", "/api/v1/runs", {"template": ""})[0] == 400
