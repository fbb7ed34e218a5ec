// Command benchhttp holds the baselines of .ci/bench-http.sh, which
// measures a real `burraco serve` with wrk; it is not part of the product.
//
//	go run ./.ci/benchhttp bare ADDR          serve a bare net/http handler on ADDR
//	go run ./.ci/benchhttp inserts FILE N     time N single-row INSERT transactions
//	                                          on a new SQLite FILE (the server's pragmas)
package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/migrations"
)

func main() {
	var err error
	switch {
	case len(os.Args) == 3 && os.Args[1] == "bare":
		err = bare(os.Args[2])
	case len(os.Args) == 4 && os.Args[1] == "inserts":
		err = inserts(os.Args[2], os.Args[3])
	default:
		err = fmt.Errorf("usage: benchhttp bare ADDR | inserts FILE N")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchhttp:", err)
		os.Exit(1)
	}
}

// bare answers every request with a small JSON body, as /healthz does,
// on the server's http.Server settings, and prints the address it listens
// on.
func bare(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Println(ln.Addr())
	body := []byte(`{"status":"ok"}` + "\n")
	// On the server's own http.Server settings (time-outs), as serve runs.
	return api.NewHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}), nil).Serve(ln)
}

// inserts prints the rate of a raw loop of single-row INSERT transactions
// (a prepared statement) on a migrated SQLite file opened as the server
// opens it.
func inserts(file, count string) error {
	n, err := strconv.Atoi(count)
	if err != nil {
		return err
	}
	ctx := context.Background()
	db, err := store.Open(ctx, file)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := migrations.Up(ctx, db.SQL(), db.Dialect()); err != nil {
		return err
	}
	stmt, err := db.SQL().Prepare("INSERT INTO players (name, created_at, updated_at) VALUES (?, ?, ?)")
	if err != nil {
		return err
	}
	defer stmt.Close()
	start := time.Now()
	for range n {
		tx, err := db.SQL().Begin()
		if err != nil {
			return err
		}
		now := time.Now().UTC()
		if _, err := tx.Stmt(stmt).Exec("Bench Player", now, now); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	fmt.Printf("%.0f\n", float64(n)/time.Since(start).Seconds())
	return nil
}
