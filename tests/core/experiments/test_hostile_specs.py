"""Hostile specs and flags: adapters only from the allowlist (checked before any import), the cell and worker
caps, deep nesting, uploads, unknown metrics, a full disk and an unreachable Ray address, each refused with an
error naming the field, never an internal error."""

from __future__ import annotations

import errno
import json
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import duckdb
import pytest

from core.cli import main
from core.errors import SpecError, StoreError
from core.experiments import background
from core.experiments.driver import run_experiment
from core.experiments.engines import MAX_WORKERS, LocalEngine, RayEngine
from core.experiments.spec import (
    DEFAULT_MAX_CELLS,
    MAX_SPEC_DEPTH,
    expand,
    from_dict,
    load_adapter,
    parse_spec,
)
from core.store import Store
from tests.core.experiments.conftest import TOY, toy_spec

ROOT = Path(__file__).resolve().parents[3]


def _spec_text(adapter: str, *, seeds: str = "[0]", extra: str = "") -> str:
    return (
        f'name = "hostile"\nworkbench = "policy_simulator"\nadapter = "{adapter}"\nseeds = {seeds}\n'
        f'metric = "total_cost"\n{extra}[env]\nhorizons = [5]\n[[agents]]\nname = "a"\nS = 10\n'
    )


def _cli(store_path: Path, *args: str, capsys) -> tuple[int, dict]:
    code = main(["--db", str(store_path), "experiment", *args])
    err = capsys.readouterr().err.strip().splitlines()
    return code, (json.loads(err[-1]) if err else {})


@pytest.mark.parametrize("module", ["this", "pages.experiments", "os", "core.experiments.spec", "", "a b"])
def test_a_spec_names_only_allowed_adapters_and_nothing_is_imported(module: str, monkeypatch) -> None:
    fresh = module in ("this", "pages.experiments")
    if fresh:
        monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(SpecError) as err:
        parse_spec(_spec_text(module))
    assert err.value.field == "adapter"
    if module.strip():
        assert "not an experiment adapter" in str(err.value)
        assert "core.inventory.simulator.experiment" in str(err.value), "the error lists what is allowed"
    with pytest.raises(SpecError):
        load_adapter(module)
    if fresh:
        assert module not in sys.modules, "refused before any import"


def test_the_cli_refuses_an_adapter_outside_the_allowlist_without_running_it(
    store_path: Path, tmp_path
) -> None:
    spec = tmp_path / "zen.toml"
    spec.write_text(_spec_text("this"))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "core.cli",
            "--db",
            str(store_path),
            "experiment",
            "run",
            str(spec),
            "--quiet",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "Beautiful is better than ugly" not in done.stdout + done.stderr, "the module's code never ran"
    assert json.loads(done.stderr.strip().splitlines()[-1])["field"] == "adapter"


def test_a_stored_spec_with_a_foreign_adapter_is_refused_on_resume(
    store_path: Path, capsys, monkeypatch
) -> None:
    monkeypatch.delitem(sys.modules, "this", raising=False)
    spec = toy_spec()
    store = Store(store_path)
    data = {**spec.to_dict(), "adapter": "this"}
    store.create_experiment(
        "abc123abc123", name="x", workbench=spec.workbench, spec=data, spec_hash="h", status="done"
    )
    assert main(["--db", str(store_path), "experiment", "run", "abc123abc123", "--quiet"]) == 2
    out, err = capsys.readouterr()
    assert json.loads(err.strip().splitlines()[-1])["field"] == "adapter"
    assert "this" not in sys.modules and "Beautiful is better" not in out, "never imported"


def test_registered_and_catalog_adapters_are_allowed(monkeypatch) -> None:
    assert parse_spec(_spec_text(TOY)).adapter_module == TOY
    assert parse_spec(_spec_text("core.inventory.simulator.experiment")).adapter == "core.inventory.simulator.experiment"
    monkeypatch.setenv("ORCA_EXPERIMENT_ADAPTERS", "tests.core.experiments.toy_adapter,not a module")
    with pytest.raises(SpecError) as err:
        parse_spec(_spec_text("core.inventory.simulator.experiment"))
    assert err.value.field == "ORCA_EXPERIMENT_ADAPTERS"


class CountingAdapter:
    """An adapter whose `instances` records that it was called (it must not be for an oversized spec)."""

    def __init__(self, count: int = 1) -> None:
        self.calls = 0
        self.count = count

    def instances(self, env: dict) -> list:
        self.calls += 1
        return [(f"i{k}", {}) for k in range(self.count)]


