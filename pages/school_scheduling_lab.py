"""School Scheduling Lab: decision agents with hidden utilities talk to an optimization agent (seed 003): the
offline T-P-P, or with an LLM key the LLM T-P-P (ORCA or paper mode) and the code-writing C-P-P, C-P-R, C-N-R."""

import pandas as pd
import plotly.express as px
import streamlit as st

from core.errors import SpecError
from core.experiments import background
from core.experiments.spec import from_dict
from core.schedule.lab import session as lab_session
from core.schedule.lab.conversation import Paradigm
from core.schedule.lab.decision_agents import OFFLINE_LABEL, DecisionProfile, Feedback, Style
from core.schedule.lab.experiment import WORKBENCH, driver_env, lab_spec
from core.schedule.lab.llm_decision import DecisionAgentSpec
from core.schedule.lab.optimization_agents import DESCRIPTIONS, DESIGNS, OptimizerSpec, llm_problem
from core.schedule.lab.report import lab_frame, lab_report
from core.schedule.lab.utilities import frontier_targets, load_utilities, new_utility
from core.ui import (
    experiment_panel,
    get_store,
    guard,
    number_table,
    open_url_run,
    optional_store,
    plotly_chart,
    setup_page,
    show_run_link,
)
from solvers.schedule.data import sfusd_district

P = "orca_lab_"
PAGE, URL_TRIED, LINKED = "pages/school_scheduling_lab.py", P + "url_tried", P + "linked_run"
settings = setup_page(
    "School Scheduling Lab",
    "Evaluate optimization agents the way seed 003 does: simulated stakeholders with a hidden utility converse "
    "with the agent; the score is U(best schedule seen) / U*. Compare one-shot and conversational evaluation.",
)


def linked_run() -> None:
    """A shared link (`?run=ID`) to a recorded lab conversation: its title, metrics and transcript from the store."""
    store = optional_store()
    if wanted := open_url_run(store, URL_TRIED, "school_scheduling", st.session_state.get(LINKED)):
        st.session_state[LINKED] = wanted
    run_id = st.session_state.get(LINKED)
    if run_id is None or store is None:
        return
    with guard():
        run = store.get_run(run_id)
        if not (run.get("config") or {}).get("lab"):
            st.session_state.pop(LINKED)
            raise SpecError("run", f"run {run_id} is a School Scheduling chat, not a lab conversation: "
                            f"open it on the School Scheduling page (/school_scheduling?run={run_id})")  # fmt: skip
        with st.expander(f"Recorded conversation: {run.get('title') or run_id}", expanded=True,
                         icon=":material/link:"):  # fmt: skip
            show_run_link(PAGE, run_id, URL_TRIED)
            st.caption(" · ".join(f"{k} {v}" for k, v in (run.get("metrics") or {}).items()))
            for row in store.messages(run_id).itertuples():
                if row.content and row.role != "tool":
                    st.chat_message("user" if row.role == "user" else "assistant").markdown(row.content)


linked_run()

utilities = load_utilities()
keys = [u.key for u in utilities]
by_key = {u.key: u for u in utilities}
PARADIGMS = [p.value for p in Paradigm]
KINDS = {
    "offline": "Offline stand-ins (built-in, not LLMs)",
    "llm": "LLM decision agents (Settings provider)",
}

OPTIMIZERS = {"T-P-P (offline)": OptimizerSpec()} | {f"{d} (LLM)": OptimizerSpec(d, "llm") for d in DESIGNS}


def optimizer_label(name: str) -> str:
    spec = OPTIMIZERS[name]
    if not spec.llm:
        return "T-P-P, offline policy (built-in, not an LLM; no key needed)"
    return f"{spec.design} with the Settings LLM: {DESCRIPTIONS[spec.design]}"


