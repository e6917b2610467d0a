#!/usr/bin/env python3
"""Hostile-input probe of ORCA's CLI (standard library only).

    python3 probe.py [--repo REPO (default: this checkout)] [--cases cases.json] [--only ID[,ID...]] [--grep SUBSTR]
                     [--jobs 2] [--timeout 30] [--out results.json]

Each case runs `<repo>/.venv/bin/python -m core.cli ARGV` in a fresh temp dir (cwd), with PYTHONPATH=<repo>,
ORCA_DB=<tmp>/orca.duckdb, ORCA_CACHE_DIR in a probe-wide temp dir, and no API keys in the environment.

Case fields: id, argv, expect ("refuse" | "ok" | "either"), and optionally
  stdin          string (encoded UTF-8 with surrogatepass, so lone surrogates become invalid bytes) or {"generate": expr}
  files          {relpath: {"text": s} | {"bytes_b64": s} | {"generate": expr} | {"fixture": name in fixtures/}
                  | {"dir": true[, "mode": 0o555]}
                  | {"fifo": true} | {"symlink": target}}
  env            extra environment variables ({tmp} is substituted)
  pre            [{"argv": [...], "stdin": ...}] run first (not classified); the last JSON object (or JSON line) each
                 prints supplies {pre:run_id}, {pre:experiment_id}, {pre:run_id_prefix} for later argv
  chat           "inventory" | "schedule": stdout must be one JSON line per non-blank stdin line (+1 opening line
                 for the schedule chat), each carrying run_id
  check          a Python expression over out, lines, stdout, stderr, rc, tmp, os (+ helpers below); must be true
                 when the command exits 0 (and on refusal too when expect is "refuse": side-effect checks)
  refusal_check  an expression that must hold when the command refuses (exit 2)
  nonsense_check prose: what a correct answer must (not) say
{rep:C:N} in argv, stdin, env and file text expands to C repeated N times.
`generate` expressions are evaluated with tmp, zipbytes({name: bytes}), fixture(name) and gzip in scope.

Classes: internal (exit 70, a traceback, a non-zero exit whose stderr is not the documented
{"error": ..., "field": ...} object, an unexpected exit code or a signal), hang (no answer in the time limit),
nonsense (exit 0 where refusal was expected, a failed check, stdout that is not NaN-free JSON),
refusal (clear refusal, as expected or allowed), unexpected-refusal (clear refusal of a case expected to
succeed), ok.
"""
import argparse
import base64
import concurrent.futures as cf
import gzip
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures")  # set from --cases in main()
KEY_ENV = re.compile(r"(API_KEY|_TOKEN|SECRET|PASSWORD|^ANTHROPIC_|^OPENAI_|^ORCA_)", re.I)


def zipbytes(members):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


def fixture(name):
    with open(os.path.join(FIXTURES, name), "rb") as f:
        return f.read()


def gen(expr, tmp):
    v = eval(expr, {"__builtins__": __builtins__, "tmp": tmp, "zipbytes": zipbytes, "gzip": gzip, "fixture": fixture})
    return v.encode("utf-8", "surrogatepass") if isinstance(v, str) else bytes(v)


REP = re.compile(r"\{rep:(.):(\d+)\}", re.S)


def expand(s):
    """{rep:C:N} -> C * N (long hostile strings without bloating cases.json)."""
    return REP.sub(lambda m: m.group(1) * int(m.group(2)), s)


def sub(s, tmp, pre):
    s = expand(s).replace("{tmp}", tmp)
    for k, v in pre.items():
        s = s.replace("{pre:%s}" % k, str(v))
    return s


def write_files(files, tmp):
    for rel, spec in (files or {}).items():
        path = rel if os.path.isabs(rel) else os.path.join(tmp, rel)
        if path.startswith(("/proc", "/dev", "/sys")):
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if spec.get("dir"):
            os.makedirs(path, exist_ok=True)
            if "mode" in spec:
                os.chmod(path, spec["mode"])
        elif spec.get("fifo"):
            os.mkfifo(path)
        elif "symlink" in spec:
            os.symlink(sub(spec["symlink"], tmp, {}), path)
        else:
            if "text" in spec:
                data = expand(spec["text"]).encode("utf-8", "surrogatepass")
            elif "fixture" in spec:
                data = fixture(spec["fixture"])
            elif "bytes_b64" in spec:
                data = base64.b64decode(spec["bytes_b64"])
            else:
                data = gen(spec["generate"], tmp)
            with open(path, "wb") as f:
                f.write(data)


def stdin_bytes(stdin, tmp):
    if stdin is None:
        return b""
    if isinstance(stdin, dict):
        return gen(stdin["generate"], tmp)
    return sub(stdin, tmp, {}).encode("utf-8", "surrogatepass")


