"""Issue 27, "Deploy, watch, back up": the deploy kit in ``deploy/``.

No container image can be pulled or built on the machines agon is developed on, so the image's
install steps live in one script, ``deploy/install.sh``, which the Dockerfile RUNs and the slow
test here runs into a fresh venv; the server it installs then serves from a throwaway PostgreSQL
behind Caddy (Debian's ``caddy``) with ``tls internal`` on loopback, reached over TLS. The fast
tests pin what the kit's files promise to each other (the locked requirements, the Dockerfile's
user and script, the compose services, the proxies' event-stream settings).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path

import httpx
import pytest
import yaml

import agon
from tests.play.server import ADDRESS_IN_USE, free_port, listens_on
from tests.store_testing import PostgresServer, postgres_bin

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"

#: The path the slow test reaches through Caddy. LEAD: the hostops branch adds /healthz and
#: /readyz; until both branches are merged this is "/" (the public start page, which also reads
#: the database). After the merge switch it to "/readyz" (the Dockerfile's HEALTHCHECK, the
#: compose file and docs/hosting.md already name /readyz).
READY_PATH = "/readyz"

#: The serving extras: the image installs these and nothing else.
SERVING_EXTRAS = ("web", "postgresql", "print")


def _export_requirements() -> str:
    """``uv export`` of the serving extras from uv.lock, as deploy/requirements.txt holds it."""
    uv = Path(sys.executable).parent / "uv"
    extras = [arg for extra in SERVING_EXTRAS for arg in ("--extra", extra)]
    done = subprocess.run(
        [str(uv), "export", "--locked", "--format", "requirements-txt", "--no-emit-project",
         *extras, "--no-header", "-q"],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def _without_comments(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


def test_the_image_requirements_are_uv_locks_serving_extras_with_hashes() -> None:
    shipped = (DEPLOY / "requirements.txt").read_text(encoding="utf-8")
    assert _without_comments(shipped) == _without_comments(_export_requirements()), (
        "deploy/requirements.txt is not in step with uv.lock: regenerate it with the command in "
        "its first lines"
    )
    names = {m.group(1) for m in re.finditer(r"^([a-z0-9._-]+)==", shipped, re.MULTILINE)}
    assert {"fastapi", "uvicorn", "psycopg", "weasyprint", "sqlalchemy"} <= names
    # the development tools and the other extras stay out of the image
    assert not names & {"pytest", "mypy", "ray", "playwright", "scipy", "open-spiel", "numpy"}
    assert all("--hash=sha256:" in block for block in re.split(r"\n(?=[a-z])", shipped)[1:])


def test_the_dockerfile_runs_the_install_script_as_a_non_root_user() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    runs = re.findall(r"^RUN (.*)$", dockerfile, re.MULTILINE)
    assert "/src/deploy/install.sh /opt/agon" in runs  # the one script the slow test runs
    users = re.findall(r"^USER (\S+)$", dockerfile, re.MULTILINE)
    assert users and users[-1] not in ("root", "0")
    assert re.search(r"^CMD \[\"agon\", \"serve\"", dockerfile, re.MULTILINE)
    assert "/readyz" in dockerfile  # the health check
    ignored = (DEPLOY / "Dockerfile.dockerignore").read_text(encoding="utf-8").split()
    assert {"**/*.so", "**/_core.c", ".venv"} <= set(ignored)  # no checkout build products
    copied = re.findall(r"^COPY (?!--from)(.*) /src/\S*$", dockerfile, re.MULTILINE)
    for sources in copied:  # everything the build copies exists
        for source in sources.split():
            assert (ROOT / source).exists(), source


def _locked_uv_version() -> str:
    lock = (ROOT / "uv.lock").read_text(encoding="utf-8")  # a regex: tomllib takes 0.4 s on it
    found = re.search(r'^\[\[package\]\]\nname = "uv"\nversion = "([^"]+)"$', lock, re.MULTILINE)
    assert found, "uv is not in uv.lock (the dev extra)"
    return found.group(1)


def test_the_image_and_the_hosting_guide_take_uv_at_the_version_uv_lock_pins() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    images = re.findall(
        r"^COPY --from=ghcr\.io/astral-sh/uv:(\S+) /uv /uvx /bin/$", dockerfile, re.M
    )
    assert images == [_locked_uv_version()]  # the uv the slow test installs with (the dev extra)
    build_stage = dockerfile.split("\nFROM ", 2)[1]  # uv is in the build stage only
    assert "astral-sh/uv" in build_stage and "/src/deploy/install.sh" in build_stage
    guide = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
    assert re.findall(r"pip install uv==(\S+) ", guide) == [_locked_uv_version()]


@pytest.mark.parametrize("uv", [None, "/nonexistent/uv"])
def test_the_install_script_without_uv_says_so_in_one_line(tmp_path: Path, uv: str | None) -> None:
    bare = tmp_path / "bin"  # a PATH with sh and the usual tools, but no uv
    bare.mkdir()
    for tool in ("dirname", "ls"):
        (bare / tool).symlink_to(shutil.which(tool) or f"/usr/bin/{tool}")
    env = {"PATH": str(bare), **({"UV": uv} if uv else {})}
    prefix = tmp_path / "opt-agon"
    done = subprocess.run(
        [shutil.which("sh") or "/bin/sh", str(DEPLOY / "install.sh"), str(prefix)],
        env=env, capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "uv is needed" in done.stderr
    assert not prefix.exists()


def test_the_compose_file_runs_agon_postgresql_caddy_and_backups_with_one_secret() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
    services = compose["services"]
    assert {"agon", "db", "caddy", "backup"} <= set(services)
    agon_svc = services["agon"]
    assert agon_svc["build"]["dockerfile"] == "deploy/Dockerfile"
    assert agon_svc["environment"]["AGON_DATABASE_URL"].startswith("postgresql+psycopg://")
    assert "@db:5432/" in agon_svc["environment"]["AGON_DATABASE_URL"]
    # the server and the backups read the same secrets file (AGON_SECRET_KEY lives there)
    assert agon_svc["env_file"] == services["backup"]["env_file"] == "agon.env"
    example = (DEPLOY / "agon.env.example").read_text(encoding="utf-8")
    assert re.search(r"^AGON_SECRET_KEY=", example, re.MULTILINE)
    assert "agon db backup" in services["backup"]["command"][0]
    assert services["caddy"]["environment"]["AGON_UPSTREAM"] == "agon:8000"
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in services["caddy"]["volumes"]
    assert {"pgdata", "backups", "caddy_data"} <= set(compose["volumes"])


def test_the_proxies_pass_event_streams_unbuffered_with_the_forwarded_headers() -> None:
    nginx = (DEPLOY / "nginx.conf").read_text(encoding="utf-8")
    events = nginx.split("location ~ ^/api/play/", 1)[1]
    for setting in ("proxy_buffering off;", "proxy_read_timeout 1h;"):
        assert setting in events
    for header in ("X-Forwarded-For", "X-Forwarded-Proto"):
        assert nginx.count(f"proxy_set_header {header}") == 2  # both locations
    assert "token" not in re.search(r"log_format agon (.*?);", nginx, re.DOTALL).group(1)  # type: ignore[union-attr]
    caddyfile = (DEPLOY / "Caddyfile").read_text(encoding="utf-8")
    assert "flush_interval -1" in caddyfile
    assert "replace token REDACTED" in caddyfile


def test_the_systemd_units_run_what_the_install_script_installs() -> None:
    unit = (DEPLOY / "agon.service").read_text(encoding="utf-8")
    assert re.search(r"^User=agon$", unit, re.MULTILINE)
    assert re.search(r"^ExecStartPre=/opt/agon/bin/agon db upgrade$", unit, re.MULTILINE)
    assert re.search(r"^ExecStart=/opt/agon/bin/agon serve --host 127\.0\.0\.1 ", unit, re.M)
    backup = (DEPLOY / "agon-backup.service").read_text(encoding="utf-8")
    assert "/opt/agon/bin/agon db backup" in backup
    assert "OnCalendar=" in (DEPLOY / "agon-backup.timer").read_text(encoding="utf-8")


# --- the slow test: install, serve on PostgreSQL, Caddy with TLS in front ----------------------


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AGON_", "PYTHON", "VIRTUAL"))}
    env.update(extra)
    return env


@contextmanager
def _process(args: list[str], env: dict[str, str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    with log.open("wb") as out:
        proc = subprocess.Popen(
            args, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            yield proc
        finally:
            with suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


#: Starts of agon and Caddy on new ports after one of theirs was found taken, at most.
PORT_ATTEMPTS = 5


def _listening(proc: subprocess.Popen[bytes], port: int, log: Path, timeout: float = 60) -> bool:
    """Whether ``proc`` came to listen on ``port`` itself; ``False`` when it exited saying the
    address is in use (another process took the port), an error when it failed otherwise."""
    end = time.monotonic() + timeout
    while not listens_on(proc.pid, port):
        if proc.poll() is not None:
            said = log.read_text(errors="replace")
            if ADDRESS_IN_USE in said.lower():
                return False
            raise AssertionError(f"{proc.args!r} exited with {proc.returncode}:\n{said[-3000:]}")
        assert time.monotonic() < end, f"{proc.args!r}: not listening on {port}"
        time.sleep(0.2)
    return True


def _wait_for(check: object, what: str, log: Path, timeout: float = 60) -> httpx.Response:
    end = time.monotonic() + timeout
    last: object = None
    while time.monotonic() < end:
        try:
            response = check()  # type: ignore[operator]
            if response.status_code == 200:
                return response  # type: ignore[no-any-return]
            last = response.status_code
        except (httpx.HTTPError, ssl.SSLError, OSError) as exc:
            last = exc
        time.sleep(0.3)
    raise AssertionError(f"{what}: no answer 200 ({last!r}); log:\n{log.read_text()[-3000:]}")


def _verify_units(prefix: Path, folder: Path) -> None:
    """systemd's own check of the units (where systemd-analyze exists), pointed at ``prefix``:
    every directive parses and every command is an executable of the installed agon."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        return
    folder.mkdir()
    (folder / "agon.env").write_text("AGON_DATABASE_URL=sqlite:////var/lib/agon/agon.db\n")
    units = ("agon.service", "agon-backup.service", "agon-backup.timer")
    for unit in units:
        text = (DEPLOY / unit).read_text(encoding="utf-8")
        text = text.replace("/etc/agon/agon.env", str(folder / "agon.env"))
        (folder / unit).write_text(text.replace("/opt/agon/", f"{prefix}/"), encoding="utf-8")
    checked = subprocess.run(
        [analyze, "verify", *units], cwd=folder, capture_output=True, text=True, check=False,
        timeout=60,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stdout + checked.stderr


def _backup_and_restore_drill(
    prefix: Path, env: dict[str, str], postgres: PostgresServer, tmp_path: Path
) -> None:
    """docs/hosting.md's nightly backup and restore drill, on PostgreSQL, with the installed agon:
    agon db backup (pg_dump), a scratch database, agon db restore, agon db verify."""
    agon_bin = str(prefix / "bin" / "agon")

    def agon_cmd(*args: str, url: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [agon_bin, *args], env={**env, "AGON_DATABASE_URL": url},
            capture_output=True, text=True, check=False, timeout=300,
        )  # fmt: skip

    live = env["AGON_DATABASE_URL"]
    made = agon_cmd(
        "tournament", "create", "club-night", "--name", "Club night", "--ruleset", "bonn-2018",
        "--seed", "s", "--starts-at", "+2h", url=live,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    backup = tmp_path / "agon-nightly.backup"
    saved = agon_cmd("db", "backup", str(backup), url=live)
    assert saved.returncode == 0, saved.stderr
    assert saved.stdout.startswith("backed up the postgresql database")
    created = subprocess.run(
        [str(prefix / "bin" / "python"), "-c",
         "import sys, psycopg; c = psycopg.connect(sys.argv[1], autocommit=True); "
         "c.execute('CREATE DATABASE agon_drill')",
         live.replace("postgresql+psycopg://", "postgresql://")],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    drill = postgres.url("agon_drill")
    restored = agon_cmd("db", "restore", str(backup), url=drill)
    assert restored.returncode == 0, restored.stderr
    verified = agon_cmd("db", "verify", url=drill)
    # the tournament made before the backup, and the game played through Caddy, both replay
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout.splitlines() == ["club-night: ok", "online games: 1 of 1 replay"]
    listed = agon_cmd("tournament", "list", url=drill)
    assert listed.stdout.startswith("club-night\tClub night\tbonn-2018"), listed.stderr


@pytest.mark.slow
@pytest.mark.skipif(postgres_bin() is None, reason="PostgreSQL is not installed")
@pytest.mark.skipif(shutil.which("caddy") is None, reason="caddy is not installed (Debian: caddy)")
def test_the_install_script_serves_on_postgresql_behind_caddy_over_tls(tmp_path: Path) -> None:
    prefix = tmp_path / "opt-agon"
    # the Dockerfile's step, run here: a fresh venv, the locked serving extras, agon built here
    # under make, the cores compiled from the same inputs are copied (AGON_CORE_CACHE)
    cache = {k: v for k, v in os.environ.items() if k == "AGON_CORE_CACHE"}
    installed = subprocess.run(
        ["sh", str(DEPLOY / "install.sh"), str(prefix)],
        env=_env(
            PYTHON=shutil.which("python3") or sys.executable,
            UV=str(Path(sys.executable).parent / "uv"),  # uv.lock's (the dev extra)
            **cache,
        ),
        capture_output=True, text=True, check=False, timeout=1800,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr[-3000:]
    assert installed.stdout.splitlines()[0] == f"agon, version {agon.__version__}"
    extras = subprocess.run(
        [str(prefix / "bin" / "python"), "-c", "import ray"], capture_output=True, check=False
    )
    assert extras.returncode != 0  # only the serving extras
    # every module's bytecode is there: the server's user cannot write it into the venv
    site = next((prefix / "lib").glob("python3.*/site-packages"))
    sources = {p.with_suffix("") for p in site.rglob("*.py")}
    compiled = {p.parent.parent / p.name.split(".", 1)[0] for p in site.rglob("__pycache__/*.pyc")}
    assert len(sources) > 1000 and not sources - compiled, sorted(sources - compiled)[:5]
    _verify_units(prefix, tmp_path / "units")

    postgres = PostgresServer.start()
    try:
        url = postgres.url()

        def settings(https_port: int) -> dict[str, str]:
            return _env(
                AGON_DATABASE_URL=url,
                AGON_SECRET_KEY="deploy-kit-test-secret",
                AGON_DIRECTOR_PASSWORD="deploy-kit-test-password",
                AGON_PUBLIC_URL=f"https://localhost:{https_port}",
                AGON_SECURE_COOKIES="1",
                AGON_TRUSTED_PROXIES="127.0.0.1",
            )

        env = settings(free_port())
        upgraded = subprocess.run(
            [str(prefix / "bin" / "agon"), "db", "upgrade"],
            env=env, capture_output=True, text=True, check=False, timeout=120,
        )  # fmt: skip
        assert upgraded.returncode == 0, upgraded.stderr
        assert upgraded.stdout.startswith("database at revision ")
        caddy_home = tmp_path / "caddy"
        agon_log, caddy_log = tmp_path / "agon.log", tmp_path / "caddy.log"
        caddy = ["caddy", "run", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"]
        # The ports of free_port are released and bound by agon and Caddy a moment later: if
        # another process of the suite took one meanwhile, both start again on new ones (only
        # then: its log says the address is in use), and each counts as started once it holds
        # its listening socket itself (an answer on the port could come from another server).
        for attempt in range(PORT_ATTEMPTS):
            agon_port, https_port, http_port = free_port(), free_port(), free_port()
            env = settings(https_port)
            caddy_env = _env(
                HOME=str(caddy_home),
                XDG_DATA_HOME=str(caddy_home / "data"),
                XDG_CONFIG_HOME=str(caddy_home / "config"),
                AGON_DOMAIN=f"localhost:{https_port}",
                AGON_UPSTREAM=f"127.0.0.1:{agon_port}",
                AGON_TLS="tls internal",
                CADDY_GLOBAL_OPTIONS=f"admin off\nskip_install_trust\nhttp_port {http_port}",
            )
            serve = [str(prefix / "bin" / "agon"), "serve", "--host", "127.0.0.1", "--port",
                     str(agon_port)]  # fmt: skip
            processes = ExitStack()
            agon_proc = processes.enter_context(_process(serve, env, agon_log))
            caddy_proc = processes.enter_context(_process(caddy, caddy_env, caddy_log))
            if _listening(agon_proc, agon_port, agon_log) and _listening(
                caddy_proc, https_port, caddy_log
            ):
                break
            processes.close()
            assert attempt < PORT_ATTEMPTS - 1, "every port given was taken"
        with processes:
            _wait_for(
                lambda: httpx.get(f"http://127.0.0.1:{agon_port}{READY_PATH}", timeout=5),
                "agon serve",
                agon_log,
            )
            root_ca = caddy_home / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
            end = time.monotonic() + 60
            while not root_ca.exists() and time.monotonic() < end:
                time.sleep(0.2)
            assert root_ca.exists(), caddy_log.read_text()[-3000:]
            tls = ssl.create_default_context(cafile=str(root_ca))  # Caddy's own authority only
            base = f"https://localhost:{https_port}"
            with httpx.Client(verify=tls, timeout=10) as client:
                ready = _wait_for(lambda: client.get(f"{base}{READY_PATH}"), "caddy", caddy_log)
                assert ready.http_version in ("HTTP/1.1", "HTTP/2")
                assert ready.url.scheme == "https"
                # an online game's event stream comes through at once (no buffering)
                created = client.post(
                    f"{base}/api/play",
                    json={"game": "7w", "seats": [{"kind": "human", "name": "Ann"},
                                                   {"kind": "bot", "bot": "random"},
                                                   {"kind": "bot", "bot": "random"}]},
                )  # fmt: skip
                assert created.status_code == 201, created.text
                game, token = created.json()["game_id"], created.json()["seats"][0]["token"]
                started = time.monotonic()
                events = f"{base}/api/play/{game}/events?token={token}"
                with client.stream("GET", events, timeout=30) as stream:
                    assert stream.status_code == 200
                    assert stream.headers["content-type"].startswith("text/event-stream")
                    first = next(line for line in stream.iter_lines() if line.startswith("data:"))
                assert '"seat":0' in first
                assert time.monotonic() - started < 10
                seat = client.get(f"{base}/api/play/{game}", params={"token": token})
                assert seat.status_code == 200 and seat.json()["seat"] == 0
            # plain HTTP to the TLS port is refused: the only way in is TLS
            with pytest.raises(httpx.HTTPError):
                httpx.get(
                    f"http://127.0.0.1:{https_port}{READY_PATH}", timeout=5
                ).raise_for_status()
        access = caddy_log.read_text()
        # Caddy's access log has the seat's request, but not its secret token
        assert f'"uri":"/api/play/{game}?token=REDACTED"' in access, access[-3000:]
        assert token not in access
        _backup_and_restore_drill(prefix, env, postgres, tmp_path)
    finally:
        postgres.stop()
