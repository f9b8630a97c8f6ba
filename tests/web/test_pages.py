"""The pages as a person uses them, in Debian's Chromium (tests/web/e2e/run.mjs, driven by
playwright-core): log in, start a run from a template and watch it finish live, download
its output, cancel another, run a three-step workflow and watch its graph (and again with the page's first answer
coming after the stream told the run's end, and its next failing), see a bad value
refused at its field, the runs list at phone width, a run followed to its end across
a daemon killed and started again, a workflow file's run resumed from its page, and a second user who can neither see
nor fetch the first one's runs or files. The screenshots are kept in the build directory
(web-screenshots/) for a person to look at."""

import os
import shutil
import subprocess

from web_site import SOURCE, USERS


def test_a_person_walks_through_the_pages_in_chromium(site):
    shots = os.environ["YARD_WEB_SHOTS"]
    shutil.rmtree(shots, ignore_errors=True)
    os.makedirs(shots)
    env = dict(site.env, BASE_URL=site.url, USER1="alice", PASS1=USERS["alice"], USER2="bob", PASS2=USERS["bob"],
               SHOTS=shots, CHROMIUM="/usr/bin/chromium", SITE_DIR=site.site_dir)
    walk = subprocess.run(["node", os.path.join(SOURCE, "tests", "web", "e2e", "run.mjs")], env=env,
                          capture_output=True, text=True, timeout=600)
    print(walk.stdout)
    assert walk.returncode == 0, walk.stdout[-4000:] + walk.stderr[-4000:]
    assert " 0 failed" in walk.stdout
    for name in ["login", "new-run", "run-completed", "runs-list", "cancelled", "workflow", "phone-runs", "daemon-restarted", "workflow-resumed", "user2"]:
        assert os.path.getsize(os.path.join(shots, name + ".png")) > 1000, name
