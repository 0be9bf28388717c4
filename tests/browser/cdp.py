"""tests/browser/cdp.py — one Chromium headless driven over the DevTools
protocol on a pipe (--remote-debugging-pipe): Chromium reads commands on its
fd 3 and writes replies and events on its fd 4, each message one JSON object
followed by a NUL byte (Chromium's devtools_pipe_handler.cc; the protocol:
chromedevtools.github.io/devtools-protocol).  Python's standard library only.

Every wait has a deadline: a reply or event not come in time raises
CdpError naming what was waited for, and close() kills Chromium whatever
state it is in."""

import fcntl
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time

FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-extensions",
         "--disable-default-apps", "--mute-audio", "--remote-debugging-pipe"]


class CdpError(Exception):
    pass


class Chromium:
    """A Chromium process and its pipe.  As root (CI) its sandbox needs
    --no-sandbox; a fresh profile in a temporary directory, removed by
    close()."""

    def __init__(self, exe="chromium", timeout=30.0, log_path=os.devnull):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="ulaudit-chromium.")
        self._buf, self._events, self._next_id = b"", [], 0
        # The child must find them at 3 and 4: first every end above 9 (a
        # pipe may have been given 3 or 4), then the child's two put at 3
        # and 4 in this process (whatever was there, e.g. make's jobserver
        # fds, is not ours to use) and exactly those passed.
        ends = []
        for fd in os.pipe() + os.pipe():
            ends.append(fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10))
            os.close(fd)
        cmd_r, cmd_w, out_r, out_w = ends
        os.dup2(cmd_r, 3)
        os.dup2(out_w, 4)
        os.close(cmd_r)
        os.close(out_w)
        self._log = open(log_path, "wb")
        try:
            self.proc = subprocess.Popen(
                [exe] + FLAGS + ["--user-data-dir=" + self.profile, "about:blank"],
                stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log,
                pass_fds=(3, 4), start_new_session=True)
        finally:
            os.close(3)
            os.close(4)
        self._w, self._r = cmd_w, out_r

    def close(self):
        """Kill Chromium (its whole process group) and remove the profile."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        for fd in (self._w, self._r):
            try:
                os.close(fd)
            except OSError:
                pass
        self._log.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _read_message(self, deadline, what):
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CdpError("no answer from Chromium within %g s: %s" % (self.timeout, what))
            ready, _, _ = select.select([self._r], [], [], left)
            if ready:
                chunk = os.read(self._r, 1 << 20)
                if not chunk:
                    raise CdpError("Chromium closed its pipe (exit %s): %s"
                                   % (self.proc.poll(), what))
                self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=None):
        """The result of one command; its error raises CdpError."""
        self._next_id += 1
        msg = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        data = json.dumps(msg).encode() + b"\0"
        while data:
            data = data[os.write(self._w, data):]
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read_message(deadline, method)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise CdpError("%s: %s" % (method, reply["error"].get("message")))
                return reply.get("result", {})
            if "method" in reply:
                self._events.append(reply)

    def wait_event(self, method, session=None):
        """The params of the first event METHOD (of SESSION) not yet taken."""
        deadline = time.monotonic() + self.timeout
        while True:
            for k, ev in enumerate(self._events):
                if ev["method"] == method and ev.get("sessionId") == session:
                    del self._events[k]
                    return ev.get("params", {})
            msg = self._read_message(deadline, "event " + method)
            if "method" in msg:
                self._events.append(msg)

    def take_events(self, method, session=None):
        """The params of every event METHOD (of SESSION) received so far."""
        mine = [ev for ev in self._events
                if ev["method"] == method and ev.get("sessionId") == session]
        self._events = [ev for ev in self._events if not
                        (ev["method"] == method and ev.get("sessionId") == session)]
        return [ev.get("params", {}) for ev in mine]

    def drop_session(self, session):
        """Forget the events of a session whose target is closed."""
        self._events = [ev for ev in self._events if ev.get("sessionId") != session]
