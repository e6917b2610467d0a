#!/usr/bin/env python3
"""Builds cases.json (hostile inputs for ORCA's CLI). Standard library only.

Fixtures (small valid files produced once with ORCA's own CLI and embedded in the cases):
  fixtures/params.csv          a valid 12-row extracted_params.csv (T=20, L=2, backlog)
  fixtures/order_config.json   + order_weights.pth: `inventory optimize` artifacts for that table (DQN on)
  fixtures/repair_mini.json    a 2-problem LP-repair data set (ME-1 train/test) from `repair generate --small 1`
"""
import base64
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FX = os.path.join(HERE, "fixtures")


def rd(name, mode="r"):
    with open(os.path.join(FX, name), mode) as f:
        return f.read()


PARAMS_CSV = rd("params.csv")
ORDER_CONFIG = rd("order_config.json")
ORDER_WEIGHTS_B64 = base64.b64encode(rd("order_weights.pth", "rb")).decode()
REPAIR_MINI = rd("repair_mini.json")
REPAIR_PID = "sc-test-me-1-00010"

BASE_ROWS = []
for line in PARAMS_CSV.strip().splitlines()[1:]:
    # parameter,value,unit,status ; the distribution value is quoted
    p, rest = line.split(",", 1)
    if rest.startswith('"'):
        v, rest2 = rest[1:].split('",', 1)
    else:
        v, rest2 = rest.split(",", 1)
    unit, status = rest2.rsplit(",", 1)
    BASE_ROWS.append([p, v, unit, status])


def csvq(s):
    s = str(s)
    if any(c in s for c in ',"\n\r'):
        return '"' + s.replace('"', '""') + '"'
    return s


def params(over=None, drop=(), extra=(), status=None):
    over = over or {}
    out = ["parameter,value,unit,status"]
    for p, v, u, st in BASE_ROWS:
        if p in drop:
            continue
        if p in over:
            v = over[p]
        if status and p in status:
            st = status[p]
        out.append(",".join(csvq(x) for x in (p, v, u, st)))
    for row in extra:
        out.append(",".join(csvq(x) for x in row))
    return "\n".join(out) + "\n"


SCHOOLS = open("/work/main/data/schools_sfusd.csv").read()
STARTS = open("/work/main/data/start_times.csv").read()

def R(ch, n):
    """placeholder expanded by probe.py to ch * n (keeps cases.json small)"""
    return "{rep:%s:%d}" % (ch, n)


BIG = R("9", 100_000)  # 100,000-digit string
cases = []


def add(cid, argv, expect, **kw):
    c = {"id": cid, "argv": argv, "expect": expect}
    c.update(kw)
    cases.append(c)


def ptxt(text):
    return {"p.csv": {"text": text}}


EVAL_OK = ["inventory", "evaluate", "--params", "{tmp}/p.csv", "--policy", "sS", "--s", "5", "--S", "20", "--paths", "50"]
FINITE_MEAN = "isinstance(out, dict) and 0 <= out.get('mean', -1) < 1e15"

# --------------------------------------------------------------------------------------------- inventory evaluate
add("inv-eval-baseline-ok", EVAL_OK, "ok", files=ptxt(PARAMS_CSV), check=FINITE_MEAN,
    nonsense_check="a valid small evaluation: finite non-negative mean cost")
for tag, val, exp, chk in [
    ("zero", "0", "refuse", None), ("neg", "-5", "refuse", None), ("1e308", "1e308", "refuse", None),
    ("nan", "nan", "refuse", None), ("inf", "inf", "refuse", None), ("float", "10.5", "refuse", None),
    ("underscore", "1_000", "either", "out.get('paths') == 1000"),
    ("hex", "0x10", "either", "out.get('paths') == 16"),
    ("100k-digits", BIG, "refuse", None), ("over-max", "1000001", "refuse", None),
    ("empty", "", "refuse", None), ("spaces", "   ", "refuse", None), ("unicode-digits", "\u0665\u0660", "either", "out.get('paths') == 50"),
]:
    argv = EVAL_OK[:-1] + [val]
    kw = {"check": chk, "nonsense_check": "if accepted, paths must be the literal value"} if chk else {}
    add(f"inv-eval-paths-{tag}", argv, exp, files=ptxt(PARAMS_CSV), **kw)
# paths x (horizon + lead) > 50M: must be refused up front, not run out of memory/time
add("inv-eval-paths-work-limit", EVAL_OK[:-1] + ["1000000"], "refuse",
    files=ptxt(params({"time_horizon": "90", "lead_time": "7"})),
    nonsense_check="1e6 paths x 97 periods > 50M path-periods: refuse naming --paths")
for tag, val, exp in [("neg", "-1", "refuse"), ("2^32", "4294967296", "refuse"), ("max", "4294967295", "ok"),
                      ("nan", "nan", "refuse"), ("exp", "1e3", "refuse"), ("100k", BIG, "refuse")]:
    add(f"inv-eval-seed-{tag}", EVAL_OK + ["--seed", val], exp, files=ptxt(PARAMS_CSV),
        **({"check": FINITE_MEAN} if exp == "ok" else {}))
base = ["inventory", "evaluate", "--params", "{tmp}/p.csv", "--paths", "20"]
add("inv-eval-S-above-maxinv", base + ["--policy", "sS", "--s", "5", "--S", "1000000000"], "refuse", files=ptxt(PARAMS_CSV),
    nonsense_check="S above max_inventory 23 must be refused, not truncated")
add("inv-eval-S-neg", base + ["--policy", "sS", "--s", "-3", "--S", "-1"], "refuse", files=ptxt(PARAMS_CSV))
add("inv-eval-S-1e308", base + ["--policy", "base-stock", "--S", "1e308"], "refuse", files=ptxt(PARAMS_CSV))
add("inv-eval-s-gt-S", base + ["--policy", "sS", "--s", "20", "--S", "5"], "either", files=ptxt(PARAMS_CSV),
    check=FINITE_MEAN, nonsense_check="s > S: refuse, or a finite cost")
add("inv-eval-q-above-maxorder", base + ["--policy", "constant", "--q", "8"], "refuse", files=ptxt(PARAMS_CSV),
    nonsense_check="q=8 > max_order 7 must be refused")
add("inv-eval-rq-missing-Q", base + ["--policy", "rq", "--R", "5"], "refuse", files=ptxt(PARAMS_CSV))
add("inv-eval-basestock-missing-S", base + ["--policy", "base-stock"], "refuse", files=ptxt(PARAMS_CSV))
add("inv-eval-cap-100k", base + ["--policy", "base-stock", "--S", "10", "--cap", BIG], "refuse", files=ptxt(PARAMS_CSV))
add("inv-eval-policy-bogus", base + ["--policy", "magic"], "refuse", files=ptxt(PARAMS_CSV))

# ------------------------------------------------------------------------------------- params file: path tricks
E = ["inventory", "evaluate", "--policy", "base-stock", "--S", "10", "--paths", "20", "--params"]
add("inv-params-nonexistent", E + ["{tmp}/nope.csv"], "refuse")
add("inv-params-directory", E + ["{tmp}/d"], "refuse", files={"d": {"dir": True}})
add("inv-params-dev-zero", E + ["/dev/zero"], "refuse", nonsense_check="a device must be refused, not read forever")
add("inv-params-dev-null", E + ["/dev/null"], "refuse")
add("inv-params-fifo", E + ["{tmp}/fifo"], "refuse", files={"fifo": {"fifo": True}},
    nonsense_check="a FIFO with no writer must be refused, not block")
add("inv-params-proc-environ", E + ["/proc/self/environ"], "refuse",
    check="'PATH=' not in stderr and 'ORCA_DB=' not in stderr",
    nonsense_check="must not echo the environment into the error")
add("inv-params-symlink-devzero", E + ["{tmp}/link.csv"], "refuse", files={"link.csv": {"symlink": "/dev/zero"}})
add("inv-params-symlink-loop", E + ["{tmp}/loop.csv"], "refuse", files={"loop.csv": {"symlink": "{tmp}/loop.csv"}})
add("inv-params-60MB", E + ["{tmp}/p.csv"], "refuse",
    files={"p.csv": {"generate": "b'parameter,value,unit,status\\n' + b'x,1,N/A,defined\\n' * 4_000_000"}},
    nonsense_check="over the 50 MB input cap")
add("inv-params-empty", E + ["{tmp}/p.csv"], "refuse", files=ptxt(""))
add("inv-params-header-only", E + ["{tmp}/p.csv"], "refuse", files=ptxt("parameter,value,unit,status\n"))
add("inv-params-binary", E + ["{tmp}/p.csv"], "refuse", files={"p.csv": {"generate": "bytes(range(256)) * 64"}})
add("inv-params-nul-bytes", E + ["{tmp}/p.csv"], "refuse",
    files={"p.csv": {"text": PARAMS_CSV.replace("time_horizon,20", "time_horizon,2\u00000")}})
add("inv-params-utf16", E + ["{tmp}/p.csv"], "either", files={"p.csv": {"generate": repr(PARAMS_CSV) + ".encode('utf-16')"}},
    check=FINITE_MEAN)
add("inv-params-utf8-bom", E + ["{tmp}/p.csv"], "either", files={"p.csv": {"generate": "b'\\xef\\xbb\\xbf' + " + repr(PARAMS_CSV) + ".encode()"}},
    check=FINITE_MEAN)
add("inv-params-invalid-utf8", E + ["{tmp}/p.csv"], "refuse",
    files={"p.csv": {"generate": repr(PARAMS_CSV) + ".encode().replace(b'backlog', b'back\\xed\\xa0\\x80log')"}})
add("inv-params-duplicate-row", E + ["{tmp}/p.csv"], "refuse",
    files=ptxt(params(extra=[["time_horizon", "5000", "days", "defined"]])),
    nonsense_check="two conflicting time_horizon rows: refuse, not pick one silently")
add("inv-params-missing-rows", E + ["{tmp}/p.csv"], "refuse", files=ptxt(params(drop=("time_horizon", "lead_time", "max_order"))))
add("inv-params-undefined-status", E + ["{tmp}/p.csv"], "either", files=ptxt(params(status={"holding_cost": "undefined"})))
add("inv-params-wrong-columns", E + ["{tmp}/p.csv"], "refuse", files=ptxt("a;b;c\n1;2;3\n"))
add("inv-params-10k-columns", E + ["{tmp}/p.csv"], "refuse", files={"p.csv": {"generate": "(','.join(['c']*10000)+'\\n')*3"}})
add("inv-params-unclosed-quote", E + ["{tmp}/p.csv"], "refuse",
    files=ptxt(PARAMS_CSV.replace('"normal(2,0.7)"', '"normal(2,0.7)')))
