package tourney

import (
	"encoding/json"
	"slices"
	"sort"
	"testing"

	"github.com/burraco/burraco/domain/pairing"
	"github.com/burraco/burraco/domain/standings"
)

// playing is a 4-pair tournament with round 1 being played.
func playing(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t, pairsSetup(ModifiedDanish, 3, 3))
	h.register(4)
	h.do(Start{}, referee)
	h.do(DrawRound{Round: 1}, referee)
	h.do(StartRound{Round: 1}, referee)
	return h
}

func problemSet(e *Error) []string {
	var out []string
	for _, p := range e.Problems {
		out = append(out, p.Field+" "+p.Code)
	}
	sort.Strings(out)
	return out
}

func TestBadScoreListsEveryBadField(t *testing.T) {
	h := playing(t)
	bad := []DealInput{
		{Number: 1, NS: Parts{Cards: 103, Total: 103}, EW: Parts{Cards: 200, Burraco: 100, Total: 250}},
		{Number: 2, NS: Parts{Cards: 100, Closing: 100, Pot: 50, Total: 150}, EW: Parts{Cards: 100, Closing: 100, Total: 200}},
		{Number: 3, NS: Parts{Cards: 1200, Burraco: 120, Total: 1320}, EW: Parts{Hand: 30, Total: -30}, TimeOut: true},
		{Number: 5, NS: Parts{Closing: 30, Total: 30}, EW: Parts{}},
	}
	e := h.refuse(EnterScore{Round: 1, Table: 1, Version: h.version(1, 1), Deals: bad}, h.sideAt(1, 1, "ns"), CodeBadScore)
	want := []string{
		"deals[0].ew.total parts_sum",
		"deals[0].ns.cards not_multiple_5",
		"deals[0].ns.total not_multiple_5",
		"deals[1].ew.closing two_closings",
		"deals[1].ns.pot out_of_range",
		"deals[2] deal_cards",
		"deals[2].ns.burraco out_of_range",
		"deals[2].ns.cards out_of_range",
		"deals[2].time_out not_allowed",
		"deals[3].ns.closing out_of_range",
		"deals[3].number deal_order",
		"deals[3].number out_of_range",
	}
	if got := problemSet(e); !slices.Equal(got, want) {
		t.Fatalf("problems:\n got %q\nwant %q", got, want)
	}
	if e.Kind != KindInvalid {
		t.Fatalf("kind %s", e.Kind)
	}
}

func TestTimeOutDealWithAClosingRefused(t *testing.T) {
	h := playing(t)
	d := deal(1, 500, 100)
	e := h.refuse(Ruling{Round: 1, Table: 1, Kind: RulingTimeOut, Deal: &d}, referee, CodeBadScore)
	if got := problemSet(e); !slices.Equal(got, []string{"deal.ns.closing time_out_closing"}) {
		t.Fatalf("problems %q", got)
	}
}

func TestRoundUp10TotalsAccepted(t *testing.T) {
	su := pairsSetup(ModifiedDanish, 1, 3)
	su.Rules, su.RoundUp10 = "aberto", true
	h := newHarness(t, su)
	h.register(2)
	h.do(Start{}, referee)
	h.do(DrawRound{Round: 1}, referee)
	h.do(StartRound{Round: 1}, referee)
	d := DealInput{Number: 1, NS: Parts{Cards: 385, Closing: 100, Total: 490}, EW: Parts{Cards: 15, Hand: 30, Pot: 100, Total: -110}}
	h.do(EnterScore{Round: 1, Table: 1, Version: h.version(1, 1), Deals: []DealInput{d}}, referee)
	d.Number, d.NS.Total = 2, 485
	e := h.refuse(EnterScore{Round: 1, Table: 1, Version: h.version(1, 1), Deals: []DealInput{d}}, referee, CodeBadScore)
	if got := problemSet(e); !slices.Equal(got, []string{"deals[0].ns.total parts_sum"}) {
		t.Fatalf("problems %q", got)
	}
}

