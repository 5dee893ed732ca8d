"""Serves a directory on 127.0.0.1 with the Content-Security-Policy header Jenkins sends
by default (jenkins.io, "Configuring Content Security Policy"), as its HTML Publisher
does. usage: csp_server.py DIR PORTFILE LOG: the port goes into PORTFILE (written whole,
by a rename) once the server listens; every request's path and status into LOG."""
import functools
import http.server
import os
import sys

CSP = "sandbox allow-same-origin; default-src 'none'; img-src 'self'; style-src 'self';"


class Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Content-Security-Policy", CSP)
        super().end_headers()

    def log_request(self, code="-", size="-"):
        with open(sys.argv[3], "a") as log:
            log.write("%s %s\n" % (code, self.path))

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(
    ("127.0.0.1", 0), functools.partial(Handler, directory=sys.argv[1]))
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
server.serve_forever()
