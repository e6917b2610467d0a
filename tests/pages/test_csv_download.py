"""`core.ui.csv_download`, the CSV download button of the Policy Simulator and School Scheduling pages (AppTest)."""

from streamlit.testing.v1 import AppTest


def download_script() -> None:
    import streamlit as st

    from core.ui import csv_download

    csv_download("Table (CSV)", "a,b\n1,2\n", "table.csv", key="dl_table")
    csv_download("In a column", "c\n3\n", "column.csv", key="dl_column", icon=":material/tune:", where=st.columns(2)[1])


def test_a_csv_download_button_on_the_page_or_in_a_column():
    at = AppTest.from_function(download_script, default_timeout=60).run()
    assert not at.exception
    buttons = at.get("download_button")
    assert [(b.proto.label, b.proto.icon) for b in buttons] == [
        ("Table (CSV)", ":material/download:"),
        ("In a column", ":material/tune:"),
    ]
