package domain

import "github.com/burraco/burraco/engine"

// EngineBot is the built-in bot of online tables: the engine's greedy Bot,
// which decides only from what its seat may see, its random choices drawn
// from seed (a fresh secret number per move: never the deal's seed, which
// its choices could betray).
func EngineBot(g *engine.Game, seat int, seed uint64) (engine.Move, error) {
	if g.Turn() != seat {
		return engine.Move{}, &engine.RuleError{Code: engine.ErrNotYourTurn, Message: "the bot's seat is not on turn"}
	}
	return engine.NewBot(engine.NewRand(seed)).Move(g)
}
