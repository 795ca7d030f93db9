// jsonerr.go: encoding/json's complaints about a file cfgfuzz reads, said
// with where they are (line and column) and in the file's own field names
// rather than the Go types it is read into.

package fuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// jsonError is err, a complaint of json.Unmarshal about data, with the
// line and column it points at (the column alone in data of one line); a type error names the field by its path
// in the file ("signatures.graphs.seed") and what was found there.
// Other errors are returned as they are.
func jsonError(data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se) && len(bytes.TrimSpace(data)) == 0:
		return fmt.Errorf("empty (%d bytes): no JSON value", len(data))
	case errors.As(err, &se):
		return fmt.Errorf("%s: %s", jsonPos(data, se.Offset-1), se.Error())
	case errors.As(err, &te):
		want := jsonKind(te.Type.Kind().String())
		what := fmt.Sprintf("a JSON %s, not %s", te.Value, want)
		if want == "a number" && strings.HasPrefix(te.Value, "number") {
			what = fmt.Sprintf("the %s, out of range", te.Value)
		}
		if p := fieldPath(te.Field); p != "" {
			what = fmt.Sprintf("field %s: %s", p, what)
		}
		return fmt.Errorf("%s: %s", jsonPos(data, te.Offset-1), what)
	}
	return err
}

// jsonKind names what a Go kind is in JSON.
func jsonKind(kind string) string {
	switch {
	case strings.HasPrefix(kind, "int"), strings.HasPrefix(kind, "uint"), strings.HasPrefix(kind, "float"):
		return "a number"
	case kind == "string":
		return "a string"
	case kind == "bool":
		return "a bool"
	case kind == "slice", kind == "array":
		return "an array"
	case kind == "struct", kind == "map", kind == "ptr":
		return "an object"
	}
	return "a " + kind
}

// jsonPos is where offset off of data is: "line L, column C", or "column C"
// in data of one line.
func jsonPos(data []byte, off int64) string {
	line, col := lineCol(data, off)
	if !strings.ContainsRune(string(data), '\n') {
		return fmt.Sprintf("column %d", col)
	}
	return fmt.Sprintf("line %d, column %d", line, col)
}

// lineCol is the 1-based line and column (in characters) of byte offset
// off of data, clamped to the data.
func lineCol(data []byte, off int64) (line, col int) {
	off = max(0, min(off, int64(len(data))))
	before := data[:off]
	line = 1 + strings.Count(string(before), "\n")
	start := strings.LastIndexByte(string(before), '\n') + 1
	return line, 1 + utf8.RuneCount(before[start:])
}
