"""Inventory evaluation lab: generated businesses, a simulated manager and the treatments of seed 000 §4,
scored on the ground truth (configure, run with progress, read the tables and charts, open any trial)."""

import json

import streamlit as st

from core.inventory.lab.lab import LabConfig, run_lab
from core.inventory.lab.report import (
    IMITATOR_LABELS,
    figures,
    frames,
    order_query_summary,
    record,
    render_markdown,
    results_csv,
    stored_result,
    switch_notes,
)
from core.inventory.lab.treatments import TREATMENT_LABELS
from core.ui import (
    guard,
    llm_ready,
    number_columns,
    open_url_run,
    optional_store,
    plotly_chart,
    progress_with_eta,
    setup_page,
    show_run_link,
)

P = "orca_lab_"
RESULT = P + "result"
RUN_ID = P + "run_id"
PAGE, URL_TRIED = "pages/inventory_lab.py", P + "url_tried"

settings = setup_page(
    "Inventory evaluation lab",
    "The in-silico laboratory of seed 000 §3–4: a Problem Generator creates businesses with hidden true "
    "parameters, a simulated manager answers questions about them, and each treatment's policy is simulated on "
    "the truth with common random numbers. A: the Copilot; B: an LLM alone in conversation; C: an LLM alone "
    "given the true parameter file.",
)
store = optional_store()
if wanted := open_url_run(store, URL_TRIED, "inventory_lab", st.session_state.get(RUN_ID)):  # a shared link
    with guard():
        st.session_state[RESULT], st.session_state[RUN_ID] = stored_result(store, wanted), wanted

if settings.provider == "offline":
    st.info(
        "Offline mode: Treatments B and C and the LLM judge need an LLM key (Settings in the sidebar); they will "
        "not run and nothing is substituted for them. Treatment A runs with the offline agents against the "
        "offline imitator, and is compared with textbook rules of thumb — clearly labelled, not LLM baselines.",
        icon=":material/cloud_off:",
    )

with st.form(P + "form"):
    c1, c2, c3 = st.columns(3)
    protocol = c1.selectbox(
        "Protocol",
        ["paper70", "mixed"],
        key=P + "protocol",
        help="paper70: Table 5's splits (14 normal L=7, 11 Poisson L=7, 15 Poisson L=1, 30 others); mixed: random",
    )
    n = c2.number_input("Scenarios", 1, 500, 6, key=P + "n", help="paper70 takes the first n of its 70")
    seed = c3.number_input("Seed", 0, 2**31 - 1, 0, key=P + "seed")
    treatments = st.multiselect(
        "Treatments",
        list(TREATMENT_LABELS),
        default=list(TREATMENT_LABELS) if llm_ready(settings) else ["A"],  # B, C need an LLM and its key
        key=P + "treatments",
        format_func=TREATMENT_LABELS.get,
    )
    c1, c2 = st.columns(2)
    imitator = c1.radio("Imitator", ["offline", "llm"], key=P + "imitator", format_func=IMITATOR_LABELS.get)
    noise = c2.slider(
        "Imitator noise (offline)",
        0.0,
        3.0,
        1.0,
        0.25,
        key=P + "noise",
        help="Scales vagueness, off-question answers, weekly/monthly units, numbers in words, late "
        "self-corrections, questions back and chatter (1 = default)",
    )
    c1, c2, c3, c4 = st.columns(4)
    copilot_paths = c1.number_input("Copilot paths", 10, 5000, 200, key=P + "paths")
    assessment_paths = c2.number_input("Assessment paths", 10, 20000, 2000, key=P + "assess_paths")
    families = c3.selectbox(
        "Optimizer families",
        ["full", "paper"],
        key=P + "families",
        format_func={"full": "full menu (today)", "paper": "(s,S) + DQN only (paper)"}.get,
    )
    capacity = c4.selectbox(
        "Capacity counted on",
        ["inventory_position", "on_hand"],
        key=P + "capacity",
        format_func={
            "inventory_position": "inventory position (today)",
            "on_hand": "on-hand only (paper A.1)",
        }.get,
    )
    c1, c2 = st.columns(2)
    day_numbering = c1.selectbox(
        "Day numbering in order queries",
        ["from_one", "fig4"],
        key=P + "days",
        format_func={"from_one": "day 1 is the first day (today)", "fig4": "Fig. 4: 'day 4' is step 4"}.get,
    )
    risk_neutral = c2.checkbox("Every scenario risk-neutral (λ = 10)", key=P + "risk_neutral")
    submitted = st.form_submit_button("Run the lab", type="primary")

if submitted:
    with guard():
        config = LabConfig(
            protocol=protocol,
            n=int(n),
            seed=int(seed),
            treatments=tuple(treatments) or ("A",),
            imitator=imitator,
            noise=float(noise),
            risk_neutral=risk_neutral,
            copilot_paths=int(copilot_paths),
            assessment_paths=int(assessment_paths),
            families=families,
            capacity_basis=capacity,
            day_numbering=day_numbering,
        )
        bar = st.empty()
        progress = progress_with_eta("Generating scenarios…", where=bar)
        result = run_lab(config, settings, store=store, progress=progress)
        bar.empty()
        st.session_state[RESULT] = result
        st.session_state[RUN_ID] = record(store, result) if store is not None else None

