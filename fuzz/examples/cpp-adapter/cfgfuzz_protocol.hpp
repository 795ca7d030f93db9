// cfgfuzz_protocol.hpp: cfgfuzz's structurizer protocol, versions 1 and 2
// (fuzz/PROTOCOL.md), for a C++17 structurizer, with no dependency beyond
// the standard library. It defines:
//
//   - Json, a small JSON value with a parser and a writer;
//   - Request and parse_request (one request line), parse_compact (the
//     graph's compact notation);
//   - Func, Block, Term, Merge, Store, Var: the structured function form
//     (structurizer/func.go), written as the response's "func";
//   - Response and serve(handler): the loop reading requests from standard
//     input and writing one response line per request (protocol v1);
//   - Hello, Promises and serve_declared(handler, declare): the same loop
//     answering protocol v2's hello with the server's name and promises.
//
// The name a hello declares is how a report and a nightly state tell which
// build ran (cfgfuzz cannot ask a command for its revision). Hello's name
// defaults to CFGFUZZ_BUILD_NAME, a string literal set at compile time
// (g++ -DCFGFUZZ_BUILD_NAME='"mystruct (git 0a049b6)"' ...; a build command
// of cfgfuzz compare or bisect passes {rev}, the commit it builds); "" when
// it is not defined.
//
// A handler returns Response::ok(func, stats), Response::refused(reason) or
// Response::error(reason); a RequestError thrown while reading the request
// becomes an error whose reason starts with "request: " (a harness error,
// not a finding). Any other exception escaping the handler becomes an
// error response (a finding named after its reason); a crash or hang of
// the process is cfgfuzz's to detect.
#ifndef CFGFUZZ_PROTOCOL_HPP
#define CFGFUZZ_PROTOCOL_HPP

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cfgfuzz {

constexpr int kProtocolVersion = 1;
// kProtocolVersion2 is version 1 with a hello in front (serve_declared).
constexpr int kProtocolVersion2 = 2;

#ifdef CFGFUZZ_BUILD_NAME
// kBuildName is the build's name as compiled in (CFGFUZZ_BUILD_NAME).
constexpr const char* kBuildName = CFGFUZZ_BUILD_NAME;
#else
// kBuildName is the build's name as compiled in: none.
constexpr const char* kBuildName = "";
#endif
// The prefix of a reason that says the request could not be served.
constexpr const char* kRequestError = "request: ";

// RequestError: the request is malformed (bad JSON, bad graph, bad weights).
struct RequestError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// ---------------------------------------------------------------- JSON

// Json is a JSON value: null, bool, number (kept as a double and, when it is
// an integer, as an int64), string, array or object (keys in order).
struct Json {
  enum Type { Null, Bool, Number, String, Array, Object };
  Type type = Null;
  bool b = false;
  double num = 0;
  int64_t integer = 0;
  bool is_integer = false;
  std::string str;
  std::vector<Json> arr;
  std::vector<std::pair<std::string, Json>> obj;

  // get returns the member named key, or nullptr.
  const Json* get(const std::string& key) const {
    if (type != Object) return nullptr;
    for (const auto& kv : obj)
      if (kv.first == key) return &kv.second;
    return nullptr;
  }
};

namespace detail {

class JsonParser {
 public:
  explicit JsonParser(const std::string& s) : s_(s) {}

  Json parse_document() {
    Json v = value(0);
    ws();
    if (p_ != s_.size()) fail("text after the JSON value");
    return v;
  }

 private:
  const std::string& s_;
  size_t p_ = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw RequestError("bad request: offset " + std::to_string(p_) + ": " + what);
  }
  void ws() {
    while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\t' || s_[p_] == '\n' || s_[p_] == '\r')) p_++;
  }
  bool eat(char c) {
    ws();
    if (p_ < s_.size() && s_[p_] == c) {
      p_++;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("want '") + c + "'");
  }
  void literal(const char* word) {
    for (const char* w = word; *w; w++, p_++)
      if (p_ >= s_.size() || s_[p_] != *w) fail(std::string("want ") + word);
  }

  Json value(int depth) {
    if (depth > 64) fail("nested too deeply");
    ws();
    if (p_ >= s_.size()) fail("unexpected end of input");
    Json v;
    char c = s_[p_];
    if (c == '{') {
      p_++;
      v.type = Json::Object;
      if (eat('}')) return v;
      do {
        ws();
        std::string key = string_literal();
        expect(':');
        v.obj.emplace_back(std::move(key), value(depth + 1));
      } while (eat(','));
      expect('}');
    } else if (c == '[') {
      p_++;
      v.type = Json::Array;
      if (eat(']')) return v;
      do v.arr.push_back(value(depth + 1));
      while (eat(','));
      expect(']');
    } else if (c == '"') {
      v.type = Json::String;
      v.str = string_literal();
    } else if (c == 't') {
      literal("true");
      v.type = Json::Bool;
      v.b = true;
    } else if (c == 'f') {
      literal("false");
      v.type = Json::Bool;
    } else if (c == 'n') {
      literal("null");
    } else {
      number(v);
    }
    return v;
  }

  void number(Json& v) {
    size_t start = p_;
    if (p_ < s_.size() && s_[p_] == '-') p_++;
    bool digits = false, integral = true;
    while (p_ < s_.size() && isdigit(static_cast<unsigned char>(s_[p_]))) p_++, digits = true;
    if (p_ < s_.size() && s_[p_] == '.') {
      integral = false;
      p_++;
      while (p_ < s_.size() && isdigit(static_cast<unsigned char>(s_[p_]))) p_++;
    }
    if (p_ < s_.size() && (s_[p_] == 'e' || s_[p_] == 'E')) {
      integral = false;
      p_++;
      if (p_ < s_.size() && (s_[p_] == '+' || s_[p_] == '-')) p_++;
      while (p_ < s_.size() && isdigit(static_cast<unsigned char>(s_[p_]))) p_++;
    }
    if (!digits) fail("want a value");
    std::string text = s_.substr(start, p_ - start);
    v.type = Json::Number;
    try {
      v.num = std::stod(text);
      if (integral && text.size() <= 18) {
        v.integer = std::stoll(text);
        v.is_integer = true;
      }
    } catch (const std::exception&) {
      fail("bad number " + text);
    }
  }

  static void utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  uint32_t hex4() {
    if (p_ + 4 > s_.size()) fail("short \\u escape");
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
      char c = s_[p_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= c - '0';
      else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
      else fail("bad \\u escape");
    }
    return v;
  }

  std::string string_literal() {
    if (p_ >= s_.size() || s_[p_] != '"') fail("want a string");
    p_++;
    std::string out;
    while (true) {
      if (p_ >= s_.size()) fail("unterminated string");
      char c = s_[p_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (p_ >= s_.size()) fail("unterminated escape");
      char e = s_[p_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          uint32_t cp = hex4();
          if (cp >= 0xD800 && cp < 0xDC00 && p_ + 1 < s_.size() && s_[p_] == '\\' && s_[p_ + 1] == 'u') {
            p_ += 2;
            uint32_t lo = hex4();
            if (lo < 0xDC00 || lo >= 0xE000) fail("bad surrogate pair");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          utf8(out, cp);
          break;
        }
        default: fail(std::string("bad escape \\") + e);
      }
    }
  }
};

}  // namespace detail

// parse_json parses one JSON document; errors are RequestErrors.
inline Json parse_json(const std::string& text) { return detail::JsonParser(text).parse_document(); }

// quote writes s as a JSON string literal.
inline std::string quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

// ---------------------------------------------------------------- requests

// Graph is a control-flow graph: succs[b] are block b's successors (0:
// return, 1: branch, 2: conditional, taken first on a non-zero decision, 3
// or more: a switch whose first is the default); block 0 is the entry.
struct Graph {
  std::vector<std::vector<int>> succs;
  std::vector<int> weights;  // words per block, all 0 when the request has none
  size_t size() const { return succs.size(); }
};

// Request is one decoded request.
struct Request {
  int64_t id = 0;
  Graph graph;
  std::string strategy;             // options.strategy, "" when absent
  std::vector<std::string> inject;  // options.inject
  // hello: a protocol v2 hello, which carries no graph; strategy and
  // inject are then its options, which the promises are for.
  bool hello = false;
};

constexpr int kMaxBlocks = 1 << 20;

// parse_compact reads compact notation ("{{1, 2}, {2}, {}}"); a successor
// past the last list adds returning blocks up to it. '#' starts a comment.
inline std::vector<std::vector<int>> parse_compact(const std::string& s) {
  size_t p = 0;
  auto fail = [&](const std::string& what) -> void {
    throw RequestError("graph: offset " + std::to_string(p) + ": " + what);
  };
  auto skip = [&]() {
    while (p < s.size()) {
      if (s[p] == '#') {
        while (p < s.size() && s[p] != '\n') p++;
      } else if (isspace(static_cast<unsigned char>(s[p]))) {
        p++;
      } else {
        break;
      }
    }
  };
  auto peek = [&]() -> char {
    skip();
    return p < s.size() ? s[p] : '\0';
  };
  auto expect = [&](char c) {
    if (peek() != c) fail(std::string("want '") + c + "'");
    p++;
  };
  auto number = [&]() -> int {
    skip();
    size_t start = p;
    int64_t v = 0;
    while (p < s.size() && isdigit(static_cast<unsigned char>(s[p]))) {
      v = v * 10 + (s[p++] - '0');
      if (v >= kMaxBlocks) fail("block number past the limit");
    }
    if (p == start) fail("want a block number");
    return static_cast<int>(v);
  };
  std::vector<std::vector<int>> succs;
  expect('{');
  if (peek() == '}') {
    p++;
  } else {
    do {
      expect('{');
      std::vector<int> list;
      if (peek() != '}') {
        do list.push_back(number());
        while (peek() == ',' && (p++, true));
      }
      expect('}');
      succs.push_back(std::move(list));
    } while (peek() == ',' && (p++, true));
    expect('}');
  }
  if (peek() != '\0') fail("text after the graph");
  if (succs.empty()) fail("no blocks");
  size_t n = succs.size();
  for (const auto& l : succs)
    for (int t : l) n = std::max(n, static_cast<size_t>(t) + 1);
  succs.resize(n);
  return succs;
}

namespace detail {

// read_options reads an "options" object into r's strategy and inject.
inline void read_options(const Json* o, Request& r) {
  if (!o || o->type != Json::Object) return;
  if (const Json* s = o->get("strategy"); s && s->type == Json::String) r.strategy = s->str;
  if (const Json* in = o->get("inject"); in && in->type == Json::Array)
    for (const Json& f : in->arr)
      if (f.type == Json::String) r.inject.push_back(f.str);
}

}  // namespace detail

// parse_request decodes one request line: version 1, and with v2 also
// version 2 (a hello, or a request after one). A wrong version, a bad
// graph or bad weights throw RequestError.
inline Request parse_request(const Json& j, int64_t* id_out, bool v2 = false) {
  if (j.type != Json::Object) throw RequestError("bad request: not an object");
  Request r;
  if (const Json* id = j.get("id"); id && id->is_integer) r.id = id->integer;
  *id_out = r.id;
  const Json* v = j.get("v");
  const bool known = v && v->is_integer && (v->integer == kProtocolVersion || (v2 && v->integer == kProtocolVersion2));
  if (!known)
    throw RequestError("protocol version " + (v && v->is_integer ? std::to_string(v->integer) : std::string("?")) +
                       " not supported (want " + (v2 ? "1 or 2" : "1") + ")");
  if (const Json* h = j.get("hello"); v->integer == kProtocolVersion2 && h && h->type == Json::Object) {
    r.hello = true;
    detail::read_options(h->get("options"), r);
    return r;
  }
  const Json* g = j.get("graph");
  if (!g || g->type != Json::String) throw RequestError("graph: missing or not a string");
  r.graph.succs = parse_compact(g->str);
  r.graph.weights.assign(r.graph.size(), 0);
  if (const Json* w = j.get("weights"); w && w->type != Json::Null) {
    if (w->type != Json::Array || w->arr.size() != r.graph.size())
      throw RequestError("weights: want " + std::to_string(r.graph.size()) + " integers");
    for (size_t i = 0; i < w->arr.size(); i++) {
      const Json& x = w->arr[i];
      if (!x.is_integer || x.integer < 0 || x.integer > (1 << 24))
        throw RequestError("weights: entry " + std::to_string(i) + " is not a weight");
      r.graph.weights[i] = static_cast<int>(x.integer);
    }
  }
  detail::read_options(j.get("options"), r);
  return r;
}

// ---------------------------------------------------------------- the func form

// Block kinds, terminators and merges as structurizer/func.go names them.
enum class Kind { Original, Clone, Synthetic };
enum class TermKind { Return, Branch, Choose, Test, Route, Unreachable };
enum class MergeKind { None, Selection, Loop };

struct Store {
  int var = 0;
  uint32_t value = 0;               // used when per_choice is empty
  std::vector<uint32_t> per_choice;  // one value per choice of the block's decision
};

struct Term {
  TermKind kind = TermKind::Return;
  std::vector<int> to;
  int var = 0;
  std::vector<uint32_t> values;
  std::vector<int> order;  // switches only; empty: the default order
};

struct Merge {
  MergeKind kind = MergeKind::None;
  int merge = 0;
  int cont = 0;  // "continue"
};

struct Block {
  std::string name;
  Kind kind = Kind::Synthetic;
  int orig = -1;  // the original block id for original and clone blocks
  int weight = 0;
  int arity = 0;  // out-degree of a block that reads a decision, else 0
  std::vector<Store> stores;
  Merge merge;
  Term term;
};

struct Var {
  std::string name;
  uint32_t init = 0;
};

// Func is a structured function: blocks[0] the entry, blocks in layout order.
struct Func {
  std::vector<Block> blocks;
  std::vector<Var> vars;
};

// Stats are what cfgfuzz reads of a structurizer's statistics.
struct Stats {
  int blocks_in = 0, blocks_out = 0, synthetic = 0, clones = 0, route_vars = 0, fallbacks = 0;
  int64_t words_in = 0, words_out = 0;
  std::string strategy;  // the layout's name, for reports
  // passes_used names the passes that reworked the graph, one entry each
  // ("fallback: PASS: REASON" for a fallback): guided generation reads
  // each entry, its numbers as N, as a behaviour feature (fuzz/ADAPTERS.md).
  std::vector<std::string> passes_used;
};

namespace detail {

template <class T>
std::string list(const std::vector<T>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); i++) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

inline std::string to_json(const Block& b) {
  static const char* kinds[] = {"original", "clone", "synthetic"};
  static const char* terms[] = {"return", "branch", "choose", "test", "route", "unreachable"};
  static const char* merges[] = {"none", "selection", "loop"};
  std::string s = "{";
  if (!b.name.empty()) s += "\"name\":" + quote(b.name) + ",";
  s += "\"kind\":\"" + std::string(kinds[static_cast<int>(b.kind)]) + "\",\"orig\":" + std::to_string(b.orig);
  if (b.weight) s += ",\"weight\":" + std::to_string(b.weight);
  if (b.arity) s += ",\"arity\":" + std::to_string(b.arity);
  if (!b.stores.empty()) {
    s += ",\"stores\":[";
    for (size_t i = 0; i < b.stores.size(); i++) {
      const Store& st = b.stores[i];
      s += std::string(i ? "," : "") + "{\"var\":" + std::to_string(st.var);
      if (st.per_choice.empty()) s += ",\"value\":" + std::to_string(st.value);
      else s += ",\"per_choice\":" + list(st.per_choice);
      s += "}";
    }
    s += "]";
  }
  s += ",\"merge\":{\"kind\":\"" + std::string(merges[static_cast<int>(b.merge.kind)]) + "\"";
  if (b.merge.kind != MergeKind::None) s += ",\"merge\":" + std::to_string(b.merge.merge);
  if (b.merge.kind == MergeKind::Loop) s += ",\"continue\":" + std::to_string(b.merge.cont);
  s += "},\"term\":{\"kind\":\"" + std::string(terms[static_cast<int>(b.term.kind)]) + "\"";
  if (!b.term.to.empty()) s += ",\"to\":" + list(b.term.to);
  if (b.term.kind == TermKind::Test || b.term.kind == TermKind::Route)
    s += ",\"var\":" + std::to_string(b.term.var) + ",\"values\":" + list(b.term.values);
  if (!b.term.order.empty()) s += ",\"order\":" + list(b.term.order);
  return s + "}}";
}

}  // namespace detail

