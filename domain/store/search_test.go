package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestSearchFoldsCaseAndAccents checks that every ?q= search (clubs,
// players, tournaments) ignores case and accents the same way on SQLite and
// PostgreSQL, and takes % and _ literally.
func TestSearchFoldsCaseAndAccents(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		var clubID int64
		err := db.InTx(ctx, func(tx domain.Tx) error {
			for _, c := range []domain.Club{{Name: "Circolo Niccolò", City: "Cantù"}, {Name: "Club 100%", City: "Forlì"},
				{Name: "Club_Roma", City: "Roma"}, {Name: "Circolo Nicolò", City: "Città di Castello"}} {
				c.CreatedAt, c.UpdatedAt = now, now
				if err := tx.Clubs().Create(&c); err != nil {
					return err
				}
				clubID = c.ID
			}
			for _, name := range []string{"Niccolò Rossi", "Fabrizio Cantù", "NICOLÒ BIANCHI", "Anna 50%"} {
				p := domain.Player{Name: name, CreatedAt: now, UpdatedAt: now}
				if err := tx.Players().Create(&p); err != nil {
					return err
				}
			}
			for _, name := range []string{"Trofeo Città di Cantù", "Coppa Forlì", "Torneo 10_a"} {
				tm := domain.Tournament{ClubID: clubID, Name: name, Rules: "fibur", Options: []byte("{}"), PlayersPerTable: 4,
					Kind: domain.PairsTournament, DealsPerRound: 3, StartsAt: now, Status: domain.TournamentRegistrationOpen, OpenedAt: &now, CreatedAt: now, UpdatedAt: now}
				if err := tx.Tournaments().Create(&tm); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		list := func(kind, q string) []string {
			var names []string
			err := db.View(ctx, func(tx domain.Tx) error {
				switch kind {
				case "clubs":
					cs, _, err := tx.Clubs().List(domain.ClubFilter{Query: q, Limit: 100})
					for _, c := range cs {
						names = append(names, c.Name)
					}
					return err
				case "players":
					ps, _, err := tx.Players().List(domain.PlayerFilter{Query: q, Limit: 100})
					for _, p := range ps {
						names = append(names, p.Name)
					}
					return err
				}
				ts, _, err := tx.Tournaments().List(domain.TournamentFilter{Query: q, Limit: 100}, domain.DraftScope{All: true})
				for _, tm := range ts {
					names = append(names, tm.Name)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(names)
			return names
		}
		for _, tt := range []struct {
			name, kind, q string
			want          []string
		}{
			{"PlayerUnaccented", "players", "niccolo", []string{"Niccolò Rossi"}},
			{"PlayerUpperCase", "players", "CANTU", []string{"Fabrizio Cantù"}},
			{"PlayerAccentedQuery", "players", "nicolò", []string{"NICOLÒ BIANCHI"}},
			{"PlayerPercentLiteral", "players", "%", []string{"Anna 50%"}},
			{"ClubNameUnaccented", "clubs", "NICCOLO", []string{"Circolo Niccolò"}},
			{"ClubCity", "clubs", "cantu", []string{"Circolo Niccolò"}},
			{"ClubCityAccentedQuery", "clubs", "FORLÌ", []string{"Club 100%"}},
			{"ClubPercentLiteral", "clubs", "0%", []string{"Club 100%"}},
			{"ClubUnderscoreLiteral", "clubs", "b_r", []string{"Club_Roma"}},
			{"ClubNotAcrossNameAndCity", "clubs", "niccolocantu", nil},
			{"ClubCittà", "clubs", "citta", []string{"Circolo Nicolò"}},
			{"TournamentUnaccented", "tournaments", "citta di cantu", []string{"Trofeo Città di Cantù"}},
			{"TournamentUnderscoreLiteral", "tournaments", "_", []string{"Torneo 10_a"}},
		} {
			t.Run(tt.name, func(t *testing.T) {
				if got := list(tt.kind, tt.q); !slices.Equal(got, tt.want) {
					t.Errorf("%s ?q=%s: %q, want %q", tt.kind, tt.q, got, tt.want)
				}
			})
		}
		// A rename is searched by its new name.
		err = db.InTx(ctx, func(tx domain.Tx) error {
			c, err := tx.Clubs().Get(clubID)
			if err != nil {
				return err
			}
			c.Name, c.City = "Circolo Perù", "Lecce"
			return tx.Clubs().Update(c)
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := list("clubs", "peru"); !slices.Equal(got, []string{"Circolo Perù"}) {
			t.Errorf("after rename: %q", got)
		}
	})
}