func TestConfirmingOwnSideRefused(t *testing.T) {
	h := playing(t)
	ns := h.sideAt(1, 1, "ns")
	h.do(EnterScore{Round: 1, Table: 1, Version: h.version(1, 1), Deals: []DealInput{deal(1, 300, 100)}}, ns)
	tv := mustView(t, h, 1, 1)
	partner := player(h.s.entries[tv.NS-1].Players[1])
	h.refuse(ConfirmScore{Round: 1, Table: 1, Version: h.version(1, 1)}, ns, CodeOwnSide)
	h.refuse(ConfirmScore{Round: 1, Table: 1, Version: h.version(1, 1)}, partner, CodeOwnSide)
	h.do(ConfirmScore{Round: 1, Table: 1, Version: h.version(1, 1)}, h.sideAt(1, 1, "ew"))
	h.refuse(ConfirmScore{Round: 1, Table: 1, Version: h.version(1, 1)}, referee, CodeNothingToConfirm)
	h.refuse(ConfirmScore{Round: 1, Table: 1, Version: h.version(1, 1), Deals: []int{1}}, referee, CodeAlreadyConfirmed)
}

func TestPlayerEnteringForAnotherTableRefused(t *testing.T) {
	h := playing(t)
	h.refuse(EnterScore{Round: 1, Table: 2, Version: h.version(1, 2), Deals: []DealInput{deal(1, 300, 100)}}, h.sideAt(1, 1, "ns"), CodeNotAtTable)
	h.refuse(ConfirmScore{Round: 1, Table: 2, Version: h.version(1, 2)}, stranger, CodeNotAtTable)
}

func TestStaleSheetVersionRefused(t *testing.T) {
	h := playing(t)
	v1, v2 := h.version(1, 1), h.version(1, 2)
	h.do(EnterScore{Round: 1, Table: 1, Version: v1, Deals: []DealInput{deal(1, 300, 100)}}, h.sideAt(1, 1, "ns"))
	// The opponent saw the sheet before that entry.
	h.refuse(EnterScore{Round: 1, Table: 1, Version: v1, Deals: []DealInput{deal(1, 100, 300)}}, h.sideAt(1, 1, "ew"), CodeStaleSheet)
	h.refuse(ConfirmScore{Round: 1, Table: 1, Version: v1}, h.sideAt(1, 1, "ew"), CodeStaleSheet)
	// Two referees at different tables do not conflict: table 2's version
	// did not move.
	other := Actor{UserID: 4, Referee: true}
	h.do(EnterScore{Round: 1, Table: 2, Version: v2, Deals: []DealInput{deal(1, 200, 100)}}, other)
	h.refuse(CorrectScore{Round: 1, Table: 2, Version: v2, Deal: deal(1, 200, 105), Reason: "typo"}, referee, CodeStaleSheet)
	// An opponent may enter again a deal not yet confirmed, at the version
	// they saw.
	h.do(EnterScore{Round: 1, Table: 1, Version: h.version(1, 1), Deals: []DealInput{deal(1, 100, 300)}}, h.sideAt(1, 1, "ew"))
	if d := mustView(t, h, 1, 1).Sheet.Deals[0]; d.EnteredSide != "ew" || d.EW.Total != 300 || d.Status != DealEntered {
		t.Fatalf("re-entered deal %+v", d)
	}
}

func TestClosingARoundWithATableMissingRefused(t *testing.T) {
	h := playing(t)
	for d := 1; d <= 3; d++ {
		h.playDeal(1, 1, deal(d, 300, 100))
	}
	h.refuse(CloseRound{Round: 1}, referee, CodeTableIncomplete)
	// Table 2: three deals entered, one not confirmed.
	h.playDeal(1, 2, deal(1, 300, 100))
	h.playDeal(1, 2, deal(2, 300, 100))
	h.do(EnterScore{Round: 1, Table: 2, Version: h.version(1, 2), Deals: []DealInput{deal(3, 300, 100)}}, h.sideAt(1, 2, "ns"))
	h.refuse(CloseRound{Round: 1}, referee, CodeTableIncomplete)
	h.do(ConfirmScore{Round: 1, Table: 2, Version: h.version(1, 2)}, referee)
	h.do(CloseRound{Round: 1}, referee)
}

