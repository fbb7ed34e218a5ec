package api

import (
	"fmt"
	"strings"
	"time"

	"github.com/burraco/burraco/api/printout"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/tourney"
)

// The printouts and CSV exports are filled from the same playView as the
// JSON answers: package printout renders them, knowing nothing of the
// tournament's types.

func (v playView) head(now time.Time) printout.Head {
	t := v.read.Tournament
	return printout.Head{Tournament: t.Name, Club: t.ClubName, Generated: now, Version: v.snap.Seq}
}

// names is the players' names of an entry.
func (v playView) names(id int64) []string {
	e, ok := v.entry(id)
	if !ok {
		return nil
	}
	out := make([]string, len(e.Players))
	for i, p := range e.Players {
		out[i] = v.read.Players[p]
	}
	return out
}

// label is an entry as a line of a page: its number and name.
func (v playView) label(id int64) string {
	r := v.ref(id)
	if r == nil {
		return ""
	}
	return fmt.Sprintf("%d. %s", r.Number, r.Name)
}

func (v playView) printStandings(now time.Time) printout.Standings {
	st := v.snap.Standings
	out := printout.Standings{Head: v.head(now), Rounds: st.AfterRound,
		Provisional: st.Provisional || v.snap.Status != tourney.StatusResultsPublished}
	for _, c := range st.TieBreaks {
		out.TieBreaks = append(out.TieBreaks, string(c))
	}
	for _, r := range st.Rows {
		ref := v.ref(r.Entry)
		out.Rows = append(out.Rows, printout.StandingRow{Rank: r.Rank, Number: ref.Number, Name: ref.Name,
			Players: v.names(r.Entry), VP: r.VP, MPFor: r.MPFor, MPAgainst: r.MPAgainst, MPDiff: r.MPDiff,
			Played: r.Played, Byes: r.Byes, PenaltyVP: r.PenaltyVP, PenaltyMP: r.PenaltyMP, AheadBy: string(r.AheadBy)})
	}
	return out
}

// seat is one position of a table card.
func (v playView) seat(position string, id int64, pair int) printout.Seat {
	s := printout.Seat{Position: position}
	if e, ok := v.entry(id); ok {
		s.Number = e.Number
		for _, p := range v.seated(e, pair) {
			s.Names = append(s.Names, v.read.Players[p])
		}
		if e.Name != "" {
			s.Names = append([]string{e.Name}, s.Names...)
		}
	}
	return s
}

func (v playView) printTables(now time.Time, r tourney.RoundView) printout.TableCards {
	out := printout.TableCards{Head: v.head(now), Round: r.Number, Deals: v.read.Tournament.DealsPerRound}
	if v.read.Tournament.Movement == domain.MovementKnockout {
		out.ExtraRows = 2 // the tie-break deals a table to the target may need
	}
	for _, t := range r.Tables {
		card := printout.TableCard{Number: t.Number}
		if t.N != 0 || t.S != 0 || t.E != 0 || t.W != 0 {
			card.Seats = []printout.Seat{v.seat("N", t.N, 0), v.seat("S", t.S, 0), v.seat("E", t.E, 0), v.seat("W", t.W, 0)}
		} else {
			card.Seats = []printout.Seat{v.seat("NS", t.NS, t.Pair), v.seat("EW", t.EW, t.Pair)}
		}
		if t.Sheet.PlannedDeals > 0 {
			out.Deals = t.Sheet.PlannedDeals
		}
		out.Tables = append(out.Tables, card)
	}
	for _, b := range r.Byes {
		out.Byes = append(out.Byes, v.label(b))
	}
	return out
}

// sideLabel is one side of a table as a line: the pair or team, or an
// individual event's two players.
func (v playView) sideLabel(pairEntry, a, b int64) string {
	if pairEntry != 0 {
		return v.label(pairEntry)
	}
	var parts []string
	for _, id := range []int64{a, b} {
		if id != 0 {
			parts = append(parts, v.label(id))
		}
	}
	return strings.Join(parts, " + ")
}