add("inv-params-huge-field", E + ["{tmp}/p.csv"], "refuse", files={"p.csv": {"generate":
    repr(PARAMS_CSV) + ".encode().replace(b'normal(2,0.7)', b'normal(2,0.' + b'7'*2_000_000 + b')')"}})
for tag, over, exp, chk in [
    ("horizon-zero", {"time_horizon": "0"}, "refuse", None),
    ("horizon-neg", {"time_horizon": "-5"}, "refuse", None),
    ("horizon-1e308", {"time_horizon": "1e308"}, "refuse", None),
    ("horizon-nan", {"time_horizon": "nan"}, "refuse", None),
    ("horizon-inf", {"time_horizon": "inf"}, "refuse", None),
    ("horizon-float", {"time_horizon": "20.5"}, "refuse", None),
    ("horizon-underscore", {"time_horizon": "2_0"}, "either", None),
    ("horizon-hex", {"time_horizon": "0x14"}, "either", None),
    ("horizon-100k-digits", {"time_horizon": BIG}, "refuse", None),
    ("horizon-over-1e9", {"time_horizon": "1000000001"}, "refuse", None),
    ("holding-1e10", {"holding_cost": "1e10"}, "refuse", None),
    ("holding-neg", {"holding_cost": "-1.2"}, "refuse", None),
    ("penalty-nan", {"penalty_cost": "NaN"}, "refuse", None),
    ("setup-inf", {"setup_cost": "Infinity"}, "refuse", None),
    ("risk-11", {"risk_tolerance": "11"}, "refuse", None),
    ("risk-neg-inf", {"risk_tolerance": "-inf"}, "refuse", None),
    ("dist-mean-1e308", {"demand_distribution": "normal(1e308,1)"}, "refuse", None),
    ("dist-poisson-neg", {"demand_distribution": "poisson(-3)"}, "refuse", None),
    ("dist-normal-neg-sd", {"demand_distribution": "normal(5,-1)"}, "refuse", None),
    ("dist-poisson-nan", {"demand_distribution": "poisson(nan)"}, "refuse", None),
    ("dist-truncated", {"demand_distribution": "normal(5"}, "refuse", None),
    ("dist-unknown", {"demand_distribution": "zipf(2)"}, "refuse", None),
    ("dist-code", {"demand_distribution": "__import__('os').system('touch PWN')"}, "refuse",
     "not os.path.exists(os.path.join(tmp, 'PWN'))"),
    ("perishability-maybe", {"perishability": "maybe"}, "refuse", None),
    ("transition-teleport", {"state_transition_model": "teleport"}, "refuse", None),
    ("leadtime-1e9", {"lead_time": "1000000000"}, "refuse", None),
    ("maxinv-neg", {"max_inventory": "-23"}, "refuse", None),
    ("maxorder-zero", {"max_order": "0"}, "either", None),
]:
    add(f"inv-params-{tag}", E + ["{tmp}/p.csv"], exp, files=ptxt(params(over)),
        **({"check": chk, "nonsense_check": "the distribution string must never be executed"} if chk else {}))

# ------------------------------------------------------------------------------------------------ inventory dp
add("inv-dp-ok", ["inventory", "dp", "--params", "{tmp}/p.csv"], "ok", files=ptxt(PARAMS_CSV),
    check="0 < out['optimal_cost'] < 1e6")
add("inv-dp-costs-at-limit", ["inventory", "dp", "--params", "{tmp}/p.csv"], "either",
    files=ptxt(params({"holding_cost": "1000000000", "penalty_cost": "1000000000", "setup_cost": "1000000000"})),
    check="out['optimal_cost'] > 0", nonsense_check="costs at the 1e9 limit: optimal cost must not be 0.0")
add("inv-dp-state-explosion", ["inventory", "dp", "--params", "{tmp}/p.csv"], "refuse",
    files=ptxt(params({"lead_time": "6", "max_order": "200", "max_inventory": "1000"})),
    nonsense_check="~1e14 states: refuse naming a parameter, not hang or OOM")
add("inv-dp-maxinv-1e9", ["inventory", "dp", "--params", "{tmp}/p.csv"], "refuse",
    files=ptxt(params({"max_inventory": "1000000000", "max_order": "1000000000"})))
add("inv-dp-demand-huge", ["inventory", "dp", "--params", "{tmp}/p.csv"], "refuse",
    files=ptxt(params({"demand_distribution": "poisson(1000000000)"})))
add("inv-dp-params-fifo", ["inventory", "dp", "--params", "{tmp}/f"], "refuse", files={"f": {"fifo": True}})

# ------------------------------------------------------------------------------------------- inventory optimize
O = ["inventory", "optimize", "--params", "{tmp}/p.csv", "--no-dqn", "--paths", "30", "--out"]
add("inv-opt-ok", O + ["{tmp}/art"], "ok", files=ptxt(PARAMS_CSV),
    check="os.path.exists(os.path.join(tmp, 'art', 'config.json'))")
add("inv-opt-out-existing-file", O + ["{tmp}/file"], "refuse", files={**ptxt(PARAMS_CSV), "file": {"text": "x"}})
add("inv-opt-out-below-file", O + ["{tmp}/file/sub"], "refuse", files={**ptxt(PARAMS_CSV), "file": {"text": "x"}})
add("inv-opt-out-proc", O + ["/proc/self/orca_out"], "refuse", files=ptxt(PARAMS_CSV))
add("inv-opt-out-dev-null", O + ["/dev/null"], "refuse", files=ptxt(PARAMS_CSV))
add("inv-opt-out-empty", O + [""], "refuse", files=ptxt(PARAMS_CSV))
add("inv-opt-out-readonly", O + ["{tmp}/ro/art"], "refuse", files={**ptxt(PARAMS_CSV), "ro": {"dir": True, "mode": 0o555}},
    nonsense_check="unwritable parent (skipped meaningfully only when not root)")
add("inv-opt-ss-candidates-explode", O + ["{tmp}/art"], "refuse",
    files=ptxt(params({"max_inventory": "1000000", "max_order": "1000000", "demand_distribution": "normal(200000,1000)"})),
    nonsense_check="(s,S) search over ~5e11 candidates: refuse naming a parameter")
add("inv-opt-costs-at-limit", O + ["{tmp}/art"], "either",
    files=ptxt(params({"holding_cost": "1000000000", "penalty_cost": "1000000000", "setup_cost": "1"})),
    check="out.get('ss_mean') is None or out['ss_mean'] > 0",
    nonsense_check="huge costs must not overflow to 0 / 'order nothing'")
DQ = ["inventory", "optimize", "--params", "{tmp}/p.csv", "--paths", "20", "--out", "{tmp}/art"]
for tag, extra in [("dqn-seconds-zero", ["--dqn-seconds", "0"]), ("dqn-seconds-nan", ["--dqn-seconds", "nan"]),
                   ("dqn-seconds-inf", ["--dqn-seconds", "inf"]), ("dqn-seconds-3601", ["--dqn-seconds", "3601"]),
                   ("dqn-steps-zero", ["--dqn-steps", "0"]), ("dqn-steps-over", ["--dqn-steps", "10000001"]),
                   ("dqn-steps-100k", ["--dqn-steps", BIG]), ("paths-neg", ["--paths", "-1"])]:
    add(f"inv-opt-{tag}", DQ + extra, "refuse", files=ptxt(PARAMS_CSV),
        check="not os.path.exists(os.path.join(tmp, 'art', 'config.json'))",
        nonsense_check="refused before any work: no artifacts written")

# ---------------------------------------------------------------------------------------------- inventory order
ART = {"art/config.json": {"text": ORDER_CONFIG}, "art/dqn_weights.pth": {"fixture": "order_weights.pth"}}
OR = ["inventory", "order", "--artifacts", "{tmp}/art"]
add("inv-order-ok", OR + ["--inventory", "4", "--step", "4", "--pipeline", "0,0"], "ok", files=ART,
    check="0 <= out['recommended_order'] <= 7")
for tag, extra, exp in [
    ("inv-1e308", ["--inventory", "1e308", "--step", "4", "--pipeline", "0,0"], "refuse"),
    ("inv-nan", ["--inventory", "nan", "--step", "4", "--pipeline", "0,0"], "refuse"),
    ("inv-100k", ["--inventory", BIG, "--step", "4", "--pipeline", "0,0"], "refuse"),
    ("inv-neg-backlog", ["--inventory", "-5", "--step", "4", "--pipeline", "0,0"], "either"),
    ("inv-neg-huge", ["--inventory", "-1000000000000", "--step", "4", "--pipeline", "0,0"], "refuse"),
    ("step-neg", ["--inventory", "4", "--step", "-1", "--pipeline", "0,0"], "refuse"),
    ("step-T", ["--inventory", "4", "--step", "20", "--pipeline", "0,0"], "refuse"),
    ("step-float", ["--inventory", "4", "--step", "4.5", "--pipeline", "0,0"], "refuse"),
    ("pipeline-short", ["--inventory", "4", "--step", "4", "--pipeline", "0"], "refuse"),
    ("pipeline-long", ["--inventory", "4", "--step", "4", "--pipeline", "0,0,0,0"], "refuse"),
    ("pipeline-missing", ["--inventory", "4", "--step", "4"], "refuse"),
    ("pipeline-empty", ["--inventory", "4", "--step", "4", "--pipeline", ""], "refuse"),
    ("pipeline-letters", ["--inventory", "4", "--step", "4", "--pipeline", "a,b"], "refuse"),
    ("pipeline-neg", ["--inventory", "4", "--step", "4", "--pipeline", "-1,0"], "refuse"),
    ("pipeline-nan", ["--inventory", "4", "--step", "4", "--pipeline", "nan,inf"], "refuse"),
    ("pipeline-over-maxorder", ["--inventory", "4", "--step", "4", "--pipeline", "1000000000,0"], "refuse"),
    ("pipeline-100k-commas", ["--inventory", "4", "--step", "4", "--pipeline", ",".join(["0"] * 50_000)], "refuse"),
]:
    add(f"inv-order-{tag}", OR + extra, exp, files=ART)
ARGS_OK = ["--inventory", "4", "--step", "4", "--pipeline", "0,0"]
cfg = json.loads(ORDER_CONFIG)


def cfgmut(**kv):
    c = dict(cfg)
    c.update(kv)
    return json.dumps(c)