func TestRoundClosesWhenTheRefereeDecidesTheTable(t *testing.T) {
	h := playing(t)
	h.playDeal(1, 1, deal(1, 300, 100))
	d := deal(2, 200, 150)
	d.NS.Closing, d.NS.Burraco, d.NS.Cards = 0, 0, 200 // no closing in a time-out deal
	h.do(Ruling{Round: 1, Table: 1, Kind: RulingTimeOut, Deal: &d, Reason: "time"}, referee)
	tv := mustView(t, h, 1, 1)
	if !tv.Result.Final || tv.Result.MPNS != 500 || !tv.Sheet.Deals[1].TimeOut || len(tv.Rulings) != 1 {
		t.Fatalf("time-out table: %+v", tv)
	}
	tv2 := mustView(t, h, 1, 2)
	h.do(Ruling{Round: 1, Table: 2, Kind: RulingBye, Entry: tv2.EW, Reason: "did not turn up"}, referee)
	h.do(CloseRound{Round: 1}, referee)
	st := h.standings()
	if l := row(t, st, tv2.NS).Lines[0]; !l.Bye || l.VPFor != 14 {
		t.Fatalf("the pair present: %+v", l)
	}
	if ls := row(t, st, tv2.EW).Lines; len(ls) != 0 {
		t.Fatalf("the pair absent: %+v", ls)
	}
	h.checkReplay()
}

func TestLateArrivalShortensTheTable(t *testing.T) {
	h := playing(t)
	tv := mustView(t, h, 1, 1)
	h.do(Ruling{Round: 1, Table: 1, Kind: RulingLateArrival, Entry: tv.EW, Deals: 2, Reason: "20 minutes late"}, referee)
	h.playDeal(1, 1, deal(1, 300, 100))
	h.playDeal(1, 1, deal(2, 300, 100))
	if r := mustView(t, h, 1, 1).Result; !r.Final {
		t.Fatalf("two deals of two: %+v", r)
	}
	h.refuse(EnterScore{Round: 1, Table: 1, Version: h.version(1, 1), Deals: []DealInput{deal(3, 5, 0)}}, referee, CodeBadScore)
	h.refuse(Ruling{Round: 1, Table: 2, Kind: RulingLateArrival, Entry: tv.EW, Deals: 2}, referee, CodeInvalidCommand)
}

func TestFinishingWithARoundOpenRefused(t *testing.T) {
	h := playing(t)
	h.refuse(Finish{}, director, CodeRoundOpen)
}

func TestInvalidTransitionsRefused(t *testing.T) {
	draft := func(t *testing.T) *harness { return newHarness(t, pairsSetup(ModifiedDanish, 2, 3)) }
	registered := func(t *testing.T) *harness {
		h := draft(t)
		h.register(4)
		return h
	}
	finished := func(t *testing.T) *harness {
		h := registered(t)
		h.do(Start{}, referee)
		h.playRound(1, varied)
		h.do(Finish{}, director)
		return h
	}
	tests := []struct {
		name string
		at   func(*testing.T) *harness
		cmd  Command
		code string
	}{
		{"StartFromDraftRefused", draft, Start{}, CodeBadTransition},
		{"CloseRegistrationFromDraftRefused", draft, CloseRegistration{}, CodeBadTransition},
		{"DrawBeforeStartRefused", registered, DrawRound{Round: 1}, CodeBadTransition},
		{"FinishBeforeStartRefused", registered, Finish{}, CodeBadTransition},
		{"PublishWhileRunningRefused", playing, PublishResults{}, CodeBadTransition},
		{"OpenRegistrationWhileRunningRefused", playing, OpenRegistration{}, CodeBadTransition},
		{"StartTwiceRefused", playing, Start{}, CodeBadTransition},
		{"StartRoundTwiceRefused", playing, StartRound{Round: 1}, CodeRoundNotPlaying},
		{"DrawWhileRoundOpenRefused", playing, DrawRound{Round: 2}, CodeRoundOpen},
		{"DrawSkippingARoundRefused", finished, DrawRound{Round: 3}, CodeBadTransition},
		{"ReopenOpenRoundRefused", playing, ReopenRound{Round: 1, Reason: "x"}, CodeRoundNotPlaying},
		{"CancelFinishedRefused", finished, Cancel{Reason: "rain"}, CodeBadTransition},
		{"CheckInWhileRunningRefused", playing, CheckIn{Entry: 1}, CodeBadTransition},
		{"ScoreInUnknownRoundRefused", playing, EnterScore{Round: 7, Table: 1}, CodeRoundNotFound},
		{"ScoreAtUnknownTableRefused", playing, EnterScore{Round: 1, Table: 9}, CodeTableNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.at(t)
			h.refuse(tc.cmd, director, tc.code)
		})
	}
}