def test_the_cell_cap_is_checked_before_anything_is_expanded(monkeypatch) -> None:
    spec = toy_spec(
        seeds=100_000, repetitions=10_000
    )  # 2 agents: 2e9 cells, accepted by the spec's own bounds
    adapter = CountingAdapter()
    started = time.monotonic()
    with pytest.raises(SpecError) as err:
        expand(spec, SimpleNamespace(instances=adapter.instances))
    assert time.monotonic() - started < 30, "refused arithmetically, not after building cells (hang guard)"
    assert err.value.field == "spec" and "2,000,000,000 cells" in str(err.value)
    assert f"{DEFAULT_MAX_CELLS:,}" in str(err.value) and "ORCA_MAX_CELLS" in str(err.value)
    assert adapter.calls == 0, "the adapter did not build instances for a spec already too large"


def test_the_cell_cap_counts_instances_and_is_configurable(monkeypatch) -> None:
    spec = toy_spec(seeds=[0, 1, 2])  # 2 agents × 3 seeds = 6 cells per instance
    monkeypatch.setenv("ORCA_MAX_CELLS", "10")
    assert len(expand(spec, SimpleNamespace(instances=CountingAdapter(1).instances))[1]) == 6
    with pytest.raises(SpecError) as err:
        expand(spec, SimpleNamespace(instances=CountingAdapter(2).instances))
    assert "12 cells" in str(err.value) and "2 instances" in str(err.value)
    monkeypatch.delenv("ORCA_MAX_CELLS")
    with pytest.raises(SpecError) as err:
        expand(toy_spec(seeds=5_001), SimpleNamespace(instances=CountingAdapter().instances))
    assert "10,002 cells" in str(err.value)
    for bad in ("0", "abc", "-5", "2000000", "1e4"):
        monkeypatch.setenv("ORCA_MAX_CELLS", bad)
        with pytest.raises(SpecError) as err:
            expand(spec, SimpleNamespace(instances=CountingAdapter().instances))
        assert err.value.field == "ORCA_MAX_CELLS"


def test_the_cli_refuses_a_million_cells_at_once(store_path: Path, tmp_path, capsys) -> None:
    spec = tmp_path / "huge.toml"
    spec.write_text(_spec_text(TOY, seeds="1000", extra="repetitions = 1000\n"))
    started = time.monotonic()
    code, err = _cli(store_path, "run", str(spec), "--quiet", capsys=capsys)
    assert code == 2 and err["field"] == "spec" and "1,000,000 cells" in err["error"]
    assert time.monotonic() - started < 60, "hang guard: refused before any cell is built"


@pytest.mark.parametrize("workers", ["0", "65", "100000", "two"])
def test_the_worker_count_is_capped(store_path: Path, tmp_path, capsys, workers: str) -> None:
    spec = tmp_path / "s.toml"
    spec.write_text(_spec_text(TOY))
    with pytest.raises(SystemExit) as exit_:
        main(["--db", str(store_path), "experiment", "run", str(spec), "--workers", workers])
    assert exit_.value.code == 2
    assert json.loads(capsys.readouterr().err.strip().splitlines()[-1])["field"] == "--workers"


def test_the_engines_refuse_too_many_workers() -> None:
    for engine in (LocalEngine, RayEngine):
        with pytest.raises(SpecError) as err:
            engine(MAX_WORKERS + 1)
        assert err.value.field == "--workers"
        assert engine(MAX_WORKERS).workers == MAX_WORKERS


@pytest.mark.parametrize("depth", [40, 3_000])
def test_deeply_nested_specs_are_refused(depth: int, store_path: Path, tmp_path, capsys) -> None:
    text = _spec_text(TOY).replace("horizons = [5]", "horizons = [5]\ndeep = " + "[" * depth + "]" * depth)
    with pytest.raises(SpecError) as err:
        parse_spec(text)
    assert err.value.field == "spec" and "nested too deeply" in str(err.value)
    spec = tmp_path / "deep.toml"
    spec.write_text(text)
    code, error = _cli(store_path, "run", str(spec), "--quiet", capsys=capsys)
    assert code == 2 and error["field"] == "spec"


def test_a_spec_nested_within_the_limit_is_read_and_a_stored_one_is_checked_too() -> None:
    nested = "[" * (MAX_SPEC_DEPTH - 3) + "1" + "]" * (MAX_SPEC_DEPTH - 3)
    spec = parse_spec(_spec_text(TOY).replace("horizons = [5]", f"horizons = [5]\nnested = {nested}"))
    assert spec.env["horizons"] == [5]
    deep: list = [1]
    for _ in range(MAX_SPEC_DEPTH):
        deep = [deep]
    with pytest.raises(SpecError) as err:
        from_dict({**spec.to_dict(), "env": {"x": deep}})
    assert "nested too deeply" in str(err.value)


def test_uploads_are_checked_like_every_spec_and_never_imported(monkeypatch) -> None:
    monkeypatch.delitem(sys.modules, "this", raising=False)
    with pytest.raises(SpecError) as err:
        background.read_upload(_spec_text("this").encode(), "zen.toml")
    assert err.value.field == "adapter" and "this" not in sys.modules
    with pytest.raises(SpecError) as err:
        background.read_upload(b"name = \xff\xfe", "bytes.toml")
    assert err.value.field == "bytes.toml" and "UTF-8" in str(err.value)
    with pytest.raises(SpecError) as err:
        background.read_upload(b"#" * 1_000_001, "big.toml")
    assert err.value.field == "big.toml"
    assert background.read_upload(_spec_text(TOY).encode(), "ok.toml") == _spec_text(TOY)


