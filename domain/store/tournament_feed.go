package store

import (
	"context"
	"strconv"

	"github.com/burraco/burraco/domain"
)

// Tournament changes cross server processes as table changes do (see
// table_feed.go): every write of a tournament's row (its version, its
// last update, its opening) sends pg_notify(channel, "id") inside its
// transaction, delivered when it commits. A process that keeps
// tournaments' stamps in memory (so that a hall screen's poll is answered
// without a query) forgets a stamp when it hears of its change.

// tournamentsChannel is the SQL expression of the channel of the current
// schema.
const tournamentsChannel = `CASE current_schema() WHEN 'public' THEN 'burraco_tournaments' ELSE 'burraco_tournaments_' || current_schema() END`

// tournamentsListenerName is the application_name of the listening
// connection.
const tournamentsListenerName = "burraco tournaments listener"

var _ domain.TournamentFeed = (*DB)(nil)

// announceTournament sends a tournament's change to every process
// (PostgreSQL), delivered when t commits.
func (t *tx) announceTournament(id int64) error {
	if t.dialect != Postgres {
		return nil
	}
	return translate(t.db.Exec("SELECT pg_notify("+tournamentsChannel+", ?)", strconv.FormatInt(id, 10)).Error, "tournament")
}

// FollowTournaments implements domain.TournamentFeed. On SQLite this
// process is the only writer: it calls listening(true) and waits for ctx.
// On PostgreSQL it listens on its own connection: listening(true) each
// time it starts listening, listening(false) when the connection is lost,
// changed for each change any process commits.
func (db *DB) FollowTournaments(ctx context.Context, changed func(id int64), listening func(on bool)) error {
	if db.dialect != Postgres {
		listening(true)
		<-ctx.Done()
		listening(false)
		return nil
	}
	db.follow(ctx, feed{name: tournamentsListenerName, channel: tournamentsChannel,
		listening: func() { listening(true) }, lost: func() { listening(false) },
		payload: func(p string) {
			if id, err := strconv.ParseInt(p, 10, 64); err == nil {
				changed(id)
			}
		}})
	return nil
}
