package table

import "strings"

// Detokenize undoes the tokenisation of the WikiTables-WithLinks and OTT-QA
// releases, where punctuation is split off by spaces: "Eek ! The Cat",
// "2003 , 2008", "That 90 's Show", "Laureate ( s )" become "Eek! The Cat",
// "2003, 2008", "That 90's Show", "Laureate (s)", so their text matches the
// same values read from HTML. Only whole tokens are moved; text without
// tokenised punctuation is returned unchanged.
func Detokenize(s string) string {
	if !needsDetok(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	noSpace := true // no space before the next token
	quoteOpen, single := false, false
	prev := ""
	toks := strings.Fields(s)
	quotes := 0 // lone "'" tokens still to come
	for _, tok := range toks {
		if tok == "'" {
			quotes++
		}
	}
	for i, tok := range toks {
		attachLeft, attachRight := false, false
		switch tok {
		case ",", ".", "!", "?", ";", ":", "%", ")", "]", "}", "...",
			"'s", "'S", "'re", "'ve", "'ll", "'d", "'m", "n't":
			attachLeft = true
		case "'":
			// A quote ("Returning to the ' A '") opens after a word
			// not ending in s and closes the next; after "s" it is a
			// possessive ("Williams ' house").
			quotes--
			switch {
			case single:
				attachLeft, single = true, false
			case i+2 < len(toks) && toks[i+2] == "'" && len(toks[i+1]) <= 3 && prev != "":
				// "Egremont Rangers ' A '": a short mark quoted, a
				// reserve side, even after an s.
				attachRight, single = true, true
			case strings.HasSuffix(prev, "in") && len(prev) > 3:
				attachLeft = true // "Runnin ' Bulldogs": a dropped g
			case quotes == 0 && prev != "" && !strings.HasSuffix(prev, "s") && !strings.HasSuffix(prev, "S"):
				attachLeft, attachRight = true, true // "Murang ' a United", "Li ' l": no quote closes it, an apostrophe
			case prev != "" && !strings.HasSuffix(prev, "s") && !strings.HasSuffix(prev, "S"):
				attachRight, single = true, true
			default:
				attachLeft = true
			}
		case "na", "ta":
			// "Gon na", "wan na", "got ta": one word the tokenizer split.
			switch strings.ToLower(prev) {
			case "gon", "wan":
				attachLeft = tok == "na"
			case "got":
				attachLeft = tok == "ta"
			}
		case "(", "[", "{":
			attachRight = true
		case "``":
			// The tokenizer's opening and closing quotes ("Disc 4: ``
			// The Early Daze ''"), and an apostrophe it split off
			// ("Ba ` alat Gebal").
			tok, attachRight = "\"", true
		case "''":
			tok, attachLeft = "\"", true
		case "`":
			attachLeft, attachRight = true, true
		case "\"":
			if quoteOpen {
				attachLeft = true
			} else {
				attachRight = true
			}
			quoteOpen = !quoteOpen
		}
		if prev == ":" && strings.HasPrefix(tok, "//") {
			attachLeft = true // "http : //www.promilux.lu/": a URL
		}
		if !noSpace && !attachLeft {
			b.WriteByte(' ')
		}
		b.WriteString(tok)
		noSpace = attachRight
		prev = tok
	}
	return b.String()
}

// needsDetok reports whether s has a space before closing punctuation or
// after opening punctuation, or a run of spaces, i.e. whether Detokenize
// could change it.
func needsDetok(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			if i == 0 || i == len(s)-1 {
				return true
			}
			switch s[i+1] {
			case ',', '.', '!', '?', ';', ':', '%', ')', ']', '}', '\'', 'n', 't', ' ', '\t', '\n', '\r', '"', '`':
				return true
			}
			switch s[i-1] {
			case '(', '[', '{':
				return true
			}
		}
	}
	return false
}
