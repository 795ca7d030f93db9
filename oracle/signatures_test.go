// signatures_test.go: SIGNATURES.md and the Go table agree row for row, and
// every signature constant of the package is in the table.
package oracle

import (
	"os"
	"regexp"
	"slices"
	"testing"
)

func TestSignatureDocMatchesTable(t *testing.T) {
	doc, err := os.ReadFile("SIGNATURES.md")
	if err != nil {
		t.Fatal(err)
	}
	var inDoc []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([^`]+)` \\|").FindAllSubmatch(doc, -1) {
		inDoc = append(inDoc, string(m[1]))
	}
	var inTable []string
	for _, d := range Signatures {
		inTable = append(inTable, d.Pattern)
	}
	if !slices.Equal(inDoc, inTable) {
		t.Errorf("SIGNATURES.md rows %q\ndiffer from oracle.Signatures %q", inDoc, inTable)
	}
}

func TestSignatureConstantsAreListed(t *testing.T) {
	for check, reasons := range map[string][]string{
		"exec:":   {SigTrace, SigDecisions, SigNoReturn, SigEarlyReturn, SigStalled, SigTrap, SigLoad},
		"pdom:":   {SigIDomRef, SigIPDomRef, SigIDomLib, SigIPDomLib},
		"growth:": {SigGrowthBlocks, SigGrowthWords, SigGrowthTime, SigGrowthClones, SigCloneWeight},
		"filler:": {SigFillerShort},
		"meta:":   {SigNondeterministic, SigRenumbering, SigNotIdempotent, SigInputMutated, SigRerunFailed, SigOutputCFG},
		"rules:":  {SigRulesMalformed, "R1", "R16", "R17"},
	} {
		for _, r := range reasons {
			if !KnownSignature(check + r) {
				t.Errorf("%s%s is not in the signature table", check, r)
			}
		}
	}
	for _, s := range []string{"spirv-val:Selection must be structured", "disagree:rules-only:R12", "disagree:val-only:Back-edges (N -> N) can only be formed"} {
		if !KnownSignature(s) {
			t.Errorf("%s should match a pattern", s)
		}
	}
	for _, s := range []string{"rules:R18", "rules:", "disagree:rules-only:R99", "spirv-val:", "nonsense"} {
		if KnownSignature(s) {
			t.Errorf("%s should not match", s)
		}
	}
}