kind = st.radio("Decision agents", list(KINDS), format_func=KINDS.get, key=P + "kind", horizontal=True)
optimizer = OPTIMIZERS[
    st.selectbox("Optimization agent", list(OPTIMIZERS), format_func=optimizer_label, key=P + "optimizer")
]
decision: DecisionAgentSpec | None = DecisionAgentSpec()
if kind == "llm" and settings.provider != "offline":
    decision = DecisionAgentSpec(kind="llm", provider=settings.provider, model=settings.model)
llm_roles = [
    role for role, llm in (("LLM decision agents", kind == "llm"), (optimizer.label, optimizer.llm)) if llm
]
problems = []
if llm_roles:
    missing = llm_problem(settings)
    if missing is not None:
        problems.append(
            f"{' and '.join(llm_roles)} {'needs' if llm_roles == [optimizer.label] else 'need'} an LLM, but {missing}. Choose Anthropic or OpenAI under Settings "
            "(with its API key). Nothing offline is substituted for them; pick the offline stand-ins (offline "
            "decision agents, T-P-P offline) to run without a key."
        )
for problem in problems:
    st.warning(problem, icon=":material/key:")
mismatch = optimizer.decision_problem(kind)
if mismatch is not None:
    st.warning(mismatch, icon=":material/block:")
if problems or mismatch:
    decision = None
else:
    who = [
        f"Decision agents: {decision.label if kind == 'llm' else OFFLINE_LABEL}.",
        f"Optimization agent: {optimizer.label}"
        + (
            f" over {settings.provider}/{settings.model}."
            if optimizer.llm
            else ", a built-in policy, not an LLM."
        ),
    ]
    if llm_roles:
        who.append("Each conversation calls the LLM once or more per turn.")
    st.info(" ".join(who))
allowed = [p.value for p in optimizer.paradigms()]
refused = [(p, optimizer.paradigm_problem(p)) for p in PARADIGMS if p not in allowed]
if refused:
    st.caption(
        f"Paradigms not offered for {optimizer.design}: " + " ".join(f"**{p}**: {why}" for p, why in refused)
    )
elif optimizer.design not in ("T-P-P", "T-P-P-paper"):
    st.caption(
        f"Seed 003 reports {optimizer.design} under conversation only (Table 3); Table 2's paradigms are defined "
        "for T-P-P and apply unchanged here, since this design also opens with the base model's proposal."
    )
suffix = "" if not refused else "_" + optimizer.design.lower()

watch, batch = st.tabs(["Watch a conversation", "Batch"])

