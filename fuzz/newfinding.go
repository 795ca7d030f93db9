// newfinding.go: which of a report's findings are new, as its exit status
// counts them: against the state, the signatures classed new (classify.go:
// a signature the baseline shares is known); without a state, the
// findings with a graph the baseline did not fail (passed or declined:
// Finding.New; with no baseline, every failing graph).

package fuzz

// IsNew reports whether finding f of the report is new.
func (rep *Report) IsNew(f *Finding) bool {
	if rep.State == nil {
		return f.New > 0
	}
	for _, s := range rep.State.Signatures {
		if s.Signature == f.Signature && s.Strategy == f.Strategy {
			return s.Class == ClassNew
		}
	}
	return false
}
