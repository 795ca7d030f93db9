// features.go defines a structurization's behaviour features: what any
// structurizer's answer shows, without instrumenting it. They are read from
// the answer's declared stats (route variables, clones, synthetic blocks,
// fallbacks, the passes used, the strategy) and from the module's own
// structure (decoded as for the report's picture, modulecfg.go): the
// nesting depth of constructs, the count of each construct kind, the kinds
// at each depth, the parent-child pairs of the construct tree and the
// tree's shape to depth 3. Counts are bucketed as AFL buckets its edge hit
// counts (Zalewski, "american fuzzy lop", technical details: 0, 1, 2, 3,
// 4-7, 8-15, ...), so a feature is new when a count reaches a new order of
// magnitude, not at every value. A failure adds its outcome and signature.
// Guided generation (guide.go) keeps the graphs that show a feature no
// earlier graph showed.

package fuzz

import (
	"fmt"
	"math/bits"
	"regexp"
	"slices"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/draw"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

// bucket is a count's AFL-style bucket: 0, 1, 2, 3, then 4 for 4-7, 8 for
// 8-15, and so on (the lower bound of its power-of-two range).
func bucket(n int) int {
	if n < 4 {
		return max(n, 0)
	}
	return 1 << (bits.Len(uint(n)) - 1)
}

// answerFeatures is the feature set of one answer: its stats, the
// construct tree of its module (nil when it gave none), and its outcome
// and signature when it failed. Sorted, without duplicates.
func answerFeatures(st *structurizer.Stats, mod []byte, outcome, sig string) []string {
	var fs []string
	add := func(f string, args ...any) { fs = append(fs, fmt.Sprintf(f, args...)) }
	if st != nil {
		add("route-vars:%d", bucket(st.RouteVars))
		add("clones:%d", bucket(st.Clones))
		add("synthetic:%d", bucket(st.Synthetic))
		add("fallbacks:%d", bucket(st.Fallbacks))
		add("growth:%d", bucket(st.BlocksOut-st.BlocksIn))
		fs = append(fs, passFeatures(st.PassesUsed)...)
		if st.Strategy != "" {
			add("strategy:%s", st.Strategy)
		}
	}
	if mod != nil {
		if f, err := draw.ModuleFunc(mod); err == nil {
			fs = append(fs, treeFeatures(f)...)
		} else {
			add("module:undecodable")
		}
	}
	if outcome != OutOK && outcome != "" {
		add("outcome:%s", outcome)
	}
	if sig != "" {
		add("signature:%s", sig)
	}
	slices.Sort(fs)
	return slices.Compact(fs)
}

// passFeatureMax bounds a pass feature's text, in bytes.
const passFeatureMax = 80

// passFeaturesMax bounds the distinct pass features of one answer: a
// structurizer that lists thousands of distinct passes (a name per block
// it touched) would otherwise put thousands of features in every record
// and every corpus entry. Past it, one feature "pass:+more" stands for
// the rest.
const passFeaturesMax = 32

// passFeatures is an answer's passes_used as features, distinct, at most
// passFeaturesMax of them in the order listed, then "pass:+more".
func passFeatures(passes []string) []string {
	var fs []string
	seen := map[string]bool{}
	for _, p := range passes {
		f := "pass:" + passFeature(p)
		if seen[f] {
			continue
		}
		if len(fs) == passFeaturesMax {
			return append(fs, "pass:+more")
		}
		seen[f] = true
		fs = append(fs, f)
	}
	return fs
}

// reFeatureNumber is a number starting a word (a unit may follow it: 12ms,
// 0.75s); a digit inside a word (R6) is not one.
var reFeatureNumber = regexp.MustCompile(`\b(0x[0-9a-fA-F]+|\d+(\.\d+)?)`)

// passFeature is a passes_used entry as a feature: its first line, numbers
// as N, blanks collapsed, cut at passFeatureMax bytes. A block id or a
// timing a structurizer writes there is no new behaviour, as a signature
// holds no number (oracle.FallbackSignature).
func passFeature(p string) string {
	p, _, _ = strings.Cut(p, "\n")
	p = strings.Join(strings.Fields(reFeatureNumber.ReplaceAllString(p, "N")), " ")
	if len(p) > passFeatureMax {
		p = strings.ToValidUTF8(p[:passFeatureMax], "")
	}
	return p
}

// construct is one node of a module's construct tree.
type construct struct {
	kind     byte // 'L' loop, 'S' selection, 'W' switch; 0 the function
	merge    int  // the merge block's index in layout order
	children []*construct
}

// constructTree nests f's constructs by layout order: a header opens a
// construct that its merge block closes (blocks between them are inside).
// That is the order emit lays out and the structured rules require of
// dominance; a module that breaks it still gets a tree, only a shallower one.
func constructTree(f *structurizer.Func) *construct {
	root := &construct{merge: -1}
	stack := []*construct{root}
	for i, b := range f.Blocks {
		for len(stack) > 1 && stack[len(stack)-1].merge == i {
			stack = stack[:len(stack)-1]
		}
		if b.Merge.Kind == structurizer.NoMerge {
			continue
		}
		c := &construct{kind: 'S', merge: b.Merge.Merge}
		switch {
		case b.Merge.Kind == structurizer.LoopMerge:
			c.kind = 'L'
		case b.Term.Kind == structurizer.Route:
			c.kind = 'W'
		}
		top := stack[len(stack)-1]
		top.children = append(top.children, c)
		if c.merge > i { // a merge at or before its header closes nothing
			stack = append(stack, c)
		}
	}
	return root
}

// treeFeatures are the construct tree's features.
func treeFeatures(f *structurizer.Func) []string {
	root := constructTree(f)
	var fs []string
	count := map[byte]int{}
	depth := 0
	var walk func(c *construct, d int, parent byte)
	walk = func(c *construct, d int, parent byte) {
		if c.kind != 0 {
			count[c.kind]++
			depth = max(depth, d)
			fs = append(fs, fmt.Sprintf("at-depth:%c%d", c.kind, min(d, 8)), fmt.Sprintf("nests:%c>%c", max(parent, 'F'), c.kind))
		}
		for _, ch := range c.children {
			walk(ch, d+1, c.kind)
		}
	}
	walk(root, 0, 0)
	fs = append(fs, fmt.Sprintf("depth:%d", bucket(depth)))
	for _, k := range []byte{'L', 'S', 'W'} {
		fs = append(fs, fmt.Sprintf("count:%c%d", k, bucket(count[k])))
	}
	fs = append(fs, "shape:"+shape(root, 3))
	return fs
}

// shape writes the tree to depth d: a construct's kind, then its
// children's shapes in parentheses, runs of equal shapes written once
// with their bucketed count ("L(S*2)").
func shape(c *construct, d int) string {
	var b strings.Builder
	if c.kind != 0 {
		b.WriteByte(c.kind)
	} else {
		b.WriteByte('F')
	}
	if d == 0 || len(c.children) == 0 {
		return b.String()
	}
	b.WriteByte('(')
	for i := 0; i < len(c.children); {
		s := shape(c.children[i], d-1)
		j := i + 1
		for j < len(c.children) && shape(c.children[j], d-1) == s {
			j++
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
		if j-i > 1 {
			fmt.Fprintf(&b, "*%d", bucket(j-i))
		}
		i = j
	}
	b.WriteByte(')')
	return b.String()
}
