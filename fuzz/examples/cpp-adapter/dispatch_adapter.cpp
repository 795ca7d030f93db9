// dispatch_adapter.cpp: a toy structurizer behind cfgfuzz_protocol.hpp. It
// lays every graph out as a dispatch loop (as structurizer/dispatch.go
// does): every block an arm of one switch on a program counter inside one
// loop, each arm setting the counter to the block it branches to.
//
//	entry:    br header
//	header:   loop merge(exit) continue(latch); br dispatch
//	dispatch: selection merge(join); route pc: b -> arm b, default -> join
//	arm b:    (original block b) pc = next block; br join
//	join:     br latch
//	latch:    pc == kExitPC ? exit : header
//	exit:     return
//
// Build and run:
//
//	g++ -std=c++17 -O2 -o dispatch_adapter dispatch_adapter.cpp
//	cfgfuzz run --structurizer ./dispatch_adapter --graphs 200
//
// It speaks protocol v2 (serve_declared): its hello declares what a
// dispatch loop promises and the build's name, which the report shows.
// Name the build at compile time, with the commit it is built from:
//
//	g++ -std=c++17 -O2 -DCFGFUZZ_BUILD_NAME="\"dispatch_adapter (git $(git rev-parse HEAD))\"" -o dispatch_adapter dispatch_adapter.cpp
//
// --bug swap-arms plants a bug for the tests: a conditional stores its
// successors the wrong way round.
#include <cstring>
#include <string>

#include "cfgfuzz_protocol.hpp"

namespace {

constexpr uint32_t kExitPC = 0xFFFFFFFFu;

cfgfuzz::Block synthetic(const char* name, cfgfuzz::Term term, cfgfuzz::Merge merge = {}) {
  cfgfuzz::Block b;
  b.name = name;
  b.kind = cfgfuzz::Kind::Synthetic;
  b.orig = -1;
  b.term = std::move(term);
  b.merge = merge;
  return b;
}

cfgfuzz::Term branch(int to) { return cfgfuzz::Term{cfgfuzz::TermKind::Branch, {to}, 0, {}, {}}; }

cfgfuzz::Response structurize(const cfgfuzz::Request& req, bool swap_arms) {
  using namespace cfgfuzz;
  const Graph& g = req.graph;
  const int n = static_cast<int>(g.size());
  const int header = 1, dispatch = 2, first_arm = 3;
  const int join = first_arm + n, latch = join + 1, exit = join + 2;
  Func f;
  f.vars.push_back(Var{"pc", 0});
  f.blocks.push_back(synthetic("entry", branch(header)));
  f.blocks.push_back(synthetic("header", branch(dispatch), Merge{MergeKind::Loop, exit, latch}));
  Term route{TermKind::Route, {join}, 0, {}, {}};
  for (int b = 0; b < n; b++) {
    route.values.push_back(static_cast<uint32_t>(b));
    route.to.push_back(first_arm + b);
  }
  f.blocks.push_back(synthetic("dispatch", route, Merge{MergeKind::Selection, join, 0}));
  int64_t words = 0;
  for (int b = 0; b < n; b++) {
    Block arm;
    arm.kind = Kind::Original;
    arm.orig = b;
    arm.weight = g.weights[b];
    arm.term = branch(join);
    words += arm.weight;
    const std::vector<int>& s = g.succs[b];
    Store st;
    if (s.empty()) {
      st.value = kExitPC;
    } else if (s.size() == 1) {
      st.value = static_cast<uint32_t>(s[0]);
    } else {
      // A conditional or switch stores its successor by choice: the arm
      // reads the decision and adds no blocks.
      arm.arity = static_cast<int>(s.size());
      for (int t : s) st.per_choice.push_back(static_cast<uint32_t>(t));
      if (swap_arms && s.size() == 2) std::swap(st.per_choice[0], st.per_choice[1]);
    }
    arm.stores.push_back(st);
    f.blocks.push_back(arm);
  }
  f.blocks.push_back(synthetic("join", branch(latch)));
  f.blocks.push_back(synthetic("latch", Term{TermKind::Test, {exit, header}, 0, {kExitPC}, {}}));
  f.blocks.push_back(synthetic("exit", Term{TermKind::Return, {}, 0, {}, {}}));
  Stats st;
  st.blocks_in = n;
  st.blocks_out = static_cast<int>(f.blocks.size());
  st.synthetic = 6;
  st.route_vars = 1;
  st.words_in = st.words_out = words;
  st.strategy = "dispatch";  // the layout's name, for reports
  st.passes_used.push_back("dispatch loop");  // each pass that reworked the graph
  return Response::ok(f, st);
}

// declare is the hello's answer: the build's name (CFGFUZZ_BUILD_NAME, or
// the toy's with no revision when none was compiled in) and what a
// dispatch loop promises whatever the options: the same answer every time
// and for every numbering of the blocks, every graph served, but not
// idempotence (a dispatch loop's own CFG, structurized again, is a loop
// around a switch again, larger).
cfgfuzz::Hello declare(const cfgfuzz::Request&) {
  cfgfuzz::Hello h;
  if (h.name.empty()) h.name = "dispatch_adapter (build unnamed)";
  h.promises.deterministic = true;
  h.promises.renumbering_invariant = true;
  h.promises.switches = true;
  h.promises.irreducible = true;
  return h;
}

}  // namespace

int main(int argc, char** argv) {
  bool swap_arms = false;
  for (int i = 1; i < argc; i++) {
    if (std::strcmp(argv[i], "--bug") == 0 && i + 1 < argc && std::strcmp(argv[i + 1], "swap-arms") == 0) {
      swap_arms = true;
      i++;
    } else {
      std::cerr << "usage: dispatch_adapter [--bug swap-arms]\n";
      return 2;
    }
  }
  std::ios::sync_with_stdio(false);
  cfgfuzz::serve_declared([&](const cfgfuzz::Request& r) { return structurize(r, swap_arms); }, declare);
  return 0;
}
