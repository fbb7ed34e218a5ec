package tourney

import "testing"

var server = Actor{Server: true}

// startOnline starts round n of an online harness and records online
// table 100·n+t for each of its tables t.
func (h *harness) startOnline(n int) RoundView {
	h.t.Helper()
	h.do(DrawRound{Round: n}, referee)
	h.do(StartRound{Round: n}, referee)
	rv, _ := h.s.Round(n)
	cmd := OpenOnlineTables{Round: n}
	for _, tv := range rv.Tables {
		cmd.Tables = append(cmd.Tables, OnlineTable{Table: tv.Number, OnlineTable: int64(100*n + tv.Number)})
	}
	h.do(cmd, server)
	rv, _ = h.s.Round(n)
	return rv
}

func (h *harness) played(n, t int, d DealInput) Event {
	h.t.Helper()
	return h.do(RecordPlayedDeal{Round: n, Table: t, OnlineTable: int64(100*n + t), Deal: d}, server)
}

// TestOnlineSheetsAreTheEnginesAndRefuseScoresByHand: at a tournament
// played online the engine's deals go on the sheet confirmed and linked to
// their record, each table names its online table; nobody enters or
// confirms a score by hand (online_sheet), only the server records played
// deals (forbidden), in order (bad_score); a time-out deal is the table's
// last; the referee still corrects a deal.
func TestOnlineSheetsAreTheEnginesAndRefuseScoresByHand(t *testing.T) {
	setup := pairsSetup(ModifiedDanish, 2, 3)
	setup.Online = true
	h := newHarness(t, setup)
	h.register(4)
	h.do(Start{}, referee)
	rv := h.startOnline(1)
	t1, t2 := rv.Tables[0], rv.Tables[1]
	if t1.OnlineTable != 101 || t2.OnlineTable != 102 {
		t.Fatalf("online tables %d, %d; want 101, 102", t1.OnlineTable, t2.OnlineTable)
	}
	h.refuse(EnterScore{Round: 1, Table: 1, Version: h.version(1, 1), Deals: []DealInput{deal(1, 300, 100)}}, referee, CodeOnlineSheet)
	h.refuse(ConfirmScore{Round: 1, Table: 1, Version: h.version(1, 1)}, h.sideAt(1, 1, "ew"), CodeOnlineSheet)
	h.refuse(RecordPlayedDeal{Round: 1, Table: 1, OnlineTable: 101, Deal: deal(1, 300, 100)}, referee, CodeForbidden)
	h.refuse(RecordPlayedDeal{Round: 1, Table: 1, OnlineTable: 101, Deal: deal(2, 300, 100)}, server, CodeBadScore)
	for d := 1; d <= 3; d++ {
		h.played(1, 1, deal(d, 300, 100))
	}
	got := mustView(t, h, 1, 1)
	for i, d := range got.Sheet.Deals {
		if !d.Engine || d.Status != DealConfirmed || d.Record == nil || *d.Record != (RecordRef{Table: 101, Deal: i + 1}) {
			t.Fatalf("deal %d: %+v", i+1, d)
		}
	}
	if !got.Result.Final || got.Result.MPNS != 900 {
		t.Fatalf("table 1: %+v", got.Result)
	}
	h.refuse(RecordPlayedDeal{Round: 1, Table: 1, OnlineTable: 101, Deal: deal(4, 300, 100)}, server, CodeBadScore)
	// A time-out in deal 2 ends table 2's play: its sheet is complete.
	h.played(1, 2, deal(1, 200, 100))
	to := DealInput{Number: 2, NS: sideParts(50, false), EW: sideParts(80, false), TimeOut: true}
	h.played(1, 2, to)
	if r := mustView(t, h, 1, 2).Result; !r.Final || r.DecidedBy != RulingTimeOut || r.Deals != 2 {
		t.Fatalf("table 2 after a time-out: %+v", r)
	}
	h.refuse(RecordPlayedDeal{Round: 1, Table: 2, OnlineTable: 102, Deal: deal(3, 300, 100)}, server, CodeTableDecided)
	h.do(CorrectScore{Round: 1, Table: 1, Version: h.version(1, 1), Deal: deal(2, 350, 100), Reason: "a meld not counted"}, referee)
	if d := mustView(t, h, 1, 1).Sheet.Deals[1]; !d.Engine || d.Corrections != 1 || d.NS.Total != 350 {
		t.Fatalf("corrected engine deal: %+v", d)
	}
	h.do(CloseRound{Round: 1}, referee)
	h.checkReplay()
}

// TestOnlineKnockoutTableDecidedByATieBreakDeal: the engine's deals of a
// knockout table tied past the target leave it undecided; the next is a
// tie-break deal and decides it.
func TestOnlineKnockoutTableDecidedByATieBreakDeal(t *testing.T) {
	setup := pairsSetup(Knockout, 0, 3)
	setup.Online = true
	h := newHarness(t, setup)
	h.register(2)
	h.do(Start{}, referee)
	rv := h.startOnline(1)
	tv := rv.Tables[0]
	h.played(1, tv.Number, deal(1, 1000, 1000))
	h.played(1, tv.Number, deal(2, 1005, 1005))
	if r := mustView(t, h, 1, tv.Number).Result; r.Complete {
		t.Fatalf("tied past the target, decided: %+v", r)
	}
	h.played(1, tv.Number, deal(3, 100, 300))
	got := mustView(t, h, 1, tv.Number)
	if !got.Sheet.Deals[2].TieBreak || got.Result.Winner != tv.EW || !got.Result.Final {
		t.Fatalf("after the tie-break deal: %+v, %+v", got.Sheet.Deals, got.Result)
	}
	h.refuse(RecordPlayedDeal{Round: 1, Table: tv.Number, OnlineTable: 101, Deal: deal(4, 5, 0)}, server, CodeTableComplete)
	h.checkReplay()
}

// TestOnlineForfeitIsRuledAnAbandonmentOfTheSeatsEntry: a forfeited online
// table is ruled an abandonment by the entry of the seat that forfeited
// (seats 1 and 3: EW), with the reason, and takes no more deals.
func TestOnlineForfeitIsRuledAnAbandonmentOfTheSeatsEntry(t *testing.T) {
	setup := pairsSetup(ModifiedDanish, 2, 3)
	setup.Online = true
	h := newHarness(t, setup)
	h.register(4)
	h.do(Start{}, referee)
	tv := h.startOnline(1).Tables[0]
	h.played(1, tv.Number, deal(1, 300, 100))
	h.refuse(RecordForfeit{Round: 1, Table: tv.Number, OnlineTable: 101, Seat: 3}, referee, CodeForbidden)
	e := h.do(RecordForfeit{Round: 1, Table: tv.Number, OnlineTable: 101, Seat: 3, Reason: "away on their turn"}, server)
	got := mustView(t, h, 1, tv.Number)
	if e.Kind != EventRuling || e.Reason != "away on their turn" || got.Result.DecidedBy != RulingAbandonment || got.Result.Left != tv.EW {
		t.Fatalf("event %+v, result %+v", e, got.Result)
	}
	h.refuse(RecordPlayedDeal{Round: 1, Table: tv.Number, OnlineTable: 101, Deal: deal(2, 300, 100)}, server, CodeTableDecided)
	h.checkReplay()
}
