package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/tourney"
)

// Patterns of the text the server takes. Go's regexp and ECMAScript read
// them alike (\xHH escapes, no look-ahead), so kin-openapi and a browser
// check what the server checks.
const (
	// textPattern: no control character but tab, newline and carriage
	// return (domain.checkText refuses the others, C1 included).
	textPattern = `^[^\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]*$`
	// requiredTextPattern: the same, with a character other than white
	// space (the server trims a name before it checks that it is there).
	requiredTextPattern = `^[^\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]*[^\s\x00-\x1F\x7F-\x9F][^\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]*$`
	// reasonPattern: a reason that is not only white space.
	reasonPattern = `\S`
	// federationIDPattern: letters, digits, - . / (at most 32), or
	// nothing, which clears it; white space around is trimmed.
	// Spaces only, not \s: a generator reading \s as Python does would
	// send \x1c-\x1f, which the server does not trim.
	federationIDPattern = `^ *([A-Za-z0-9./-]{1,32} *)?$`
)

// text is what the server checks of a string field.
type text struct {
	min, max int // in characters; 0: no bound
	pattern  string
	format   string
	note     string // appended to the description
}

var (
	name     = text{min: 1, max: domain.MaxNameLength, pattern: requiredTextPattern, note: "Trimmed; no control characters."}
	optName  = text{max: domain.MaxNameLength, pattern: textPattern, note: "Trimmed; no control characters."}
	desc     = text{max: domain.MaxDescriptionLength, pattern: textPattern, note: "Trimmed; no control characters."}
	reason   = text{min: 1, max: tourney.MaxReasonLength, pattern: reasonPattern, note: "Not only white space (reason_required)."}
	fedID    = text{pattern: federationIDPattern, note: "Letters, digits, '-', '.' and '/', at most 32; \"\" clears it."}
	entryTxt = text{max: tourney.MaxNameLength}
)

// textFields is every string field of a request the server checks, by
// schema and property, with the limits the validators use (the domain's
// constants). TestSchemaConstraintsAreEnforced (api) checks each against
// the server.
var textFields = map[string]text{
	"RegisterRequest.email":               {min: 1, max: domain.MaxEmailLength, format: "email"},
	"RegisterRequest.password":            {min: domain.MinPasswordLength, max: domain.MaxPasswordLength},
	"RegisterRequest.name":                name,
	"RefreshRequest.refresh_token":        {min: 1},
	"MemberAddRequest.email":              {min: 1, format: "email"},
	"ClubCreateRequest.name":              name,
	"ClubCreateRequest.city":              optName,
	"ClubCreateRequest.description":       desc,
	"ClubUpdateRequest.name":              name,
	"ClubUpdateRequest.city":              optName,
	"ClubUpdateRequest.description":       desc,
	"PlayerCreateRequest.name":            name,
	"PlayerCreateRequest.federation_id":   fedID,
	"PlayerUpdateRequest.name":            name,
	"PlayerUpdateRequest.federation_id":   fedID,
	"TournamentCreateRequest.name":        name,
	"TournamentCreateRequest.description": desc,
	"TournamentUpdateRequest.name":        name,
	"TournamentUpdateRequest.description": desc,
	"TournamentEntryRequest.name":         entryTxt,
	"TournamentEntryRequest.club":         entryTxt,
	"TournamentEntryUpdateRequest.name":   entryTxt,
	"TournamentEntryUpdateRequest.club":   entryTxt,
	"TournamentReasonRequest.reason":      reason,
	"TournamentPairingsRequest.reason":    reason,
	"TournamentCorrectionRequest.reason":  reason,
	"TournamentPenaltyRequest.reason":     reason,
	"TournamentLifecycleRequest.reason":   {note: "Required to cancel: then 1 to 1000 characters, not only white space (reason_required); ignored otherwise."},
	"TournamentWithdrawRequest.reason":    {note: "Optional; not checked."},
	"TournamentForbiddenRequest.reason":   {note: "Optional; not checked."},
	"TournamentRulingRequest.reason":      {note: "Optional; not checked."},
	"StandInRequest.reason": {min: 1, max: domain.MaxStandInReasonLength, pattern: reasonPattern,
		note: "Trimmed; not only white space."},
	"SeasonCreateRequest.name": name,
	"SeasonUpdateRequest.name": name,
	"SeasonExclusionRequest.reason": {min: 1, max: tourney.MaxReasonLength, pattern: requiredTextPattern,
		note: "Trimmed; not only white space; no control characters."},
}

// textConstraints writes textFields into the request schemas.
func textConstraints(doc *openapi3.T) error {
	keys := make([]string, 0, len(textFields))
	for k := range textFields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		schemaName, prop, _ := strings.Cut(k, ".")
		s := doc.Components.Schemas[schemaName]
		if s == nil || s.Value == nil || s.Value.Properties[prop] == nil || s.Value.Properties[prop].Value == nil {
			return fmt.Errorf("textFields: no property %s", k)
		}
		p := s.Value.Properties[prop].Value
		t := textFields[k]
		// A struct tag the server checks too (api's checkTags, for a
		// tournament command) must say what the validator says.
		if p.MaxLength != nil && int(*p.MaxLength) != t.max {
			return fmt.Errorf("textFields: %s: its struct tag says maxLength %d, its validator %d", k, *p.MaxLength, t.max)
		}
		p.MinLength = uint64(t.min)
		if t.max > 0 {
			m := uint64(t.max)
			p.MaxLength = &m
		}
		p.Pattern, p.Format = t.pattern, t.format
		if t.note != "" {
			p.Description = strings.TrimSpace(strings.TrimSpace(p.Description) + " " + t.note)
		}
	}
	return nil
}