func TestReopeningOnlyTheLatestRound(t *testing.T) {
	h := newHarness(t, pairsSetup(ModifiedDanish, 3, 3))
	h.register(4)
	h.do(Start{}, referee)
	h.playRound(1, varied)
	h.refuse(ReopenRound{Round: 1}, referee, CodeReasonRequired)
	h.do(ReopenRound{Round: 1, Reason: "table 2 played a fourth deal"}, referee)
	if r := mustRound(t, h, 1); r.Status != RoundStatusPlaying || r.Reopened != 1 {
		t.Fatalf("reopened round: %+v", r)
	}
	h.do(CloseRound{Round: 1}, referee)
	h.playRound(2, varied)
	h.refuse(ReopenRound{Round: 1, Reason: "x"}, referee, CodeNotLatestRound)
	h.checkReplay()
}

func TestOverrideSeatingAnEntryTwiceRefused(t *testing.T) {
	h := newHarness(t, pairsSetup(ModifiedDanish, 3, 3))
	h.register(4)
	h.do(Start{}, referee)
	twice := OverridePairings{Round: 1, Reason: "family",
		Tables: []pairing.Table{{Number: 1, NS: 1, EW: 2}, {Number: 2, NS: 1, EW: 3}}}
	e := h.refuse(twice, referee, CodeBadPairings)
	if got := problemSet(e); !slices.Contains(got, "tables[1] twice") || !slices.Contains(got, "tables missing") {
		t.Fatalf("problems %q", got)
	}
	h.refuse(OverridePairings{Round: 1, Tables: []pairing.Table{{Number: 1, NS: 1, EW: 4}, {Number: 2, NS: 2, EW: 3}}}, referee, CodeReasonRequired)
	ok := OverridePairings{Round: 1, Reason: "two sisters must not meet", Tables: []pairing.Table{{Number: 1, NS: 1, EW: 4}, {Number: 2, NS: 2, EW: 3}}}
	e2 := h.do(ok, referee)
	if e2.Reason == "" || !mustRound(t, h, 1).Overridden {
		t.Fatal("the override is not audited")
	}
	// Replacing published pairings works until play starts.
	h.do(OverridePairings{Round: 1, Reason: "again", Tables: []pairing.Table{{Number: 1, NS: 1, EW: 3}, {Number: 2, NS: 2, EW: 4}}}, referee)
	h.do(StartRound{Round: 1}, referee)
	h.refuse(ok, referee, CodeRoundHasScores)
	h.refuse(ok, player(101), CodeRefereeOnly)
	h.checkReplay()
}

func TestIndividualOverrideIsValidated(t *testing.T) {
	su := pairsSetup(Random, 2, 3)
	su.Kind = KindIndividual
	h := newHarness(t, su)
	h.register(4)
	h.do(Start{}, referee)
	h.refuse(OverridePairings{Round: 1, Reason: "x", Foursomes: []pairing.Foursome{{Number: 1, N: 1, S: 2, E: 3, W: 3}}}, referee, CodeBadPairings)
	h.do(OverridePairings{Round: 1, Reason: "x", Foursomes: []pairing.Foursome{{Number: 1, N: 1, S: 2, E: 3, W: 4}}}, referee)
}

func TestKnockoutOverrideRefused(t *testing.T) {
	h := newHarness(t, pairsSetup(Knockout, 0, 3))
	h.register(4)
	h.do(Start{}, referee)
	h.refuse(OverridePairings{Round: 1, Reason: "x", Tables: []pairing.Table{{Number: 1, NS: 1, EW: 2}, {Number: 2, NS: 3, EW: 4}}}, referee, CodeOverrideKnockout)
}