def make_env(repo, tmp, cache, extra):
    env = {k: v for k, v in os.environ.items() if not KEY_ENV.search(k)}
    env.update({"PYTHONPATH": repo, "ORCA_DB": os.path.join(tmp, "orca.duckdb"), "ORCA_CACHE_DIR": cache,
                "PYTHONDONTWRITEBYTECODE": "1", "HOME": tmp, "MPLCONFIGDIR": os.path.join(tmp, ".mpl"),
                "RAY_USAGE_STATS_ENABLED": "0"})
    for k, v in (extra or {}).items():
        env[k] = sub(v, tmp, {})
    return env


def run(cmd, cwd, env, data, timeout):
    """Runs cmd in its own process group; on timeout kills the group. Returns (rc|None, out, err, seconds)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        out, err = p.communicate(data, timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            out, err = p.communicate(timeout=10)
        except subprocess.TimeoutExpired:  # a grandchild in another session still holds the pipes
            out, err = b"", b""
            for s in (p.stdout, p.stderr):
                try:
                    s.close()
                except OSError:
                    pass
        rc = None
    # also reap stray children (experiment workers) left in the group
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    return rc, out, err, time.monotonic() - t0


def _no_nan(s):
    def bad(c):
        raise ValueError("non-finite constant " + c)
    return json.loads(s, parse_constant=bad)


def last_json(text):
    for line in reversed(text.splitlines()):
        try:
            v = json.loads(line)
        except ValueError:
            continue
        if isinstance(v, dict):
            return v
    try:
        v = json.loads(text)
        return v if isinstance(v, dict) else {}
    except ValueError:
        return {}


def error_object(err, pretty):
    """True when stderr is the documented refusal: one JSON {"error": str, "field": ...} (or 'error: ...' with --pretty)."""
    text = err.decode("utf-8", "replace").strip()
    if not text:
        return False, "empty stderr"
    if pretty and text.splitlines()[-1].startswith("error:") or pretty and text.startswith("error:"):
        return True, ""
    lines = [l for l in text.splitlines() if l.strip()]
    cand = [text] + lines[-1:]
    for c in cand:
        try:
            v = json.loads(c)
        except ValueError:
            continue
        if isinstance(v, dict) and isinstance(v.get("error"), str) and v["error"].strip() and "field" in v:
            return True, ("" if c is text else "extra text before the JSON error line")
    return False, "stderr is not a JSON {error, field} object"


# helpers for checks ------------------------------------------------------------------------------------------
def chat_ok(lines, opening=0):
    return all(isinstance(l, dict) for l in lines)


def _table_values(lines):
    for l in lines:
        t = l.get("table") if isinstance(l, dict) else None
        if isinstance(t, dict):
            for k, v in t.items():
                val = v.get("value") if isinstance(v, dict) else v
                yield k, val


def _num(v):
    try:
        return float(str(v).replace(",", ""))
    except (TypeError, ValueError):
        return None


def no_huge_table(lines):
    for k, v in _table_values(lines):
        if isinstance(v, str) and len(v) > 200:
            return False
        x = _num(v)
        if x is not None and (x != x or abs(x) > 1e9):
            return False
    return True


def no_negative_table(lines):
    for k, v in _table_values(lines):
        if k in ("time_horizon", "lead_time", "max_inventory", "max_order"):
            x = _num(v)
            if x is not None and (x < 0 or (k == "time_horizon" and x == 0)):
                return False
    return True


def group_of(argv):
    toks, i = [], 0
    while i < len(argv):
        a = argv[i]
        if a == "--db":
            i += 2
            continue
        if a.startswith("-"):
            i += 1
            continue
        toks.append(a)
        i += 1
    if not toks:
        return "(none)", "(none)"
    g = toks[0]
    s = " ".join(toks[:3]) if (len(toks) > 2 and toks[1] == "lab") else " ".join(toks[:2])
    return g, s


def classify(case, rc, out, err, tmp, pretty):
    """Returns (cls, detail)."""
    expect = case.get("expect", "either")
    errtext = err.decode("utf-8", "replace")
    if rc is None:
        return "hang", "no answer within the time limit"
    if "Traceback (most recent call last)" in errtext:
        return "internal", "traceback on stderr"
    if rc == 70:
        return "internal", "exit 70"
    if rc < 0:
        return "internal", f"killed by signal {-rc}"
    if rc not in (0, 2, 130):
        return "internal", f"undocumented exit code {rc}"
    if rc == 2:
        ok, why = error_object(err, pretty)
        if not ok:
            return "internal", why
        if expect == "ok":
            return "unexpected-refusal", why or "refused a valid case"
        chk = case.get("refusal_check") or (case.get("check") if expect == "refuse" else None)
        if chk:  # side-effect checks (no code run, file untouched, no env leak) hold on refusal too
            ns = {"out": {}, "lines": [], "stdout": out.decode("utf-8", "replace"), "stderr": errtext, "rc": rc,
                  "tmp": tmp, "os": os}
            try:
                good = bool(eval(chk, ns))
            except Exception as e:
                good, chk = False, f"{chk} raised {type(e).__name__}: {e}"
            if not good:
                return "nonsense", f"refused, but check failed: {chk[:200]}"
        return "refusal", why
    if rc == 130:
        return "internal", "exit 130 without an interrupt"
    # rc == 0
    stdout = out.decode("utf-8", "replace")
    outj, lines = None, []
    try:
        if case.get("chat"):
            raw = [l for l in stdout.splitlines() if l.strip()]
            lines = [_no_nan(l) for l in raw]
        else:
            outj = _no_nan(stdout)
    except ValueError as e:
        return "nonsense", f"stdout is not NaN-free JSON ({str(e)[:120]})"
    if expect == "refuse":
        return "nonsense", "exit 0 where a refusal was expected"
    if case.get("chat"):
        data = stdin_bytes(case.get("stdin"), tmp)
        n_in = sum(1 for l in data.split(b"\n") if l.strip())
        want = n_in + (1 if case["chat"] == "schedule" else 0)
        if len(lines) != want:
            return "nonsense", f"{len(lines)} answer lines for {n_in} input lines (want {want})"
        if not all(isinstance(l, dict) and l.get("run_id") for l in lines):
            return "nonsense", "an answer line without run_id"
        if any(isinstance(l, dict) and l.get("field") == "internal" for l in lines):
            return "internal", "a chat line with field 'internal'"
    chk = case.get("check")
    if chk:
        ns = {"out": outj if outj is not None else {}, "lines": lines, "stdout": stdout, "stderr": errtext, "rc": rc,
              "tmp": tmp, "os": os, "chat_ok": chat_ok, "no_huge_table": no_huge_table,
              "no_negative_table": no_negative_table}
        try:
            good = bool(eval(chk, ns))
        except Exception as e:  # a check that cannot even be evaluated on the answer is a failed check
            good, chk = False, f"{chk} raised {type(e).__name__}: {e}"
        if not good:
            return "nonsense", f"check failed: {chk[:200]}"
    return "ok", ""


def run_case(case, repo, py, cache, timeout):
    tmp = tempfile.mkdtemp(prefix="orca-hostile-")
    res = {"id": case["id"], "expect": case.get("expect")}
    res["group"], res["command"] = group_of(case.get("argv", []))
    res["group"] = case.get("group", res["group"])
    try:
        try:
            write_files(case.get("files"), tmp)
        except Exception as e:
            res.update(cls="probe-error", detail=f"writing files: {type(e).__name__}: {e}")
            return res
        env = make_env(repo, tmp, cache, case.get("env"))
        if os.geteuid() == 0 and any(isinstance(f, dict) and "mode" in f for f in (case.get("files") or {}).values()):
            # root ignores directory permissions: an unwritable folder cannot be simulated
            case = dict(case, expect="either", check=None)
            res["note"] = "run as root: permission case relaxed to 'either'"
        pre_vals = {}
        for step in case.get("pre", []):
            argv = [sub(a, tmp, pre_vals) for a in step["argv"]]
            rc, out, err, _ = run([py, "-m", "core.cli"] + argv, tmp, env, stdin_bytes(step.get("stdin"), tmp), timeout)
            j = last_json(out.decode("utf-8", "replace"))
            for k in ("run_id", "experiment_id"):
                if j.get(k):
                    pre_vals[k] = j[k]
            if "run_id" in pre_vals:
                pre_vals["run_id_prefix"] = str(pre_vals["run_id"])[:6]
            if rc != 0:
                res["pre_failed"] = f"pre step {argv[:3]} exit {rc}: {err.decode('utf-8', 'replace')[-300:]}"
        argv = [sub(a, tmp, pre_vals) for a in case["argv"]]
        if any("{pre:" in a for a in argv):
            res.update(cls="probe-error", detail="pre step did not yield " + ",".join(a for a in argv if "{pre:" in a)[:200]
                       + "; " + res.get("pre_failed", ""))
            return res
        try:
            rc, out, err, secs = run([py, "-m", "core.cli"] + argv, tmp, env, stdin_bytes(case.get("stdin"), tmp), timeout)
        except (ValueError, OSError) as e:
            res.update(cls="probe-error", detail=f"cannot start: {type(e).__name__}: {e}")
            return res
        cls, detail = classify(case, rc, out, err, tmp, "--pretty" in argv)
        res.update(cls=cls, detail=detail, rc=rc, seconds=round(secs, 2),
                   stdout=out[:600].decode("utf-8", "replace"), stderr=err[-1200:].decode("utf-8", "replace"))
        if case.get("nonsense_check"):
            res["nonsense_check"] = case["nonsense_check"]
        return res
    finally:
        for root, dirs, _ in os.walk(tmp):
            for d in dirs:
                try:
                    os.chmod(os.path.join(root, d), 0o755)
                except OSError:
                    pass
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repo", default=os.path.dirname(os.path.dirname(HERE)))
    ap.add_argument("--cases", default=os.path.join(HERE, "cases.json"))
    ap.add_argument("--only", help="comma-separated case ids")
    ap.add_argument("--grep", help="only cases whose id contains this")
    ap.add_argument("--jobs", type=int, default=2, help="parallel cases (at most 2)")
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--out", default=os.path.join(HERE, "..", "results", "hostile.json"))
    a = ap.parse_args()
    repo = os.path.abspath(a.repo)
    py = os.path.join(repo, ".venv", "bin", "python")
    if not os.path.exists(py):
        sys.exit(f"no interpreter at {py}")
    global FIXTURES
    FIXTURES = os.path.join(os.path.dirname(os.path.abspath(a.cases)), "fixtures")
    cases = json.load(open(a.cases))
    if a.only:
        want = set(a.only.split(","))
        cases = [c for c in cases if c["id"] in want]
    if a.grep:
        cases = [c for c in cases if a.grep in c["id"]]
    jobs = max(1, min(2, a.jobs))
    cache = tempfile.mkdtemp(prefix="orca-hostile-cache-")
    lock = threading.Lock()
    results = []
    t0 = time.monotonic()
    try:
        with cf.ThreadPoolExecutor(max_workers=jobs) as ex:
            futs = {ex.submit(run_case, c, repo, py, cache, a.timeout): c for c in cases}
            for fut in cf.as_completed(futs):
                try:
                    r = fut.result()
                except Exception as e:
                    c = futs[fut]
                    r = {"id": c["id"], "cls": "probe-error", "detail": f"{type(e).__name__}: {e}",
                         "group": group_of(c.get("argv", []))[0], "command": group_of(c.get("argv", []))[1]}
                with lock:
                    results.append(r)
                    print(f"{r['cls']:<18} {r['id']:<42} rc={r.get('rc')!s:<4} {r.get('seconds', '')!s:>6}s  {r.get('detail', '')[:110]}",
                          flush=True)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    order = {c["id"]: i for i, c in enumerate(json.load(open(a.cases)))}
    results.sort(key=lambda r: order.get(r["id"], 0))
    classes = ["internal", "hang", "nonsense", "unexpected-refusal", "refusal", "ok", "probe-error"]
    groups = sorted({r["group"] for r in results})
    print("\nSummary (cases per class and group)")
    print(f"{'group':<14}" + "".join(f"{c:>19}" for c in classes) + f"{'total':>8}")
    for g in groups + ["ALL"]:
        rs = [r for r in results if g == "ALL" or r["group"] == g]
        print(f"{g:<14}" + "".join(f"{sum(r['cls'] == c for r in rs):>19}" for c in classes) + f"{len(rs):>8}")
    cmds = sorted({r["command"] for r in results})
    print("\nPer command (internal / hang / nonsense / unexpected-refusal / refusal / ok / probe-error)")
    for cm in cmds:
        rs = [r for r in results if r["command"] == cm]
        print(f"  {cm:<26}" + " ".join(f"{sum(r['cls'] == c for r in rs):>4}" for c in classes) + f"   of {len(rs)}")
    bad = [r for r in results if r["cls"] in ("internal", "hang", "nonsense", "probe-error")]
    if bad:
        print("\nFindings:")
        for r in bad:
            print(f"  {r['cls']:<12} {r['id']}: {r.get('detail', '')[:160]}")
    with open(a.out, "w") as f:
        json.dump({"repo": repo, "seconds": round(time.monotonic() - t0, 1), "cases": len(results),
                   "counts": {c: sum(r["cls"] == c for r in results) for c in classes},
                   "by_group": {g: {c: sum(r["cls"] == c and r["group"] == g for r in results) for c in classes} for g in groups},
                   "results": results}, f, indent=1)
    print(f"\nwrote {a.out}")


if __name__ == "__main__":
    main()