result = st.session_state.get(RESULT)
with st.expander("Paper-exact switches", expanded=result is None):
    for note in switch_notes(result.config if result else LabConfig()):
        st.markdown(f"- {note}")

if result is None:
    st.info(
        "Configure the lab above and press **Run the lab**. Six scenarios take about half a minute offline."
    )
    st.stop()

for t, why in sorted(result.not_run.items()):
    st.warning(f"**{TREATMENT_LABELS[t]}** was not run: it {why}.", icon=":material/block:")
if st.session_state.get(RUN_ID):
    st.caption(
        f"Saved as run `{st.session_state[RUN_ID]}` (workbench Inventory evaluation lab) in Run history."
    )
    show_run_link(PAGE, st.session_state[RUN_ID], URL_TRIED)

tables = frames(result)
extraction = tables["extraction"]
cols = st.columns(4)
cols[0].metric("Scenarios", len(result.records))
if not extraction.empty:
    whole = extraction[extraction["parameter"] == "table"]["exactly right %"].iloc[0]
    cols[1].metric("A: tables exactly right", f"{whole:.0f}%")
gaps = tables["gaps"]
a_gap = gaps[gaps["policy"] == TREATMENT_LABELS["A"]]
if not a_gap.empty:
    cols[2].metric("A: median gap to the reference", f"{a_gap['median gap %'].iloc[0]:.2f}%")
oq = order_query_summary(result.records)
if oq["asked"]:
    cols[3].metric(
        "A: Fig. 4 order query right",
        f"{oq['order_ok']} of {oq['asked']}",
        help=f"After the policy the manager asks e.g. '{oq['example']}' (day numbering "
        f"{result.config.day_numbering}); right = the Copilot's tool got the intended time step and returned "
        "its own policy's order.",
    )

st.subheader("Cost reduction (Table 5)")
st.dataframe(tables["comparisons"], hide_index=True, use_container_width=True,
             column_config=number_columns(tables["comparisons"]))  # fmt: skip
charts = figures(result)
# the lab report's figures, titled on both axes here (issue 31: every chart names its axes and units)
charts["cost_reduction"].update_layout(xaxis_title="Cost reduction of A (%)", yaxis_title="Number of scenarios")
charts["gaps"].update_layout(xaxis_title="Treatment", yaxis_title="Gap to the reference (%)")
if "extraction" in charts:
    charts["extraction"].update_layout(xaxis_title="Parameter", yaxis_title="Extracted exactly (% of scenarios)")
plotly_chart(charts["cost_reduction"], use_container_width=True)
st.subheader("Gap to the ground-truth reference")
st.dataframe(gaps, hide_index=True, use_container_width=True, column_config=number_columns(gaps))
plotly_chart(charts["gaps"], use_container_width=True)
if "extraction" in charts:
    st.subheader("Treatment A: extraction accuracy per parameter")
    plotly_chart(charts["extraction"], use_container_width=True)

st.subheader("Trials")
trials = tables["trials"]
st.dataframe(trials, hide_index=True, use_container_width=True, column_config=number_columns(trials))
labels = [f"{r.scenario} · {r.treatment} · {r.status}" for r in trials.itertuples()]
choice = st.selectbox("Open a trial", range(len(labels)), format_func=labels.__getitem__, key=P + "trial")
row = trials.iloc[choice]
rec = next(r for r in result.records if r.scenario.key == row["scenario"])
outcome = rec.outcomes[row["treatment"]]
st.caption(f"{rec.scenario.context} Reference: {rec.assessment.reference} ({rec.assessment.reference_kind}).")
if outcome.run_id:
    st.caption(f"This conversation is run `{outcome.run_id}` in Run history.")
for role, text in outcome.transcript:
    with st.chat_message("user" if role == "manager" else "assistant"):
        st.markdown(text)
st.markdown(f"**Policy source text:** {outcome.policy_text or '–'}")
st.markdown(
    f"**Read as:** {outcome.parsed.describe() if outcome.parsed else (outcome.error or outcome.status)}"
)
if outcome.order_query:
    q = outcome.order_query
    st.markdown(
        f"**Fig. 4 order query:** '{q['question']}' → time step {q.get('step_passed', '–')} (meant "
        f"{q['step_expected']}), order {q.get('order', '–')} (its policy: {q.get('policy_order', '–')})"
        + (" ✓" if q.get("order_ok") else " ✗")
    )

c1, c2, c3 = st.columns(3)
c1.download_button("report.md", render_markdown(result), "report.md", key=P + "dl_md")
c2.download_button("results.csv", results_csv(result), "results.csv", key=P + "dl_csv")
c3.download_button(
    "lab.json",
    json.dumps(
        {"config": result.config.to_dict(), "records": [r.to_dict() for r in result.records]}, default=str
    ),
    "lab.json",
    key=P + "dl_json",
)
