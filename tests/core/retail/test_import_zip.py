"""Import of a zipped original run directory (the replay page's upload): validated before anything is unpacked,
every refusal names the user's file; fuzzed (derandomized) for path traversal, bombs, counts, links, bytes."""

from __future__ import annotations

import io
import json
import stat
import warnings
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import core.retail.importer as importer
from core.errors import OrcaError, SpecError
from core.retail.importer import import_run_zip, unpack_run_zip
from tests.core.retail.test_importer import GOOD, _Sink, write_run

NAME = "my-run.zip"


def zipped(files: dict[str, bytes], *, links: tuple[str, ...] = (), method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, data in files.items():
            info = zipfile.ZipInfo(name)
            info.compress_type = method
            if name in links:
                info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, data)
    return buffer.getvalue()


def run_files(tmp_path, folder: str = "run_reflection_qwen_run1/") -> dict[str, bytes]:
    root = write_run(tmp_path / "src", GOOD)
    return {folder + p.name: p.read_bytes() for p in root.iterdir()}


def refused(data: bytes, match: str) -> str:
    with pytest.raises(SpecError, match=match) as err:
        import_run_zip(_Sink(), data, NAME)
    assert NAME in str(err.value)  # the user's file is named
    return str(err.value)


@pytest.mark.parametrize("folder", ["run_reflection_qwen_run1/", "", "a/b/run_react_x/"])
def test_a_zipped_run_directory_imports_like_the_directory(tmp_path, folder):
    from core.retail.importer import import_run_dir
    from core.store import Store

    store = Store(tmp_path / "s.duckdb")
    files = run_files(tmp_path, folder) | {folder + "1/execute_1_1.json": b"{}", folder + "agent.log": b"x"}
    by_zip = import_run_zip(store, zipped(files), NAME)
    by_dir = import_run_dir(store, tmp_path / "src")
    zip_run, dir_run = store.get_run(by_zip), store.get_run(by_dir)
    assert zip_run["metrics"] == dir_run["metrics"]
    config = zip_run["config"] if isinstance(zip_run["config"], dict) else json.loads(zip_run["config"])
    assert config["run_dir"] == f"upload:{NAME}" and config["agent"] == "reflection"


@pytest.mark.parametrize(
    "bad",
    ["../tool_calls.jsonl", "/etc/tool_calls.jsonl", "run/../../x.json", "C:/run/tool_calls.jsonl",
     "..\\..\\tool_calls.jsonl"],
)  # fmt: skip
def test_path_traversal_is_refused(tmp_path, bad):
    refused(zipped(run_files(tmp_path) | {bad: b"{}"}), "outside the folder")


def test_symlinks_duplicates_and_wrong_layouts_are_refused(tmp_path):
    files = run_files(tmp_path)
    refused(zipped(files | {"run_reflection_qwen_run1/config.json": b"/etc/passwd"},
                   links=("run_reflection_qwen_run1/config.json",)), "symbolic link")  # fmt: skip
    refused(zipped({k: v for k, v in files.items() if not k.endswith(".jsonl")}), "no tool_calls.jsonl")
    refused(zipped(files | {"other/tool_calls.jsonl": b"{}"}), "more than one tool_calls.jsonl")
    refused(b"PK\x03\x04 not really a zip", "not a readable zip")
    refused(b"", "not a readable zip")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about the duplicate it is told to write
        for name, data in [*files.items(), ("run_reflection_qwen_run1/config.json", b"{}")]:
            archive.writestr(name, data)
    refused(buffer.getvalue(), "appears twice")


def test_zip_bombs_and_counts_are_refused_before_unpacking(tmp_path, monkeypatch):
    files = run_files(tmp_path)
    bomb = b"0" * 30_000_000  # packs ~1000:1
    refused(zipped(files | {"run_reflection_qwen_run1/day_3_token_usage.json": bomb}), "zip bomb")
    monkeypatch.setattr(importer, "MAX_ZIP_UNPACKED", 10_000)
    refused(zipped(files | {"run_reflection_qwen_run1/day_3_token_usage.json": b"1" * 20_000}, method=zipfile.ZIP_STORED),
            "unpacks to")  # fmt: skip
    monkeypatch.setattr(importer, "MAX_ZIP_ENTRIES", 5)
    refused(zipped(files | {f"run_reflection_qwen_run1/{d}/x.json": b"{}" for d in range(10)}), "entries")
    monkeypatch.setattr(importer, "MAX_ZIP_ENTRIES", 50_000)
    monkeypatch.setattr(importer, "MAX_TOKEN_FILES", -5)  # run files next to tool_calls.jsonl: at most 5 now
    refused(zipped(files), "run files")
    monkeypatch.setattr(importer, "MAX_ZIP_BYTES", 100)
    refused(zipped(files), "larger than the limit")


def test_an_entry_larger_than_it_declares_is_stopped_while_unpacking(tmp_path):
    files = run_files(tmp_path)
    data = bytearray(zipped(files, method=zipfile.ZIP_STORED))
    with zipfile.ZipFile(io.BytesIO(bytes(data))) as archive:
        info = next(i for i in archive.infolist() if i.filename.endswith("config.json"))
    # shrink the declared size in the central directory so the entry "grows" while unpacking
    central = bytes(data).rfind(info.filename.encode()) - 46
    size = int.from_bytes(data[central + 24 : central + 28], "little")
    data[central + 24 : central + 28] = (size - 5).to_bytes(4, "little")
    with pytest.raises(SpecError) as err:
        unpack_run_zip(bytes(data), NAME, tmp_path / "out")
    assert NAME in str(err.value)


def test_errors_inside_the_run_name_the_upload_and_the_file(tmp_path):
    files = run_files(tmp_path)
    files["run_reflection_qwen_run1/tool_calls.jsonl"] += b"\xff\xfe not utf-8\n"
    message = refused(zipped(files), "tool_calls.jsonl line 9")
    assert "UTF-8" in message


@settings(derandomize=True, deadline=None, max_examples=80, suppress_health_check=list(HealthCheck))
@given(
    names=st.lists(st.text(st.sampled_from("./\\:abc_-0\x00é"), min_size=1, max_size=12), max_size=6),
    blobs=st.lists(st.binary(max_size=64), max_size=6),
    cut=st.integers(0, 4000),
    flip=st.integers(0, 4000),
)
def test_fuzz_uploads_give_only_project_errors(tmp_path_factory, names, blobs, cut, flip):
    """Random entry names and bytes added to a good run, the archive truncated or a byte flipped: an import or a
    SpecError naming the upload, never another exception."""
    tmp = tmp_path_factory.mktemp("z")
    files = run_files(tmp)
    for name, blob in zip(names, blobs, strict=False):
        files["run_reflection_qwen_run1/" + name] = blob
    try:
        data = bytearray(zipped(files))
    except (ValueError, OSError, UnicodeEncodeError):
        return  # the zip writer itself refuses the name (NUL)
    if flip < len(data):
        data[flip] ^= 0x55
    if cut % 3 == 0:
        data = data[: len(data) * cut // 4000]
    try:
        import_run_zip(_Sink(), bytes(data), NAME)
    except OrcaError as err:
        assert NAME in str(err)