// to_json writes f in the func form of fuzz/PROTOCOL.md.
inline std::string to_json(const Func& f) {
  std::string s = "{\"blocks\":[";
  for (size_t i = 0; i < f.blocks.size(); i++) s += (i ? "," : "") + detail::to_json(f.blocks[i]);
  s += "],\"vars\":[";
  for (size_t i = 0; i < f.vars.size(); i++)
    s += std::string(i ? "," : "") + "{\"name\":" + quote(f.vars[i].name) + ",\"init\":" + std::to_string(f.vars[i].init) + "}";
  return s + "]}";
}

// passes_json is the "passes_used" member of the stats, "" when empty.
inline std::string passes_json(const std::vector<std::string>& passes) {
  if (passes.empty()) return "";
  std::string s = ",\"passes_used\":[";
  for (size_t i = 0; i < passes.size(); i++) s += (i ? "," : "") + quote(passes[i]);
  return s + "]";
}

inline std::string to_json(const Stats& st) {
  return "{\"blocks_in\":" + std::to_string(st.blocks_in) + ",\"blocks_out\":" + std::to_string(st.blocks_out) +
         ",\"synthetic\":" + std::to_string(st.synthetic) + ",\"clones\":" + std::to_string(st.clones) +
         ",\"route_vars\":" + std::to_string(st.route_vars) + ",\"fallbacks\":" + std::to_string(st.fallbacks) +
         ",\"words_in\":" + std::to_string(st.words_in) + ",\"words_out\":" + std::to_string(st.words_out) +
         ",\"strategy\":" + quote(st.strategy) + passes_json(st.passes_used) + "}";
}

