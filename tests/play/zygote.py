"""The fork server ("zygote") of tests/play/server.py: a new interpreter, single-threaded, that has
imported what ``python -m agon serve`` imports before it reads its settings (:data:`PRELOAD`) and
nothing of the tests, then forks a single-process ``agon serve`` for each request of the test
process that started it.

Run as a script, ``python tests/play/zygote.py FD`` (its own directory is taken off ``sys.path``:
the cwd stands first, as for ``python -m agon``), with ``FD`` a stream socket to the test process.
It says ``ready CPU`` (its CPU seconds so far), then reads one JSON request a line (``argv``,
``env``, ``log``, ``cwd``) and answers ``pid PID`` for each fork, and ``exit PID CODE CPU`` (a
negative code: the signal; the child's CPU seconds with its own children's) when it has reaped
one; it leaves when the test process closes the socket (or dies). The children are its own, not
the test process's: only this process can wait for them. It imports the standard library and agon
only (no pytest, no tests package), so a server forked here carries no state of the test process:
not its cheap Argon2 hasher, compiled statements, route state or threads.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import resource
import select
import signal
import socket
import sys
import traceback
from typing import NoReturn

#: What ``agon serve`` (``agon.launch.main`` → ``agon.cli`` → ``agon.web.cli.serve``) imports
#: before it reads its settings. None of these reads an ``AGON_`` variable at import time
#: (tests/play/test_forked_server.py checks it): a server's own environment reaches it whole.
PRELOAD = (
    "agon.launch",
    "agon.cli",
    "agon.web.cli",
    "uvicorn",
    "agon.store.db",
    "agon.web.app",
    "agon.web.security",
    "agon.web.settings",
    "agon.web.logs",
)


def _serve(request: dict[str, object], link: socket.socket, closing: list[int]) -> NoReturn:
    """The forked child: ``agon ARGV`` as ``python -m agon`` runs it, in a session of its own,
    with ``env`` as its whole environment and standard output and error appended to ``log``. It
    leaves by ``os._exit`` with the command's exit code (1 and the traceback on standard error
    for an exception, as the interpreter does)."""
    code = 1
    try:
        os.setsid()
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        link.close()
        for fd in closing:
            os.close(fd)
        argv = request["argv"]
        env = request["env"]
        log = request["log"]
        cwd = request["cwd"]
        assert isinstance(argv, list) and isinstance(env, dict)
        assert isinstance(log, str) and isinstance(cwd, str)
        # the test process's working directory now, first on sys.path as for ``python -m``
        os.chdir(cwd)
        sys.path[0] = cwd
        out = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.close(devnull)
        os.close(out)
        os.environ.clear()
        os.environ.update(env)
        import agon

        sys.argv = [os.path.join(os.path.dirname(agon.__file__), "__main__.py"), *argv]
        from agon.launch import main

        main()
        code = 0
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
        if exit_.code is not None and not isinstance(exit_.code, int):
            print(exit_.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)


def main() -> None:
    # a script's directory stands first on sys.path; ``python -m agon`` has the cwd there
    sys.path[0] = os.getcwd()
    link = socket.socket(fileno=int(sys.argv[1]))
    for name in PRELOAD:
        importlib.import_module(name)
    # a reaped child wakes the loop: SIGCHLD writes to a pipe select() watches
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda number, frame: None)
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    own = resource.getrusage(resource.RUSAGE_SELF)
    link.sendall(f"ready {own.ru_utime + own.ru_stime}\n".encode())
    pending = b""
    while True:
        try:
            ready, _, _ = select.select([link.fileno(), wake_r], [], [])
        except InterruptedError:
            continue
        if wake_r in ready:
            os.read(wake_r, 4096)
            while True:
                try:
                    pid, status, usage = os.wait4(-1, os.WNOHANG)
                except ChildProcessError:
                    break
                if not pid:
                    break
                code = os.waitstatus_to_exitcode(status)
                cpu = usage.ru_utime + usage.ru_stime
                link.sendall(f"exit {pid} {code} {cpu}\n".encode())
        if link.fileno() in ready:
            data = link.recv(1 << 16)
            if not data:  # the test process closed its end, or died
                return
            pending += data
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                request = json.loads(line)
                pid = os.fork()
                if pid == 0:
                    _serve(request, link, [wake_r, wake_w])
                link.sendall(f"pid {pid}\n".encode())


if __name__ == "__main__":
    main()
