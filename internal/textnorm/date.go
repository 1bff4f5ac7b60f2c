package textnorm

import (
	"regexp"
	"strings"
	"time"
)

// dateLayouts are the ways a table writes a day (or a month) that
// ParseDate reads.
var dateLayouts = []string{"2 January 2006", "January 2, 2006", "January 2 2006", "2 Jan 2006", "Jan 2, 2006", "2006-01-02", "January 2006", "2 January, 2006"}

var isoDay = regexp.MustCompile(`^[12][0-9]{3}-[01][0-9]-[0-3][0-9]$`)

// ParseDate reads s as a date, in English or with a month named in
// Italian, French, Spanish, Portuguese or German ("23 settembre 1981":
// a volleyball club's squad on an English page), and gives it in ISO
// 8601: "2006-01-02", or "2006-01" for a month. The build names a date
// so, and a scorer compares an answer's date with it so.
func ParseDate(s string) (string, bool) {
	if isoDay.MatchString(s) {
		return s, true
	}
	if len(s) < 8 || len(s) > 24 || !hasYear(s) {
		return "", false
	}
	s = EnglishMonth(s)
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			if l == "January 2006" {
				return t.Format("2006-01"), true
			}
			return t.Format("2006-01-02"), true
		}
	}
	return "", false
}

// EnglishMonth is s with a month named in Italian, French, Spanish,
// Portuguese or German named in English ("23 September 1981" for "23
// settembre 1981"), else s.
func EnglishMonth(s string) string {
	fs := strings.Fields(s)
	for i, f := range fs {
		if m, ok := foreignMonths[strings.ToLower(f)]; ok {
			fs[i] = m
			return strings.Join(fs, " ")
		}
	}
	return s
}

var foreignMonths = map[string]string{}

func init() {
	for i, names := range []string{
		"gennaio janvier enero janeiro januar", "febbraio février fevrier febrero fevereiro februar",
		"marzo mars março märz", "aprile avril abril", "maggio mai mayo maio", "giugno juin junio junho juni",
		"luglio juillet julio julho juli", "agosto août aout", "settembre septembre septiembre setembro",
		"ottobre octobre octubre outubro oktober", "novembre noviembre novembro", "dicembre décembre decembre diciembre dezembro dezember",
	} {
		for _, n := range strings.Fields(names) {
			foreignMonths[n] = time.Month(i + 1).String()
		}
	}
}

// hasYear reports whether s has four digits in a row, as every date
// layout's year has: most texts are ruled out without time.Parse.
func hasYear(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			if run++; run == 4 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}
