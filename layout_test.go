package leaper_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/agent/export"
)

// TestReadmeLayout is the reading test: the README's layout section names,
// for each part a newcomer looks for (the store layout, the build, the
// task, synthesis, search, visit, serving, MCP, scoring and every export
// format), the file or package that owns it, and each path it names
// exists. It fails when the code moves and the README does not.
func TestReadmeLayout(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Layout\n")
	if !ok {
		t.Fatal(`README.md has no "## Layout" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	owners := map[string][]string{} // part → the paths its owner cell names
	tick := regexp.MustCompile("`([^`]+)`")
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if !strings.HasPrefix(line, "|") || len(cells) != 2 || strings.HasPrefix(strings.TrimSpace(cells[0]), "---") {
			continue
		}
		part := strings.TrimSpace(cells[0])
		for _, m := range tick.FindAllStringSubmatch(cells[1], -1) {
			owners[part] = append(owners[part], m[1])
		}
	}
	want := []string{"store layout", "build", "task", "synthesis", "search", "visit", "serving", "MCP", "scoring"}
	for _, f := range append(export.Names(), export.DatasetNames()...) {
		want = append(want, "export format `"+f+"`")
	}
	for _, part := range want {
		if len(owners[part]) == 0 {
			t.Errorf("README layout: no owner named for %q", part)
		}
	}
	for part, paths := range owners {
		for _, p := range paths {
			if _, err := os.Stat(p); err == nil {
				continue
			}
			t.Errorf("README layout: %s names %s, which does not exist", part, p)
		}
	}
}
