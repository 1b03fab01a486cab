#!/usr/bin/env python3
"""Crash-safety harness (`make crash`): kills `formulary import` and `formulary validate` with
SIGKILL at points spread over their work, and checks the database after every kill.

For each kill the harness copies a template database (the sign-up form of bench/signup.form and
--base entries, already validated once), starts the command on the copy, sends SIGKILL after a
delay, and then checks that:

  1. `PRAGMA integrity_check` answers ok and `PRAGMA foreign_key_check` finds nothing;
  2. `formulary audit verify` passes (exit 0);
  3. an interrupted import is all there or not there at all: the entries, the `imports` row and
     its `import` audit record went up by N, 1 and 1, or not at all;
  4. every run is complete (with every form judged to its last id, counts that add up, and its
     `validate` audit record) or reads as incomplete: a run the killed process left `running`
     must be reported `incomplete` by `formulary --format json report --run ID`, and the next
     `formulary validate` must record it `incomplete` (with its audit record) and complete its
     own run.

The kill delays are spread evenly over the measured wall time of an uninterrupted run (median
of three). A kill that arrives after the process has already exited does not count: the
harness retries that point with a shorter delay, so that every one of the kills lands on a
running process. Prints the figure "kills survived: S/K"; exits 1 when any kill was not
survived.

Usage: scripts/crash-harness.py [--binary .build/release/formulary] [--kills 200]
                                [--base 100000] [--records 50000] [--keep]
"""
import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TODAY = (2026, 11, 29)

# ---------------------------------------------------------------------------------------------
# Data: sign-up records in the shape of bench/FormularyBench/SignupData.swift (about 15% with
# one defect each), deterministic for a seed.

FIRST = ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Zoë", "José", "Søren", "Mary-Jane",
         "Jean-Luc", "Chloé", "Björn", "Ngozi", "Wei", "Aiko", "Liam", "Olivia", "Noah", "Emma"]
LAST = ["Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "O'Neil", "García",
        "Kierkegaard", "Okafor", "Zhang", "Tanaka", "Smith", "Johnson", "Müller", "Dubois", "Rossi",
        "van Dijk", "Nowak", "Silva"]
DOMAINS = ["example.com", "mail.example.org", "example.net", "post.example.co.uk"]


def luhn_digit(digits):
    total = 0
    for i, d in enumerate(reversed(digits)):
        v = d * 2 if i % 2 == 0 else d
        total += v - 9 if v > 9 else v
    return (10 - total % 10) % 10


def signup_rows(count, seed, start=0):
    rng = random.Random(seed)
    for n in range(start + 1, start + count + 1):
        first, last = rng.choice(FIRST), rng.choice(LAST)
        name = f"{first} {last}"
        local = "".join(c for c in first.lower() if c.isascii() and c.isalpha()) + f".{n}"
        email = f"{local}@{rng.choice(DOMAINS)}"
        style = rng.randrange(10)
        phone = "" if style < 2 else (f"({rng.randint(200, 999)}) {rng.randint(100, 999)}-{rng.randint(1000, 9999)}"
                                      if style < 6 else f"{rng.randint(200, 999)}-{rng.randint(100, 999)}-{rng.randint(1000, 9999)}")
        age = str(rng.randint(18, 120))
        digits = [4] + [rng.randrange(10) for _ in range(14)]
        digits.append(luhn_digit(digits))
        months = TODAY[1] - 1 + rng.randrange(120)
        exp = f"{months % 12 + 1:02d}/{(TODAY[0] + months // 12) % 100:02d}"
        cvv = str(rng.randint(100, 999))
        if rng.randrange(100) < 15:
            defect = rng.randrange(8)
            if defect == 0:
                digits[15] = (digits[15] + 1 + rng.randrange(9)) % 10
            elif defect == 1:
                exp = f"{rng.randint(1, 12):02d}/{(TODAY[0] - 13 - rng.randrange(20)) % 100:02d}"
            elif defect == 2:
                age = str(rng.randrange(18))
            elif defect == 3:
                age = rng.choice(["abc", "4O", "30.5", "+30"])
            elif defect == 4:
                email = rng.choice([f"{local}example.com", f"{local}@", "@example.com"])
            elif defect == 5:
                phone = f"{rng.randint(100, 999)}-{rng.randint(1000, 9999)}"
            elif defect == 6:
                cvv = str(rng.randint(1000, 9999))
            else:
                name = "  "
        card = " ".join("".join(map(str, digits[i:i + 4])) for i in range(0, 16, 4))
        yield [name, email, phone, age, card, exp, cvv]


