// Package schema holds the JSON Schemas (draft 2020-12) of cfgfuzz's
// machine-readable outputs, each named by the schema id the output
// carries in its "schema" field:
//
//	cfgfuzz-report/v1  report.json (fuzz.Report)             report-v1.json
//	cfgfuzz-record/v1  a line of results.jsonl (fuzz.Record)  record-v1.json
//	cfgfuzz-check/v1   a line of `cfgfuzz check --json`       check-v1.json
//	cfgfuzz-lint/v1    a line of `cfgfuzz lint --json`        lint-v1.json
//
// Validate checks a document against the schema its "schema" field names,
// with github.com/santhosh-tekuri/jsonschema/v6.
package schema

import (
	"bytes"
	"embed"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed *.json
var files embed.FS

// File is the schema file of a schema id ("cfgfuzz-report/v1" is
// report-v1.json).
func File(id string) string {
	name, version, _ := strings.Cut(strings.TrimPrefix(id, "cfgfuzz-"), "/")
	return name + "-" + version + ".json"
}

// Compile compiles the schema of id.
func Compile(id string) (*jsonschema.Schema, error) {
	data, err := files.ReadFile(File(id))
	if err != nil {
		return nil, fmt.Errorf("no schema for %q: %w", id, err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", File(id), err)
	}
	c := jsonschema.NewCompiler()
	url := "urn:cfgfuzz:schema:" + id
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("%s: %w", File(id), err)
	}
	return c.Compile(url)
}

// Validate checks one JSON document against the schema its "schema" field
// names; a document without one is refused.
func Validate(data []byte) error {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return fmt.Errorf("not a JSON object")
	}
	id, ok := obj["schema"].(string)
	if !ok {
		return fmt.Errorf(`no "schema" field naming the document's schema`)
	}
	sch, err := Compile(id)
	if err != nil {
		return err
	}
	return sch.Validate(doc)
}