with watch:
    source = st.radio(
        "Decision agent",
        ["shipped", "generate"],
        format_func={"shipped": "From the shipped set", "generate": "Generate a new one"}.get,
        key=P + "source",
        horizontal=True,
    )
    u = None
    if source == "shipped":
        u = by_key[st.selectbox("Decision agent utility", keys, key=P + "utility")]
    else:
        names = sfusd_district().names
        g1, g2, g3 = st.columns([2, 1, 3])
        school = g1.selectbox("School", names, key=P + "gen_school")
        seed = int(g2.number_input("Seed", 0, 2**31 - 1, 0, step=1, key=P + "gen_seed"))
        targets = frontier_targets(school)
        labels = ["any (seeded draw among the school's frontier schedules)"] + [label for _, label in targets]
        picked = g3.selectbox(
            "Target schedule", range(len(labels)), format_func=labels.__getitem__, key=P + "gen_target"
        )
        if st.button("Generate decision agent", key=P + "generate"):
            with guard(), st.spinner("Grid search over (L, R) and 10,000 simplex samples per cell…"):
                target = None if picked == 0 else targets[picked - 1][0]
                st.session_state[P + "generated"] = new_utility(school, seed, target)
        u = st.session_state.get(P + "generated")
        if u is None:
            st.caption(
                f"{len(targets)} candidate schedules on {school}'s conditional Pareto frontiers. Press Generate: "
                "the generator draws a direction and role, then searches thresholds and weights that make the "
                "target the unique maximiser (Appendix 10.2)."
            )
        else:
            st.success(
                f"Generated {u.key}: {u.role} at {u.school} who prefers it {u.direction.value}; the target schedule "
                "is the unique maximiser among the school's frontier schedules (checked by enumeration).",
                icon=":material/check_circle:",
            )
            district = sfusd_district()
            generated = pd.DataFrame(
                {
                    "w1 (start time)": [u.w1],
                    "w2 (peak load)": [u.w2],
                    "w3 (change)": [u.w3],
                    "L (students)": [round(u.max_load * 100)],
                    "R (minutes)": [u.max_deviation],
                    "U*": [u.u_star],
                    "target": [", ".join(district.time_labels[a] for a in u.target)],
                }
            )
            number_table(generated, key=P + "gen_table")
    c2, c3, c4 = st.columns(3)
    style = c2.radio("Style", [s.value for s in Style], key=P + "style", horizontal=True)
    feedback = c3.radio("check_utility", [f.value for f in Feedback], key=P + "feedback", horizontal=True)
    paradigm = c4.selectbox(
        "Paradigm", allowed, index=allowed.index("conversation"), key=P + "paradigm" + suffix
    )
    if u is not None:
        st.caption(
            f"Hidden utility {u.key} ({u.role}, {u.school}, prefers {u.direction.value}): w = ({u.w1}, {u.w2}, "
            f"{u.w3}), L = {u.max_load * 100:,.0f} students, R = {u.max_deviation:g} min, U* = {u.u_star:g}. "
            f"Optimization agent: {optimizer.label}."
        )
    live = st.container(key=P + "live")

    def show(entry: dict, box=live) -> None:
        if entry["role"] == "check":
            return
        with box.chat_message("user" if entry["role"] == "decision" else "assistant"):
            st.markdown(entry["content"] or "_(no message)_")
            if entry["role"] == "decision" and u is not None:
                best = entry.get("best", 0.0)
                checked = ", ".join(
                    str(c.get("utility", c.get("maximal", c.get("error")))) for c in entry.get("checks", [])
                )
                st.caption(
                    f"check_utility: {checked or 'no schedule checked'} · best utility so far {best:.3f} of "
                    f"U* {u.u_star:g} (π = {best / u.u_star:.3f})"
                )

    run = st.button("Run conversation", type="primary", key=P + "run", disabled=decision is None or u is None)
    if run and decision is not None and u is not None:
        st.session_state.pop(P + "result", None)
        with guard(), st.spinner("Conversing…"):
            st.session_state[P + "result"] = lab_session.watch(
                DecisionProfile(u, Style(style), Feedback(feedback)),
                paradigm,
                store=optional_store(),
                on_message=show,
                decision=decision,
                settings=settings,
                optimizer=optimizer,
            )
    result = st.session_state.get(P + "result")
    if result is not None:
        m1, m2, m3, m4 = st.columns(4)
        m1.metric("Score π", f"{result.score:.3f}")
        m2.metric("Turns", result.turns)
        m3.metric("Solver calls", result.solver_calls)
        m4.metric("Stopped", result.stop.value)
        st.caption(
            f"Decision agent: {result.decision_agent}; optimization agent: {result.optimization_agent}. "
            + result.agents_note
        )
        if not run:
            for entry in result.transcript:
                show(entry)
        checks = [c for e in result.transcript for c in e.get("checks", [])]
        if checks:
            st.caption("check_utility after each proposal (in order)")
            checks_frame = pd.DataFrame(checks)
            number_table(checks_frame)
        if result.run_id:
            st.caption(f"Recorded as run {result.run_id} (open it in Run history).")
            show_run_link(PAGE, result.run_id, URL_TRIED)


def lab_experiments() -> dict[str, str]:
    """The store's lab experiments (newest first): id -> "name · id"."""
    frame = get_store().list_experiments()
    frame = frame[frame["workbench"] == WORKBENCH]
    return {
        i: f"{n} · {i} · {status}"
        for i, n, status in zip(frame["id"], frame["name"], frame["status"], strict=True)
    }