def write_csv(path, count, seed, start=0):
    import csv
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["name", "email", "phone", "age", "card", "exp", "cvv"])
        w.writerows(signup_rows(count, seed, start))


# ---------------------------------------------------------------------------------------------
# Running formulary

class Harness:
    def __init__(self, binary, work):
        self.binary = binary
        self.work = work
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "FORMULARY_TODAY": "%04d-%02d-%02d" % TODAY,
            "FORMULARY_PATH": "",
            "NO_COLOR": "1",
            "USER": "crash-harness",
            "HOME": work,
            "LANG": "C.UTF-8",
        }

    def argv(self, db, *args):
        return [self.binary, "--db", db, *args]

    def run(self, db, *args, ok=(0,)):
        p = subprocess.run(self.argv(db, *args), cwd=self.work, env=self.env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode not in ok:
            raise RuntimeError(f"formulary {' '.join(args)} → exit {p.returncode}\n{p.stdout}{p.stderr}")
        return p

    def start(self, db, *args):
        return subprocess.Popen(self.argv(db, *args), cwd=self.work, env=self.env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def checkpoint(db):
    """Folds any WAL into the main file, so that copying the one file copies the database."""
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


def copy_db(src, dst):
    for suffix in ("-wal", "-shm", "-journal"):
        if os.path.exists(dst + suffix):
            os.remove(dst + suffix)
    shutil.copyfile(src, dst)


def snapshot(db):
    con = sqlite3.connect(db)
    try:
        q = lambda sql: con.execute(sql).fetchone()[0]
        return {
            "entries": q("SELECT count(*) FROM entries"),
            "imports": q("SELECT count(*) FROM imports"),
            "import_audits": q("SELECT count(*) FROM audit_log WHERE action = 'import'"),
            "runs": q("SELECT count(*) FROM runs"),
        }
    finally:
        con.close()


class Failure(Exception):
    pass


def check(h, db, before, kind, records):
    """All the checks of one kill; raises Failure with what broke. Returns the outcome."""
    con = sqlite3.connect(db)
    try:
        integrity = [r[0] for r in con.execute("PRAGMA integrity_check")]
        if integrity != ["ok"]:
            raise Failure(f"integrity_check: {integrity[:5]}")
        fk = con.execute("PRAGMA foreign_key_check").fetchall()
        if fk:
            raise Failure(f"foreign_key_check: {fk[:5]}")
        q = lambda sql, *a: con.execute(sql, a).fetchone()[0]
        after = {
            "entries": q("SELECT count(*) FROM entries"),
            "imports": q("SELECT count(*) FROM imports"),
            "import_audits": q("SELECT count(*) FROM audit_log WHERE action = 'import'"),
        }
        # All or none of an interrupted import (nothing else imports in the harness).
        n = records if kind == "import" else 0
        none = all(after[k] == before[k] for k in after)
        whole = (after["entries"] == before["entries"] + n and after["imports"] == before["imports"] + 1
                 and after["import_audits"] == before["import_audits"] + 1)
        if not (none or whole):
            raise Failure(f"partial import: before {before}, after {after}")
        outcome = ("none" if none else "all") if kind == "import" else "run"

        runs = con.execute("SELECT id, status, ended_at, entries_checked FROM runs ORDER BY id").fetchall()
        left_running = []
        for run_id, status, ended_at, checked in runs:
            audits = q("SELECT count(*) FROM audit_log WHERE action = 'validate' AND subject = ?", str(run_id))
            if status == "complete":
                forms = con.execute("SELECT form_id, last_id, judged_through, entries_checked FROM run_forms "
                                    "WHERE run_id = ?", (run_id,)).fetchall()
                if not forms or ended_at is None:
                    raise Failure(f"run {run_id} is complete without forms or end time")
                for form_id, last_id, judged, form_checked in forms:
                    expected = q("SELECT count(*) FROM entries WHERE form_id = ? AND id <= ?", form_id, last_id)
                    if judged < last_id or form_checked != expected:
                        raise Failure(f"run {run_id} reads complete but judged {form_checked} of {expected} "
                                      f"entries (through {judged} of {last_id})")
                if checked != sum(f[3] for f in forms):
                    raise Failure(f"run {run_id}: counts do not add up")
                if audits != 1:
                    raise Failure(f"run {run_id} is complete with {audits} validate audit records")
            elif status == "incomplete":
                if audits != 1:
                    raise Failure(f"run {run_id} is incomplete with {audits} validate audit records")
            elif status == "running":
                if audits != 0:
                    raise Failure(f"run {run_id} is running with an audit record")
                left_running.append(run_id)
            else:
                raise Failure(f"run {run_id} has status {status!r}")
    finally:
        con.close()

    verify = h.run(db, "audit", "verify", ok=(0, 1, 2, 3))
    if verify.returncode != 0:
        raise Failure(f"audit verify → exit {verify.returncode}: {verify.stdout}{verify.stderr}")

    # A run the killed process left running must read as incomplete…
    for run_id in left_running:
        report = h.run(db, "--format", "json", "report", "--run", str(run_id), ok=(0, 1, 2, 3))
        try:
            status = json.loads(report.stdout).get("run", {}).get("status")
        except ValueError:
            status = None
        if status is None:
            status = find_status(report.stdout)
        if status != "incomplete":
            raise Failure(f"run {run_id} left running reads {status!r}: {report.stdout[:300]}{report.stderr}")
    # …and the next validation records it so and completes its own run.
    if left_running:
        h.run(db, "validate", ok=(0, 1))
        con = sqlite3.connect(db)
        try:
            for run_id in left_running:
                status, = con.execute("SELECT status FROM runs WHERE id = ?", (run_id,)).fetchone()
                audits = con.execute("SELECT count(*) FROM audit_log WHERE action = 'validate' AND subject = ?",
                                     (str(run_id),)).fetchone()[0]
                if status != "incomplete" or audits != 1:
                    raise Failure(f"after the next validate, run {run_id} is {status} with {audits} audit records")
            last = con.execute("SELECT status FROM runs ORDER BY id DESC LIMIT 1").fetchone()[0]
            if last != "complete":
                raise Failure(f"the validation after the kill ended {last}")
        finally:
            con.close()
        verify = h.run(db, "audit", "verify", ok=(0, 1, 2, 3))
        if verify.returncode != 0:
            raise Failure(f"audit verify after recovery → exit {verify.returncode}: {verify.stdout}{verify.stderr}")
        outcome += " left running"
    elif kind == "validate":
        outcome = "no run started" if len(runs) == before["runs"] else "run finished"
    return outcome


def find_status(text):
    """The first "status" value anywhere in a JSON document (the report's shape may nest it)."""
    try:
        stack = [json.loads(text)]
    except ValueError:
        return None
    while stack:
        v = stack.pop(0)
        if isinstance(v, dict):
            if isinstance(v.get("status"), str):
                return v["status"]
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return None


def timed_run(h, template, db, args):
    copy_db(template, db)
    t0 = time.monotonic()
    h.run(db, *args, ok=(0, 1))
    return time.monotonic() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build/release/formulary"))
    ap.add_argument("--kills", type=int, default=200, help="total kills, half import, half validate")
    ap.add_argument("--base", type=int, default=100_000, help="entries in the template database")
    ap.add_argument("--records", type=int, default=50_000, help="records of the interrupted import")
    ap.add_argument("--work", help="working folder (default: a new temporary one)")
    ap.add_argument("--keep", action="store_true", help="keep the working folder and failing databases")
    ap.add_argument("--verbose", action="store_true", help="one line per kill")
    a = ap.parse_args()
    if not os.access(a.binary, os.X_OK):
        sys.exit(f"crash-harness: no executable at {a.binary} (build it: swift build -c release --product formulary)")
    binary = os.path.abspath(a.binary)
    work = a.work or tempfile.mkdtemp(prefix="formulary-crash-")
    os.makedirs(work, exist_ok=True)
    h = Harness(binary, work)
    template = os.path.join(work, "template.db")
    db = os.path.join(work, "trial.db")
    started = time.monotonic()

    print(f"crash-harness: building a template database of {a.base} entries in {work}", flush=True)
    for path in (template, template + "-wal", template + "-shm"):
        if os.path.exists(path):
            os.remove(path)
    write_csv(os.path.join(work, "base.csv"), a.base, seed=1)
    write_csv(os.path.join(work, "import.csv"), a.records, seed=2, start=a.base)
    shutil.copyfile(os.path.join(ROOT, "bench", "signup.form"), os.path.join(work, "signup.form"))
    h.run(template, "init")
    h.run(template, "forms", "add", "signup.form")
    h.run(template, "import", "--form", "signup", "base.csv")
    h.run(template, "validate", ok=(0, 1))
    checkpoint(template)

    jobs = {
        "import": ["import", "--form", "signup", "import.csv"],
        "validate": ["validate"],
    }
    durations = {k: statistics.median(timed_run(h, template, db, args) for _ in range(3)) for k, args in jobs.items()}
    print("crash-harness: uninterrupted runs take " +
          ", ".join(f"{k} {v:.3f} s" for k, v in durations.items()), flush=True)

    before = snapshot(template)
    per_kind = {"import": a.kills // 2, "validate": a.kills - a.kills // 2}
    survived, total, failures = 0, 0, []
    outcomes = {k: {} for k in jobs}
    for kind, kills in per_kind.items():
        for i in range(kills):
            delay = durations[kind] * (i + 0.5) / kills
            landed = False
            for attempt in range(8):
                copy_db(template, db)
                p = h.start(db, *jobs[kind])
                time.sleep(delay)
                if p.poll() is None:
                    p.send_signal(signal.SIGKILL)
                    landed = True
                p.communicate()
                if landed:
                    break
                delay *= 0.8  # it finished first: try a little earlier
            if not landed:
                print(f"crash-harness: {kind} kill {i + 1}: the process always finished first; skipped")
                continue
            total += 1
            try:
                outcome = check(h, db, before, kind, a.records)
                survived += 1
                outcomes[kind][outcome] = outcomes[kind].get(outcome, 0) + 1
                if a.verbose:
                    print(f"  {kind:8} kill {i + 1:3} at {delay:.3f} s: ok ({outcome})", flush=True)
            except (Failure, RuntimeError, sqlite3.Error) as e:
                failures.append(f"{kind} kill {i + 1} at {delay:.3f} s: {e}")
                print(f"  {kind:8} kill {i + 1:3} at {delay:.3f} s: FAILED: {e}", flush=True)
                if a.keep:
                    shutil.copyfile(db, os.path.join(work, f"failed-{kind}-{i + 1}.db"))

    for kind in jobs:
        parts = ", ".join(f"{v} {k}" for k, v in sorted(outcomes[kind].items(), key=lambda kv: -kv[1]))
        print(f"crash-harness: {kind}: {parts}")
    print(f"crash-harness: {time.monotonic() - started:.0f} s in all")
    print(f"kills survived: {survived}/{total}" + ("" if total == a.kills else f" (of {a.kills} planned)"))
    if not a.keep and not a.work:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(0 if survived == total == a.kills else 1)


if __name__ == "__main__":
    main()
