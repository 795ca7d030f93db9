//! A structurizer adapter for cfgfuzz, protocols v1 and v2 (fuzz/PROTOCOL.md), in
//! Rust's standard library only: no crates, rustc 1.63 or later (Debian
//! bookworm's), built with `rustc -O src/main.rs` or `cargo build`.
//!
//! It reads one JSON request a line on standard input, parses the graph's
//! compact notation, lays the graph out as a dispatch loop (every block an
//! arm of one switch on a program counter inside one loop, as
//! structurizer/dispatch.go does) and answers with the structured function
//! in the `func` form, which cfgfuzz emits as SPIR-V itself. Replace
//! `structurize` with a call into your own structurizer and keep the rest.
//!
//!     cfgfuzz run --structurizer ./rust-adapter --graphs 200
//!     cfgfuzz run --structurizer './rust-adapter --bug choice-rotated'   # a planted bug
//!
//! Its protocol v2 hello declares what a dispatch loop promises and the
//! build's name, which the report and a nightly state show: set it at
//! compile time in the environment rustc or cargo runs in,
//! `CFGFUZZ_BUILD_NAME="rust-adapter (git $(git rev-parse HEAD))" cargo build --release`
//! (a build command of `cfgfuzz compare` or `bisect` gives `{rev}`, the
//! commit it builds).
//!
//! `--bug choice-rotated` plants a bug for the tests: a conditional or
//! switch stores the successor of the next choice, so the function takes
//! the wrong arm.
//!
//! The JSON reader below is written by hand because the example must build
//! with rustc alone; an adapter inside a real project would use serde_json.

use std::io::{self, BufRead, Write};

/// The counter value meaning "the function returned".
const EXIT_PC: u64 = 0xFFFF_FFFF;
/// A reason with this prefix is a harness error, not a finding.
const REQUEST_ERROR: &str = "request: ";
/// The largest graph cfgfuzz sends (its parser's limit, 2^20 blocks).
const MAX_BLOCKS: usize = 1 << 20;
/// How deep a request's JSON may nest (a request nests three levels).
const MAX_DEPTH: usize = 64;

// ---- JSON: the values a request holds ----

enum Json {
    Null,
    Bool, // true or false: no request field is a boolean
    Num(String), // as written: ids are 64-bit integers, which f64 cannot hold
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn as_i64(&self) -> Option<i64> {
        match self {
            Json::Num(s) => s.parse().ok(),
            _ => None,
        }
    }
}

