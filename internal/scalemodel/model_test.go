package scalemodel

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

const kB, MB = 1000.0, 1000.0 * 1000.0

// human is issue 30's 1,000 tables at human pace (think 2 s): 446 moves/s
// measured on SQLite, 2.10 ms of CPU per move. Every other figure is an
// assumption whose source docs/SCALE-OUT.md gives ("The model").
var human = Inputs{
	Tables:          1000,
	MovesPerTable:   0.446,
	RequestsPerMove: 5, // the move and the four seats' polls it answers
	ForwardCPU:      40 * time.Microsecond,
	ForwardLatency:  200 * time.Microsecond,
	BaseMemory:      25 * MB,
	OwnedTable:      90 * kB,
	Connection:      14 * kB,
	PollsPerTable:   4,
	LeaseTTL:        3 * time.Second,
	Sweep:           250 * time.Millisecond,
	Acquire:         5 * time.Millisecond,
	LoadReads:       1 * time.Millisecond,
	ParsePosition:   100 * time.Microsecond,
	ApplyMove:       2 * time.Microsecond,
	MovesReplayed:   15, // PositionEvery-1
	Loaders:         8,
	MoveLatency:     50 * time.Millisecond,
	ServerCPU:       1990 * time.Microsecond, // SQLite's 2.10 ms less its own statements (0.16 ms), plus pgx (0.05 ms)
	DBCPU:           450 * time.Microsecond,
	SQLiteCPU:       2100 * time.Microsecond,
}

// bots is issue 30's CPU target: 100 tables at bots' pace, 1,334 moves/s
// and 1.09 ms of CPU per move on SQLite.
var bots = func() Inputs {
	in := human
	in.Tables = 100
	in.MovesPerTable = 13.34
	in.ServerCPU = 980 * time.Microsecond
	in.SQLiteCPU = 1090 * time.Microsecond
	return in
}()

func TestModelMeetsIssue30Targets(t *testing.T) {
	for _, c := range []struct {
		name string
		in   Inputs
	}{{"1,000 tables, human pace", human}, {"100 tables, bots' pace", bots}} {
		rows := Compute(c.in, 2, 3, 4)
		t.Logf("%s\n%s", c.name, format(rows))
		for _, r := range rows {
			if r.TakeoverTime >= 5*time.Second {
				t.Errorf("%s, %d processes: takeover %v, want under 5 s", c.name, r.Processes, r.TakeoverTime)
			}
			if r.ForwardedHashed != 0 {
				t.Errorf("%s, %d processes: hashing forwards %.2f in the steady state, want none", c.name, r.Processes, r.ForwardedHashed)
			}
			if r.RatioHashed > 1.5 {
				t.Errorf("%s, %d processes: CPU per move %.2f× SQLite's with hashing, want at most 1.5×", c.name, r.Processes, r.RatioHashed)
			}
		}
	}
	perTable := human.OwnedTable + human.PollsPerTable*human.Connection
	if perTable > 150*kB {
		t.Errorf("a playing table holds %.0f kB, want at most 150 kB", perTable/kB)
	}
}

// TestModelForwardsWhatASpreadingBalancerMisses checks the model's one
// formula that is not arithmetic on inputs: with p processes and requests
// spread evenly, a request reaches its table's owner one time in p.
func TestModelForwardsWhatASpreadingBalancerMisses(t *testing.T) {
	for p, want := range map[int]float64{1: 0, 2: 0.5, 3: 2.0 / 3, 4: 0.75} {
		if got := Compute(human, p)[0].ForwardedRoundRobin; got != want {
			t.Errorf("%d processes: %.3f forwarded, want %.3f", p, got, want)
		}
	}
}

func format(rows []Row) string {
	var b strings.Builder
	line := func(name string, f func(Row) string) {
		fmt.Fprintf(&b, "| %-44s |", name)
		for _, r := range rows {
			fmt.Fprintf(&b, " %-18s |", f(r))
		}
		b.WriteByte('\n')
	}
	line("processes", func(r Row) string { return fmt.Sprint(r.Processes) })
	line("forwarded: spreading balancer / hashing", func(r Row) string {
		return fmt.Sprintf("%.0f%% / %.0f%%", 100*r.ForwardedRoundRobin, 100*r.ForwardedHashed)
	})
	line("forwards/s: spreading / hashing", func(r Row) string {
		return fmt.Sprintf("%.0f / %.0f", r.ForwardsPerSecRR, r.ForwardsPerSecHashed)
	})
	line("forwarding CPU per move: spreading / hashing", func(r Row) string {
		return fmt.Sprintf("%v / %v", r.CPUPerMoveRR.Round(time.Microsecond), r.CPUPerMoveHashed)
	})
	line("mean added latency: spreading / hashing", func(r Row) string {
		return fmt.Sprintf("%v / %v", r.MeanExtraLatencyRR.Round(time.Microsecond), r.MeanExtraLatencyHashed)
	})
	line("CPU per move: spreading / hashing", func(r Row) string {
		return fmt.Sprintf("%v / %v", r.TotalCPURR.Round(time.Microsecond), r.TotalCPUHashed.Round(time.Microsecond))
	})
	line("× SQLite's: spreading / hashing", func(r Row) string {
		return fmt.Sprintf("%.2f / %.2f", r.RatioRR, r.RatioHashed)
	})
	line("memory per process, MB: spreading / hashing", func(r Row) string {
		return fmt.Sprintf("%.0f / %.0f", r.MemoryPerProcessRR/MB, r.MemoryPerProcessHashed/MB)
	})
	line("tables taken over (one process killed)", func(r Row) string { return fmt.Sprint(r.TablesTakenOver) })
	line("replay per table", func(r Row) string { return r.ReplayPerTable.String() })
	line("takeover time (worst)", func(r Row) string { return r.TakeoverTime.Round(time.Millisecond).String() })
	line("long polls cut (sent again)", func(r Row) string { return fmt.Sprintf("%.0f", r.PollsCut) })
	line("moves in flight (answer lost, sent again)", func(r Row) string { return fmt.Sprintf("%.1f", r.MovesInFlight) })
	line("moves held during takeover (delayed)", func(r Row) string { return fmt.Sprintf("%.0f", r.MovesHeld) })
	return b.String()
}
