#!/usr/bin/env python3
"""Holds N watch connections to the yard daemon, reading them (--read) or never reading
(the default), until stdin closes. Prints "ready" once every connection is open.
bench/api/api.sh uses it to measure what watchers cost the daemon."""
import os
import socket
import sys
import threading

n = int(sys.argv[1])
reading = "--read" in sys.argv
path = os.path.join(os.environ["XDG_RUNTIME_DIR"], "switchyard", "yard.sock")
last = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2].isdigit() else 0
conns = []
for _ in range(n):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.sendall(b'{"op":"watch","since":%d}\n' % last)
    conns.append(s)


def drain(socks):
    import selectors
    sel = selectors.DefaultSelector()
    for s in socks:
        sel.register(s, selectors.EVENT_READ)
    while True:
        for key, _ in sel.select():
            if not key.fileobj.recv(1 << 16):
                sel.unregister(key.fileobj)


if reading:
    threading.Thread(target=drain, args=(conns,), daemon=True).start()
print("ready", flush=True)
sys.stdin.read()