W = {"art/dqn_weights.pth": {"fixture": "order_weights.pth"}}
add("inv-order-artifacts-missing", ["inventory", "order", "--artifacts", "{tmp}/none"] + ARGS_OK, "refuse")
add("inv-order-artifacts-file", ["inventory", "order", "--artifacts", "{tmp}/f"] + ARGS_OK, "refuse", files={"f": {"text": "x"}})
add("inv-order-artifacts-proc", ["inventory", "order", "--artifacts", "/proc/self"] + ARGS_OK, "refuse")
add("inv-order-config-missing", OR + ARGS_OK, "refuse", files=W)
add("inv-order-config-is-dir", OR + ARGS_OK, "refuse", files={**W, "art/config.json": {"dir": True}})
add("inv-order-config-fifo", OR + ARGS_OK, "refuse", files={**W, "art/config.json": {"fifo": True}})
add("inv-order-config-devzero-link", OR + ARGS_OK, "refuse", files={**W, "art/config.json": {"symlink": "/dev/zero"}})
add("inv-order-config-2MB", OR + ARGS_OK, "refuse",
    files={**W, "art/config.json": {"generate": repr(ORDER_CONFIG[:-2]) + ".encode() + b', \"pad\": \"' + b'x'*2_000_000 + b'\"}'"}})
add("inv-order-config-deep", OR + ARGS_OK, "refuse",
    files={**W, "art/config.json": {"generate": "b'[' * 200000 + b']' * 200000"}})