def is_live(exp_id: str) -> bool:
    """This server runs the experiment, or the store says it runs (e.g. from the CLI)."""
    return background.is_live(exp_id, get_store().get_experiment(exp_id)["status"])


def progress_panel(exp_id: str) -> None:
    """Progress from the store's cells table (every session sees the same); reruns the page when done."""
    with experiment_panel(
        get_store(),
        exp_id,
        "conversations",
        P + "was_running",
        "This batch's driver stopped reporting (killed, or the machine restarted); press Run batch with the "
        "same choices (or resume it on the Experiments page) to run only the missing conversations.",
    ) as state:
        if state.running:
            st.caption("Running in the background: leave or reload the page; this view refreshes by itself.")


with batch:
    count = st.slider("Utilities", 1, len(utilities), min(3, len(utilities)), key=P + "count")
    chosen = st.multiselect(
        "Paradigms", allowed, default=["one_shot", "conversation"], key=P + "paradigms" + suffix
    )
    workers = int(st.number_input("Worker processes", 1, 8, 2, key=P + "workers"))
    st.caption(
        f"{count} utilities × 2 styles × 2 feedbacks × {len(chosen)} paradigms = {4 * count * len(chosen)} "
        "conversations, run as an experiment in the background (it keeps going when you leave the page; every "
        "session sees it; the same choices resume it). The full set: python -m core.cli schedule lab run "
        "--paradigm conversation"
    )
    if st.button("Run batch", key=P + "batch", disabled=not chosen or decision is None):
        with guard():
            kind_name = "llm" if decision is not None and decision.kind == "llm" else "offline"
            spec = from_dict(
                lab_spec(
                    chosen,
                    utilities=count,
                    decision=decision,
                    optimizer=optimizer,
                    provider=settings.provider if optimizer.llm else None,
                    model=settings.model if optimizer.llm else None,
                    name=f"schedule_lab_page_{optimizer.design.lower()}_{kind_name}_{count}u_{'_'.join(chosen)}",
                )
            )
            run = background.start_spec(spec, settings.store_path, workers=workers, env=driver_env(settings))
            st.session_state[P + "experiment"] = run.experiment_id
    with guard():
        experiments = lab_experiments()
    if not experiments:
        st.caption("No batch yet: choose the size and press Run batch.")
        st.stop()
    if st.session_state.get(P + "experiment") not in experiments:
        st.session_state[P + "experiment"] = next(iter(experiments))
    exp_id = st.selectbox(
        "Batch (lab experiment)", list(experiments), format_func=experiments.get, key=P + "experiment"
    )
    st.fragment(run_every=1.5 if is_live(exp_id) else None)(progress_panel)(exp_id)
    with guard():
        report = lab_report(get_store(), exp_id)
        frame = lab_frame(get_store(), exp_id)
    if frame.empty:
        st.caption("No finished conversations yet: results appear here as they complete.")
        st.stop()
    st.caption(
        f"{report['note']} LLM optimization agents: {report['llm_designs']}. Agents: "
        + "; ".join(f"{a} ({report['agent_designs'][a]}, {k})" for a, k in report["agent_kinds"].items())
    )
    table2 = pd.DataFrame(report["table2"]["rows"])
    number_table(table2, key=P + "table2")
    if report["table2"]["tests"]:
        st.caption(
            "Conversation against each other paradigm: one-sided paired tests (core.experiments.stats)."
        )
        tests = pd.DataFrame(report["table2"]["tests"])
        number_table(tests, key=P + "tests")
    table3 = pd.DataFrame(report["table3_4"])
    number_table(table3, key=P + "table3")
    plotly_chart(px.box(frame, x="agent", y="score", color="style", points="all",
                        labels={"agent": "Agent", "score": "Score (0 to 1)", "style": "Style"}), key=P + "box")
    st.download_button(
        "Download conversations (CSV)", frame.to_csv(index=False), f"lab-{exp_id}.csv", "text/csv"
    )
