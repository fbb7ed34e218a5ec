package store

import (
	"database/sql"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mattn/go-sqlite3"
	"gorm.io/gorm"

	"github.com/burraco/burraco/domain"
)

// violation is the kind of constraint a driver error reports.
type violation int

const (
	noViolation violation = iota
	uniqueViolation
	foreignKeyViolation
	busy // a lock could not be had in time, or a deadlock or serialisation failure: retry
)

// conflictMessages are the user-safe messages of unique violations, keyed by
// PostgreSQL index name and by SQLite "table.columns".
var conflictMessages = map[string]string{
	"users_email_key":                          "email is already registered",
	"users.email":                              "email is already registered",
	"players_federation_id_key":                "federation id is already in use",
	"players.federation_id":                    "federation id is already in use",
	"players_user_id_key":                      "user already has a player profile",
	"players.user_id":                          "user already has a player profile",
	"memberships_club_id_user_id_key":          "user is already a member of the club",
	"memberships.club_id, memberships.user_id": "user is already a member of the club",
	"settings_pkey":                            "setting already exists",
	"settings.name":                            "setting already exists",
	"refresh_tokens_token_hash_key":            "token already exists",
	"refresh_tokens.token_hash":                "token already exists",
	"schema_migrations_pkey":                   "migration already applied",
	"schema_migrations.version":                "migration already applied",
}

// classify reports which constraint, if any, err violates, and its name.
func classify(err error) (violation, string) {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "23505":
			return uniqueViolation, pgErr.ConstraintName
		case "23503":
			return foreignKeyViolation, pgErr.ConstraintName
		case "40001", "40P01", "55P03": // serialization_failure, deadlock_detected, lock_not_available
			return busy, ""
		}
		return noViolation, ""
	}
	var liteErr sqlite3.Error
	if errors.As(err, &liteErr) {
		switch liteErr.ExtendedCode {
		case sqlite3.ErrConstraintUnique, sqlite3.ErrConstraintPrimaryKey:
			_, cols, _ := strings.Cut(liteErr.Error(), "constraint failed: ")
			return uniqueViolation, cols
		case sqlite3.ErrConstraintForeignKey:
			return foreignKeyViolation, ""
		}
		if liteErr.Code == sqlite3.ErrBusy || liteErr.Code == sqlite3.ErrLocked {
			return busy, ""
		}
	}
	return noViolation, ""
}

// isBusy reports whether err is a lock that was not granted in time.
func isBusy(err error) bool {
	v, _ := classify(err)
	return v == busy
}

// translate turns a GORM or driver error from a read or write of entity
// (e.g. "club") into a *domain.Error: missing row → ENotFound, unique
// violation → EConflict, reference to a missing row → ENotFound. Other
// errors are returned as they are (internal errors).
func translate(err error, entity string) error {
	if err == nil {
		return nil
	}
	var de *domain.Error
	if errors.As(err, &de) {
		return err
	}
	if errors.Is(err, gorm.ErrRecordNotFound) || errors.Is(err, sql.ErrNoRows) {
		return &domain.Error{Code: domain.ENotFound, Message: entity + " not found", Err: err}
	}
	switch kind, name := classify(err); kind {
	case uniqueViolation:
		msg, ok := conflictMessages[name]
		if !ok {
			msg = entity + " already exists"
		}
		return &domain.Error{Code: domain.EConflict, Message: msg, Err: err}
	case foreignKeyViolation:
		return &domain.Error{Code: domain.ENotFound, Message: "a record referenced by the " + entity + " does not exist", Err: err}
	case busy:
		return errBusy(err)
	}
	return err
}

// errBusy is the EUnavailable of a lock that could not be had in time.
func errBusy(err error) error {
	return &domain.Error{Code: domain.EUnavailable, Message: "the database is busy; try again in a moment", Err: err}
}

// translateTx translates what a transaction as a whole returns: the
// callback's *domain.Error unchanged, and a busy database (e.g. at BEGIN
// IMMEDIATE or COMMIT, where no repository sees it) as EUnavailable.
func translateTx(err error) error {
	if err == nil {
		return nil
	}
	var de *domain.Error
	if errors.As(err, &de) {
		return err
	}
	if kind, _ := classify(err); kind == busy {
		return errBusy(err)
	}
	return err
}

// translateDelete is translate for deletes, where a foreign-key violation
// means the row is still referenced: EConflict.
func translateDelete(err error, entity string) error {
	if kind, _ := classify(err); kind == foreignKeyViolation {
		return &domain.Error{Code: domain.EConflict, Message: entity + " is still in use", Err: err}
	}
	return translate(err, entity)
}

// notFound is the ENotFound of an entity, for updates and deletes that
// matched no row.
func notFound(entity string) error {
	return &domain.Error{Code: domain.ENotFound, Message: entity + " not found"}
}
