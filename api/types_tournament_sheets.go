package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/burraco/burraco/domain/tourney"
)

// TournamentDealInput is one deal of a score sheet as entered: its number
// and both sides' parts, every amount a multiple of 5.
type TournamentDealInput struct {
	// From 1: the table's next deal, or one entered but not yet confirmed.
	Number int             `json:"number" minimum:"1" example:"1"`
	NS     TournamentParts `json:"ns"`
	EW     TournamentParts `json:"ew"`
} // @name TournamentDealInput

func (d TournamentDealInput) input() tourney.DealInput {
	return tourney.DealInput{Number: d.Number, NS: d.NS.parts(), EW: d.EW.parts()}
}

// TournamentScoresRequest enters deals of a table's score sheet.
type TournamentScoresRequest struct {
	// The sheet's version the caller saw; absent: the If-Match header's ETag says it.
	Version int64                 `json:"version,omitempty" minimum:"1" example:"48"`
	Deals   []TournamentDealInput `json:"deals"`
} // @name TournamentScoresRequest

// TournamentConfirmRequest confirms entered deals. The body may be left
// out: then the If-Match header gives the version and every entered deal
// is confirmed.
type TournamentConfirmRequest struct {
	// The sheet's version the caller saw; absent: the If-Match header's ETag says it.
	Version int64 `json:"version,omitempty" minimum:"1" example:"49"`
	// The deals to confirm; absent or empty: every entered deal.
	Deals []int `json:"deals,omitempty" example:"1,2"`
} // @name TournamentConfirmRequest

// TournamentDealCorrection is a deal as the referee sets it.
type TournamentDealCorrection struct {
	Number int             `json:"number" minimum:"1" example:"2"`
	NS     TournamentParts `json:"ns"`
	EW     TournamentParts `json:"ew"`
	// The deal was ended by the referee's time-out (no closing).
	TimeOut bool `json:"time_out,omitempty" example:"false"`
} // @name TournamentDealCorrection

func (d TournamentDealCorrection) input() tourney.DealInput {
	return tourney.DealInput{Number: d.Number, NS: d.NS.parts(), EW: d.EW.parts(), TimeOut: d.TimeOut}
}

// TournamentCorrectionRequest replaces a deal already on the sheet
// (referees and directors, with a reason).
type TournamentCorrectionRequest struct {
	// The sheet's version the caller saw; absent: the If-Match header's ETag says it.
	Version int64                    `json:"version,omitempty" minimum:"1" example:"52"`
	Deal    TournamentDealCorrection `json:"deal"`
	Reason  string                   `json:"reason" example:"EW's burraco was counted twice"`
} // @name TournamentCorrectionRequest

// TournamentRulingRequest is a referee's ruling at a table of a round
// being played.
type TournamentRulingRequest struct {
	// The sheet's version the caller saw; checked when given here or in If-Match.
	Version int64 `json:"version,omitempty" minimum:"1" example:"52"`
	// time_out: the deal in play (deal) as it stands, no closing, no more deals; abandonment: entry left the table;
	// bye: entry did not turn up (the others score a bye); late_arrival: entry came late, the table plays deals deals.
	Kind  string `json:"kind" enums:"time_out,abandonment,bye,late_arrival" example:"late_arrival"`
	Entry int64  `json:"entry,omitempty" example:"5"`
	// time_out: the deal in play, as it stands.
	Deal *TournamentDealCorrection `json:"deal,omitempty"`
	// late_arrival: the deals the table plays.
	Deals  int    `json:"deals,omitempty" minimum:"1" example:"2"`
	Reason string `json:"reason,omitempty" example:"arrived 20 minutes late"`
} // @name TournamentRulingRequest

func (req TournamentRulingRequest) command(a tableAddress, version int64) tourney.Ruling {
	c := tourney.Ruling{Round: a.round, Table: a.table, Version: version, Kind: req.Kind, Entry: req.Entry,
		Deals: req.Deals, Reason: req.Reason}
	if req.Deal != nil {
		d := req.Deal.input()
		c.Deal = &d
	}
	return c
}

// sheetETag is the ETag of a table: its sheet's version, which score
// commands send back in If-Match, and a digest of the table as the client
// sees it, so that a change of what the sheet's version does not count
// (a player's name; at a team table, the match's other tables, which set
// its VP) shows too.
func sheetETag(a tableAddress, sheet int64, digest ...uint64) string {
	tag := fmt.Sprintf(`"tt%d.r%d.t%d.v%d`, a.id, a.round, a.table, sheet)
	for _, d := range digest {
		tag += fmt.Sprintf(".h%x", d)
	}
	return tag + `"`
}

// sheetTableETag is the ETag of a table as out renders it: it depends on that
// table alone, not on the rest of the tournament, so that a client polling
// one sheet gets 304 while other tables are scored.
func sheetTableETag(a tableAddress, out TournamentTable) string {
	body, _ := json.Marshal(out) // plain structs: cannot fail
	return sheetBodyETag(a, out.Version, body)
}

// sheetBodyETag is sheetTableETag of the table encoded as body (with or
// without encodeJSON's newline).
func sheetBodyETag(a tableAddress, version int64, body []byte) string {
	h := fnv.New64a()
	_, _ = h.Write(bytes.TrimSuffix(body, []byte("\n")))
	return sheetETag(a, version, h.Sum64())
}

// encodeSheet is a table of a round as answered, encoded once for both
// its body and its ETag.
func encodeSheet(a tableAddress, out TournamentTable) (body []byte, etag string, err error) {
	var buf bytes.Buffer
	if err := encodeJSON(&buf, out); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), sheetBodyETag(a, out.Version, buf.Bytes()), nil
}

// sheetVersion reads the sheet's version from an If-Match header holding
// a table's ETag (0 when it holds none of this table).
func sheetVersion(header string, a tableAddress) int64 {
	prefix := fmt.Sprintf(`"tt%d.r%d.t%d.v`, a.id, a.round, a.table)
	for _, tag := range strings.Split(header, ",") {
		rest, ok := strings.CutPrefix(strings.TrimPrefix(strings.TrimSpace(tag), "W/"), prefix)
		if !ok {
			continue
		}
		end := strings.IndexAny(rest, `."`)
		if end < 0 {
			continue
		}
		if v, err := strconv.ParseInt(rest[:end], 10, 64); err == nil && v > 0 {
			return v
		}
	}
	return 0
}
