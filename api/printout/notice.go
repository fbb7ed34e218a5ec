package printout

import "io"

// noticeCodes are the problem codes with words of their own; any other
// code gets the generic notice_error words.
var noticeCodes = map[string]bool{
	"not_found": true, "round_not_found": true, "invalid_parameter": true,
	"timeout": true, "service_unavailable": true, "standings_not_final": true,
}

// NewNotice is the notice for the problem code in l: its title, what is
// missing and what to do.
func NewNotice(l Lang, code string) Notice {
	key := "notice_error"
	if noticeCodes[code] {
		key = "notice_" + code
	}
	return Notice{Title: l.word(key + "_title"), Message: l.word(key), Todo: l.word(key + "_todo"), Code: code}
}

// RenderNotice writes the notice page.
func RenderNotice(w io.Writer, l Lang, n Notice) error {
	return pages.ExecuteTemplate(w, "notice.html", page{l, n})
}
