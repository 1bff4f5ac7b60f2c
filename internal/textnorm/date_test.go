package textnorm

import "testing"

func TestParseDate(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"10 June 2015", "2015-06-10"},
		{"June 10, 2015", "2015-06-10"},
		{"10 June, 2015", "2015-06-10"},
		{"23 settembre 1981", "1981-09-23"},
		{"June 2015", "2015-06"},
		{"2015-06-10", "2015-06-10"},
		{"2015", ""},
		{"10 June 2015 (aged 35)", ""},
		{"Paris", ""},
	} {
		got, ok := ParseDate(c.in)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("ParseDate(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}
