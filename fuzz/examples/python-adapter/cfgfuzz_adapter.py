#!/usr/bin/env python3
"""A structurizer adapter for cfgfuzz, protocol v1 (fuzz/PROTOCOL.md), in
Python's standard library only.

It reads one JSON request a line on standard input, parses the graph's
compact notation, lays the graph out as a dispatch loop (every block an arm
of one switch on a program counter inside one loop, as
structurizer/dispatch.go does) and answers with the structured function in
the `func` form, which cfgfuzz emits as SPIR-V itself. Replace
`structurize` with a call into your own structurizer and keep the rest.

    cfgfuzz run --structurizer 'python3 fuzz/examples/python-adapter/cfgfuzz_adapter.py' --graphs 200
    ... --structurizer 'python3 .../cfgfuzz_adapter.py --bug exit-restarts'   # a planted bug

--bug exit-restarts plants a bug for the tests: a returning block sets the
counter to 0 instead of the exit value, so the function starts over.
"""

import argparse
import json
import sys

PROTOCOL_VERSION = 1
EXIT_PC = 0xFFFFFFFF  # the counter value meaning "the function returned"
REQUEST_ERROR = "request: "  # a reason with this prefix is a harness error, not a finding
MAX_BLOCKS = 1 << 20


class RequestError(Exception):
    """The request cannot be served (bad graph, bad weights)."""


def parse_compact(text):
    """Parses compact notation ("{{1, 2}, {2}, {}}"): list i holds block i's
    successors. A successor past the last list adds returning blocks up to
    it. Returns the successor lists."""
    pos = 0

    def skip():
        nonlocal pos
        while pos < len(text):
            c = text[pos]
            if c == "#":
                while pos < len(text) and text[pos] != "\n":
                    pos += 1
            elif c.isspace():
                pos += 1
            else:
                return

    def expect(c):
        nonlocal pos
        skip()
        if pos >= len(text) or text[pos] != c:
            got = text[pos] if pos < len(text) else "end of input"
            raise RequestError("graph: offset %d: want %r, got %r" % (pos, c, got))
        pos += 1

    def peek():
        skip()
        return text[pos] if pos < len(text) else ""

    def number():
        nonlocal pos
        skip()
        start = pos
        while pos < len(text) and text[pos].isdigit():
            pos += 1
        if start == pos:
            raise RequestError("graph: offset %d: want a block number" % start)
        v = int(text[start:pos])
        if v >= MAX_BLOCKS:
            raise RequestError("graph: offset %d: block %d past the limit" % (start, v))
        return v

    def int_list():
        expect("{")
        out = []
        if peek() == "}":
            expect("}")
            return out
        while True:
            out.append(number())
            if peek() == ",":
                expect(",")
                continue
            expect("}")
            return out

    expect("{")
    succs = []
    if peek() == "}":
        expect("}")
    else:
        while True:
            succs.append(int_list())
            if peek() == ",":
                expect(",")
                continue
            expect("}")
            break
    if peek() != "":
        raise RequestError("graph: offset %d: text after the graph" % pos)
    if not succs:
        raise RequestError("graph: no blocks")
    n = max([len(succs)] + [t + 1 for s in succs for t in s])
    succs += [[] for _ in range(n - len(succs))]
    return succs


def block(kind, orig, term, merge=None, **extra):
    b = {"kind": kind, "orig": orig, "merge": merge or {"kind": "none"}, "term": term}
    b.update(extra)
    return b


def structurize(succs, weights, bug):
    """The toy structurizer: the dispatch loop.

        entry:    br header
        header:   loop merge(exit) continue(latch); br dispatch
        dispatch: selection merge(join); route pc: b -> arm b, default -> join
        arm b:    (original block b) pc = next block; br join
        join:     br latch
        latch:    pc == EXIT_PC ? exit : header
        exit:     return
    """
    n = len(succs)
    entry, header, dispatch, first_arm = 0, 1, 2, 3
    join = first_arm + n
    latch, exit_ = join + 1, join + 2
    blocks = [
        block("synthetic", -1, {"kind": "branch", "to": [header]}, name="entry"),
        block("synthetic", -1, {"kind": "branch", "to": [dispatch]},
              {"kind": "loop", "merge": exit_, "continue": latch}, name="header"),
        block("synthetic", -1, {"kind": "route", "var": 0, "values": list(range(n)),
                                "to": [join] + [first_arm + b for b in range(n)]},
              {"kind": "selection", "merge": join}, name="dispatch"),
    ]
    for b, s in enumerate(succs):
        arm = block("original", b, {"kind": "branch", "to": [join]}, weight=weights[b])
        if not s:
            arm["stores"] = [{"var": 0, "value": 0 if bug == "exit-restarts" else EXIT_PC}]
        elif len(s) == 1:
            arm["stores"] = [{"var": 0, "value": s[0]}]
        else:
            # A conditional or switch stores its successor by choice: the
            # arm reads the decision and adds no blocks.
            arm["arity"] = len(s)
            arm["stores"] = [{"var": 0, "per_choice": list(s)}]
        blocks.append(arm)
    blocks += [
        block("synthetic", -1, {"kind": "branch", "to": [latch]}, name="join"),
        block("synthetic", -1, {"kind": "test", "var": 0, "values": [EXIT_PC], "to": [exit_, header]}, name="latch"),
        block("synthetic", -1, {"kind": "return"}, name="exit"),
    ]
    func = {"blocks": blocks, "vars": [{"name": "pc", "init": 0}]}
    # strategy names the layout in reports.
    stats = {"blocks_in": n, "blocks_out": len(blocks), "synthetic": 6, "clones": 0,
             "route_vars": 1, "fallbacks": 0, "words_in": sum(weights),
             "words_out": sum(weights), "strategy": "dispatch"}
    return func, stats


def answer(req, bug):
    """One response for one decoded request."""
    if not isinstance(req, dict):
        return {"id": 0, "outcome": "error", "reason": REQUEST_ERROR + "bad request: not an object"}
    rid = req.get("id", 0)
    if req.get("v") != PROTOCOL_VERSION:
        return {"id": rid, "outcome": "error",
                "reason": REQUEST_ERROR + "protocol version %s not supported (want 1)" % req.get("v")}
    try:
        graph = req.get("graph")
        if not isinstance(graph, str):
            raise RequestError("graph: not a string")
        succs = parse_compact(graph)
        weights = req.get("weights")
        if weights is None:
            weights = [0] * len(succs)
        if not isinstance(weights, list) or len(weights) != len(succs) or \
                not all(isinstance(w, int) and w >= 0 for w in weights):
            raise RequestError("weights: want %d non-negative integers" % len(succs))
    except RequestError as e:
        return {"id": rid, "outcome": "error", "reason": REQUEST_ERROR + str(e)}
    func, stats = structurize(succs, weights, bug)
    return {"id": rid, "outcome": "ok", "stats": stats, "func": func}


def main():
    ap = argparse.ArgumentParser(description="cfgfuzz protocol v1 adapter around a toy dispatch-loop structurizer")
    ap.add_argument("--bug", choices=["exit-restarts"], help="plant a bug (for tests)")
    args = ap.parse_args()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
        except ValueError as e:
            resp = {"id": 0, "outcome": "error", "reason": REQUEST_ERROR + "bad request: %s" % e}
        else:
            resp = answer(req, args.bug)
        sys.stdout.write(json.dumps(resp, separators=(",", ":")) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
