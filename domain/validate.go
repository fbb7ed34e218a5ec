package domain

import (
	"fmt"
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Field limits.
const (
	MaxNameLength         = 100  // names of users, players, clubs; cities
	MaxDescriptionLength  = 2000 // club descriptions
	MaxEmailLength        = 254
	MinPasswordLength     = 10 // characters
	MaxPasswordLength     = 1024
	MaxFederationIDLength = 32 // ASCII only, so bytes are characters
	MaxQueryLength        = 100
)

// NormalizeEmail trims and lower-cases an email address, as it is stored.
func NormalizeEmail(email string) string {
	return strings.ToLower(strings.TrimSpace(email))
}

// checkEmail validates a normalised email address.
func checkEmail(v *Validator, field, email string) {
	switch {
	case email == "":
		v.Add(field, "required", "email is required")
	case utf8.RuneCountInString(email) > MaxEmailLength:
		v.Add(field, "too_long", fmt.Sprintf("email must be at most %d characters", MaxEmailLength))
	case !validEmail(email):
		v.Add(field, "invalid", "email is not a valid address")
	}
}

func validEmail(email string) bool {
	addr, err := mail.ParseAddress(email)
	if err != nil || addr.Address != email || addr.Name != "" {
		return false
	}
	local, domain, ok := strings.Cut(email, "@")
	return ok && local != "" && domain != "" && !strings.ContainsAny(email, " \t\r\n")
}

// checkPassword validates a new password (not trimmed: spaces count).
func checkPassword(v *Validator, field, password string) {
	switch {
	case password == "":
		v.Add(field, "required", "password is required")
	case utf8.RuneCountInString(password) < MinPasswordLength:
		v.Add(field, "too_short", fmt.Sprintf("password must be at least %d characters", MinPasswordLength))
	case utf8.RuneCountInString(password) > MaxPasswordLength:
		v.Add(field, "too_long", fmt.Sprintf("password must be at most %d characters", MaxPasswordLength))
	}
}

// checkText validates a trimmed text field of at most max characters with
// no control characters; required fields must not be empty.
func checkText(v *Validator, field, s string, required bool, max int) {
	switch {
	case s == "" && required:
		v.Add(field, "required", field+" is required")
	case utf8.RuneCountInString(s) > max:
		v.Add(field, "too_long", fmt.Sprintf("%s must be at most %d characters", field, max))
	case !utf8.ValidString(s) || strings.ContainsFunc(s, isBadControl):
		v.Add(field, "invalid", field+" contains invalid characters")
	}
}

// isBadControl reports control characters other than newlines and tabs.
func isBadControl(r rune) bool {
	return unicode.IsControl(r) && r != '\n' && r != '\t' && r != '\r'
}

// checkFederationID validates a trimmed federation id: letters, digits and
// - . / only.
func checkFederationID(v *Validator, field, id string) {
	switch {
	case id == "":
		v.Add(field, "required", "federation id must not be empty")
	case len(id) > MaxFederationIDLength:
		v.Add(field, "too_long", fmt.Sprintf("federation id must be at most %d characters", MaxFederationIDLength))
	case strings.ContainsFunc(id, func(r rune) bool {
		return r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-./", r))
	}):
		v.Add(field, "invalid", "federation id may hold only letters, digits, '-', '.' and '/'")
	}
}

// trimPtr trims *s, turning an empty result into nil.
func trimPtr(s *string) *string {
	if s == nil {
		return nil
	}
	t := strings.TrimSpace(*s)
	if t == "" {
		return nil
	}
	return &t
}

// ValidSearch reports whether s is a search text the lists take (q): at
// most MaxQueryLength characters, valid UTF-8, no control characters but
// tab and newlines. The HTTP layer refuses another as a bad parameter
// before asking for the list.
func ValidSearch(s string) bool {
	var v Validator
	checkText(&v, "q", s, false, MaxQueryLength)
	return v.Err() == nil
}
