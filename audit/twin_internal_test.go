package audit

import (
	"testing"

	"github.com/leaper-dev/leaper/graph"
)

// TestUntitledLike: a table its source gives no section is titled like the
// page's other tables of the same key; a titled one is not.
func TestUntitledLike(t *testing.T) {
	defunct := &graph.Tree{PageTitle: "Buffalo Public Schools", KeyHeader: "School"}
	if !untitledLike(defunct, "School") {
		t.Error("an untitled table of schools is titled like the page's other school tables")
	}
	if untitledLike(defunct, "Principal") {
		t.Error("a table keyed otherwise is no twin")
	}
	if untitledLike(&graph.Tree{Section: "Defunct Schools", KeyHeader: "School"}, "School") {
		t.Error("a titled table is told apart by its title")
	}
}
