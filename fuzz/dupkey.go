// dupkey.go finds a key that an object of an answer line writes twice
// (PROTOCOL.md, "Response"): encoding/json keeps the last of two such keys
// without a word, so `{"outcome":"ok",...,"outcome":"refused"}` would read
// as a refusal though its writer may have meant either. Keys that differ
// only in case count as one, as encoding/json matches a key to a field
// whatever its case. The scan is one pass over the line, which
// json.Unmarshal has found valid: a long string (a module) is skipped with
// IndexByte, and each object's keys are compared with the keys before them
// in that object alone, so that a func of many small blocks costs a few
// comparisons a block; an object of more than manyKeys keys looks them up
// by their folded names instead, so that a large free-form object (stats)
// costs time linear in its size.

package fuzz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

// A keyFrame is an object or an array open at a point of the scan.
type keyFrame struct {
	object bool
	first  int    // how many keys the scan held when it opened: an object's own follow
	name   []byte // the key whose value it is (raw); nil in an array or at the top
	index  int    // in an array, the element being scanned
	// folded maps the folded names of an object's keys to their places
	// among its own keys, once it has manyKeys of them (find).
	folded map[string]int
}

// manyKeys is the most keys of one object compared one by one.
const manyKeys = 16

// find looks for a key that names key's field among own, the keys the
// object read before it: one by one while they are fewer than manyKeys,
// else by folded name, key's then kept for the keys after it.
func (f *keyFrame) find(own []rawKey, key rawKey) (rawKey, bool) {
	if len(own) < manyKeys {
		for _, k := range own {
			if sameKey(k, key) {
				return k, true
			}
		}
		return rawKey{}, false
	}
	if f.folded == nil {
		f.folded = make(map[string]int, 2*len(own))
		for i, k := range own {
			f.folded[foldName(unquoteKey(k.raw))] = i
		}
	}
	name := foldName(unquoteKey(key.raw))
	if i, ok := f.folded[name]; ok {
		return own[i], true
	}
	f.folded[name] = len(own)
	return rawKey{}, false
}

// foldName is s with each character replaced by the least of the
// characters it equals but for case (unicode.SimpleFold's orbit): two
// names are equal under strings.EqualFold exactly when their foldNames
// are equal.
func foldName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}

// duplicateKey finds the first key written twice in one object of line,
// valid JSON: the key as written the first and the second time, and where
// the object is ("" the top level, else a path such as
// func.blocks[3].merge). found is false when no object repeats a key.
func duplicateKey(line []byte) (first, second, where string, found bool) {
	var frameBuf [16]keyFrame
	var keyBuf [32]rawKey
	frames, keys := frameBuf[:0], keyBuf[:0]
	expectKey := false
	var name []byte // the last key read: the name of the value after it
	for i := 0; i < len(line); {
		switch line[i] {
		case '"':
			end, escaped := stringEnd(line, i, expectKey)
			if expectKey {
				key := rawKey{line[i+1 : max(i+1, end-1)], escaped}
				top := &frames[len(frames)-1]
				if k, dup := top.find(keys[top.first:], key); dup {
					return unquoteKey(k.raw), unquoteKey(key.raw), keyPath(frames), true
				}
				keys = append(keys, key)
				name, expectKey = key.raw, false
			}
			i = end
			continue
		case '{':
			frames = append(frames, keyFrame{object: true, first: len(keys), name: valueName(frames, name)})
			expectKey = true
		case '[':
			frames = append(frames, keyFrame{first: len(keys), name: valueName(frames, name)})
		case '}', ']':
			if len(frames) > 0 {
				top := frames[len(frames)-1]
				frames = frames[:len(frames)-1]
				keys = keys[:min(top.first, len(keys))]
			}
			expectKey = false
		case ',':
			if len(frames) == 0 {
				break
			}
			top := &frames[len(frames)-1]
			if top.object {
				expectKey = true
			} else {
				top.index++
			}
		}
		i++
	}
	return "", "", "", false
}

// A rawKey is a key as the line writes it, without its quotes, and
// whether it holds an escape.
type rawKey struct {
	raw     []byte
	escaped bool
}

// valueName is the name of a value opening at the scan's point: the last
// key read when the value is an object's, nil in an array or at the top.
func valueName(frames []keyFrame, last []byte) []byte {
	if len(frames) == 0 || !frames[len(frames)-1].object {
		return nil
	}
	return last
}

// stringEnd is the index just past the string that opens at line[i], a
// quote: the next quote that no backslash escapes. escaped says whether
// the string holds a backslash, when keyed (a key's); a string of a value
// is not searched for one. Short strings are read byte by byte; the rest
// of a long one (a module) is searched for its quotes with IndexByte.
func stringEnd(line []byte, i int, keyed bool) (end int, escaped bool) {
	j := i + 1
	for ; j < len(line) && j-i <= 32; j++ {
		switch line[j] {
		case '"':
			return j + 1, escaped
		case '\\':
			escaped = true
			j++
		}
	}
	j = min(j, len(line))
	from := j
	for j < len(line) {
		k := bytes.IndexByte(line[j:], '"')
		if k < 0 {
			j = len(line)
			break
		}
		j += k
		backslashes := 0
		for b := j - 1; b > i && line[b] == '\\'; b-- {
			backslashes++
		}
		j++
		if backslashes%2 == 0 {
			break
		}
	}
	if keyed && !escaped && from < j {
		escaped = bytes.IndexByte(line[from:j], '\\') >= 0
	}
	return j, escaped
}

// sameKey says whether two keys name one field to encoding/json: equal
// once unescaped, but for case. Keys whose first bytes, ASCII, differ but
// for case are told apart at once.
func sameKey(a, b rawKey) bool {
	if a.escaped || b.escaped {
		return strings.EqualFold(unquoteKey(a.raw), unquoteKey(b.raw))
	}
	if len(a.raw) > 0 && len(b.raw) > 0 && a.raw[0]|b.raw[0] < 0x80 && a.raw[0]|0x20 != b.raw[0]|0x20 {
		return false
	}
	return bytes.EqualFold(a.raw, b.raw)
}

// unquoteKey is a raw key (a JSON string without its quotes) unescaped.
func unquoteKey(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw)
	}
	var s string
	if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s) != nil {
		return string(raw)
	}
	return s
}

// keyPath is where the innermost object of frames is in the answer, in
// the protocol's names: "" the top level, else fields joined by dots and
// array elements by index (func.blocks[3].merge).
func keyPath(frames []keyFrame) string {
	var b strings.Builder
	for i, f := range frames {
		switch {
		case i == 0:
		case frames[i-1].object:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(unquoteKey(f.name))
		default:
			fmt.Fprintf(&b, "[%d]", frames[i-1].index)
		}
	}
	return b.String()
}
