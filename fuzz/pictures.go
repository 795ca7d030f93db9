// pictures.go names the pictures of a report (package draw renders them):
// per finding its graph as found ("before": Finding.Subject, the first new
// graph when the baseline fails the first too), the structurizer's
// function of it ("after") and the minimized graph; per divergence the graph and both
// sides' functions. report.html draws them inline and links a Graphviz
// file for each, which WriteReports writes under DIR/pictures/NAME.dot.

package fuzz

import (
	"fmt"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/draw"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// PicturesDir is the directory of a report's Graphviz files, beside
// report.html.
const PicturesDir = "pictures"

// reportPicture is one picture of report.html.
type reportPicture struct {
	Name    string // file name without extension, unique in the report
	Caption string
	Pic     *draw.Picture // nil: Missing says why there is none
	Missing string
}

// findingAnchor is the id of a finding's block in report.html.
func findingAnchor(f *Finding) string {
	return "finding-" + corpus.Hash(f.Signature + "|" + f.Strategy)[:10]
}

// divergenceAnchor is the id of a divergence example's block.
func divergenceAnchor(e *Example) string {
	return fmt.Sprintf("divergence-%d", e.Index)
}

// findingPictures are a finding's pictures, before and after
// structurization and minimized: of its Subject, the graph its replay
// and minimized graph are of.
func findingPictures(f *Finding) []reportPicture {
	a := findingAnchor(f)
	s := f.Subject()
	var out []reportPicture
	if g, err := graphOf(s); err == nil {
		out = append(out, reportPicture{Name: a + "-before", Caption: "before: " + f.SubjectName() + " as found", Pic: draw.FromGraph(g)})
	}
	after := reportPicture{Name: a + "-after", Caption: "after: " + s.Current}
	switch {
	case f.Func != nil:
		after.Pic = draw.FromFunc(f.Func)
	case f.FuncCut > 0:
		after.Missing = fmt.Sprintf("the structured function is not kept: %d bytes of JSON, over the %d KiB a finding keeps", f.FuncCut, MaxKeptFunc>>10)
	default:
		after.Missing = "no structured function (" + s.Current + ")"
	}
	out = append(out, after)
	if f.Minimized != "" {
		if g, err := cfg.ParseCompact(f.Minimized, cfg.Limits{}); err == nil {
			out = append(out, reportPicture{Name: a + "-min", Caption: "minimized: " + f.Minimized, Pic: draw.FromGraph(g)})
		}
	}
	return out
}

// divergencePictures are a divergence's graph and both sides' functions,
// drawn from the modules the record kept.
func divergencePictures(e *Example) []reportPicture {
	a := divergenceAnchor(e)
	var out []reportPicture
	if g, err := graphOf(e); err == nil {
		out = append(out, reportPicture{Name: a + "-graph", Caption: "the graph", Pic: draw.FromGraph(g)})
	}
	out = append(out, modulePicture(a+"-baseline", "baseline: "+e.Baseline, e.BaselineModule))
	out = append(out, modulePicture(a+"-current", "current: "+e.Current, e.CurrentModule))
	return out
}

func modulePicture(name, caption string, module []byte) reportPicture {
	p := reportPicture{Name: name, Caption: caption}
	if module == nil {
		p.Missing = "no module kept"
		return p
	}
	pic, err := draw.FromModule(module)
	if err != nil {
		p.Missing = "the module does not decode: " + err.Error()
		return p
	}
	p.Pic = pic
	return p
}

// reportPictures are every picture of rep.
func reportPictures(rep *Report) []reportPicture {
	var out []reportPicture
	for i := range rep.Findings {
		out = append(out, findingPictures(&rep.Findings[i])...)
	}
	if d := rep.Divergences; d != nil {
		for i := range d.Examples {
			out = append(out, divergencePictures(&d.Examples[i])...)
		}
	}
	return out
}

// picturesHTML draws pictures side by side, each with its Graphviz link.
func picturesHTML(b *strings.Builder, pics []reportPicture) {
	b.WriteString(`<div class="pics">`)
	for _, p := range pics {
		if p.Pic == nil {
			fmt.Fprintf(b, "<figure><p>(%s)</p><figcaption>%s</figcaption></figure>", htmlText(p.Missing), htmlText(p.Caption))
			continue
		}
		fmt.Fprintf(b, `<figure>%s<figcaption>%s · <a href="%s/%s.dot">Graphviz source</a></figcaption></figure>`,
			p.Pic.SVG(draw.Options{}), htmlText(p.Caption), PicturesDir, htmlText(p.Name))
	}
	b.WriteString("</div>")
}
