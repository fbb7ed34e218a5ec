package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/burraco/burraco/engine"
)

// runReplay replays a deal record (engine.Record as JSON) and prints the
// final position and, when the deal is over, the score. With -check FILE it
// also compares the final position with the position in FILE. Exit status 1
// when a move is illegal or the check fails.
func runReplay(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	check := fs.String("check", "", "compare the final position with this position file")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: burraco replay [-check POSITION.json] RECORD.json")
		return 2
	}
	data, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "burraco replay: %v\n", err)
		return 1
	}
	var rec engine.Record
	if err := json.Unmarshal(data, &rec); err != nil {
		fmt.Fprintf(stderr, "burraco replay: %s is not a deal record: %s\n\n%s", fs.Arg(0), readableErr(err), recordHelp)
		return 1
	}
	g, err := rec.Replay()
	if err != nil {
		fmt.Fprintf(stderr, "burraco replay: %v\n", err)
		return 1
	}
	out := struct {
		Moves    int             `json:"moves"`
		Over     bool            `json:"over"`
		Position engine.Position `json:"position"`
		Score    []engine.Score  `json:"score,omitempty"`
	}{Moves: len(rec.Moves), Over: g.Over(), Position: g.Position()}
	if g.Over() {
		out.Score = g.Score()
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintf(stderr, "burraco replay: %v\n", err)
		return 1
	}
	if *check != "" {
		return checkReplay(*check, g, stderr)
	}
	return 0
}

// recordHelp says what a record looks like, for a file that is not one.
const recordHelp = `A deal record is one JSON object (engine.Record):
  rules             fibur, fibur-row, reale, aberto or fechado
  options           the table options that apply to the rule set ({} or absent: the defaults)
  players           2 or 4
  dealer            the dealer's seat (0 to players-1)
  seed              the seed of the shuffle: a string or a number (0 to 2^64-1)
  cards             optional: the cards the seed deals, {"hands","rows","discard","pots","stock"}
                    (stock top first); a record whose cards are not what its seed deals is refused
  totals            optional: the running match totals per team the deal started with
  moves             the moves in order, each {"seat":N, ...the move's notation}
  timeout_at        optional: the number of moves played when the referee called the time-out
  ended_by_referee  optional: true when the referee ended the deal after the last move
For example:
  {"rules":"fibur","players":4,"dealer":3,"seed":"20261121",
   "moves":[{"seat":0,"move":"draw"},{"seat":0,"move":"discard","card":"9C"}]}
The moves are those of docs/RULES.md ("draw", "pickup", "meld", "attach", "discard", "redraw");
testdata/records/fibur-4.json is a complete deal.
`

// readableErr is err's message without encoding/json's Go vocabulary.
func readableErr(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("not valid JSON at byte %d (%v)", se.Offset, se)
	}
	return err.Error()
}

func checkReplay(path string, g *engine.Game, stderr io.Writer) int {
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "burraco replay: %v\n", err)
		return 1
	}
	want, err := engine.ParsePosition(data)
	if err != nil {
		fmt.Fprintf(stderr, "burraco replay: %s: %v\n", path, err)
		return 1
	}
	a, _ := json.Marshal(g.Position())
	b, _ := json.Marshal(want.Position())
	if string(a) != string(b) {
		fmt.Fprintf(stderr, "burraco replay: final position differs from %s\n", path)
		return 1
	}
	return 0
}