def test_an_unknown_metric_stops_the_run_naming_the_metrics_there_are(store_path: Path) -> None:
    spec = toy_spec(metric="bogus", seeds=list(range(30)))  # 60 cells
    store = Store(store_path)
    with pytest.raises(SpecError) as err:
        run_experiment(spec, store, engine=LocalEngine(1), progress=False)
    assert err.value.field == "metric" and "total_cost" in str(err.value)
    info = store.get_experiment(spec.experiment_id)
    assert info["status"] == "stopped" and 1 <= info["done"] < 60, "stopped after the first cells"


def test_a_full_disk_is_reported_as_such_and_the_experiment_resumes(store_path: Path, monkeypatch) -> None:
    store = Store(store_path)
    spec = toy_spec(seeds=list(range(6)))  # 12 cells
    real = Store.write_record
    written = {"n": 0}

    def write_record(self, record):  # noqa: ANN001, ANN202
        if written["n"] >= 4:
            raise duckdb.IOException(
                f'Could not write file "{store_path}.wal": No space left on device (errno {errno.ENOSPC})'
            )
        written["n"] += 1
        return real(self, record)

    monkeypatch.setattr(Store, "write_record", write_record)
    with pytest.raises(StoreError) as err:
        run_experiment(spec, store, engine=LocalEngine(1), progress=False)
    assert str(store_path) in str(err.value) and "No space left on device" in str(err.value)
    info = store.get_experiment(spec.experiment_id)
    assert info["status"] != "running" and 1 <= info["done"] < 12
    monkeypatch.setattr(Store, "write_record", real)
    again = run_experiment(spec, store, engine=LocalEngine(1), progress=False)
    assert again.status == "done" and again.skipped == info["done"] and again.ran == 12 - info["done"]


def test_a_real_full_file_system_is_a_store_error_not_an_internal_one(tmp_path: Path) -> None:
    """On a 3 MB tmpfs (needs root): the CLI answers exit 2 naming the store; after more room, a rerun finishes."""
    mount = tmp_path / "small"
    mount.mkdir()
    if subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(mount)], capture_output=True
    ).returncode:
        pytest.skip("cannot mount a tmpfs here (not root)")
    try:
        spec = tmp_path / "s.toml"
        # few cells of long episodes: the cells table fits, and the disk fills while the driver writes runs
        spec.write_text(_spec_text(TOY, seeds="40").replace("horizons = [5]", "horizons = [2000]"))
        db = mount / "s.duckdb"
        cmd = [sys.executable, "-m", "core.cli", "--db", str(db), "experiment", "run", str(spec), "--quiet"]
        full = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert full.returncode == 2, full.stderr
        error = json.loads(full.stderr.strip().splitlines()[-1])
        assert (
            error["field"] != "internal" and str(db) in error["error"] and "No space left" in error["error"]
        )
        subprocess.run(["mount", "-o", "remount,size=200m", str(mount)], check=True)
        again = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert again.returncode == 0, again.stderr
        summary = json.loads(again.stdout)
        assert summary["status"] == "done" and summary["skipped"] + summary["ran"] == summary["cells"] == 40
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_an_unreachable_ray_address_is_refused_quickly(store_path: Path, tmp_path) -> None:
    spec = tmp_path / "s.toml"
    spec.write_text(_spec_text(TOY))
    for address, hint in (("127.0.0.1:1", "could not reach Ray at 127.0.0.1:1"), ("nonsense", "HOST:PORT")):
        cmd = [sys.executable, "-m", "core.cli", "--db", str(store_path), "experiment", "run", str(spec)]
        done = subprocess.run(
            [*cmd, "--engine", "ray", "--address", address, "--quiet"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=90,  # hang guard: Ray itself waits for minutes
        )
        assert done.returncode == 2, done.stderr
        error = json.loads(done.stderr.strip().splitlines()[-1])
        assert error["field"] == "--address" and hint in error["error"]


def test_a_port_that_answers_but_is_no_ray_cluster_is_refused_within_the_bound() -> None:
    """Ray's own `init` waits for minutes on such a port; the throwaway join is killed at its timeout."""
    import socket
    import threading

    from core.experiments.engines import probe_address, probe_cluster

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    address = f"127.0.0.1:{server.getsockname()[1]}"
    try:
        probe_address(address)  # the TCP probe passes: the port answers
        started = time.monotonic()
        with pytest.raises(SpecError) as err:
            probe_cluster(address, timeout_s=10)
        assert time.monotonic() - started < 60
        assert err.value.field == "--address" and address in str(err.value)
    finally:
        stop.set()
        thread.join()
        for conn in accepted:
            conn.close()
        server.close()
