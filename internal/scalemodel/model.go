// Package scalemodel is the model of docs/SCALE-OUT.md (issue 30): a small
// deterministic computation of what serving each online table from one
// owner process costs and buys on 2 to 4 `serve` processes. It is no part
// of the server; it states the design's arithmetic so that the figures in
// the document can be recomputed, and changed, in one place. Every input is
// a named assumption with its source in the document.
package scalemodel

import "time"

// Inputs are the model's assumptions.
type Inputs struct {
	Tables int // online tables playing

	// MovesPerTable is each table's moves per second.
	MovesPerTable float64
	// RequestsPerMove are the table-routed requests a move brings: the
	// move itself and each seat's long poll answered (and sent again).
	RequestsPerMove float64

	// ForwardCPU is the CPU one forwarded request adds, both processes
	// told (the forwarder's reverse-proxy exchange, the owner's extra
	// connection); ForwardLatency the time it adds to the answer.
	ForwardCPU     time.Duration
	ForwardLatency time.Duration

	// Misaligned is, with balancer hashing, the share of tables whose
	// owner is not the process the balancer picks (after a restart, until
	// hand-back); 0 in the steady state.
	Misaligned float64

	// BaseMemory is a process's memory with no table; OwnedTable what a
	// table its owner serves holds (game, states, notifier, presence);
	// Connection what one open long poll holds on a process it passes
	// through (goroutine, buffers).
	BaseMemory, OwnedTable, Connection float64 // bytes
	PollsPerTable                      float64

	// Takeover: the lease's time to live, the sweep that notices an
	// expired lease, the acquiring statement, and per table taken over the
	// database reads and the replay (the stored position parsed, at most
	// PositionEvery-1 logged moves applied); Loaders is how many tables
	// are loaded at once (the pool's connections given to it).
	LeaseTTL, Sweep, Acquire, LoadReads, ParsePosition, ApplyMove time.Duration
	MovesReplayed                                                 int
	Loaders                                                       int

	// MoveLatency is a move's answer time (Little's law: moves in flight).
	MoveLatency time.Duration

	// ServerCPU and DBCPU are a move's CPU on its owner and on PostgreSQL
	// (the polls it wakes included) once tables are owned; SQLiteCPU is
	// the measured CPU per move of one SQLite process, the yardstick.
	ServerCPU, DBCPU, SQLiteCPU time.Duration
}

// Row is the model's output for one number of processes.
type Row struct {
	Processes int

	// ForwardedRoundRobin and ForwardedHashed are the shares of
	// table-routed requests that reach a process other than the owner,
	// with a balancer that spreads requests (round robin, least
	// connections) and with one hashing the table id.
	ForwardedRoundRobin, ForwardedHashed float64
	// ForwardsPerSec is the whole cluster's forwarded requests per second
	// (round robin, hashed).
	ForwardsPerSecRR, ForwardsPerSecHashed float64
	// CPUPerMove is the forwarding CPU per move (round robin, hashed).
	CPUPerMoveRR, CPUPerMoveHashed time.Duration
	// MeanExtraLatency is the forwarding latency a request sees on
	// average (round robin, hashed).
	MeanExtraLatencyRR, MeanExtraLatencyHashed time.Duration

	// MemoryPerProcess is one process's memory (round robin: a
	// forwarded poll is held on both processes; hashed).
	MemoryPerProcessRR, MemoryPerProcessHashed float64

	// Failover when one process of Processes is killed: the tables it
	// owned, the time until every one is served again (worst case: killed
	// just after a renewal), the long polls cut (the clients send them
	// again), the moves in flight whose answer is lost (sent again with
	// their Idempotency-Key) and the moves held, not failed, while the
	// leases run out.
	TablesTakenOver int
	TakeoverTime    time.Duration
	ReplayPerTable  time.Duration
	PollsCut        float64
	MovesInFlight   float64
	MovesHeld       float64

	// CPU per move, the owner's work and the database's included (round
	// robin, hashed), and its ratio to the single SQLite process's.
	TotalCPURR, TotalCPUHashed time.Duration
	RatioRR, RatioHashed       float64
}

// Compute returns one row per number of processes.
func Compute(in Inputs, processes ...int) []Row {
	rows := make([]Row, 0, len(processes))
	for _, p := range processes {
		rows = append(rows, compute(in, p))
	}
	return rows
}

func compute(in Inputs, p int) Row {
	n := float64(in.Tables)
	pf := float64(p)
	r := Row{Processes: p}

	// A spreading balancer sends a request to the owner one time in p.
	r.ForwardedRoundRobin = (pf - 1) / pf
	// A hashing one always picks the owner, but for misaligned tables.
	r.ForwardedHashed = in.Misaligned

	reqs := n * in.MovesPerTable * in.RequestsPerMove
	r.ForwardsPerSecRR = reqs * r.ForwardedRoundRobin
	r.ForwardsPerSecHashed = reqs * r.ForwardedHashed
	r.CPUPerMoveRR = scale(in.ForwardCPU, in.RequestsPerMove*r.ForwardedRoundRobin)
	r.CPUPerMoveHashed = scale(in.ForwardCPU, in.RequestsPerMove*r.ForwardedHashed)
	r.MeanExtraLatencyRR = scale(in.ForwardLatency, r.ForwardedRoundRobin)
	r.MeanExtraLatencyHashed = scale(in.ForwardLatency, r.ForwardedHashed)

	owned := n / pf
	polls := n * in.PollsPerTable / pf // polls arriving at each process
	// Round robin: every poll arriving is held here; the share forwarded
	// is held again on its owner (which receives as many from the others).
	r.MemoryPerProcessRR = in.BaseMemory + owned*in.OwnedTable +
		polls*in.Connection*(1+r.ForwardedRoundRobin)
	r.MemoryPerProcessHashed = in.BaseMemory + owned*in.OwnedTable +
		polls*in.Connection*(1+r.ForwardedHashed)

	// Failover of one process: it owned n/p tables.
	r.TablesTakenOver = int(owned + 0.5)
	r.ReplayPerTable = in.LoadReads + in.ParsePosition + time.Duration(in.MovesReplayed)*in.ApplyMove
	batches := (r.TablesTakenOver + in.Loaders - 1) / in.Loaders
	r.TakeoverTime = in.LeaseTTL + in.Sweep + in.Acquire + time.Duration(batches)*r.ReplayPerTable
	// The polls its clients held on it are cut, whichever the table
	// (n/p of them either way); those the others forwarded to it are held
	// by the forwarders until the new owner answers.
	r.PollsCut = n * in.PollsPerTable / pf
	// A table has at most one move waiting (its player waits for the
	// answer): in flight at the kill, by Little's law; held during the
	// takeover, at most one per table.
	movesOnIt := owned * in.MovesPerTable
	r.MovesInFlight = min(movesOnIt*in.MoveLatency.Seconds(), owned)
	r.MovesHeld = min(movesOnIt*r.TakeoverTime.Seconds(), owned)

	r.TotalCPURR = in.ServerCPU + in.DBCPU + r.CPUPerMoveRR
	r.TotalCPUHashed = in.ServerCPU + in.DBCPU + r.CPUPerMoveHashed
	r.RatioRR = float64(r.TotalCPURR) / float64(in.SQLiteCPU)
	r.RatioHashed = float64(r.TotalCPUHashed) / float64(in.SQLiteCPU)
	return r
}

func scale(d time.Duration, f float64) time.Duration { return time.Duration(float64(d) * f) }
