package migrations

// Bind rewrites the ? placeholders of a query as PostgreSQL's $1, $2, ...,
// for tests that write SQL for both databases.
func Bind(query string) string { return bind(Postgres, query) }
