#!/usr/bin/env python3
# slowafter.py N LOG CMD...: an external structurizer for the tests, speaking
# the protocol (fuzz/PROTOCOL.md) through the server CMD (e.g. `cfgfuzz
# structurize`), whose requests it relays: it answers its first N graph
# requests at once, then sleeps an hour before each (a structurizer that
# turned slow). The hello is relayed at once. Each graph request appends a
# line to LOG: "fast PID" or, before the sleep, "slow PID".
import json
import os
import subprocess
import sys
import time

fast = int(sys.argv[1])
log = sys.argv[2]
child = subprocess.Popen(sys.argv[3:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
graphs = 0
for line in sys.stdin:
    if not line.strip():
        continue
    if json.loads(line).get("graph"):
        graphs += 1
        slow = graphs > fast
        with open(log, "a") as f:
            f.write("%s %d\n" % ("slow" if slow else "fast", os.getpid()))
        if slow:
            time.sleep(3600)
    child.stdin.write(line if line.endswith("\n") else line + "\n")
    child.stdin.flush()
    sys.stdout.write(child.stdout.readline())
    sys.stdout.flush()