// ---------------------------------------------------------------- responses

// Response is one answer; build it with ok, refused or error.
struct Response {
  std::string outcome;  // "ok", "refused", "error"
  std::string reason;
  std::string body;  // ok: the "stats" and "func" members, already written

  static Response ok(const Func& f, const Stats& st) {
    return Response{"ok", "", "\"stats\":" + to_json(st) + ",\"func\":" + to_json(f)};
  }
  static Response refused(const std::string& reason) { return Response{"refused", reason, ""}; }
  static Response error(const std::string& reason) { return Response{"error", reason, ""}; }

  std::string line(int64_t id) const {
    std::string s = "{\"id\":" + std::to_string(id) + ",\"outcome\":" + quote(outcome);
    if (!reason.empty()) s += ",\"reason\":" + quote(reason);
    if (!body.empty()) s += "," + body;
    return s + "}";
  }
};

using Handler = std::function<Response(const Request&)>;

// ---------------------------------------------------------------- protocol v2

// Promises are what a v2 server declares for the hello's options
// (fuzz/PROTOCOL.md, "Version 2"); cfgfuzz's checks hold it to exactly
// these. A promise not made is false; 0 is no bound.
struct Promises {
  bool deterministic = false;          // the same request twice, the same answer
  bool idempotent = false;             // structurizing its own output adds no block
  bool renumbering_invariant = false;  // renumbering the blocks gives an isomorphic module
  bool switches = false;               // blocks of 3 or more successors are served
  bool irreducible = false;            // irreducible graphs are served
  int64_t max_blocks = 0;              // the largest graph served, in blocks
  int64_t max_clone_words = 0;         // no copy of a block heavier than this
};

