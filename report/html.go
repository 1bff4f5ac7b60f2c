package report

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
)

// Chart.js (MIT, assets/chart.js-LICENSE.md) is vendored as its minified
// UMD build, without the source-map comment, so the page asks for nothing.
var (
	//go:embed assets/chart.umd.min.js
	chartJS string
	//go:embed assets/chart.js-LICENSE.md
	chartLicense string
	//go:embed assets/app.js
	appJS string
	//go:embed assets/style.css
	styleCSS string
	//go:embed assets/page.html
	pageHTML string
)

var pageTmpl = template.Must(template.New("page").Parse(pageHTML))

// render writes the page: the template around the charts' canvases and
// the fact tables, the data as JSON in a script element (json.Marshal
// escapes <, > and &, so no "</script>" can end it early), and the
// scripts inline.
func render(w io.Writer, p *page) error {
	data, err := json.Marshal(p.Data)
	if err != nil {
		return fmt.Errorf("report: encode data: %w", err)
	}
	cards, err := json.Marshal(p.Cards)
	if err != nil {
		return fmt.Errorf("report: encode cards: %w", err)
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	err = pageTmpl.Execute(bw, struct {
		*page
		CSS     template.CSS
		ChartJS template.JS
		AppJS   template.JS
		JSON    template.JS
		Cards   template.JS
	}{p, template.CSS(styleCSS), template.JS("/*! Chart.js licence:\n" + chartLicense + "\n*/\n" + chartJS), template.JS(appJS), template.JS(data), template.JS(cards)})
	if err != nil {
		return fmt.Errorf("report: write: %w", err)
	}
	return bw.Flush()
}
