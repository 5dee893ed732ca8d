"""A PostgreSQL server that never answers, for tests/e2e/hostile_stores.sh.

usage: pg_silent.py MODE PORT_FILE
  accept   accepts connections and never reads or writes
  startup  completes libpq's startup (no TLS, no password) and then answers no query
The port it listens on (127.0.0.1) is written to PORT_FILE once it listens.
"""
import os
import socket
import struct
import sys
import threading


def recv_exact(c, n):
    b = b""
    while len(b) < n:
        chunk = c.recv(n - len(b))
        if not chunk:
            raise EOFError
        b += chunk
    return b


def msg(kind, body):
    return kind + struct.pack("!I", len(body) + 4) + body


def startup(c):
    try:
        while True:
            n, code = struct.unpack("!II", recv_exact(c, 8))
            if code in (80877103, 80877104):  # SSLRequest, GSSENCRequest: no
                c.sendall(b"N")
                continue
            recv_exact(c, n - 8)  # the startup packet's parameters
            break
        out = msg(b"R", struct.pack("!I", 0))  # AuthenticationOk
        for k, v in (("server_version", "15.0"), ("client_encoding", "UTF8"),
                     ("standard_conforming_strings", "on"), ("integer_datetimes", "on")):
            out += msg(b"S", k.encode() + b"\0" + v.encode() + b"\0")
        out += msg(b"K", struct.pack("!II", 4242, 4242))
        out += msg(b"Z", b"I")
        c.sendall(out)
        while c.recv(65536):  # every query read, none answered
            pass
    except (EOFError, OSError):
        pass


def main():
    mode, port_file = sys.argv[1], sys.argv[2]
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    tmp = port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(s.getsockname()[1]))
    os.rename(tmp, port_file)
    held = []
    while True:
        c, _ = s.accept()
        held.append(c)
        if mode == "startup":
            threading.Thread(target=startup, args=(c,), daemon=True).start()


main()
