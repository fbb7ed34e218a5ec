// Package store implements domain.Storage with GORM on SQLite (a file) or
// PostgreSQL. It is the only package that knows GORM and the SQL drivers:
// its models are separate from the domain types, and driver errors are
// translated into *domain.Error here, once.
//
// The schema is created by the migrations package, never by GORM.
//
// Every statement runs through GORM: its query builder where a repository
// reads or writes models, its raw SQL (Raw, Exec; rawsql.go) for the
// statements of the request path written by hand. Either way GORM's
// callbacks check each statement (registerChecks).
//
// Words used in this package's comments:
//   - a write mark (write_marks.go) is a number that changes with every
//     committed write to the tables (or columns) a read reads, so that the
//     read may be answered from memory while it has not moved;
//   - the read pin (checkpoint.go) is a read transaction the checkpointer
//     holds open on a SQLite file, so that the readers' locks cost no
//     system call;
//   - group commit (batch.go) is the writers of a SQLite file sharing one
//     transaction, each in a savepoint, and one commit;
//   - the table cache (table_cache.go) holds each table's row and seats at
//     the version last committed;
//   - timeCols and timeCol are how a row's times are selected, so that the
//     timestamp scanner reads them alike on both databases.
package store
