package api_test

import (
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// runningTournament is a public tournament of 4 pairs with round 1 drawn,
// and the standings' ETag.
func runningTournament(te *tourneyEnv) (int64, api.TournamentRound, string) {
	te.t.Helper()
	id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementModifiedDanish), Rounds: new(3)})
	te.lifecycle(id, te.director, "open_registration")
	te.pairs(id, 4)
	te.start(id)
	r := te.draw(id)
	res := te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "standings")}, nil)
	return id, r, res.Header.Get("ETag")
}

// pollStandings polls e's standings of id with etag.
func pollStandings(e *env, id int64, etag string) response {
	e.t.Helper()
	return e.do(req{Method: "GET", Path: tpath(id, "standings"), Header: map[string]string{"If-None-Match": etag}})
}

// TestStandings304ComesFromMemory: once a public tournament's stamp is
// known, a poll that finds nothing new is answered from memory: a change
// made behind the server's back (by SQL, which no feed reports) is not
// seen; one made through the server is, at once.
func TestStandings304ComesFromMemory(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		id, r, etag := runningTournament(te)
		if db.Dialect() == store.Postgres {
			waitTournamentListeners(t, db, 1) // till then nothing is kept
		}
		// On PostgreSQL the notifications of the set-up's own commits may
		// still be on their way, each dropping the stamp: the poll is
		// tried again (with the row restored) until they have arrived. A
		// try whose poll read the shifted row may have kept its stamp,
		// which nothing would drop (a change by SQL is not heard): the
		// try ends with a notification, as a write through the service
		// sends it, and the next one starts once the set-up's stamp is
		// answered again.
		shift := func(by int) {
			if _, err := db.SQL().Exec("UPDATE tournaments SET version = version + $1 WHERE id = $2", by, id); err != nil {
				t.Fatal(err)
			}
		}
		for try := 1; ; try++ {
			if try == 20 {
				t.Fatal("after a change by SQL: no 304 from memory in 20 tries")
			}
			if pollStandings(te.env, id, etag).Status != http.StatusNotModified {
				time.Sleep(50 * time.Millisecond)
				continue
			}
			shift(100)
			res := pollStandings(te.env, id, etag)
			shift(-100)
			if res.Status == http.StatusNotModified {
				break
			}
			if db.Dialect() == store.Postgres {
				if _, err := db.SQL().Exec(`SELECT pg_notify(CASE current_schema() WHEN 'public' THEN 'burraco_tournaments' ELSE 'burraco_tournaments_' || current_schema() END, $1)`,
					strconv.FormatInt(id, 10)); err != nil {
					t.Fatal(err)
				}
			}
			time.Sleep(50 * time.Millisecond)
		}
		te.scores(id, 1, r.Tables[0].Number, te.referee, randomDeals(newRand(), 3)...)
		if res := pollStandings(te.env, id, etag); res.Status != http.StatusOK || res.Header.Get("ETag") == etag {
			t.Fatalf("after scores entered: %d, ETag %s (was %s)", res.Status, res.Header.Get("ETag"), etag)
		}
	})
}

// TestStandingsPollSeesAnotherProcessesChange: two servers over one
// PostgreSQL schema. B answers a poll from memory; scores entered on A
// make B's next polls answer 200 within a second (LISTEN/NOTIFY); after
// the listening connections are killed, a change made while B was not
// listening is seen once it listens again.
func TestStandingsPollSeesAnotherProcessesChange(t *testing.T) {
	databaseURL := storetest.PostgresURL(t)
	dbA, dbB := storetest.Open(t, databaseURL), storetest.Open(t, databaseURL)
	te := newTourneyEnv(t, dbA)
	b := newEnv(t, dbB)
	id, r, etag := runningTournament(te)
	waitTournamentListeners(t, dbA, 2)
	b.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "standings")}, nil)
	b.must(http.StatusNotModified, req{Method: "GET", Path: tpath(id, "standings"), Header: map[string]string{"If-None-Match": etag}}, nil)

	te.scores(id, 1, r.Tables[0].Number, te.referee, randomDeals(newRand(), 3)...)
	etag = changedWithin(t, b, id, etag, time.Second)

	old := tournamentListeners(t, dbA)
	for _, pid := range old {
		if _, err := dbA.SQL().Exec("SELECT pg_terminate_backend($1)", pid); err != nil {
			t.Fatal(err)
		}
	}
	te.scores(id, 1, r.Tables[1].Number, te.referee, randomDeals(newRand(), 3)...)
	waitTournamentListeners(t, dbA, 2, old...)
	if res := pollStandings(b, id, etag); res.Status != http.StatusOK {
		t.Errorf("B after listening again: %d, want 200", res.Status)
	}
}

// changedWithin polls e's standings with etag until they answer 200, and
// returns the new ETag.
func changedWithin(t *testing.T, e *env, id int64, etag string, limit time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		res := pollStandings(e, id, etag)
		if res.Status == http.StatusOK {
			return res.Header.Get("ETag")
		}
		if time.Now().After(deadline) {
			t.Fatalf("still %d %v after the change", res.Status, limit)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitTournamentListeners waits until n tournaments listeners of db's
// schema other than the connections old are listening.
func waitTournamentListeners(t *testing.T, db *store.DB, n int, old ...int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := len(slices.DeleteFunc(tournamentListeners(t, db), func(pid int) bool { return slices.Contains(old, pid) }))
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d listeners after 10 s", got, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// tournamentListeners are the connections listening for the tournaments
// of db's schema.
func tournamentListeners(t *testing.T, db *store.DB) []int {
	t.Helper()
	rows, err := db.SQL().Query(`SELECT pid FROM pg_stat_activity
		WHERE application_name = 'burraco tournaments listener' AND query LIKE 'LISTEN %' AND query LIKE '%' || current_schema() || '%'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var pids []int
	for rows.Next() {
		var pid int
		if err := rows.Scan(&pid); err != nil {
			t.Fatal(err)
		}
		pids = append(pids, pid)
	}
	return pids
}

// TestKeptRoundsAndStandingsFollowScores: a round's and the standings'
// answers are kept per version and served again while it holds; scores
// entered make the next reads show them at once.
func TestKeptRoundsAndStandingsFollowScores(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		id, r, _ := runningTournament(te)
		before := te.round(id, 1)
		if again := te.round(id, 1); jsonOf(again) != jsonOf(before) {
			t.Fatalf("the same round read twice differs:\n%s\n%s", jsonOf(before), jsonOf(again))
		}
		standings := te.standings(id)
		te.scores(id, 1, r.Tables[0].Number, te.referee, randomDeals(newRand(), 3)...)
		after := te.round(id, 1)
		if len(after.Tables[0].Deals) != 3 || after.Version == before.Version {
			t.Errorf("round 1 after scores: %s", jsonOf(after.Tables[0]))
		}
		if now := te.standings(id); jsonOf(now) == jsonOf(standings) {
			t.Errorf("standings unchanged after scores: %s", jsonOf(now))
		}
		te.problem(http.StatusNotFound, req{Method: "GET", Path: tpath(id, "rounds", 2)})
	})
}
