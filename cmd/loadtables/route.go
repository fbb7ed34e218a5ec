package main

import (
	"fmt"
	"hash/fnv"
	"io"
	"strconv"
)

// -route (issue 30, docs/SCALE-OUT.md §11): which server each seat's client
// sends its requests to, as the balancer in front of the servers would.
const (
	// routeSeat binds seat i of the t-th table seated to server (t+i) mod n,
	// as a balancer spreading connections would: with leases, a table's
	// requests reach its owner one time in n, the others are forwarded.
	routeSeat = "seat"
	// routeTable binds every seat of a table to the server a balancer
	// hashing on the table id picks (§11's HAProxy and nginx
	// configurations): a table's requests all reach one process, which
	// takes its lease at the first request and forwards nothing.
	routeTable = "table"
)

// routeByTable binds each table's clients to the server of its id (see
// bindToTable). It runs before play, while no client is in use.
func routeByTable(servers []*server, seats map[int64][]*client) {
	for id, clients := range seats {
		bindToTable(servers, id, clients)
	}
}

// bindToTable binds clients to the server of table id, once the table
// exists: its id is known only then (the sign-ups and the table's
// creation went wherever -route seat sends them). The joins must go there
// too: the first request of a table's path takes its lease, and a
// balancer hashing the id would send them there.
func bindToTable(servers []*server, id int64, clients []*client) {
	base := servers[tableServer(id, len(servers))].base
	for _, cl := range clients {
		cl.base = base
	}
}

// tableServer is the index, among n servers, of the one a balancer hashing
// the table id picks: FNV-1a of the id as the path writes it, modulo n (a
// proxy hashes the text of the path; which hash does not matter here, only
// that every request of a table goes to one server and the tables spread).
func tableServer(id int64, n int) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(strconv.FormatInt(id, 10)))
	return int(h.Sum32() % uint32(n))
}

// forwardSample adds a burraco_table_forwards_total sample to f: the
// requests a server received for a table it did not own and forwarded to
// the owner (outcome ok), and those whose forward failed (owner_gone,
// misdirected, timeout). outcome local (the lease was free: the receiver
// took it and served the request itself) is no forward.
func forwardSample(f *serverFigures, name string, n int64) {
	switch label(name, "outcome") {
	case "ok":
		f.forwards += n
	case "local":
	default:
		f.forwardsFailed += n
	}
}

// printForwards says how many of the seats' requests a server forwarded
// to the table's owner during play (each forwarded request is served
// twice: by the proxy of the process that received it and by the owner).
func (r *result) printForwards(w io.Writer, o options) {
	if !o.leases {
		return
	}
	share := 0.0
	if n := r.server.polls + r.server.moveRequests; n > 0 {
		// The forwarder counts a forwarded request in no route (it never
		// reaches its router); the owner counts it once.
		share = float64(r.server.forwards) / float64(n)
	}
	fmt.Fprintf(w, "  -route %s: requests forwarded to the table's owner %d (%.0f%% of the state and move requests), forwards failed %d (burraco_table_forwards_total)\n",
		o.route, r.server.forwards, 100*share, r.server.forwardsFailed)
}

// printCPU says the CPU per move in microseconds: the report's line in
// tenths of a millisecond is too coarse for a ratio of two runs.
func (r *result) printCPU(w io.Writer) {
	if r.moves == 0 {
		return
	}
	server, db := r.serverCPU.Microseconds()/r.moves, r.databaseCPU.Microseconds()/r.moves
	if r.clientsCPU > 0 {
		defer fmt.Fprintf(w, "  the clients' CPU per move (this load generator, on the same cores), µs: %d\n", r.clientsPerMove().Microseconds())
	}
	if db == 0 {
		fmt.Fprintf(w, "  CPU per move, µs: server %d\n", server)
		return
	}
	if r.backendsCPU < 0 {
		fmt.Fprintf(w, "  CPU per move, µs: server %d, PostgreSQL %d (every postgres process; the run's backends could not be listed)\n", server, db)
		return
	}
	own := r.backendsCPU.Microseconds() / r.moves
	fmt.Fprintf(w, "  CPU per move, µs: server %d, PostgreSQL %d (every postgres process) or %d (this run's backends alone); server and backends %d\n",
		server, db, own, server+own)
}
