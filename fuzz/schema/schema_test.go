// schema_test.go: every schema file compiles as a draft 2020-12 schema
// (the compiler checks it against the metaschema) and is named by its id.
package schema

import (
	"io/fs"
	"testing"
)

func TestSchemasCompile(t *testing.T) {
	ids := []string{"cfgfuzz-report/v1", "cfgfuzz-record/v1", "cfgfuzz-check/v1", "cfgfuzz-lint/v1"}
	names, _ := fs.Glob(files, "*.json")
	if len(names) != len(ids) {
		t.Errorf("schema files %v, want one per id %v", names, ids)
	}
	for _, id := range ids {
		if _, err := Compile(id); err != nil {
			t.Errorf("%s (%s): %v", id, File(id), err)
		}
	}
	if err := Validate([]byte(`{"schema":"cfgfuzz-check/v1","source":"x","graph":"{}","outcome":"ok","checks":[],"strategy":"s","structurizer":"self","extra":1}`)); err == nil {
		t.Error("a check line with an unknown field validates")
	}
	if err := Validate([]byte(`{"schema":"cfgfuzz-nothing/v1"}`)); err == nil {
		t.Error("a document naming an unknown schema validates")
	}
}