add("inv-order-config-array", OR + ARGS_OK, "refuse", files={**W, "art/config.json": {"text": "[1,2,3]"}})
add("inv-order-config-truncated", OR + ARGS_OK, "refuse", files={**W, "art/config.json": {"text": ORDER_CONFIG[: len(ORDER_CONFIG) // 2]}})
add("inv-order-config-nan", OR + ARGS_OK, "refuse", files={**W, "art/config.json": {"text": ORDER_CONFIG.replace('"risk_tolerance": 3.0', '"risk_tolerance": NaN')}})
add("inv-order-config-leadtime-str", OR + ARGS_OK, "refuse", files={**W, "art/config.json": {"text": cfgmut(lead_time="2")}})
add("inv-order-config-leadtime-float", OR + ARGS_OK, "refuse", files={**W, "art/config.json": {"text": cfgmut(lead_time=2.5)}})
add("inv-order-config-leadtime-1e308", OR + ARGS_OK, "refuse", files={**W, "art/config.json": {"text": cfgmut(lead_time=1e308)}})
add("inv-order-config-hidden-mismatch", OR + ARGS_OK, "refuse", files={**W, "art/config.json": {"text": cfgmut(dqn_hidden=64)}},
    check="'weights' in stderr.lower()", nonsense_check="must say the weights do not fit this network")
add("inv-order-config-maxorder-huge", OR + ARGS_OK, "refuse", files={**W, "art/config.json": {"text": cfgmut(max_order=10**12, action_dim=10**12 + 1)}})
add("inv-order-config-bad-utf8", OR + ARGS_OK, "refuse", files={**W, "art/config.json": {"generate": "b'{\"lead_time\": 2, \"x\": \"\\xff\\xfe\"}'"}})
add("inv-order-weights-empty", OR + ARGS_OK, "refuse", files={"art/config.json": {"text": ORDER_CONFIG}, "art/dqn_weights.pth": {"text": ""}})
add("inv-order-weights-garbage", OR + ARGS_OK, "refuse", files={"art/config.json": {"text": ORDER_CONFIG}, "art/dqn_weights.pth": {"generate": "bytes(range(256))*100"}})
add("inv-order-weights-truncated", OR + ARGS_OK, "refuse", files={"art/config.json": {"text": ORDER_CONFIG},
    "art/dqn_weights.pth": {"generate": "fixture('order_weights.pth')[:30000]"}})
add("inv-order-weights-pickle-rce", OR + ARGS_OK, "refuse", files={"art/config.json": {"text": ORDER_CONFIG},
    "art/dqn_weights.pth": {"generate": "b\"cos\\nsystem\\n(S'touch \" + tmp.encode() + b\"/PWNED'\\ntR.\""}},
    check="not os.path.exists(os.path.join(tmp, 'PWNED'))", nonsense_check="a crafted pickle must not run code")
add("inv-order-weights-zip-pickle-rce", OR + ARGS_OK, "refuse", files={"art/config.json": {"text": ORDER_CONFIG},
    "art/dqn_weights.pth": {"generate": "zipbytes({'archive/data.pkl': b\"cos\\nsystem\\n(S'touch \" + tmp.encode() + b\"/PWNED'\\ntR.\", 'archive/version': b'3\\n'})"}},
    check="not os.path.exists(os.path.join(tmp, 'PWNED'))", nonsense_check="a crafted torch-zip pickle must not run code")
add("inv-order-weights-dir", OR + ARGS_OK, "refuse", files={"art/config.json": {"text": ORDER_CONFIG}, "art/dqn_weights.pth": {"dir": True}})

# ----------------------------------------------------------------------------------------------- inventory chat
IC = ["inventory", "chat", "--provider", "offline", "--paths", "30"]


def jl(*objs):
    return "".join((o if isinstance(o, str) else json.dumps(o)) + "\n" for o in objs)


CHAT_OK = "chat_ok(lines)"
add("inv-chat-basic-ok", IC, "ok", stdin=jl({"user": "I sell about 5 units a day, lead time 2 days"}), chat="inventory", check=CHAT_OK)
add("inv-chat-long-digits", IC, "ok", stdin=jl({"user": "we sell " + "9" * 7000 + " units a day"}, {"user": "ok"}), chat="inventory",
    check=CHAT_OK + " and no_huge_table(lines)", nonsense_check="a 7000-digit demand must not enter the table")
add("inv-chat-1e308", IC, "ok", stdin=jl({"user": "demand is 1e308 units per day and holding cost 1e308 dollars"}), chat="inventory",
    check=CHAT_OK + " and no_huge_table(lines)")
add("inv-chat-words-huge", IC, "ok", stdin=jl({"user": "we sell nine hundred quadrillion septillion widgets every single day"}), chat="inventory",
    check=CHAT_OK + " and no_huge_table(lines)")
add("inv-chat-negative-zero", IC, "ok", stdin=jl({"user": "the horizon is 0 days and the lead time is -3 days"},
                                                  {"user": "max inventory is -50 units"}), chat="inventory",
    check=CHAT_OK + " and no_negative_table(lines)", nonsense_check="negative horizon/lead time/capacity must not be stored")
add("inv-chat-over-cap-line", IC, "ok", stdin=jl({"user": R("x", 9000)}, {"user": "lead time 2 days"}), chat="inventory",
    check=CHAT_OK + " and 'error' in lines[0] and '8' in lines[0]['error']", nonsense_check="over-long line: an error naming the limit; the next line answered")
add("inv-chat-10MB-line", IC, "ok", stdin={"generate": "b'{\"user\": \"' + b'a' * 10_000_000 + b'\"}\\n' + b'{\"user\": \"hello\"}\\n'"}, chat="inventory",
    check=CHAT_OK)
add("inv-chat-broken-json", IC, "ok", stdin=jl('{"user": "hi"', "{user: hi}", "[]", "null", '"just a string"', "42"), chat="inventory",
    check=CHAT_OK + " and all('error' in l for l in lines)")
add("inv-chat-wrong-fields", IC, "ok", stdin=jl({"usr": "hi"}, {"user": None}, {"user": ["a"]}, {"user": {"x": 1}}, {"user": 5}, {"user": ""}),
    chat="inventory", check=CHAT_OK + " and all('error' in l for l in lines)")
add("inv-chat-deep-nesting", IC, "ok", stdin={"generate": "b'{\"user\": ' + b'[' * 100000 + b']' * 100000 + b'}\\n' + b'[' * 7000 + b'\\n'"},
    chat="inventory", check=CHAT_OK + " and all('error' in l for l in lines)")
add("inv-chat-lone-surrogate-escape", IC, "ok", stdin='{"user": "lead time \\ud800 2 days"}\n', chat="inventory", check=CHAT_OK)
add("inv-chat-raw-invalid-utf8", IC, "ok", stdin={"generate": "b'{\"user\": \"lead time \\xed\\xa0\\x80 \\xff 2 days\"}\\n{\"user\": \"ok\"}\\n'"},
    chat="inventory", check=CHAT_OK)
add("inv-chat-nul-control", IC, "ok", stdin=jl({"user": "lead\u0000time\u0007 2\u001b[31m days\u202e"}), chat="inventory", check=CHAT_OK)
add("inv-chat-blank-lines", IC, "ok", stdin="\n   \n\t\n" + jl({"user": "hello"}) + "\n\n", chat="inventory", check=CHAT_OK)
add("inv-chat-whitespace-user", IC, "ok", stdin=jl({"user": "   \t  "}), chat="inventory", check=CHAT_OK)
add("inv-chat-no-trailing-newline", IC, "ok", stdin='{"user": "hello"}', chat="inventory", check=CHAT_OK)
add("inv-chat-crlf", IC, "ok", stdin='{"user": "hello"}\r\n{"user": "lead time 2 days"}\r\n', chat="inventory", check=CHAT_OK)
add("inv-chat-full-run-extreme-costs", IC, "ok", stdin=jl(
    {"user": "I plan 20 days. Demand is Poisson with mean 3 per day. Lead time 1 day. Backlog unmet demand. Not perishable."},
    {"user": "holding cost 999999999 dollars per unit per day, penalty 999999999 per unit, setup cost 0"},
    {"user": "max inventory 10 units, max order 5 units, risk tolerance 0"},
    {"user": "run it"}), chat="inventory", check=CHAT_OK)
add("inv-chat-json-bigint", IC, "ok", stdin='{"user": "hi", "n": ' + "9" * 5000 + "}\n" + '{"user": 1e999}\n', chat="inventory", check=CHAT_OK)
for tag, extra in [("paths-zero", ["--paths", "0"]), ("seed-neg", ["--seed", "-1"]), ("llm-timeout-zero", ["--llm-timeout", "0"]),
                   ("llm-timeout-601", ["--llm-timeout", "601"]), ("llm-timeout-nan", ["--llm-timeout", "nan"]),
                   ("llm-retries-11", ["--llm-retries", "11"]), ("llm-retries-neg", ["--llm-retries", "-1"]),
                   ("timeout-x-retries", ["--llm-timeout", "600", "--llm-retries", "10"]),
                   ("dqn-seconds-inf", ["--dqn-seconds", "inf"]), ("resume-missing", ["--resume", "deadbeef0000"]),
                   ("resume-sqli", ["--resume", "x' OR '1'='1"]), ("resume-empty", ["--resume", ""]),
                   ]:
    add(f"inv-chat-{tag}", ["inventory", "chat"] + extra, "refuse", stdin=jl({"user": "hello"}))
for tag, extra in [("provider-anthropic-nokey", ["--provider", "anthropic"]), ("base-url-bogus", ["--provider", "openai", "--base-url", "ftp://x"])]:
    add(f"inv-chat-{tag}", ["inventory", "chat"] + extra, "either", stdin=jl({"user": "hello"}), chat="inventory",
        check="all('error' in l for l in lines)", nonsense_check="no key: refuse at start, or answer each line with a provider error (never a fake reply)")
add("inv-chat-env-seed-bad", IC, "either", stdin=jl({"user": "hello"}), env={"ORCA_SEED": "-1"}, chat="inventory", check=CHAT_OK)
add("inv-chat-env-timeout-nan", IC, "either", stdin=jl({"user": "hello"}), env={"ORCA_LLM_TIMEOUT": "nan"}, chat="inventory", check=CHAT_OK)

# ------------------------------------------------------------------------------------------------ inventory lab
add("inv-lab-gen-ok", ["inventory", "lab", "generate", "--n", "2", "--out", "{tmp}/gen"], "ok")
for tag, extra, exp in [("n-zero", ["--n", "0"], "refuse"), ("n-neg", ["--n", "-1"], "refuse"), ("n-1e308", ["--n", "1e308"], "refuse"),
                        ("n-100k", ["--n", BIG], "refuse"), ("seed-neg", ["--seed", "-7"], "refuse"),
                        ("protocol-bogus", ["--protocol", "paper71"], "refuse")]:
    add(f"inv-lab-gen-{tag}", ["inventory", "lab", "generate", "--out", "{tmp}/gen"] + extra, exp)
add("inv-lab-gen-out-file", ["inventory", "lab", "generate", "--n", "1", "--out", "{tmp}/f"], "refuse", files={"f": {"text": "x"}})
add("inv-lab-gen-out-proc", ["inventory", "lab", "generate", "--n", "1", "--out", "/proc/orca"], "refuse")
add("inv-lab-gen-n-huge", ["inventory", "lab", "generate", "--n", "1000000000", "--out", "{tmp}/gen"], "refuse",
    nonsense_check="a billion scenarios: refuse, not fill the disk")
LR = ["inventory", "lab", "run", "--no-store", "--workers", "1", "--paths", "20", "--assessment-paths", "20", "--treatments", "A", "--out", "{tmp}/lab"]
add("inv-lab-run-ok", LR + ["--n", "1"], "ok")
for tag, extra in [("noise-neg", ["--n", "1", "--noise", "-1"]), ("noise-nan", ["--n", "1", "--noise", "nan"]),
                   ("noise-1e308", ["--n", "1", "--noise", "1e308"]), ("paths-zero", ["--n", "1", "--paths", "0"]),
                   ("assessment-zero", ["--n", "1", "--assessment-paths", "0"]), ("workers-zero", ["--n", "1", "--workers", "0"]),
                   ("treatments-D", ["--n", "1", "--treatments", "D"]), ("treatments-empty", ["--n", "1", "--treatments", ""]),
                   ("imitator-llm-nokey", ["--n", "1", "--imitator", "llm"])]:
    add(f"inv-lab-run-{tag}", LR + extra, "refuse")
for tag, f in [("garbage", {"text": "not json\n{]\n"}), ("empty", {"text": ""}),
               ("deep", {"generate": "b'{\"table\": ' + b'[' * 100000 + b']' * 100000 + b'}\\n'"}),
               ("wrong-fields", {"text": jl({"key": "s0", "table": {"time_horizon": "1e308", "lead_time": "-1"}})}),
               ("nan-table", {"text": '{"key": "s0", "seed": NaN, "table": {"time_horizon": NaN}}\n'}),
               ("devzero", {"symlink": "/dev/zero"}), ("fifo", {"fifo": True})]:
    add(f"inv-lab-run-scenarios-{tag}", LR + ["--scenarios", "{tmp}/sc.jsonl"], "refuse", files={"sc.jsonl": f})
add("inv-lab-report-missing", ["inventory", "lab", "report", "--results", "{tmp}/nope"], "refuse")
add("inv-lab-report-empty-dir", ["inventory", "lab", "report", "--results", "{tmp}/d"], "refuse", files={"d": {"dir": True}})
add("inv-lab-report-garbage", ["inventory", "lab", "report", "--results", "{tmp}/lab.json", "--out", "{tmp}/r"], "refuse", files={"lab.json": {"text": "{garbage"}})
add("inv-lab-report-empty-obj", ["inventory", "lab", "report", "--results", "{tmp}/lab.json", "--out", "{tmp}/r"], "refuse", files={"lab.json": {"text": "{}"}})
add("inv-lab-report-deep", ["inventory", "lab", "report", "--results", "{tmp}/lab.json", "--out", "{tmp}/r"], "refuse",
    files={"lab.json": {"generate": "b'{\"a\":' * 100000 + b'1' + b'}' * 100000"}})

# -------------------------------------------------------------------------------------------- schedule solve
SS = ["schedule", "solve", "--time-limit", "10"]
add("sch-solve-ok", SS, "ok", check="out['status'] == 'optimal'")
for tag, extra in [("alpha-neg", ["--alpha", "-1"]), ("alpha-nan", ["--alpha", "nan"]), ("alpha-inf", ["--alpha", "inf"]),
                   ("alpha-1e308", ["--alpha", "1e308"]), ("alpha-over", ["--alpha", "1000001"]), ("both-zero", ["--alpha", "0", "--beta", "0"]),
                   ("beta-100k", ["--beta", BIG]), ("maxload-neg", ["--max-load", "-1"]), ("maxload-nan", ["--max-load", "nan"]),
                   ("maxload-1e10", ["--max-load", "1e10"]), ("maxdev-inf", ["--max-deviation", "inf"]),
                   ("gap-1", ["--gap", "1"]), ("gap-neg", ["--gap", "-0.1"]), ("gap-nan", ["--gap", "nan"]),
                   ("timelimit-zero", ["--time-limit", "0"]), ("timelimit-neg", ["--time-limit", "-1"]),
                   ("timelimit-3601", ["--time-limit", "3601"]), ("timelimit-nan", ["--time-limit", "nan"]),
                   ("fix-bad-time", ["--fix", "Everett MS=25:99 PM"]), ("fix-unknown-school", ["--fix", "Hogwarts=8:40 AM"]),
                   ("fix-no-equals", ["--fix", "Everett MS"]), ("fix-empty", ["--fix", ""]),
                   ("fix-twice", ["--fix", "Everett MS=7:50 AM", "--fix", "Everett MS=9:30 AM"]),
                   ("fix-and-forbid", ["--fix", "Galileo HS=7:50 AM", "--forbid", "Galileo HS=7:50 AM"]),
                   ("fix-time-not-option", ["--fix", "Everett MS=8:00 AM"]),
                   ("forbid-100k", ["--forbid", R("x", 100_000) + "=7:50 AM"])]:
    add(f"sch-solve-{tag}", SS + extra, "refuse")
add("sch-solve-beta-underscore", SS + ["--beta", "1_0"], "either")
add("sch-solve-gap-099", SS + ["--gap", "0.99"], "ok", check="out['status'] in ('optimal', 'feasible', 'time_limit') or 'reason' in out")
add("sch-solve-forbid-all-times", SS + ["--forbid", "Everett MS=7:50 AM", "--forbid", "Everett MS=8:40 AM", "--forbid", "Everett MS=9:30 AM"],
    "either", check="out.get('status') != 'optimal' and bool(out.get('reason'))",
    nonsense_check="every time forbidden for one school: not optimal, with a reason")
add("sch-solve-maxload-zero", SS + ["--max-load", "0"], "either", check="out.get('status') != 'optimal' and bool(out.get('reason'))",
    nonsense_check="max load 0 is infeasible: status not optimal and a reason")
add("sch-solve-timelimit-tiny", ["schedule", "solve", "--time-limit", "1e-9"], "either",
    check="out.get('status') == 'optimal' or bool(out.get('reason'))", nonsense_check="not_solved always carries a reason")
add("sch-solve-pretty-error", ["--pretty", "schedule", "solve", "--alpha", "nan"], "refuse")
D = ["schedule", "solve", "--time-limit", "10", "--district", "{tmp}/d.csv"]
HDR = "name,grade,enrollment,current_start\n"
for tag, f, exp in [
    ("empty", {"text": ""}, "refuse"), ("header-only", {"text": HDR}, "refuse"),
    ("5001-schools", {"generate": f"({HDR!r} + ''.join(f'S{{i}},HS,100,8:40 AM\\n' for i in range(5001))).encode()"}, "refuse"),
    ("dup-names", {"text": HDR + "A,HS,100,8:40 AM\nA,HS,200,7:50 AM\n"}, "refuse"),
    ("enroll-neg", {"text": SCHOOLS.replace(",242,", ",-242,")}, "refuse"),
    ("enroll-float", {"text": SCHOOLS.replace(",242,", ",24.5,")}, "refuse"),
    ("enroll-1e308", {"text": SCHOOLS.replace(",242,", ",1e308,")}, "refuse"),
    ("enroll-nan", {"text": SCHOOLS.replace(",242,", ",nan,")}, "refuse"),
    ("enroll-over", {"text": SCHOOLS.replace(",242,", ",1000001,")}, "refuse"),
    ("enroll-100k", {"text": SCHOOLS.replace(",242,", "," + BIG + ",")}, "refuse"),
    ("enroll-all-zero", {"text": HDR + "A,HS,0,8:40 AM\nB,MS,0,7:50 AM\n"}, "refuse"),
    ("start-bogus", {"text": SCHOOLS.replace("9:30 AM", "25:99 XM", 1)}, "refuse"),
    ("missing-column", {"text": "name,grade\nA,HS\n"}, "refuse"),
    ("binary", {"generate": "bytes(range(256))*50"}, "refuse"),
    ("nul-in-name", {"text": HDR + "A\u0000B,HS,100,8:40 AM\nC,MS,50,7:50 AM\n"}, "either"),
    ("long-name", {"text": HDR + R("N", 100_000) + ",HS,100,8:40 AM\nC,MS,50,7:50 AM\n"}, "either"),
    ("formula-rtl-names", {"text": HDR + "=cmd|' /C calc'!A0,HS,100,8:40 AM\n\u202eSMH ilelaG,MS,50,7:50 AM\n"}, "either"),
    ("invalid-utf8", {"generate": f"{HDR!r}.encode() + b'\\xff\\xfeA,HS,100,8:40 AM\\n'"}, "refuse"),
    ("dir", {"dir": True}, "refuse"), ("fifo", {"fifo": True}, "refuse"), ("devzero", {"symlink": "/dev/zero"}, "refuse"),
    ("60MB", {"generate": f"{HDR!r}.encode() + b'A,HS,1,8:40 AM\\n' * 4_000_000"}, "refuse"),
]:
    add(f"sch-district-{tag}", D, exp, files={"d.csv": f})
add("sch-district-one-school-ok", D, "ok", files={"d.csv": {"text": HDR + "Solo HS,HS,500,8:40 AM\n"}}, check="out['status'] == 'optimal'")
T = ["schedule", "solve", "--time-limit", "10", "--start-times", "{tmp}/t.csv"]
for tag, f, exp in [
    ("empty", {"text": ""}, "refuse"), ("49-options", {"generate": "('start_time\\n' + ''.join(f'{h}:{m:02d} AM\\n' for h in range(1,12) for m in range(0,60,12))[:2000]).encode()"}, "refuse"),
    ("duplicate", {"text": "start_time\n7:50 AM\n7:50 AM\n"}, "refuse"), ("negative", {"text": "start_time\n-1:00 AM\n8:40 AM\n"}, "refuse"),
    ("words", {"text": "start_time\nnoon\nwhenever\n"}, "refuse"), ("single-ok", {"text": "start_time\n8:40 AM\n"}, "ok"),
    ("no-ampm", {"text": "start_time\n7:50\n8:40\n"}, "either"),
]:
    add(f"sch-starts-{tag}", T, exp, files={"t.csv": f})

# --------------------------------------------------------------------------------------------- schedule chat
SC = ["schedule", "chat", "--provider", "offline"]
SOK = "chat_ok(lines, opening=1)"
add("sch-chat-basic-ok", SC, "ok", stdin=jl({"user": "Everett later"}, {"user": "undo that"}), chat="schedule", check=SOK)
add("sch-chat-bad-time", SC, "ok", stdin=jl({"user": "Everett MS at 99:99 PM please"}, {"user": "Galileo at -7:00 AM"}), chat="schedule", check=SOK)
add("sch-chat-unknown-school", SC, "ok", stdin=jl({"user": "fix Hogwarts at 8:40 AM"}), chat="schedule", check=SOK)
add("sch-chat-maxload-1e308", SC, "ok", stdin=jl({"user": "keep the max load under 1e308"}, {"user": "max load at most -5"},
                                                  {"user": "max deviation " + "9" * 6000}), chat="schedule", check=SOK)
add("sch-chat-weights-nan", SC, "ok", stdin=jl({"user": "set alpha to nan and beta to infinity"}), chat="schedule", check=SOK)
add("sch-chat-million-options", SC, "ok", stdin=jl({"user": "show me 1000000 options"}), chat="schedule", check=SOK)
add("sch-chat-undo-50", SC, "ok", stdin=jl(*([{"user": "undo that"}] * 30)), chat="schedule", check=SOK)
add("sch-chat-over-cap", SC, "ok", stdin=jl({"user": "Everett later " + R("a", 9000)}, {"user": "Everett later"}), chat="schedule", check=SOK)
add("sch-chat-broken", SC, "ok", stdin=jl("{", '{"user": ["Everett"]}', '{"msg": "hi"}', "1e308", '{"user": null}'), chat="schedule",
    check=SOK + " and all('error' in l for l in lines[1:])")
add("sch-chat-deep", SC, "ok", stdin={"generate": "b'[' * 300000 + b'\\n'"}, chat="schedule", check=SOK)
add("sch-chat-surrogates", SC, "ok", stdin='{"user": "Everett \\udfff later"}\n', chat="schedule", check=SOK)
add("sch-chat-raw-bad-bytes", SC, "ok", stdin={"generate": "b'{\"user\": \"Everett \\xc0\\xaf later\"}\\n'"}, chat="schedule", check=SOK)
add("sch-chat-nul", SC, "ok", stdin=jl({"user": "Everett\u0000 later\u0008\u0007"}), chat="schedule", check=SOK)
add("sch-chat-huge-words", SC, "ok", stdin=jl({"user": "Everett a googolplex minutes later"}), chat="schedule", check=SOK)
add("sch-chat-resume-missing", ["schedule", "chat", "--resume", "000000000000"], "refuse", stdin=jl({"user": "hi"}))
add("sch-chat-resume-wrong-kind", ["schedule", "chat", "--resume", "{pre:run_id}"], "refuse", stdin=jl({"user": "hi"}),
    pre=[{"argv": IC, "stdin": jl({"user": "hello"})}], nonsense_check="resuming an inventory conversation as a schedule chat")
add("sch-chat-district-bad", SC + ["--district", "{tmp}/d.csv"], "refuse", stdin=jl({"user": "hi"}), files={"d.csv": {"text": HDR + "A,HS,-1,8:40 AM\n"}})
add("sch-chat-district-fifo", SC + ["--district", "{tmp}/d.csv"], "refuse", stdin=jl({"user": "hi"}), files={"d.csv": {"fifo": True}})
add("sch-chat-starts-49", SC + ["--start-times", "{tmp}/t.csv"], "refuse", stdin=jl({"user": "hi"}),
    files={"t.csv": {"generate": "('start_time\\n' + ''.join(f'{h}:{m:02d} AM\\n' for h in range(1,12) for m in range(0,60,12))).encode()"}})
add("sch-chat-llm-timeout-inf", SC + ["--llm-timeout", "inf"], "refuse", stdin=jl({"user": "hi"}))

# ----------------------------------------------------------------------------------------------- schedule lab
add("sch-lab-util-ok", ["schedule", "lab", "utilities"], "ok")
add("sch-lab-util-samples-zero", ["schedule", "lab", "utilities", "--generate", "--samples", "0", "--out", "{tmp}/u.json"], "refuse")
add("sch-lab-util-samples-neg", ["schedule", "lab", "utilities", "--generate", "--samples", "-5", "--out", "{tmp}/u.json"], "refuse")
add("sch-lab-util-samples-huge", ["schedule", "lab", "utilities", "--generate", "--samples", "1000000000000", "--out", "{tmp}/u.json"], "refuse",
    nonsense_check="a trillion samples: refuse, not hang")
add("sch-lab-util-samples-100k", ["schedule", "lab", "utilities", "--generate", "--samples", BIG], "refuse")
add("sch-lab-util-out-proc", ["schedule", "lab", "utilities", "--generate", "--samples", "10", "--out", "/proc/self/u.json"], "refuse")
add("sch-lab-util-out-dir", ["schedule", "lab", "utilities", "--generate", "--samples", "10", "--out", "{tmp}/d"], "refuse", files={"d": {"dir": True}})
SL = ["schedule", "lab", "run", "--quiet", "--workers", "1", "--paradigm", "one_shot"]
add("sch-lab-run-ok", SL + ["--utilities", "1", "--max-turns", "2"], "ok")
for tag, extra in [("util-zero", ["--utilities", "0"]), ("util-neg", ["--utilities", "-1"]), ("util-bogus", ["--utilities", "some"]),
                   ("util-1e308", ["--utilities", "1e308"]), ("turns-zero", ["--utilities", "1", "--max-turns", "0"]),
                   ("turns-100k", ["--utilities", "1", "--max-turns", BIG]), ("workers-zero", ["--utilities", "1", "--workers", "0"]),
                   ("seed-neg", ["--utilities", "1", "--seed", "-3"]), ("decision-nokey", ["--utilities", "1", "--decision-provider", "anthropic"])]:
    add(f"sch-lab-run-{tag}", SL + extra, "refuse")
add("sch-lab-run-name-empty", SL + ["--utilities", "1", "--max-turns", "2", "--name", ""], "either")
add("sch-lab-run-name-long", SL + ["--utilities", "1", "--max-turns", "2", "--name", R("n", 100_000)], "either")
add("sch-lab-report-missing", ["schedule", "lab", "report", "nope"], "refuse")
add("sch-lab-report-empty", ["schedule", "lab", "report", ""], "refuse")
TINY_SPEC = """name = "tiny"
workbench = "policy_simulator"
seeds = 1
metric = "total_cost"
goal = "min"
max_steps = 5
[env.instances.anchor]
[[agents]]
name = "bs"
kind = "offline"
policy = "base_stock"
S = 20
"""
PRE_EXP = [{"argv": ["experiment", "run", "{tmp}/tiny.toml", "--quiet", "--workers", "1"]}]
TF = {"tiny.toml": {"text": TINY_SPEC}}
add("sch-lab-report-wrong-workbench", ["schedule", "lab", "report", "{pre:experiment_id}"], "refuse", pre=PRE_EXP, files=TF,
    nonsense_check="an inventory experiment is not a scheduling lab experiment")

# ----------------------------------------------------------------------------------------------------- repair
MINI = {"ds.json": {"fixture": "repair_mini.json"}}
add("rep-gen-ok", ["repair", "generate", "--small", "1", "--dataset", "{tmp}/g.json"], "ok")
for tag, extra in [("small-zero", ["--small", "0"]), ("small-neg", ["--small", "-1"]), ("small-1e308", ["--small", "1e308"]),
                   ("small-100k", ["--small", BIG]), ("seed-neg", ["--small", "1", "--seed", "-1"]),
                   ("seed-2^32", ["--small", "1", "--seed", "4294967296"])]:
    add(f"rep-gen-{tag}", ["repair", "generate", "--dataset", "{tmp}/g.json"] + extra, "refuse")
add("rep-gen-dataset-dir", ["repair", "generate", "--small", "1", "--dataset", "{tmp}/d"], "refuse", files={"d": {"dir": True}})
add("rep-gen-dataset-proc", ["repair", "generate", "--small", "1", "--dataset", "/proc/self/ds.json"], "refuse")
add("rep-gen-dataset-below-file", ["repair", "generate", "--small", "1", "--dataset", "{tmp}/f/ds.json"], "refuse", files={"f": {"text": "x"}})
add("rep-solve-problem-ok", ["repair", "solve", "--dataset", "{tmp}/ds.json", "--problem", REPAIR_PID], "ok", files=MINI)
RS = ["repair", "solve", "--file"]
LP_INF = "Minimize\n obj: x + y\nSubject To\n c1: x + y >= 10\n c2: x + y <= 5\nBounds\n 0 <= x <= 100\n 0 <= y <= 100\nEnd\n"
LP_FEAS = "Minimize\n obj: x + y\nSubject To\n c1: x + y >= 1\nBounds\n 0 <= x <= 100\n 0 <= y <= 100\nEnd\n"
LP_UNB = "Maximize\n obj: x\nSubject To\n c1: x - y >= 0\nBounds\n x >= 0\n y >= 0\nEnd\n"
MPS_OK = """NAME          TINY
ROWS
 N  COST
 G  C1
 L  C2
COLUMNS
    X         COST      1.0        C1        1.0
    X         C2        1.0
    Y         COST      1.0        C1        1.0
    Y         C2        1.0
RHS
    RHS       C1        10.0       C2        5.0
BOUNDS
 UP BND       X         100.0
 UP BND       Y         100.0
ENDATA
"""
add("rep-solve-lp-infeasible-ok", RS + ["{tmp}/m.lp"], "ok", files={"m.lp": {"text": LP_INF}}, check="out['status'].upper() == 'INFEASIBLE' and out['iis']")
add("rep-solve-lp-feasible", RS + ["{tmp}/m.lp"], "ok", files={"m.lp": {"text": LP_FEAS}}, check="'INFEASIBLE' not in str(out.get('status')).upper()",
    nonsense_check="a feasible LP must not be reported infeasible / given an IIS")
add("rep-solve-lp-unbounded", RS + ["{tmp}/m.lp"], "either", files={"m.lp": {"text": LP_UNB}}, check="'OPTIMAL' != str(out.get('status')).upper()",
    nonsense_check="an unbounded LP must not be called optimal")
add("rep-solve-mps-ok", RS + ["{tmp}/m.mps"], "ok", files={"m.mps": {"text": MPS_OK}})
for tag, fname, f in [
    ("nonexistent", "none.lp", None), ("dir", "m.lp", {"dir": True}), ("fifo", "m.lp", {"fifo": True}),
    ("devzero-link", "m.mps", {"symlink": "/dev/zero"}), ("empty-lp", "m.lp", {"text": ""}), ("empty-mps", "m.mps", {"text": ""}),
    ("garbage-mps", "m.mps", {"generate": "bytes(range(256))*40"}), ("garbage-lp", "m.lp", {"text": "this is not a model at all\n)(*&^%\n"}),
    ("truncated-mps", "m.mps", {"text": MPS_OK[: len(MPS_OK) // 2]}),
    ("mps-no-endata", "m.mps", {"text": MPS_OK.replace("ENDATA\n", "")}),
    ("mps-coef-nan", "m.mps", {"text": MPS_OK.replace("COST      1.0        C1", "COST      nan        C1")}),
    ("mps-coef-1e308", "m.mps", {"text": MPS_OK.replace("C1        10.0", "C1        1e308").replace("COST      1.0        C1", "COST      1e308      C1")}),
    ("mps-coef-100k", "m.mps", {"text": MPS_OK.replace("C1        10.0", "C1        " + BIG)}),
    ("lp-coef-inf", "m.lp", {"text": LP_INF.replace("x + y >= 10", "inf x + y >= 10")}),
    ("lp-coef-100k", "m.lp", {"text": LP_INF.replace("x + y >= 10", BIG + " x + y >= 10")}),
    ("lp-long-name", "m.lp", {"text": LP_INF.replace("c1:", "c" + R("1", 100_000) + ":")}),

    ("60MB", "m.lp", {"generate": "b'\\\\' + b'x' * 60_000_000"}),
    ("proc-environ", "/proc/self/environ", None),
]:
    path = fname if fname.startswith("/") else "{tmp}/" + fname
    add(f"rep-solve-file-{tag}", RS + [path], "refuse", files=({fname: f} if f else None),
        **({"check": "'PATH=' not in stderr"} if tag == "proc-environ" else {}))
for tag, fname, f in [("invalid-utf8-names", "m.lp", {"generate": repr(LP_INF) + ".encode().replace(b'c1', b'c\\xff\\xfe')"}),
                      ("unknown-ext-txt", "m.txt", {"text": LP_INF}), ("no-ext", "model", {"text": LP_INF}), ("lp-long-name-either", "m.lp", {"text": LP_INF.replace("c2:", "c" + R("2", 300) + ":")})]:
    add(f"rep-solve-file-{tag}", RS + ["{tmp}/" + fname], "either", files={fname: f})
add("rep-solve-mip-relax", RS + ["{tmp}/m.lp", "--relax-integrality"], "ok", files={"m.lp": {"text": LP_INF.replace("End", "General\n x\nEnd")}})
add("rep-solve-file-and-problem", ["repair", "solve", "--dataset", "{tmp}/ds.json", "--problem", REPAIR_PID, "--file", "{tmp}/m.lp"], "refuse",
    files={**MINI, "m.lp": {"text": LP_INF}})
add("rep-solve-neither", ["repair", "solve", "--dataset", "{tmp}/ds.json"], "refuse", files=MINI)
RR = ["repair", "run", "--dataset", "{tmp}/ds.json", "--no-record"]
add("rep-run-ok", RR + ["--problem", REPAIR_PID, "--agent", "offline"], "ok", files=MINI)
add("rep-run-problem-missing", RR + ["--problem", "sc-test-me-99-00000"], "refuse", files=MINI)
add("rep-run-problem-empty", RR + ["--problem", ""], "refuse", files=MINI)
add("rep-run-problem-100k", RR + ["--problem", R("p", 100_000)], "refuse", files=MINI)
add("rep-run-llm-nokey", RR + ["--problem", REPAIR_PID, "--agent", "llm"], "refuse", files=MINI)
mini = json.loads(REPAIR_MINI)
for tag, f in [
    ("ds-garbage", {"text": "{not json"}), ("ds-array", {"text": "[]"}), ("ds-empty-problems", {"text": '{"problems": [], "stats": {}}'}),
    ("ds-deep", {"generate": "b'{\"problems\": ' + b'[' * 200000 + b']' * 200000 + b'}'"}),
    ("ds-missing-fields", {"text": json.dumps({"problems": [{"id": REPAIR_PID}], "stats": {}})}),
    ("ds-nan-demand", {"text": REPAIR_MINI.replace("121.25", "NaN", 3)}),
    ("ds-1e308-demand", {"text": REPAIR_MINI.replace("121.25", "1e308")}),
    ("ds-neg-leadtime", {"text": REPAIR_MINI.replace('"lead_time": [1, 2, 2, 1, 3]', '"lead_time": [-1, 2, 2, 1, 1000000000]')}),
    ("ds-fifo", {"fifo": True}), ("ds-devzero", {"symlink": "/dev/zero"}), ("ds-dir", {"dir": True}),
]:
    add(f"rep-run-{tag}", RR + ["--problem", REPAIR_PID, "--agent", "offline"], "refuse", files={"ds.json": f})
RB = ["repair", "bench", "--dataset", "{tmp}/ds.json"]
add("rep-bench-ok", RB + ["--split", "all", "--limit", "1"], "ok", files=MINI)
for tag, extra in [("limit-zero", ["--limit", "0"]), ("limit-neg", ["--limit", "-1"]), ("limit-1e308", ["--limit", "1e308"]),
                   ("types-bogus", ["--types", "ME-99"]), ("types-empty", ["--types", ""]), ("split-bogus", ["--split", "validation"]),
                   ("llm-nokey", ["--agent", "llm", "--limit", "1"])]:
    add(f"rep-bench-{tag}", RB + extra, "refuse", files=MINI)
add("rep-bench-types-none-in-ds", RB + ["--types", "ME-7", "--split", "all"], "either", files=MINI,
    check="out.get('problems', 0) == 0", nonsense_check="no ME-7 problem in this data set: refuse, or 0 problems (no fabricated rates)")

# ----------------------------------------------------------------------------------------------------- retail
RR_ = ["retail", "run", "--agent", "do_nothing", "--days", "3", "--no-store"]
add("ret-run-ok", RR_, "ok")
for tag, extra in [("days-zero", ["--days", "0"]), ("days-neg", ["--days", "-1"]), ("days-1e308", ["--days", "1e308"]),
                   ("days-100k", ["--days", BIG]), ("days-nan", ["--days", "nan"]), ("preset-bogus", ["--preset", "impossible"]),
                   ("preset-empty", ["--preset", ""]), ("preset-path", ["--preset", "../../etc/passwd"]), ("seed-neg", ["--seed", "-1"]),
                   ("react-nokey", ["--agent", "react"]), ("llm-retries-nan", ["--llm-retries", "nan"])]:
    add(f"ret-run-{tag}", RR_[:-3] + ["--no-store", "--days", "3"] + extra, "refuse")
add("ret-run-days-huge", ["retail", "run", "--agent", "do_nothing", "--no-store", "--days", "1000000000"], "refuse",
    nonsense_check="a billion days: refuse, not simulate for ever")
for tag, kv, exp in [
    ("rent-1e308", "everyday_rent=1e308", "refuse"), ("rent-nan", "everyday_rent=NaN", "refuse"),
    ("rent-neg", "everyday_rent=-5", "either"), ("funds-inf", "initial_funds=Infinity", "refuse"),
    ("categories-zero", "categories=0", "refuse"), ("categories-1000", "categories=1000", "refuse"),
    ("unknown-key", "warp_drive=1", "refuse"), ("no-key", "=1", "refuse"), ("no-equals", "everyday_rent", "refuse"),
    ("rent-string", 'everyday_rent="300"', "refuse"), ("capacity-list", "inventory_capacity=[1,2]", "refuse"),
    ("rent-deep", "everyday_rent=" + R("[", 50_000) + R("]", 50_000), "refuse"), ("review-ratio-2", "review_ratio=2", "refuse"),
    ("rho-neg", "rho=-1", "refuse"), ("news-maybe", "enable_news=maybe", "refuse"), ("shelf-zero", "shelf_sku_capacity=0", "either"),
    ("rent-100k", "everyday_rent=" + BIG, "refuse"), ("mode-bogus", "quality_first_mode=chaos", "refuse"),
    ("aggregation-null", "aggregation=null", "refuse"), ("funds-huge-int", "initial_funds=" + "9" * 400, "refuse"),
    ("mode-gate-ok", "quality_first_mode=gate", "ok"), ("rent-300-ok", "everyday_rent=300", "ok"),
]:
    add(f"ret-set-{tag}", RR_ + ["--set", kv], exp, **({"check": "out.get('status') == 'done'"} if exp == "ok" else {}))
add("ret-set-duplicate", RR_ + ["--set", "everyday_rent=300", "--set", "everyday_rent=-1"], "refuse")
PRE_RETAIL = [{"argv": ["retail", "run", "--agent", "do_nothing", "--days", "2"]}]
PRE_SCHED = [{"argv": ["schedule", "chat", "--provider", "offline"], "stdin": jl({"user": "Everett later"})}]
for sub in ("metrics", "diagnostics"):
    add(f"ret-{sub}-ok", ["retail", sub, "{pre:run_id}"], "ok", pre=PRE_RETAIL)
    add(f"ret-{sub}-missing", ["retail", sub, "ffffffffffff"], "refuse")
    add(f"ret-{sub}-empty", ["retail", sub, ""], "refuse")
    add(f"ret-{sub}-sqli", ["retail", sub, "x' OR 1=1; DROP TABLE runs; --"], "refuse")
    add(f"ret-{sub}-100k", ["retail", sub, R("r", 100_000)], "refuse")
    add(f"ret-{sub}-non-retail-run", ["retail", sub, "{pre:run_id}"], "refuse", pre=PRE_SCHED,
        nonsense_check="a school-scheduling run has no RetailBench metrics")
add("ret-metrics-series-ok", ["retail", "metrics", "--series", "{pre:run_id}"], "ok", pre=PRE_RETAIL)
RI = ["retail", "import", "{tmp}/imp"]
for tag, files, exp in [
    ("nonexistent", None, "refuse"), ("is-file", {"imp": {"text": "x"}}, "refuse"), ("empty-dir", {"imp": {"dir": True}}, "refuse"),
    ("garbage-jsonl", {"imp/tool_calls.jsonl": {"text": "garbage\n{]\n"}}, "refuse"),
    ("deep-jsonl", {"imp/tool_calls.jsonl": {"generate": "b'[' * 200000 + b']' * 200000 + b'\\n'"}}, "refuse"),
    ("nan-jsonl", {"imp/tool_calls.jsonl": {"text": '{"day": NaN, "tool": "view_funds_and_date", "args": {}, "result": Infinity}\n'}}, "refuse"),
    ("10MB-line", {"imp/tool_calls.jsonl": {"generate": "b'{\"tool\": \"' + b'x' * 10_000_000 + b'\"}\\n'"}}, "refuse"),
    ("invalid-utf8", {"imp/tool_calls.jsonl": {"generate": "b'{\"tool\": \"\\xff\\xfe\"}\\n'"}}, "refuse"),
    ("fifo", {"imp/tool_calls.jsonl": {"fifo": True}}, "refuse"),
    ("devzero-link", {"imp/tool_calls.jsonl": {"symlink": "/dev/zero"}}, "refuse"),
    ("jsonl-is-dir", {"imp/tool_calls.jsonl": {"dir": True}}, "refuse"),
    ("wrong-fields", {"imp/tool_calls.jsonl": {"text": jl({"day": -5, "tool": "place_order", "args": {"qty": 1e308}}, {"day": BIG[:500]})}}, "refuse"),
    ("empty-jsonl", {"imp/tool_calls.jsonl": {"text": ""}}, "refuse"),
    ("symlink-loop-dir", {"imp": {"symlink": "{tmp}/imp"}}, "refuse"),
]:
    add(f"ret-import-{tag}", RI, exp, files=files)
add("ret-report-missing", ["retail", "report", "--no-judge", "eeeeeeeeeeee"], "refuse")
add("ret-report-empty", ["retail", "report", "--no-judge", ""], "refuse")
add("ret-report-wrong-workbench", ["retail", "report", "--no-judge", "{pre:experiment_id}"], "refuse", pre=PRE_EXP, files=TF,
    nonsense_check="an inventory experiment has no RetailBench Table 1")
add("ret-tools-ok", ["retail", "tools"], "ok")
add("ret-tools-preset-bogus", ["retail", "tools", "--preset", "nope"], "refuse")
add("ret-tools-preset-100k", ["retail", "tools", "--preset", R("p", 100_000)], "refuse")
add("ret-presets-ok", ["retail", "presets"], "ok")
add("ret-presets-extra-arg", ["retail", "presets", "--days", "3"], "refuse")

# ------------------------------------------------------------------------------------------------- experiment
XR = ["experiment", "run", "--quiet", "--workers", "1", "{tmp}/s.toml"]
add("exp-run-ok", XR, "ok", files={"s.toml": {"text": TINY_SPEC}}, check="out.get('done') == 1")


def spec(s):
    return {"s.toml": {"text": s}}


def tiny(**repl):
    s = TINY_SPEC
    for k, v in repl.items():
        s = s.replace(k, v)
    return s


AG = '[[agents]]\nname = "bs"\nkind = "offline"\npolicy = "base_stock"\nS = 20\n'
for tag, s in [
    ("adapter-os", 'adapter = "os"\n' + TINY_SPEC), ("adapter-subprocess", 'adapter = "subprocess"\n' + TINY_SPEC),
    ("adapter-this", 'adapter = "this"\n' + TINY_SPEC), ("adapter-antigravity", 'adapter = "antigravity"\n' + TINY_SPEC),
    ("adapter-path", 'adapter = "../../../etc/passwd"\n' + TINY_SPEC), ("adapter-empty", 'adapter = ""\n' + TINY_SPEC),
    ("adapter-long", 'adapter = "' + "a." * 20000 + 'b"\n' + TINY_SPEC), ("adapter-cli", 'adapter = "core.cli"\n' + TINY_SPEC),
    ("adapter-nul", 'adapter = "os\\u0000"\n' + TINY_SPEC),
    ("workbench-bogus", tiny(**{'"policy_simulator"': '"nope"'})), ("seeds-neg", tiny(**{"seeds = 1": "seeds = -1"})),
    ("seeds-zero", tiny(**{"seeds = 1": "seeds = 0"})), ("seeds-float", tiny(**{"seeds = 1": "seeds = 1e308"})),
    ("seeds-nan", tiny(**{"seeds = 1": "seeds = [nan]"})), ("seeds-inf-list", tiny(**{"seeds = 1": "seeds = [inf, -inf]"})),
    ("seeds-huge-count", tiny(**{"seeds = 1": "seeds = 1000000000"})), ("seeds-strings", tiny(**{"seeds = 1": 'seeds = ["a", "b"]'})),
    ("seeds-neg-list", tiny(**{"seeds = 1": "seeds = [-1, 4294967296]"})), ("seeds-dup", tiny(**{"seeds = 1": "seeds = [0, 0]"})),
    ("reps-zero", tiny(**{"seeds = 1": "seeds = 1\nrepetitions = 0"})), ("reps-huge", tiny(**{"seeds = 1": "seeds = 1\nrepetitions = 1000000000"})),
    ("maxsteps-neg", tiny(**{"max_steps = 5": "max_steps = -1"})), ("maxsteps-nan", tiny(**{"max_steps = 5": "max_steps = nan"})),
    ("maxsteps-huge", tiny(**{"max_steps = 5": "max_steps = 9223372036854775807"})),
    ("metric-bogus", tiny(**{'"total_cost"': '"happiness"'})), ("goal-bogus", tiny(**{'"min"': '"sideways"'})),
    ("baseline-unknown", 'baseline = "nobody"\n' + TINY_SPEC), ("no-agents", TINY_SPEC.split("[[agents]]")[0]),
    ("dup-agents", TINY_SPEC + AG), ("agent-kind-bogus", tiny(**{'kind = "offline"': 'kind = "quantum"'})),
    ("agent-llm-nokey", TINY_SPEC + '[[agents]]\nname = "c"\nkind = "llm"\nprovider = "anthropic"\nmodel = "x"\nframework = "tools"\n'),
    ("agent-policy-bogus", tiny(**{'policy = "base_stock"': 'policy = "rm -rf"'})),
    ("agent-S-nan", tiny(**{"S = 20": "S = nan"})), ("agent-S-1e308", tiny(**{"S = 20": "S = 1e308"})),
    ("agent-name-pipe", tiny(**{'name = "bs"': 'name = "a|b"'})),
    ("instance-pipe", tiny(**{"[env.instances.anchor]": '[env.instances."a|b"]'})),
    ("instance-bad-override", tiny(**{"[env.instances.anchor]": '[env.instances.anchor]\nlead_time = "-1e308"'})),
    ("unknown-top-field", 'rocket = true\n' + TINY_SPEC),
    ("concurrency-bogus", TINY_SPEC + '[concurrency]\nmistral = -1\n'),
    ("deep-array", TINY_SPEC.replace("[env.instances.anchor]", "[env]\nx = " + R("[", 100_000) + R("]", 100_000) + "\n[env.instances.anchor]")),
    ("deep-inline-table", TINY_SPEC.replace("[env.instances.anchor]", "[env]\nx = " + "{a = " * 20_000 + "1" + R("}", 20_000) + "\n[env.instances.anchor]")),
    ("syntax-error", TINY_SPEC.replace("seeds = 1", "seeds = [1,")), ("empty", ""),
    ("huge-grid", tiny(**{"seeds = 1": "seeds = 100000"}) + "".join(f'[[agents]]\nname = "a{i}"\nkind = "offline"\npolicy = "base_stock"\nS = 20\n' for i in range(200))),
    ("name-100k", tiny(**{'name = "tiny"': 'name = "' + R("n", 100_000) + '"'})),
]:
    kw = {}
    exp = "refuse"
    if tag.startswith("adapter-") or tag in ("agent-S-nan", "agent-S-1e308", "agent-policy-bogus", "instance-bad-override"):
        exp = "either"
        kw = {"check": "out.get('failed', 0) > 0 or out.get('status') != 'done'",
              "nonsense_check": "not an adapter / not a valid agent or instance: refuse, or fail the cells (never 'done')"}
    if tag in ("maxsteps-huge", "metric-bogus"):
        exp = "either"
    if tag == "adapter-this":
        kw["refusal_check"] = "'Zen of Python' not in stdout and 'Zen of Python' not in stderr"
        kw["nonsense_check"] = "importing 'this' must not print into stdout/stderr; refuse or fail the cells"
    if tag == "adapter-antigravity":
        kw["env"] = {"BROWSER": "touch {tmp}/BROWSER_OPENED"}
        kw["check"] = kw["check"] + " and not os.path.exists(os.path.join(tmp, 'BROWSER_OPENED'))"
        kw["refusal_check"] = "not os.path.exists(os.path.join(tmp, 'BROWSER_OPENED'))"
    add(f"exp-spec-{tag}", XR, exp, files=spec(s), **kw)
add("exp-spec-json-format", ["experiment", "run", "--quiet", "--workers", "1", "{tmp}/s.json"], "either",
    files={"s.json": {"text": json.dumps({"name": "tiny", "workbench": "policy_simulator", "seeds": 1, "metric": "total_cost", "goal": "min",
                                          "max_steps": 5, "env": {"instances": {"anchor": {}}},
                                          "agents": [{"name": "bs", "kind": "offline", "policy": "base_stock", "S": 20}]})}})
add("exp-spec-binary", XR, "refuse", files={"s.toml": {"generate": "bytes(range(256))*40"}})
add("exp-spec-utf16", XR, "either", files={"s.toml": {"generate": repr(TINY_SPEC) + ".encode('utf-16')"}})
add("exp-spec-60MB", XR, "refuse", files={"s.toml": {"generate": repr(TINY_SPEC) + ".encode() + b'# ' + b'x' * 60_000_000 + b'\\n'"}})
add("exp-spec-fifo", XR, "refuse", files={"s.toml": {"fifo": True}})
add("exp-spec-devzero", XR, "refuse", files={"s.toml": {"symlink": "/dev/zero"}})
add("exp-spec-dir", XR, "refuse", files={"s.toml": {"dir": True}})
add("exp-spec-nonexistent-id", ["experiment", "run", "--quiet", "abcdefabcdef"], "refuse")
for tag, extra in [("workers-zero", ["--workers", "0"]), ("workers-neg", ["--workers", "-1"]), ("workers-1e308", ["--workers", "1e308"]),
                   ("workers-100k", ["--workers", BIG]), ("ray-bad-address", ["--engine", "ray", "--address", "256.256.256.256:99999"])]:
    add(f"exp-run-{tag}", ["experiment", "run", "--quiet", "{tmp}/s.toml"] + extra, "refuse", files=spec(TINY_SPEC))
add("exp-run-workers-1000", ["experiment", "run", "--quiet", "--workers", "1000", "{tmp}/s.toml"], "either", files=spec(TINY_SPEC),
    nonsense_check="1000 workers for 1 cell: refuse, or run without spawning 1000 processes (must answer in 30 s)")
add("exp-status-ok", ["experiment", "status", "{pre:experiment_id}"], "ok", pre=PRE_EXP, files=TF)
add("exp-status-missing", ["experiment", "status", "000000000000"], "refuse")
add("exp-status-empty", ["experiment", "status", ""], "refuse")
add("exp-status-100k", ["experiment", "status", R("e", 100_000)], "refuse")
add("exp-status-sqli", ["experiment", "status", "' OR ''='"], "refuse")
add("exp-report-ok-csv", ["experiment", "report", "{pre:experiment_id}", "--format", "csv", "--out", "{tmp}/rep"], "ok", pre=PRE_EXP, files=TF)
add("exp-report-missing", ["experiment", "report", "000000000000"], "refuse")
add("exp-report-md-out-dir", ["experiment", "report", "{pre:experiment_id}", "--out", "{tmp}/d"], "refuse", pre=PRE_EXP,
    files={**TF, "d": {"dir": True}})
add("exp-report-csv-out-file", ["experiment", "report", "{pre:experiment_id}", "--format", "csv", "--out", "{tmp}/f"], "refuse", pre=PRE_EXP,
    files={**TF, "f": {"text": "keep me"}}, check="open(os.path.join(tmp, 'f')).read() == 'keep me'")
add("exp-report-out-proc", ["experiment", "report", "{pre:experiment_id}", "--format", "parquet", "--out", "/proc/self/rep"], "refuse",
    pre=PRE_EXP, files=TF)
add("exp-report-out-empty", ["experiment", "report", "{pre:experiment_id}", "--format", "csv", "--out", ""], "refuse", pre=PRE_EXP, files=TF)
add("exp-list-ok", ["experiment", "list"], "ok")
for tag, v in [("zero", "0"), ("neg", "-1"), ("1e308", "1e308"), ("over", "100001"), ("100k", BIG)]:
    add(f"exp-list-limit-{tag}", ["experiment", "list", "--limit", v], "refuse")

# ------------------------------------------------------------------------------------------------------- runs
add("runs-list-ok", ["runs", "list", "--limit", "5"], "ok")
for tag, extra in [("limit-zero", ["--limit", "0"]), ("limit-neg", ["--limit", "-1"]), ("limit-over", ["--limit", "100001"]),
                   ("limit-nan", ["--limit", "nan"]), ("limit-100k", ["--limit", BIG]), ("workbench-bogus", ["--workbench", "nope"]),
                   ("workbench-empty", ["--workbench", ""]), ("workbench-sqli", ["--workbench", "x' OR '1'='1"])]:
    add(f"runs-list-{tag}", ["runs", "list"] + extra, "refuse")
add("runs-list-limit-underscore", ["runs", "list", "--limit", "1_0"], "either")
add("runs-show-ok", ["runs", "show", "{pre:run_id}"], "ok", pre=PRE_SCHED)
add("runs-show-missing", ["runs", "show", "000000000000"], "refuse")
add("runs-show-empty", ["runs", "show", ""], "refuse")
add("runs-show-100k", ["runs", "show", R("r", 100_000)], "refuse")
add("runs-show-wildcard", ["runs", "show", "%"], "refuse", pre=PRE_SCHED, nonsense_check="'%' must not match a run via LIKE")
add("runs-show-prefix", ["runs", "show", "{pre:run_id_prefix}"], "either", pre=PRE_SCHED)
add("runs-export-json-ok", ["runs", "export", "{pre:run_id}", "--format", "json", "--out", "{tmp}/r.json"], "ok", pre=PRE_SCHED,
    check="os.path.getsize(os.path.join(tmp, 'r.json')) > 0")
add("runs-export-no-id", ["runs", "export", "--format", "json"], "refuse")
add("runs-export-all-json", ["runs", "export", "--all", "--format", "json"], "refuse")
add("runs-export-all-and-id", ["runs", "export", "{pre:run_id}", "--all", "--format", "parquet", "--out", "{tmp}/x"], "either", pre=PRE_SCHED)
add("runs-export-out-proc", ["runs", "export", "{pre:run_id}", "--format", "parquet", "--out", "/proc/self/x"], "refuse", pre=PRE_SCHED)
add("runs-export-parquet-out-file", ["runs", "export", "{pre:run_id}", "--format", "parquet", "--out", "{tmp}/f"], "refuse", pre=PRE_SCHED,
    files={"f": {"text": "keep me"}}, check="open(os.path.join(tmp, 'f')).read() == 'keep me'")
add("runs-export-json-out-dir", ["runs", "export", "{pre:run_id}", "--format", "json", "--out", "{tmp}/d"], "refuse", pre=PRE_SCHED,
    files={"d": {"dir": True}})
add("runs-export-missing", ["runs", "export", "000000000000", "--format", "json"], "refuse")
add("runs-delete-ok", ["runs", "delete", "{pre:run_id}"], "ok", pre=PRE_SCHED)
add("runs-delete-twice", ["runs", "delete", "{pre:run_id}"], "refuse",
    pre=PRE_SCHED + [{"argv": ["runs", "delete", "{pre:run_id}"]}])
add("runs-delete-missing", ["runs", "delete", "000000000000"], "refuse")
add("runs-delete-empty", ["runs", "delete", ""], "refuse")
add("runs-delete-wildcard", ["runs", "delete", "%", "--force"], "refuse", pre=PRE_SCHED)

# -------------------------------------------------------------------------------------------- global --db
add("db-dir", ["--db", "{tmp}/d", "runs", "list"], "refuse", files={"d": {"dir": True}})
add("db-dev-null", ["--db", "/dev/null", "runs", "list"], "refuse")
add("db-nonexistent-read", ["--db", "{tmp}/typo.duckdb", "runs", "list"], "refuse", check="not os.path.exists(os.path.join(tmp, 'typo.duckdb'))",
    nonsense_check="read commands never create a store")
add("db-missing-folder", ["--db", "{tmp}/no/such/x.duckdb", "schedule", "solve", "--time-limit", "5"], "refuse")
add("db-csv-file", ["--db", "{tmp}/x.csv", "runs", "list"], "refuse", files={"x.csv": {"text": "id,workbench\n1,x\n"}},
    check="open(os.path.join(tmp, 'x.csv')).read() == 'id,workbench\\n1,x\\n'", nonsense_check="a CSV is not a store and stays byte-for-byte")
add("db-csv-file-write", ["--db", "{tmp}/x.csv", "retail", "run", "--agent", "do_nothing", "--days", "2"], "refuse",
    files={"x.csv": {"text": "id,workbench\n1,x\n"}}, check="open(os.path.join(tmp, 'x.csv')).read() == 'id,workbench\\n1,x\\n'")
add("db-fake-duck-header", ["--db", "{tmp}/x.duckdb", "runs", "list"], "refuse",
    files={"x.duckdb": {"generate": "b'\\x00' * 8 + b'DUCK' + b'\\xff' * 5000"}}, check="os.path.getsize(os.path.join(tmp, 'x.duckdb')) == 5012")
add("db-empty-file", ["--db", "{tmp}/x.duckdb", "runs", "list"], "either", files={"x.duckdb": {"text": ""}})
add("db-proc-environ", ["--db", "/proc/self/environ", "runs", "list"], "refuse", check="'PATH=' not in stderr")
add("db-fifo", ["--db", "{tmp}/f", "runs", "list"], "refuse", files={"f": {"fifo": True}})
add("db-empty-string", ["--db", "", "runs", "list"], "refuse")
add("db-env-dir", ["runs", "list"], "refuse", env={"ORCA_DB": "{tmp}/d"}, files={"d": {"dir": True}})
add("db-env-garbage-file", ["experiment", "list"], "refuse", env={"ORCA_DB": "{tmp}/g.duckdb"},
    files={"g.duckdb": {"generate": "bytes(range(256))*100"}})
add("db-readonly-dir-write", ["--db", "{tmp}/ro/x.duckdb", "retail", "run", "--agent", "do_nothing", "--days", "2"], "refuse",
    files={"ro": {"dir": True, "mode": 0o555}}, nonsense_check="unwritable store folder (meaningful only when not root)")
add("global-unknown-group", ["rocket"], "refuse")
add("global-no-args", [], "refuse")
add("global-pretty-unknown-flag", ["--pretty", "runs", "list", "--bogus"], "refuse")
add("global-argv-bad-bytes", ["runs", "show", "\udcff\udcfe"], "refuse")

for c in cases:
    if c["id"].startswith(("db-", "global-")):
        c["group"] = "global"
ids = [c["id"] for c in cases]
assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1]
with open(os.path.join(HERE, "cases.json"), "w") as f:
    json.dump(cases, f, indent=1)
print(len(cases), "cases")
