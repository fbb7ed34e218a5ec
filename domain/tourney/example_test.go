package tourney_test

import (
	"fmt"
	"time"

	"github.com/burraco/burraco/domain/pairing"
	"github.com/burraco/burraco/domain/tourney"
)

func Example() {
	setup := tourney.Config{Kind: tourney.KindPairs, PlayersPerTable: 4, DealsPerRound: 3, Rules: "fibur", LotsSeed: 1,
		Setup: tourney.Setup{Movement: tourney.ModifiedDanish, Rounds: 3, MitchellStep: 1, TargetScore: 2005, RestVP: 14, RestMP: 355}}
	s, _ := tourney.New(setup)
	director := tourney.Actor{UserID: 1, Director: true}
	at := time.Date(2026, 3, 14, 15, 0, 0, 0, time.UTC)
	rnd := pairing.NewRand(1)

	var log []tourney.Event
	do := func(cmd tourney.Command, who tourney.Actor) {
		e, err := s.Decide(cmd, who, at, rnd) // the service appends e, then folds it in
		if err != nil {
			fmt.Println(cmd.CommandName(), "refused:", err)
			return
		}
		if err := s.Apply(e); err != nil {
			panic(err)
		}
		log = append(log, e)
	}
	do(tourney.OpenRegistration{}, director)
	do(tourney.AddEntry{Players: []int64{11, 12}, Name: "Rossi–Bianchi"}, tourney.Actor{UserID: 11, Players: []int64{11}})
	do(tourney.AddEntry{Players: []int64{21, 22}, Name: "Verdi–Neri"}, director)
	do(tourney.CloseRegistration{}, director)
	do(tourney.Start{}, director)
	do(tourney.DrawRound{Round: 1}, director)
	do(tourney.StartRound{Round: 1}, director)

	// Rossi enters the first deal; his partner may not confirm it, Verdi does.
	tbl, _ := s.Table(1, 1)
	side := func(cards, burraco, closing int) tourney.Parts {
		return tourney.Parts{Cards: cards, Burraco: burraco, Closing: closing, Total: cards + burraco + closing}
	}
	first := tourney.DealInput{Number: 1, NS: side(185, 200, 100), EW: side(90, 0, 0)}
	do(tourney.EnterScore{Round: 1, Table: 1, Version: tbl.Sheet.Version, Deals: []tourney.DealInput{first}}, tourney.Actor{UserID: 11, Players: []int64{11}})
	tbl, _ = s.Table(1, 1)
	do(tourney.ConfirmScore{Round: 1, Table: 1, Version: tbl.Sheet.Version}, tourney.Actor{UserID: 12, Players: []int64{12}})
	do(tourney.ConfirmScore{Round: 1, Table: 1, Version: tbl.Sheet.Version}, tourney.Actor{UserID: 21, Players: []int64{21}})

	tbl, _ = s.Table(1, 1)
	fmt.Printf("table 1: %d–%d MP, %d–%d VP so far, deal 1 %s\n", tbl.Result.MPNS, tbl.Result.MPEW,
		tbl.Result.VPNS, tbl.Result.VPEW, tbl.Sheet.Deals[0].Status)
	st, _ := s.Standings()
	fmt.Println("provisional:", st.Provisional, "leader:", st.Rows[0].Entry)

	again, _ := tourney.Replay(setup, log)
	fmt.Println("replayed to seq", again.Seq(), "of", s.Seq())
	// Output:
	// confirm_score refused: tourney: deal 1 was entered by your side: an opponent or the referee confirms it
	// table 1: 485–90 MP, 14–6 VP so far, deal 1 confirmed
	// provisional: true leader: 1
	// replayed to seq 9 of 9
}
