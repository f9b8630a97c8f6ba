"""The server's work on jobs that run: ending them, killing them, starting them.

A mixin of the Engine (standin/server.py): every method runs inside the tick's one
write transaction `cur`. What a job sees and what its end means is the scheduler
module's Policy (`self.policy`).
"""

import os
import signal
import subprocess

from standin import core


class JobsMixin:
    def _finish_run(self, cur, rid, status, usage, now):
        row = cur.execute("SELECT * FROM jobs WHERE rid=?", (rid,)).fetchone()
        if row is None:
            return
        job = core.decode(row)
        core.kill_group(job["pgid"], signal.SIGKILL)     # what the shell left behind
        if status is None:
            raw = None
        else:
            code = os.waitstatus_to_exitcode(status)
            raw = code if code >= 0 else 256 - code      # 256 + signal number
        self._apply_exit(cur, job, raw, usage, now)

    def _apply_exit(self, cur, job, raw, usage, now):
        self.policy.cleanup_run(job)
        used = None
        if job.get("start_time"):
            wall = max(0.0, now - job["start_time"])
            cput = (usage.ru_utime + usage.ru_stime) if usage else 0.0
            used = {"walltime": wall, "cput": cput,
                    "mem_kb": int(usage.ru_maxrss) if usage else 0, "ncpus": job["ncpus"],
                    "session": job.get("pgid")}
        phase, how, exit_status = self.policy.outcome(job, raw)
        common = dict(pgid=None, request=None, kill_reason=None, kill_sent=None, killed_hard=0,
                      mtime=now)
        if phase == "queued":          # requeued: runs again later
            fields = dict(common, phase="queued", how=None, exit_status=exit_status,
                          start_time=None, exec_host=None, usage=None,
                          not_before=now + float(self.cfg.get("requeue_delay", 0.0)))
            fields.update(self.policy.requeue_fields(job, now))
            self.store.update_job(cur, job["rid"], **fields)
            self.log("job %s requeued (%s)" % (self.policy.display_id(job), job.get("kill_reason")))
            return
        delay = float(self.cfg.get("exiting_delay", 0.0))
        phase = "exiting" if delay > 0 else "done"
        fields = dict(common, phase=phase, how=how, exit_status=exit_status, end_time=now,
                      usage=used, history_time=now if phase == "done" else None)
        fields.update(self.policy.end_fields(job, how, exit_status, now))
        self.store.update_job(cur, job["rid"], **fields)
        self.log("job %s ended: %s, exit status %s" % (self.policy.display_id(job), how, exit_status))

    def _kill_plan(self, reason, grace):
        """[(seconds after the first signal, signal), ...] for a kill (delete, preempt,
        walltime): the Policy's `kill_plan` if it has one, else TERM then KILL."""
        plan = getattr(self.policy, "kill_plan", None)
        if plan is not None:
            return plan(reason, grace)
        return [(0.0, signal.SIGTERM), (grace, signal.SIGKILL)]

    def _control_running(self, cur, now):
        """Kills: the plan's first signal when the kill begins, then each next one when
        its time has come (killed_hard counts the signals sent after the first)."""
        grace = float(self.cfg.get("kill_grace", 2.0))
        rows = cur.execute("SELECT rid, seq, idx, kind, pgid, start_time, walltime, request, "
                           "kill_reason, kill_sent, killed_hard, attrs FROM jobs "
                           "WHERE phase='running'").fetchall()
        for r in rows:
            if r["rid"] not in self.children:
                continue
            pgid = r["pgid"]
            fields = {}
            if r["request"] in ("delete", "preempt") and not r["kill_reason"]:
                core.kill_group(pgid, self._kill_plan(r["request"], grace)[0][1])
                fields.update(kill_reason=r["request"], kill_sent=now)
            elif r["request"] == "nodefail" and r["kill_reason"] != "nodefail":
                core.kill_group(pgid, signal.SIGKILL)
                fields.update(kill_reason="nodefail", kill_sent=now, killed_hard=1)
            elif (r["walltime"] is not None and not r["kill_reason"] and r["start_time"]
                  and now - r["start_time"] > r["walltime"]):
                self.policy.walltime_notice(core.decode(r), now - r["start_time"])
                core.kill_group(pgid, self._kill_plan("walltime", grace)[0][1])
                fields.update(kill_reason="walltime", kill_sent=now)
            reason = fields.get("kill_reason", r["kill_reason"])
            sent = fields.get("kill_sent", r["kill_sent"])
            step = fields.get("killed_hard", r["killed_hard"])
            if sent and reason != "nodefail":
                plan = self._kill_plan(reason, grace)
                while step + 1 < len(plan) and now - sent >= plan[step + 1][0]:
                    step += 1
                    core.kill_group(pgid, plan[step][1])
                    fields.update(killed_hard=step)
            if fields:
                self.store.update_job(cur, r["rid"], **fields)

    def _advance(self, cur, now):
        delay = float(self.cfg.get("exiting_delay", 0.0))
        for r in cur.execute("SELECT rid, end_time FROM jobs WHERE phase='exiting'").fetchall():
            if (r["end_time"] or 0) + delay <= now:
                self.store.update_job(cur, r["rid"], phase="done", history_time=now, mtime=now)
        for r in cur.execute("SELECT rid FROM jobs WHERE phase='waiting' AND user_hold=0 "
                             "AND dep_hold=0 AND (not_before IS NULL OR not_before<=?)",
                             (now,)).fetchall():
            self.store.update_job(cur, r["rid"], phase="queued", eligible_time=now, mtime=now)


    # ------------------------------------------------------------ starting jobs

    def _start_jobs(self, cur, now):
        slots = int(self.cfg.get("slots", 4))
        gpus = int(self.cfg.get("gpus", 0))
        used = cur.execute("SELECT ifnull(sum(ncpus), 0), ifnull(sum(ngpus), 0) FROM jobs "
                           "WHERE phase='running'").fetchone()
        free_cpus, free_gpus = slots - used[0], gpus - used[1]
        candidates = cur.execute(
            "SELECT rid, seq, idx, kind, parent, ncpus, ngpus, comment FROM jobs "
            "WHERE phase='queued' AND kind!='array' AND (not_before IS NULL OR not_before<=?) "
            "ORDER BY seq, ifnull(idx, -1)", (now,)).fetchall()
        parents = {}
        for c in candidates:
            if c["kind"] == "sub":
                p = parents.get(c["parent"])
                if p is None:
                    prow = cur.execute("SELECT phase, max_running FROM jobs WHERE rid=?",
                                       (c["parent"],)).fetchone()
                    running = cur.execute("SELECT count(*) FROM jobs WHERE parent=? AND phase "
                                          "IN ('running', 'exiting')", (c["parent"],)).fetchone()[0]
                    p = parents[c["parent"]] = {"phase": prow["phase"] if prow else "done",
                                                "max": prow["max_running"] if prow else None,
                                                "running": running}
                if p["phase"] not in ("queued", "running"):
                    continue
                if p["max"] and p["running"] >= p["max"]:
                    continue
            if c["ncpus"] <= free_cpus and c["ngpus"] <= free_gpus:
                if self._spawn(cur, c["rid"], now):
                    free_cpus -= c["ncpus"]
                    free_gpus -= c["ngpus"]
                    if c["kind"] == "sub":
                        parents[c["parent"]]["running"] += 1
            else:
                comment = self.policy.not_run_comment(c["ncpus"], c["ngpus"], free_cpus,
                                                      free_gpus, slots, gpus)
                if comment != c["comment"]:
                    self.store.update_job(cur, c["rid"], comment=comment)

    def _spawn(self, cur, rid, now):
        job = core.decode(cur.execute("SELECT * FROM jobs WHERE rid=?", (rid,)).fetchone())
        parent = None
        if job["parent"]:
            parent = core.decode(cur.execute("SELECT * FROM jobs WHERE rid=?",
                                             (job["parent"],)).fetchone())
        job["run_count"] += 1
        prepare = getattr(self.policy, "prepare_start", None)
        if prepare is not None:
            job.update(prepare(cur, job, parent, now))     # e.g. the cores it gets
        try:
            spec = self.policy.launch(job, parent, now)
            kwargs = {}
            if os.geteuid() == 0 and spec["uid"] != 0:
                kwargs = dict(user=spec["uid"], group=spec["gid"], extra_groups=spec["groups"])
            p = subprocess.Popen(spec["argv"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 cwd=spec["cwd"], env=spec["env"], start_new_session=True,
                                 close_fds=True, **kwargs)
        except (OSError, subprocess.SubprocessError, KeyError, ValueError) as e:
            self.log("job %s could not start: %s" % (self.policy.display_id(job), e))
            self.policy.cleanup_run(job)
            fields = dict(phase="done", how="failed", exit_status=self.policy.START_FAILED_EXIT,
                          start_time=now, end_time=now, history_time=now, mtime=now,
                          run_count=job["run_count"])
            fields.update(self.policy.start_fields(job, parent, now))
            job["comment"] = fields.get("comment")
            fields.update(self.policy.end_fields(job, "failed", fields["exit_status"], now))
            self.store.update_job(cur, rid, **fields)
            return False
        self.children[rid] = p
        self.spawned.append(rid)
        fields = dict(phase="running", pgid=p.pid, start_time=now, end_time=None,
                      run_count=job["run_count"], how=None, request=None, kill_reason=None,
                      kill_sent=None, killed_hard=0, usage=None, mtime=now)
        if not job.get("eligible_time"):
            fields["eligible_time"] = now
        fields.update(self.policy.start_fields(job, parent, now))
        self.store.update_job(cur, rid, **fields)
        self.log("job %s started: pid %d" % (self.policy.display_id(job), p.pid))
        return True
