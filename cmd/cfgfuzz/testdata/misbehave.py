#!/usr/bin/env python3
# misbehave.py MODE CMD...: an external structurizer for the tests, speaking
# protocol v1 (fuzz/PROTOCOL.md). It forwards every request to the server
# CMD (e.g. `cfgfuzz structurize`) and relays its answer, except on a graph
# with a self-loop, where it misbehaves by MODE:
#   crash  writes a segfault line (address, pid, path, the loop's blocks:
#          all varying from graph to graph) to stderr and exits 139
#   panic  writes a Go-style "panic:" line naming blocks and counts, exits 2
#   hang   never answers
#   error  answers outcome "error" with a reason naming ids and addresses
# and on every graph:
#   fallback  relays CMD's answer marked as a fallback to a dispatch loop
#             (stats.fallbacks 1, passes_used "fallback: nester: cyclic")
#   slow:S    sleeps S seconds before each answer (a slow structurizer)
import json
import os
import random
import subprocess
import sys
import time

mode = sys.argv[1]
child = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    if not line.strip():
        continue
    req = json.loads(line)
    succs = json.loads(req["graph"].replace("{", "[").replace("}", "]"))
    loops = [b for b, s in enumerate(succs) if b in s]
    if loops:
        blocks = " ".join(str(b) for b in loops)
        if mode == "crash":
            sys.stderr.write("Segmentation fault at %s in /tmp/build-%d/structurize.cc:%d (loops [%s])\n"
                             % (hex(random.getrandbits(40)), os.getpid(), 100 + len(succs), blocks))
            sys.stderr.flush()
            os._exit(139)
        if mode == "panic":
            sys.stderr.write("panic: loop header b%d has %d blocks: [%s]\n" % (loops[0], len(succs), blocks))
            sys.stderr.flush()
            os._exit(2)
        if mode == "hang":
            time.sleep(3600)
        if mode == "error":
            sys.stdout.write(json.dumps({"id": req["id"], "outcome": "error",
                                         "reason": "internal: header %d at %s: blocks %s" % (loops[0], hex(id(req)), blocks)}) + "\n")
            sys.stdout.flush()
            continue
    if mode.startswith("slow:"):
        time.sleep(float(mode[len("slow:"):]))
    child.stdin.write(line if line.endswith("\n") else line + "\n")
    child.stdin.flush()
    answer = child.stdout.readline()
    if mode == "fallback":
        resp = json.loads(answer)
        stats = resp.setdefault("stats", {})
        stats["fallbacks"] = 1
        stats["passes_used"] = (stats.get("passes_used") or []) + ["fallback: nester: cyclic"]
        answer = json.dumps(resp) + "\n"
    sys.stdout.write(answer)
    sys.stdout.flush()