struct Reader<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Reader<'a> {
    fn parse(s: &'a [u8]) -> Result<Json, String> {
        let mut r = Reader { s, i: 0 };
        let v = r.value(0)?;
        r.space();
        if r.i != r.s.len() {
            return Err(format!("offset {}: text after the value", r.i));
        }
        Ok(v)
    }

    fn space(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\r' | b'\n') {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.space();
        self.s.get(self.i).copied()
    }

    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(format!("offset {}: want '{}'", self.i, c as char))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return Err(format!("offset {}: nested deeper than {}", self.i, MAX_DEPTH));
        }
        match self.peek() {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b't') => self.literal("true", Json::Bool),
            Some(b'f') => self.literal("false", Json::Bool),
            Some(b'n') => self.literal("null", Json::Null),
            Some(c) if c == b'-' || c.is_ascii_digit() => Ok(self.number()),
            _ => Err(format!("offset {}: want a value", self.i)),
        }
    }

    fn literal(&mut self, word: &str, v: Json) -> Result<Json, String> {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(v)
        } else {
            Err(format!("offset {}: want {}", self.i, word))
        }
    }

    fn number(&mut self) -> Json {
        let start = self.i;
        while self.i < self.s.len() && matches!(self.s[self.i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
            self.i += 1;
        }
        Json::Num(String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
    }

    fn string(&mut self) -> Result<String, String> {
        self.expect(b'"')?;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let c = *self.s.get(self.i).ok_or_else(|| "unterminated string".to_string())?;
            self.i += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let e = *self.s.get(self.i).ok_or_else(|| "unterminated escape".to_string())?;
                    self.i += 1;
                    match e {
                        b'"' | b'\\' | b'/' => out.push(e),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'u' => {
                            let ch = self.unicode_escape()?;
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        }
                        _ => return Err(format!("offset {}: bad escape", self.i - 1)),
                    }
                }
                _ => out.push(c),
            }
        }
        String::from_utf8(out).map_err(|_| "a string that is not UTF-8".to_string())
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self.s.get(self.i..self.i + 4).ok_or_else(|| "short \\u escape".to_string())?;
        let text = std::str::from_utf8(digits).map_err(|_| "bad \\u escape".to_string())?;
        let v = u32::from_str_radix(text, 16).map_err(|_| format!("offset {}: bad \\u escape", self.i))?;
        self.i += 4;
        Ok(v)
    }

    fn unicode_escape(&mut self) -> Result<char, String> {
        let hi = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&hi) && self.s[self.i..].starts_with(b"\\u") {
            self.i += 2;
            let lo = self.hex4()?;
            0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF)
        } else {
            hi
        };
        Ok(char::from_u32(code).unwrap_or('\u{FFFD}'))
    }

    fn array(&mut self, depth: usize) -> Result<Json, String> {
        self.expect(b'[')?;
        let mut items = Vec::new();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(Json::Arr(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            if self.peek() == Some(b',') {
                self.i += 1;
                continue;
            }
            self.expect(b']')?;
            return Ok(Json::Arr(items));
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, String> {
        self.expect(b'{')?;
        let mut fields = Vec::new();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(Json::Obj(fields));
        }
        loop {
            self.space();
            let key = self.string()?;
            self.expect(b':')?;
            fields.push((key, self.value(depth + 1)?));
            if self.peek() == Some(b',') {
                self.i += 1;
                continue;
            }
            self.expect(b'}')?;
            return Ok(Json::Obj(fields));
        }
    }
}

/// quote writes s as a JSON string.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

// ---- the graph ----

/// parse_compact reads compact notation ("{{1, 2}, {2}, {}}"): list i
/// holds block i's successors, and a successor past the last list adds
/// returning blocks up to it. It returns the successor lists.
fn parse_compact(text: &str) -> Result<Vec<Vec<usize>>, String> {
    let s = text.as_bytes();
    let mut i = 0;
    let skip = |i: &mut usize| {
        while *i < s.len() {
            if s[*i] == b'#' {
                while *i < s.len() && s[*i] != b'\n' {
                    *i += 1;
                }
            } else if s[*i].is_ascii_whitespace() {
                *i += 1;
            } else {
                break;
            }
        }
    };
    let expect = |i: &mut usize, c: u8| -> Result<(), String> {
        skip(i);
        if *i < s.len() && s[*i] == c {
            *i += 1;
            Ok(())
        } else {
            Err(format!("graph: offset {}: want '{}'", *i, c as char))
        }
    };
    let peek = |i: &mut usize| -> Option<u8> {
        skip(i);
        s.get(*i).copied()
    };
    let mut succs: Vec<Vec<usize>> = Vec::new();
    expect(&mut i, b'{')?;
    if peek(&mut i) == Some(b'}') {
        i += 1;
    } else {
        loop {
            expect(&mut i, b'{')?;
            let mut list = Vec::new();
            if peek(&mut i) == Some(b'}') {
                i += 1;
            } else {
                loop {
                    skip(&mut i);
                    let start = i;
                    while i < s.len() && s[i].is_ascii_digit() {
                        i += 1;
                    }
                    if start == i {
                        return Err(format!("graph: offset {}: want a block number", start));
                    }
                    let v: usize = text[start..i].parse().unwrap_or(usize::MAX);
                    if v >= MAX_BLOCKS {
                        return Err(format!("graph: offset {}: block {} past the limit", start, &text[start..i]));
                    }
                    list.push(v);
                    if peek(&mut i) == Some(b',') {
                        i += 1;
                        continue;
                    }
                    expect(&mut i, b'}')?;
                    break;
                }
            }
            succs.push(list);
            if peek(&mut i) == Some(b',') {
                i += 1;
                continue;
            }
            expect(&mut i, b'}')?;
            break;
        }
    }
    if peek(&mut i).is_some() {
        return Err(format!("graph: offset {}: text after the graph", i));
    }
    if succs.is_empty() {
        return Err("graph: no blocks".to_string());
    }
    let n = succs.iter().flatten().map(|&t| t + 1).fold(succs.len(), usize::max);
    succs.resize(n, Vec::new());
    Ok(succs)
}

// ---- the toy structurizer ----

/// One block of the `func` form, written as JSON.
fn block(kind: &str, orig: i64, name: &str, merge: &str, term: &str, extra: &str) -> String {
    let name = if name.is_empty() { String::new() } else { format!("\"name\":{},", quote(name)) };
    format!("{{{}\"kind\":\"{}\",\"orig\":{},\"merge\":{},\"term\":{}{}}}", name, kind, orig, merge, term, extra)
}

fn join_numbers<T: ToString>(xs: impl IntoIterator<Item = T>) -> String {
    xs.into_iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")
}

/// structurize lays the graph out as the dispatch loop and returns the
/// function and the stats, as JSON:
///
///     entry:    br header
///     header:   loop merge(exit) continue(latch); br dispatch
///     dispatch: selection merge(join); route pc: b -> arm b, default -> join
///     arm b:    (original block b) pc = next block; br join
///     join:     br latch
///     latch:    pc == EXIT_PC ? exit : header
///     exit:     return
fn structurize(succs: &[Vec<usize>], weights: &[u64], rotate_choices: bool) -> (String, String) {
    const NONE: &str = "{\"kind\":\"none\"}";
    let n = succs.len();
    let (header, dispatch, first_arm) = (1, 2, 3);
    let join = first_arm + n;
    let (latch, exit) = (join + 1, join + 2);
    let mut blocks = vec![
        block("synthetic", -1, "entry", NONE, &format!("{{\"kind\":\"branch\",\"to\":[{}]}}", header), ""),
        block(
            "synthetic",
            -1,
            "header",
            &format!("{{\"kind\":\"loop\",\"merge\":{},\"continue\":{}}}", exit, latch),
            &format!("{{\"kind\":\"branch\",\"to\":[{}]}}", dispatch),
            "",
        ),
        block(
            "synthetic",
            -1,
            "dispatch",
            &format!("{{\"kind\":\"selection\",\"merge\":{}}}", join),
            &format!(
                "{{\"kind\":\"route\",\"var\":0,\"values\":[{}],\"to\":[{}]}}",
                join_numbers(0..n),
                join_numbers(std::iter::once(join).chain(first_arm..first_arm + n))
            ),
            "",
        ),
    ];
    for (b, s) in succs.iter().enumerate() {
        let store = match s.len() {
            0 => format!(",\"stores\":[{{\"var\":0,\"value\":{}}}]", EXIT_PC),
            1 => format!(",\"stores\":[{{\"var\":0,\"value\":{}}}]", s[0]),
            k => {
                // A conditional or switch stores its successor by choice:
                // the arm reads the decision and adds no blocks.
                let mut choices = s.clone();
                if rotate_choices {
                    choices.rotate_left(1);
                }
                format!(",\"arity\":{},\"stores\":[{{\"var\":0,\"per_choice\":[{}]}}]", k, join_numbers(choices))
            }
        };
        let extra = format!(",\"weight\":{}{}", weights[b], store);
        blocks.push(block("original", b as i64, "", NONE, &format!("{{\"kind\":\"branch\",\"to\":[{}]}}", join), &extra));
    }
    blocks.push(block("synthetic", -1, "join", NONE, &format!("{{\"kind\":\"branch\",\"to\":[{}]}}", latch), ""));
    blocks.push(block(
        "synthetic",
        -1,
        "latch",
        NONE,
        &format!("{{\"kind\":\"test\",\"var\":0,\"values\":[{}],\"to\":[{},{}]}}", EXIT_PC, exit, header),
        "",
    ));
    blocks.push(block("synthetic", -1, "exit", NONE, "{\"kind\":\"return\"}", ""));
    let words: u64 = weights.iter().sum();
    // strategy names the layout in reports.
    let stats = format!(
        "{{\"blocks_in\":{},\"blocks_out\":{},\"synthetic\":6,\"clones\":0,\"route_vars\":1,\"fallbacks\":0,\"words_in\":{},\"words_out\":{},\"strategy\":\"dispatch\"}}",
        n,
        blocks.len(),
        words,
        words
    );
    let func = format!("{{\"blocks\":[{}],\"vars\":[{{\"name\":\"pc\",\"init\":0}}]}}", blocks.join(","));
    (func, stats)
}

// ---- the protocol ----

/// BUILD_NAME is the name the hello declares: CFGFUZZ_BUILD_NAME as the
/// environment of the compiler set it, else none (the toy's own name).
const BUILD_NAME: Option<&str> = option_env!("CFGFUZZ_BUILD_NAME");

/// hello is the answer to a protocol v2 hello: the build's name and what a
/// dispatch loop promises whatever the options (the same answer every time
/// and for every numbering of the blocks, every graph served; not
/// idempotence: its own CFG structurized again is a larger loop).
fn hello(id: i64) -> String {
    let name = BUILD_NAME.unwrap_or("rust-adapter (build unnamed)");
    format!(
        "{{\"id\":{},\"outcome\":\"ok\",\"hello\":{{\"v\":2,\"name\":{},\"promises\":{{\"deterministic\":true,\"idempotent\":false,\"renumbering_invariant\":true,\"switches\":true,\"irreducible\":true}}}}}}",
        id,
        quote(name)
    )
}

fn request_error(id: i64, why: &str) -> String {
    format!("{{\"id\":{},\"outcome\":\"error\",\"reason\":{}}}", id, quote(&format!("{}{}", REQUEST_ERROR, why)))
}

/// weights_of reads the request's weights: absent means all 0.
fn weights_of(req: &Json, n: usize) -> Result<Vec<u64>, String> {
    let bad = || format!("weights: want {} non-negative integers", n);
    match req.get("weights") {
        None | Some(Json::Null) => Ok(vec![0; n]),
        Some(Json::Arr(ws)) if ws.len() == n => ws
            .iter()
            .map(|w| match w {
                Json::Num(s) => s.parse::<u64>().map_err(|_| bad()),
                _ => Err(bad()),
            })
            .collect(),
        _ => Err(bad()),
    }
}

/// answer is the response line to one request line.
fn answer(line: &[u8], rotate_choices: bool) -> String {
    let req = match Reader::parse(line) {
        Ok(req) => req,
        Err(e) => return request_error(0, &format!("bad request: {}", e)),
    };
    if !matches!(req, Json::Obj(_)) {
        return request_error(0, "bad request: not an object");
    }
    let id = req.get("id").and_then(Json::as_i64).unwrap_or(0);
    match req.get("v").and_then(Json::as_i64) {
        Some(2) if matches!(req.get("hello"), Some(Json::Obj(_))) => return hello(id),
        Some(1) | Some(2) => {} // a graph: v2 after the hello is v1 otherwise
        _ => return request_error(id, "protocol version not supported (want 1 or 2)"),
    }
    let graph = match req.get("graph") {
        Some(Json::Str(g)) => g,
        _ => return request_error(id, "graph: not a string"),
    };
    let succs = match parse_compact(graph) {
        Ok(s) => s,
        Err(e) => return request_error(id, &e),
    };
    let weights = match weights_of(&req, succs.len()) {
        Ok(w) => w,
        Err(e) => return request_error(id, &e),
    };
    let (func, stats) = structurize(&succs, &weights, rotate_choices);
    format!("{{\"id\":{},\"outcome\":\"ok\",\"stats\":{},\"func\":{}}}", id, stats, func)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rotate_choices = match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        [] => false,
        ["--bug", "choice-rotated"] => true,
        _ => {
            eprintln!("usage: rust-adapter [--bug choice-rotated]\n\ncfgfuzz protocol v1 and v2 adapter around a toy dispatch-loop structurizer");
            std::process::exit(2);
        }
    };
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e) => {
                eprintln!("rust-adapter: reading requests: {}", e);
                std::process::exit(2);
            }
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let resp = answer(&line, rotate_choices);
        if writeln!(out, "{}", resp).and_then(|_| out.flush()).is_err() {
            return; // cfgfuzz closed the pipe: nothing left to answer
        }
    }
}
