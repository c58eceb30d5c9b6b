# Copyright (c) 2024 The fibsync authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at:
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""A daemon's unixctl commands, asked over one kept connection.

The benchmark drivers sample the daemons five times a second while a load
runs.  Asking through a new "ovs-appctl" each time cost about 3% of both
cores during a million-route burst (a process started, linked and torn
down per question), CPU taken from the stack being measured.  A
UnixctlConn keeps one connection to a daemon's unixctl socket and speaks
its JSON-RPC (OVS's lib/unixctl.c: a request {"method", "params", "id"},
a reply {"result", "error", "id"}, messages one after another on the
stream with nothing between them).  Standard library only."""

import json
import socket
import time


class UnixctlError(Exception):
    """The daemon answered with an error, or could not be asked."""


class UnixctlConn:
    """One connection to the unixctl server at 'path', opened on first
    use and again after a failure."""

    def __init__(self, path, timeout=10.0):
        self.path = path
        self.timeout = timeout
        self.sock = None
        self.buf = ""
        self.next_id = 0
        self.decoder = json.JSONDecoder()

    def close(self):
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        self.buf = ""

    def _connect(self):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(self.timeout)
        try:
            s.connect(self.path)
        except OSError:
            s.close()
            raise
        self.sock = s

    def _read_reply(self, want_id, deadline):
        """Reads messages until the reply with id 'want_id'; returns it."""
        while True:
            text = self.buf.lstrip()
            if text:
                try:
                    msg, end = self.decoder.raw_decode(text)
                except ValueError:
                    msg = None
                if msg is not None:
                    self.buf = text[end:]
                    if isinstance(msg, dict) and msg.get("id") == want_id:
                        return msg
                    continue
            if time.time() > deadline:
                raise socket.timeout("no reply")
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("connection closed")
            self.buf += data.decode("utf-8", "replace")

    def call(self, method, *params):
        """The daemon's answer to 'method' with 'params' (strings), as
        text; UnixctlError if it answered with an error or if it could
        not be asked (it is then asked on a new connection next time)."""
        try:
            if self.sock is None:
                self._connect()
            self.next_id += 1
            req = {"method": method, "params": list(params),
                   "id": self.next_id}
            self.sock.sendall(json.dumps(req).encode())
            reply = self._read_reply(self.next_id,
                                     time.time() + self.timeout)
        except (OSError, ValueError) as e:
            self.close()
            raise UnixctlError("%s: %s" % (self.path, e))
        if reply.get("error") is not None:
            raise UnixctlError("%s: %s" % (self.path, reply["error"]))
        result = reply.get("result")
        return result if isinstance(result, str) else ""


class UnixctlPool:
    """Kept connections, one per unixctl socket path."""

    def __init__(self, timeout=10.0):
        self.timeout = timeout
        self.conns = {}

    def call(self, path, method, *params):
        """As UnixctlConn.call(), on the connection to 'path'."""
        conn = self.conns.get(path)
        if conn is None:
            conn = self.conns[path] = UnixctlConn(path, self.timeout)
        return conn.call(method, *params)

    def answer(self, path, method, *params):
        """As call(), but "" when the daemon cannot be asked or answers
        with an error: for samples, where a daemon not up yet (or gone)
        simply has nothing to say."""
        try:
            return self.call(path, method, *params)
        except UnixctlError:
            return ""

    def close(self):
        for conn in self.conns.values():
            conn.close()
        self.conns = {}