// Hello is a v2 server's answer to the hello: the name reports and the
// state show for the build (kBuildName unless set), and its promises.
struct Hello {
  std::string name = kBuildName;
  Promises promises;

  std::string line(int64_t id) const {
    auto flag = [](bool b) { return b ? "true" : "false"; };
    std::string s = "{\"id\":" + std::to_string(id) + ",\"outcome\":\"ok\",\"hello\":{\"v\":" + std::to_string(kProtocolVersion2);
    if (!name.empty()) s += ",\"name\":" + quote(name);
    s += std::string(",\"promises\":{\"deterministic\":") + flag(promises.deterministic) +
         ",\"idempotent\":" + flag(promises.idempotent) + ",\"renumbering_invariant\":" + flag(promises.renumbering_invariant) +
         ",\"switches\":" + flag(promises.switches) + ",\"irreducible\":" + flag(promises.irreducible);
    if (promises.max_blocks > 0) s += ",\"max_blocks\":" + std::to_string(promises.max_blocks);
    if (promises.max_clone_words > 0) s += ",\"max_clone_words\":" + std::to_string(promises.max_clone_words);
    return s + "}}}";
  }
};

// Declare gives the hello's answer for its options (the request's
// strategy and inject).
using Declare = std::function<Hello(const Request&)>;