func TestWhoMayDoWhat(t *testing.T) {
	h := newHarness(t, pairsSetup(ModifiedDanish, 2, 3))
	h.refuse(OpenRegistration{}, referee, CodeForbidden)
	h.do(OpenRegistration{}, director)
	h.refuse(AddEntry{Players: []int64{101, 102}}, player(103), CodeNotYours)
	h.do(AddEntry{Players: []int64{101, 102}}, player(102))
	h.refuse(AddEntry{Players: []int64{102, 103}}, player(103), CodeAlreadyEntered)
	h.refuse(AddEntry{Players: []int64{201}}, player(201), CodeInvalidCommand)
	h.refuse(AddEntry{Players: []int64{201, 202}, Number: 1}, referee, CodeDuplicateNumber)
	if err := h.refuse(AddEntry{Players: []int64{201, 202}, FeePaid: true, Seed: 1, Number: 9}, player(201), CodeInvalidCommand); len(err.Problems) != 3 {
		t.Errorf("a player's own entry with the staff's fields: %v", err)
	}
	h.refuse(UpdateEntry{Entry: 1, FeePaid: ptr(true)}, player(101), CodeRefereeOnly)
	h.do(UpdateEntry{Entry: 1, FeePaid: ptr(true), Name: ptr(" Rossi–Bianchi ")}, referee)
	if e, _ := h.s.Entry(1); !e.FeePaid || e.Name != "Rossi–Bianchi" {
		t.Fatalf("entry %+v", e)
	}
	h.refuse(CheckIn{Entry: 1}, player(201), CodeNotYours)
	h.do(CheckIn{Entry: 1}, player(101))
	h.refuse(DrawRound{Round: 1}, player(101), CodeRefereeOnly)
	h.refuse(Cancel{Reason: "x"}, referee, CodeForbidden)
	h.refuse(Cancel{}, director, CodeReasonRequired)
	h.refuse(Penalty{Entry: 1, VP: 1, Reason: "x"}, player(101), CodeRefereeOnly)
	h.refuse(Withdraw{Entry: 1}, player(201), CodeNotYours)
	h.do(Withdraw{Entry: 1}, player(101))
	h.do(Cancel{Reason: "not enough players"}, director)
	if h.s.Status() != StatusCancelled || h.s.CancelReason() != "not enough players" {
		t.Fatalf("status %s reason %q", h.s.Status(), h.s.CancelReason())
	}
	h.checkReplay()
}

func ptr[T any](v T) *T { return &v }

func TestStartLeavesOutEntriesNotCheckedIn(t *testing.T) {
	h := newHarness(t, pairsSetup(ModifiedDanish, 2, 3))
	h.register(5)
	h.do(CheckIn{Entry: 1}, referee)
	h.refuse(Start{}, referee, CodeNotEnoughEntries)
	for _, id := range []int64{2, 4, 5} {
		h.do(CheckIn{Entry: id}, referee)
	}
	e := h.do(Start{}, referee)
	p, _ := DecodeEvent(e)
	if !slices.Equal(p.(*Started).Absent, []int64{3}) {
		t.Fatalf("absent %v", p.(*Started).Absent)
	}
	rv := h.playRound(1, varied)
	if len(rv.Tables) != 2 || len(rv.Byes) != 0 || met(h, 3, 1)+met(h, 3, 2)+met(h, 3, 4)+met(h, 3, 5) != 0 {
		t.Fatalf("round 1: %+v", rv)
	}
	if len(h.standings().Rows) != 4 {
		t.Fatal("an absent entry is in the standings")
	}
	h.checkReplay()
}

func TestLateEntryUpToTheLateEntryRound(t *testing.T) {
	su := pairsSetup(ModifiedDanish, 3, 3)
	su.LateEntryRound = 2
	h := newHarness(t, su)
	h.register(4)
	h.do(Start{}, referee)
	h.playRound(1, varied)
	h.refuse(AddEntry{Players: []int64{901, 902}}, player(901), CodeBadTransition)
	h.do(AddEntry{Players: []int64{901, 902}}, director)
	h.do(AddEntry{Players: []int64{903, 904}}, referee)
	h.do(AddEntry{Players: []int64{907, 908}}, referee)
	h.do(Withdraw{Entry: 7, Reason: "changed their mind"}, referee)
	rv := h.playRound(2, varied)
	if n := len(h.standings().Rows); n != 6 {
		t.Fatalf("%d ranked; a late entry that withdrew before playing is not ranked", n)
	}
	if len(rv.Tables) != 3 {
		t.Fatalf("round 2 with two late entries: %d tables", len(rv.Tables))
	}
	h.refuse(AddEntry{Players: []int64{905, 906}}, director, CodeLateEntryClosed)
	e, _ := h.s.Entry(5)
	if e.FirstRound != 2 || !e.CheckedIn {
		t.Fatalf("late entry %+v", e)
	}
	checkEveryEntryOncePerRound(t, h)

	m := newHarness(t, pairsSetup(Mitchell, 3, 3))
	m.register(4)
	m.do(Start{}, referee)
	m.refuse(AddEntry{Players: []int64{901, 902}}, director, CodeLateEntryClosed)
}

