"""The server's bookkeeping between jobs: dependencies, job arrays, the history.

A mixin of the Engine (standin/server.py): every method runs inside the tick's one
write transaction `cur`. A Policy with `dependency_verdict(cur, job, now)` ('ok', 'wait'
or 'never') judges a held job's dependency itself; with `never_satisfied_fields(job,
now)` a job whose dependency can never be met stays held, those fields set (LSF).
"""

import os

from standin import core


class DepsMixin:
    # ------------------------------------------------------------ dependencies

    def _target(self, cur, dep):
        return cur.execute("SELECT rid, seq, idx, kind, phase, how, exit_status, start_time, "
                           "run_count FROM jobs WHERE seq=? AND kind=? AND ifnull(idx, -1)=?",
                           (dep["seq"], dep["kind"], -1 if dep.get("idx") is None else dep["idx"])
                           ).fetchone()

    @staticmethod
    def _verdict(dep_type, t):
        """'ok', 'wait' or 'never' for one dependency on target row t (None: forgotten)."""
        if t is None:
            return "ok"
        ran = bool(t["start_time"]) or t["run_count"] > 0
        done = t["phase"] == "done"
        killed = t["how"] in ("terminated", "deleted", "depdeleted")
        if dep_type == "after":
            return "ok" if ran else ("never" if done else "wait")
        if not done:
            return "wait"
        if dep_type == "afterany":
            return "ok"
        good = ran and not killed and t["exit_status"] == 0
        if dep_type == "afterok":
            return "ok" if good else "never"
        if dep_type == "afternotok":
            return "never" if good else "ok"
        return "wait"

    def _array_verdict(self, cur, dep, t):
        """'ok', 'wait' or 'never' for an array dependency (Torque's afterokarray,
        afternotokarray, afteranyarray, afterstartarray) on array row t: counted over
        its subjobs as req_register.c set_array_depend_holds does. dep["count"] is the
        number of subjobs that must qualify (`ID[][N]`), by default all of them."""
        if t is None:
            return "ok"
        subs = cur.execute("SELECT phase, how, exit_status, start_time, run_count FROM jobs "
                           "WHERE parent=?", (t["rid"],)).fetchall()
        need = dep.get("count") or len(subs)
        started = sum(1 for s in subs if s["start_time"] or s["run_count"] > 0)
        done = [s for s in subs if s["phase"] == "done"]
        good = sum(1 for s in done if self._verdict("afterok", s) == "ok")
        bad = len(done) - good
        kind = dep["type"][:-len("array")]
        if kind == "afterok":
            have, could = good, len(subs) - bad
        elif kind == "afternotok":
            have, could = bad, len(subs) - good
        elif kind == "afterany":
            have, could = len(done), len(subs)
        else:                           # afterstart
            have = started
            could = started + sum(1 for s in subs if s["phase"] != "done"
                                  and not (s["start_time"] or s["run_count"] > 0))
        if have >= need:
            return "ok"
        return "never" if could < need else "wait"

    def _resolve_deps(self, cur, now):
        for _ in range(20):             # cascades: a deleted dependent deletes its own
            changed = False
            rows = cur.execute("SELECT * FROM jobs WHERE dep_hold=1 AND phase='held'").fetchall()
            custom = getattr(self.policy, "dependency_verdict", None)
            for row in rows:
                job = core.decode(row)
                verdicts = []
                if custom is not None:      # the scheduler judges its own expression
                    verdict = custom(cur, job, now)
                    verdicts = [(verdict, {"seq": job["seq"], "type": "expression"})]
                for dep in ((job["deps"] or []) if custom is None else []):
                    t = self._target(cur, dep)
                    if dep["type"].endswith("array"):
                        verdicts.append((self._array_verdict(cur, dep, t), dep))
                    else:
                        verdicts.append((self._verdict(dep["type"], t), dep))
                never = [d for v, d in verdicts if v == "never"]
                keep = getattr(self.policy, "never_satisfied_fields", None)
                if never and keep is not None:
                    # The scheduler keeps such a job waiting (LSF): only say so, once.
                    fields = keep(job, now)
                    if any(job.get(k) != v for k, v in fields.items()):
                        self.store.update_job(cur, job["rid"], **fields)
                elif never:
                    self._delete_for_dependency(cur, job, never[0], now)
                    changed = True
                elif all(v == "ok" for v, _ in verdicts):
                    if job["user_hold"]:
                        phase = "held"
                    elif job["not_before"] and job["not_before"] > now:
                        phase = "waiting"
                    else:
                        phase = "queued"
                    self.store.update_job(cur, job["rid"], dep_hold=0, phase=phase,
                                          eligible_time=now, mtime=now)
                    self.log("job %s released (dependencies met)" % self.policy.display_id(job))
                    changed = True
            if not changed:
                return

    def _delete_for_dependency(self, cur, job, dep, now):
        cause = dep.get("id") or str(dep["seq"])
        fields = dict(phase="done", how="depdeleted", dep_hold=0, end_time=now, history_time=now,
                      mtime=now, dep_cause=cause)
        fields.update(self.policy.dependency_delete_fields(job, dep, cause, now))
        self.store.update_job(cur, job["rid"], **fields)
        sub_fields = getattr(self.policy, "dependency_delete_sub_fields", None)
        if job["kind"] == "array" and sub_fields is None:
            cur.execute("UPDATE jobs SET phase='done', how='deleted', end_time=?, history_time=?, "
                        "mtime=? WHERE parent=? AND phase!='done'", (now, now, now, job["rid"]))
        elif job["kind"] == "array":
            for r in cur.execute("SELECT rid FROM jobs WHERE parent=? AND phase!='done'",
                                 (job["rid"],)).fetchall():
                self.store.update_job(cur, r["rid"], phase="done", how="depdeleted", end_time=now,
                                      history_time=now, mtime=now, dep_cause=cause,
                                      **sub_fields(job, dep, cause, now))
        self.log("job %s deleted: dependency on %s can never be met"
                 % (self.policy.display_id(job), cause))

    # ------------------------------------------------------------ arrays

    def _update_arrays(self, cur, now):
        parents = cur.execute("SELECT * FROM jobs WHERE kind='array' AND phase IN "
                              "('queued', 'running')").fetchall()
        for prow in parents:
            parent = core.decode(prow)
            subs = cur.execute("SELECT idx, phase, how, exit_status, start_time, end_time "
                               "FROM jobs WHERE parent=? ORDER BY idx", (parent["rid"],)).fetchall()
            begun = any(s["phase"] in ("running", "exiting") or s["start_time"] for s in subs)
            if parent["phase"] == "queued" and begun:
                fields = dict(phase="running", start_time=now, mtime=now)
                fields.update(self.policy.array_begin_fields(parent, now))
                self.store.update_job(cur, parent["rid"], **fields)
                parent.update(fields)
            if subs and all(s["phase"] == "done" for s in subs):
                how, exit_status = self.policy.array_outcome(subs)
                fields = dict(phase="done", how=how, exit_status=exit_status, end_time=now,
                              history_time=now, mtime=now)
                fields.update(self.policy.array_end_fields(parent, how, now))
                self.store.update_job(cur, parent["rid"], **fields)
                self.log("array %s finished: %s" % (self.policy.display_id(parent), how))

    # ------------------------------------------------------------ history

    def _purge(self, cur, now):
        setting = getattr(self.policy, "HISTORY_SETTING", "job_history_duration")
        keep = float(self.cfg.get(setting, 3600))
        rows = cur.execute("SELECT rid FROM jobs WHERE phase='done' AND kind IN ('job', 'array') "
                           "AND history_time IS NOT NULL AND history_time<=?",
                           (now - keep,)).fetchall()
        if rows:
            purge_jobs(cur, [r["rid"] for r in rows])


def purge_jobs(cur, rids):
    """Forget finished top-level jobs (and their subjobs); remove their spool copies."""
    scripts = set()
    for rid in rids:
        for r in cur.execute("SELECT script FROM jobs WHERE rid=? OR parent=?", (rid, rid)):
            if r["script"]:
                scripts.add(r["script"])
        cur.execute("DELETE FROM jobs WHERE rid=? OR parent=?", (rid, rid))
    for script in scripts:
        if cur.execute("SELECT 1 FROM jobs WHERE script=? LIMIT 1", (script,)).fetchone() is None:
            try:
                os.unlink(script)
            except OSError:
                pass