// serve_declared answers every request line of in on out, one line each,
// flushed: a v2 hello with declare's answer, every other request (v1, or
// v2 after the hello) with handle's. It returns at the end of in.
inline void serve_declared(const Handler& handle, const Declare& declare, std::istream& in = std::cin,
                           std::ostream& out = std::cout) {
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    int64_t id = 0;
    std::string answer;
    try {
      Request req = parse_request(parse_json(line), &id, static_cast<bool>(declare));
      try {
        answer = req.hello ? declare(req).line(id) : handle(req).line(id);
      } catch (const RequestError& e) {
        answer = Response::error(std::string(kRequestError) + e.what()).line(id);
      } catch (const std::exception& e) {
        answer = Response::error(std::string("exception: ") + e.what()).line(id);
      }
    } catch (const RequestError& e) {
      answer = Response::error(std::string(kRequestError) + e.what()).line(id);
    }
    out << answer << '\n';
    out.flush();
  }
}

// serve is serve_declared for a v1 server: it answers the hello, as any
// request of version 2, with a request error, and declares nothing.
inline void serve(const Handler& handle, std::istream& in = std::cin, std::ostream& out = std::cout) {
  serve_declared(handle, nullptr, in, out);
}

}  // namespace cfgfuzz

#endif  // CFGFUZZ_PROTOCOL_HPP