func TestPenaltyComesOffTheStandings(t *testing.T) {
	h := newHarness(t, pairsSetup(ModifiedDanish, 1, 3))
	h.register(2)
	h.do(Start{}, referee)
	h.playRound(1, danishRound1)
	before := row(t, h.standings(), 1)
	h.refuse(Penalty{Round: 1, Entry: 1, MP: 7, Reason: "slow play"}, referee, CodeInvalidCommand)
	h.do(Penalty{Round: 1, Entry: 1, VP: 2, MP: 50, Reason: "slow play"}, referee)
	after := row(t, h.standings(), 1)
	if after.VP != before.VP-2 || after.MPDiff != before.MPDiff-50 || after.Penalties[0].Reason != "slow play" {
		t.Fatalf("before %+v after %+v", before, after)
	}
	h.checkReplay()
}

func TestSetupProblemsAllListed(t *testing.T) {
	_, err := New(Config{Kind: "duo", PlayersPerTable: 3, DealsPerRound: 2, Rules: "scopa",
		Setup: Setup{Movement: "swiss", Rounds: 0, MitchellStep: 1, TargetScore: 2005, TieBreaks: []standings.Criterion{"vp", "vp"}}})
	e, ok := err.(*Error)
	if !ok || e.Code != CodeInvalidSetup {
		t.Fatalf("err %v", err)
	}
	// The movement's rounds and the VP table in force depend on a movement
	// and a kind that are not known: left out.
	want := []string{"kind", "movement", "players_per_table", "rules", "tie_breaks[1]"}
	var got []string
	for _, p := range e.Problems {
		got = append(got, p.Field)
	}
	sort.Strings(got)
	got = slices.Compact(got)
	if !slices.Equal(got, want) {
		t.Fatalf("fields %q, want %q", got, want)
	}
	// 2 deals per round is valid, but has no built-in VP table.
	_, err = New(pairsSetup(Danish, 0, 2))
	if e, ok := err.(*Error); !ok || len(e.Problems) != 2 || e.Problems[0].Field != "rounds" || e.Problems[1].Field != "vp_table" {
		t.Fatalf("a Danish of 0 rounds of 2 deals without a VP table: %v", err)
	}
	if _, err := New(Config{Kind: KindIndividual, PlayersPerTable: 2, DealsPerRound: 3, Rules: "fibur",
		Setup: Setup{Movement: Knockout, MitchellStep: 1, TargetScore: 2005}}); err == nil {
		t.Fatal("an individual knockout at 2-player tables accepted")
	}
}

func TestMitchellStepSharingAFactorRefusedAtStart(t *testing.T) {
	su := pairsSetup(Mitchell, 3, 3)
	su.MitchellStep = 2
	h := newHarness(t, su)
	h.register(8) // 4 tables
	e := h.refuse(Start{}, referee, CodeInvalidSetup)
	if e.Problems[0].Field != "mitchell_step" {
		t.Fatalf("problems %+v", e.Problems)
	}
}

func TestApplyRefusesWhatDoesNotFollow(t *testing.T) {
	h := playing(t)
	snap, _ := json.Marshal(h.s)
	bad := []Event{
		{Seq: h.s.Seq() + 2, Kind: EventFinished, Data: []byte(`{}`)},
		{Seq: h.s.Seq() + 1, Kind: "tea_break", Data: []byte(`{}`)},
		{Seq: h.s.Seq() + 1, Kind: EventScoreEntered, Data: []byte(`{"round":1,"table":1,"deals":[{"number":3}]}`)},
		{Seq: h.s.Seq() + 1, Kind: EventRoundDrawn, Data: []byte(`{"round":2,"tables":[{"number":1,"ns":1,"ew":77}]}`)},
		{Seq: h.s.Seq() + 1, Kind: EventScoreConfirmed, Data: []byte(`{"round":1,"table":1,"deals":[1],"extra":1}`)},
	}
	for i, e := range bad {
		if err := h.s.Apply(e); err == nil {
			t.Fatalf("event %d accepted", i)
		}
	}
	if again, _ := json.Marshal(h.s); string(again) != string(snap) {
		t.Fatal("a refused event changed the state")
	}
}

func TestPlayersAtTwoPlayerTables(t *testing.T) {
	su := pairsSetup(RoundRobin, 3, 3)
	su.PlayersPerTable = 2
	h := newHarness(t, su)
	h.register(4)
	if e, _ := h.s.Entry(1); len(e.Players) != 1 {
		t.Fatalf("an entry at 2-player tables has %d players", len(e.Players))
	}
	h.do(Start{}, referee)
	for n := 1; n <= 3; n++ {
		h.playRound(n, varied)
	}
	h.do(Finish{}, director)
	h.checkReplay()
}
