// stateformat.go defines how a state directory's findings.json is
// versioned (STATE.md, "Format versions"): its schema names the format,
// cfgfuzz-state/vN, and a format whose meaning changes is a new N, which
// a reader of format N-1 refuses; format_minor counts the revisions of one
// format, each of which only adds optional keys, absent meaning not
// known. A cfgfuzz reads a store of a later revision than its own
// (StateFormatMinor), reading past the keys it does not know and saying
// so (State.Newer): its night's update, written in its own revision,
// leaves them out, which a cfgfuzz that knows them reads as a store
// written without them. A key unknown in a store of this cfgfuzz's
// revision or an earlier one is a misspelling or damage, an error naming
// the file, the entry and the key.

package fuzz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// StateFormatMinor is the revision of the StateSchema format this
// cfgfuzz reads every key of and writes (findings.json's format_minor):
// 1 adds format_minor itself to the keys of a store written before
// revisions were counted (0).
const StateFormatMinor = 1

// stateFormat words a store's format and revision: "cfgfuzz-state/v1,
// format_minor 1".
func stateFormat(schema string, minor int) string {
	return fmt.Sprintf("%s, format_minor %d", schema, minor)
}

// checkStoreSchema accepts findings.json's schema when it is StateSchema,
// of any revision (minor), and names what else it is: a newer state format
// (a newer cfgfuzz wrote it: refused, as this one would misread it) or no
// state store at all.
func checkStoreSchema(schema string, minor int) error {
	const prefix = "cfgfuzz-state/v"
	n, err := strconv.Atoi(strings.TrimPrefix(schema, prefix))
	switch {
	case schema == StateSchema && minor >= 0:
		return nil
	case schema == StateSchema:
		return fmt.Errorf("format_minor %d: not a revision of %s (damaged or edited?): restore the file, for example from the last night's OUT/state, or delete it to start the store afresh", minor, StateSchema)
	case schema == "":
		return fmt.Errorf("no schema: not a %s store", StateSchema)
	case !strings.HasPrefix(schema, prefix) || err != nil || n < 1:
		return fmt.Errorf("schema %q: not a cfgfuzz state store (want %q)", schema, StateSchema)
	}
	return fmt.Errorf("schema %q: a newer state format than this cfgfuzz reads (%q): a newer cfgfuzz wrote it, and this one would misread it; run the night with the cfgfuzz that wrote it or a newer one (cfgfuzz version names this one), or give another --state directory", schema, StateSchema)
}

// unknownStoreKey names a key of findings.json's text, of format revision
// minor (at most StateFormatMinor), that the store has no field for (a
// misspelling, which would otherwise be dropped when the night writes the
// store back), and the entry it is in.
func unknownStoreKey(data []byte, minor int) error {
	strict := func(data []byte, v any) error {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		err := dec.Decode(v)
		if err != nil && strings.HasPrefix(err.Error(), "json: unknown field ") {
			return fmt.Errorf("unknown key %s (misspelt? STATE.md lists the keys): not a key of %s, the revision of the format the store says it was written in (a newer cfgfuzz's store names a later one); correct the key or delete it, or restore the file from the last night's OUT/state",
				strings.TrimPrefix(err.Error(), "json: unknown field "), stateFormat(StateSchema, minor))
		}
		return nil // any other error is the lenient reading's to report
	}
	var raw struct {
		Signatures []json.RawMessage `json:"signatures"`
		LastGood   json.RawMessage   `json:"last_good"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil
	}
	for i, r := range raw.Signatures {
		var e StoredSignature
		if err := strict(r, &e); err != nil {
			var named struct {
				Signature string `json:"signature"`
			}
			json.Unmarshal(r, &named)
			return fmt.Errorf("signatures[%d] (%s): %v", i, TriageSignature(named.Signature), err)
		}
	}
	if len(raw.LastGood) > 0 {
		var g GoodNight
		if err := strict(raw.LastGood, &g); err != nil {
			return fmt.Errorf("last_good: %v", err)
		}
	}
	return strict(data, &storeFile{})
}

// newerNote is State.Newer for the store f read from path: "" unless a
// newer cfgfuzz wrote it, in a later revision of the format.
func newerNote(path string, f storeFile) string {
	if f.FormatMinor <= StateFormatMinor {
		return ""
	}
	keys := "no key this cfgfuzz does not know"
	if len(f.ignored) > 0 {
		keys = "keys this cfgfuzz does not know (" + strings.Join(f.ignored, ", ") + "), which it reads past"
	}
	return fmt.Sprintf("%s was written by a newer cfgfuzz (%s; this cfgfuzz reads and writes %s): it holds %s; a night this cfgfuzz commits leaves them out of the store, and a cfgfuzz that knows them reads it as a store written without them: run the nights with the newer cfgfuzz to keep them",
		path, stateFormat(f.Schema, f.FormatMinor), stateFormat(StateSchema, StateFormatMinor), keys)
}

// newerKeys lists the keys of findings.json's text that the store has no
// field for, as paths ("signatures[].first_bisected", "last_good.x"),
// each once, in the order of the text's sorted keys.
func newerKeys(data []byte) []string {
	var keys []string
	unknownKeys(data, reflect.TypeFor[storeFile](), "", func(k string) {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	})
	return keys
}

// unknownKeys calls add with the path of every key of the JSON value data
// that t (a struct, or a pointer, slice or array of one) has no field for,
// matching names as encoding/json does (without regard to case).
func unknownKeys(data []byte, t reflect.Type, at string, add func(string)) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		var items []json.RawMessage
		if json.Unmarshal(data, &items) != nil {
			return
		}
		for _, item := range items {
			unknownKeys(item, t.Elem(), at+"[]", add)
		}
	case reflect.Struct:
		var obj map[string]json.RawMessage
		if json.Unmarshal(data, &obj) != nil {
			return
		}
		fields := jsonFields(t)
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			path := strings.TrimPrefix(at+"."+k, ".")
			if ft, ok := fields[strings.ToLower(k)]; ok {
				unknownKeys(obj[k], ft, path, add)
			} else {
				add(path)
			}
		}
	}
}

// jsonFields maps the JSON names of struct type t's exported fields,
// lower case, to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	fields := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[strings.ToLower(name)] = f.Type
	}
	return fields
}