// rulingNotes are the notes of a decided table, by language.
var rulingNotes = map[printout.Lang]map[string]string{
	printout.English: {tourney.RulingTimeOut: "time-out", tourney.RulingAbandonment: "abandoned by %s",
		tourney.RulingBye: "%s did not turn up", "withdrawal": "forfeited by %s (withdrawn)"},
	printout.Italian: {tourney.RulingTimeOut: "tempo scaduto", tourney.RulingAbandonment: "abbandono di %s",
		tourney.RulingBye: "%s assente", "withdrawal": "forfait di %s (ritirato)"},
}

func (v playView) note(l printout.Lang, res tourney.Result) string {
	f, ok := rulingNotes[l][res.DecidedBy]
	if !ok {
		return ""
	}
	who := res.Left
	if who == 0 {
		who = res.Absent
	}
	if strings.Contains(f, "%s") {
		return fmt.Sprintf(f, v.label(who))
	}
	return f
}

func (v playView) printResults(now time.Time, l printout.Lang) printout.Results {
	out := printout.Results{Head: v.head(now)}
	for _, r := range v.snap.Rounds {
		rr := printout.RoundResult{Number: r.Number, Status: r.Status}
		for _, t := range r.Tables {
			res := t.Result
			rr.Tables = append(rr.Tables, printout.TableResult{Number: t.Number, NS: v.sideLabel(t.NS, t.N, t.S),
				EW: v.sideLabel(t.EW, t.E, t.W), MPNS: res.MPNS, MPEW: res.MPEW, VPNS: res.VPNS, VPEW: res.VPEW,
				Done: res.Final, Note: v.note(l, res)})
		}
		for _, b := range r.Byes {
			rr.Byes = append(rr.Byes, v.label(b))
		}
		out.Rounds = append(out.Rounds, rr)
	}
	return out
}

func (v playView) printSheets(now time.Time) printout.Sheets {
	out := printout.Sheets{Head: v.head(now)}
	for _, r := range v.snap.Rounds {
		for _, t := range r.Tables {
			for _, d := range t.Sheet.Deals {
				for _, side := range []struct {
					name  string
					entry int64
					parts tourney.Parts
				}{{"NS", t.NS, d.NS}, {"EW", t.EW, d.EW}} {
					l := printout.SheetLine{Round: r.Number, Table: t.Number, Deal: d.Number, TieBreak: d.TieBreak,
						Side: side.name, Cards: side.parts.Cards, Burraco: side.parts.Burraco, Closing: side.parts.Closing,
						Hand: side.parts.Hand, Pot: side.parts.Pot, Total: side.parts.Total, Status: d.Status}
					if side.entry != 0 {
						ref := v.ref(side.entry)
						l.Number, l.Name = ref.Number, ref.Name
					} else if side.name == "NS" {
						l.Name = v.sideLabel(0, t.N, t.S)
					} else {
						l.Name = v.sideLabel(0, t.E, t.W)
					}
					out.Lines = append(out.Lines, l)
				}
			}
		}
	}
	return out
}

// isGroupName reports whether s names a group: one letter, A to Z.
func isGroupName(s string) bool { return len(s) == 1 && s[0] >= 'A' && s[0] <= 'Z' }

// phaseOf is the printed standings of phase k (the current phase when 0)
// and of its group (the whole field when ""), overall: the phase's rounds
// plus the VP carried into it, as GET …/phases/{phase}/standings gives
// them; its title names the phase and the group.
func (v playView) phaseOf(now time.Time, k int, group string) (printout.Standings, error) {
	ps := v.phases()
	if k == 0 {
		k = ps.Current
	}
	st, err := phaseStandingsOf(v.read.Snapshot, k, group, true)
	if err != nil {
		return printout.Standings{}, err
	}
	snap := *v.read.Snapshot
	snap.Standings = st
	read := v.read
	read.Snapshot = &snap
	out := newPlayView(read).printStandings(now)
	out.Phase, out.Phases, out.Group = k, len(ps.Items), group
	if k <= len(ps.Items) {
		out.PhaseName = ps.Items[k-1].Name
	}
	return out, nil
}
