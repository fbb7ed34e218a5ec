package printout

import (
	"crypto/sha256"
	"encoding/base64"
	"strings"
)

// ContentSecurityPolicy is the policy the pages are served with: they are
// static HTML, so nothing may load or run but their one inline style,
// allowed by its hash (the style is constant text of base.html: html/template
// leaves it as it is, but for CSS comments, which it drops: so base.html's
// style has none). No script at all.
var ContentSecurityPolicy = "default-src 'none'; style-src '" + styleHash() + "'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// styleHash is the CSP source of the <style> element of base.html: sha256-
// and the base64 of the SHA-256 of its text. A page without one panics at
// start, where a test sees it.
func styleHash() string {
	b, err := templateFS.ReadFile("templates/base.html")
	if err != nil {
		panic("printout: " + err.Error())
	}
	_, rest, ok := strings.Cut(string(b), "<style>")
	style, _, ok2 := strings.Cut(rest, "</style>")
	if !ok || !ok2 || strings.Contains(style, "{{") {
		panic("printout: base.html has no constant <style> element")
	}
	sum := sha256.Sum256([]byte(style))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}
