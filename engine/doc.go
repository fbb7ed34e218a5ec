// Package engine plays Burraco: the rules of one deal (smazzata) for every
// rule set of the project's RULES.md — Italian Burraco of the FIBUR code
// (fibur, 4 or 2 players), Burraco in 2 with face-up rows (fibur-row),
// Burraco Reale (reale), and the Brazilian Buraco Aberto and Fechado
// (aberto, fechado) — with the table options of RULES §11.
//
// It owns cards and their notation, melds (giochi: sequences, scale, and
// sets, combinazioni) and wild cards (matte: the jolly and the pinella, a
// 2), rule sets and options, positions and their notation, moves and their
// validation, the deal procedure from a recorded seed, scoring, seat views
// and the record of a deal. It is pure Go on the standard library: no I/O,
// no clock, no global random source; the same seed and moves always give the
// same deal.
//
// # Vocabulary
//
// A deal is dealt by the dealer (mazziere) from two decks (mazzo); each team
// (linea, coppia) may take one of two pots (pozzetti; Brazilian morti) of 11
// cards when a player first runs out of cards. The stock is the tallone, the
// discard pile the monte degli scarti (pozzo). A meld of 7 or more cards is
// a burraco (canastra); closing (chiusura) ends the deal. Points of a deal
// are match points (MP).
//
// # Playing
//
// A Game is one deal. Make one with Deal (a new deal from a seed) or
// LoadPosition / ParsePosition (any position, like a chess FEN; partial decks
// are allowed). Its state is read through getters that return copies. It
// changes only through Apply, which checks the move in one place (Check) and
// either applies it or returns a *RuleError with a stable Code
// (not_your_turn, invalid_meld, must_keep_card, …) leaving the game
// untouched:
//
//	g, _ := engine.Deal(rules, dealer, seed, nil)
//	err := g.Apply(g.Turn(), engine.DrawMove())
//	if engine.ErrorCode(err) == engine.ErrWrongPhase { … }
//
// Moves have a JSON notation, the vocabulary of the conformance cases
// ({"move":"attach","meld":0,"cards":["5H"]}); Position is the notation of a
// whole position. Summary tells a frontend which controls to enable, from a
// complete search: can_meld is true iff some meld move is legal, can_attach
// iff some attach is (one card or several); can_pickup in fechado, where
// the pile under its top card is hidden, iff some pickup laying the top card
// with hand cards only (in a new meld, or attached to a meld of the team)
// is legal whatever the hidden cards are (a lower bound: every Summary field
// depends only on what the seat sees).
// LegalMoves lists legal moves (complete for takes, discards and
// single-card attaches, a generated sample of melds, with a move of the
// complete search for every kind Summary allows; in fechado it sees the
// whole pile, so it is not for showing to a seat); View is what one seat
// may see, and nothing else.
// Score gives each team's breakdown (cards, bonus, closing, hand, pot,
// total); the match helpers (MatchFormat.Status, RunningTotals) sum deals;
// a Record (rules, dealer, seed, moves, the referee's time-out) replays a
// deal exactly. Catalog describes the rule sets and their options (the data
// of GET /rules). docs/RULES.md is the reference of all of it for frontend
// authors and referees.
//
// Bot plays a seat (a greedy beginner, deterministic given its random
// source) from what that seat may see; TimeoutMoves gives the moves a
// server plays for a seat whose turn limit ran out (draw, then discard the
// highest-value card it may):
//
//	m, err := engine.NewBot(engine.NewRand(seed)).Move(g)
//	ms, err := engine.TimeoutMoves(g)
//
// # Decisions
//
// Where RULES leaves room, the engine decides as follows.
//   - closing_discard=no_pinella bars only the 2s from the closing discard;
//     a joker may close. The default no_wild bars both.
//   - A meld or attach is refused (must_keep_card) when it would leave the
//     player without a legal discard: an empty hand once the team's pot is
//     taken (or no pot is left to take), a single card that could not close
//     (a barred wild, or no qualifying burraco), or a single card that is the
//     card picked up alone from the pile this turn. In fibur-row a single
//     card may wait while the row is cleared (RULES §6): the row cards left
//     must attach, in order, to the team's melds (any meld, any wild_as),
//     and the qualifying burraco is judged once they are attached (the
//     player then closes in the same turn). Rows are judged by a bounded
//     search (20,000 attaches, far above real rows); past the bound the
//     move is refused.
//   - The natural 2 at the low end (RULES §5) moves only into the one gap
//     a new end card opens, and only when the cards do not fit with it in
//     place: a wild_as cannot send it to an end, an ace added in the same
//     attach imprisons it (2C 3C 4C + AC 6C is refused), and a meld with a
//     wild keeps it where it is.
//   - A 2 of the suit whose card is attached turns natural whenever the
//     2 position lets it; a wild_as that would keep it wild is refused
//     (invalid_meld), while one naming the place of another wild of the
//     same attach is honoured (3D 2D(=4D) 5D + 4D JK, wild_as 6D).
//   - Discarding the last card when the team has not taken its pot and no
//     pot is left (a Brazilian morto became the stock) is refused
//     (cannot_close).
//   - wild_as applies to the first meld of a move (cards, or the first of
//     melds); a row meld takes exactly two hand cards, a row attach only the
//     row card.
//   - A fechado pickup with attach may not attach a wild top card
//     (pickup_requires_meld): a wild top card must start a new meld. The
//     cards joining the top card (cards) come from the hand or from under
//     the top, as those of further melds (melds) do; wild_as applies to the
//     attach.
//   - The single-card pickup rule applies to every rule set.
//   - The reale stock is drawn to the end like the Brazilian ones (RULES
//     §7); only fibur and fibur-row keep the last two cards.
//   - round_up_10 rounds each deal's total towards +∞ (−115 → −110).
//   - The canastra of 2s (1000, with or without its joker) and the real
//     canastra (1000) replace the usual bonus of that meld, and a set of
//     eight 2s that is both scores 1000 once; semi-clean burraco is 150
//     whatever canastra_bonus says. A set of 2s is clean without its joker
//     and dirty with it (any canastra closes in fechado).
//   - TimeoutMoves discards, among the cards of equal value, the higher
//     rank (the ace high), then the first suit in S H D C order; when no
//     card may be drawn it takes the pile where a plain pickup is legal.
//   - An unplayed pot ends when the seat that took it next comes to turn.
//     A position names that seat per team in pot_seat while the pot is
//     unplayed (written then, -1 for the other teams); absent, it defaults
//     to FORMAT's guess, the team's seat that last played before the seat
//     on turn. A pot_seat on turn outside phase over is bad_position: that
//     player is already playing the pot.
//   - Options apply only to the rule sets of RULES §11's "applies to"
//     column. An option key present in the input of a rule set it does not
//     apply to is bad_option whatever its value, the default included
//     (reale refuses even "jokers":false). Options hold zero for the
//     options that do not apply, and encode only those that do, so every
//     options object, position, view and record the engine writes it reads
//     back. Every problem of an options object is reported together
//     (OptionProblems; ParseOptions' message lists them all). Catalog is
//     the same table as data for GET /rules; among its match defaults, a
//     fixed number of deals per round (2, 3 or 4) is marked typical for
//     fibur only (tournament play), the others are played to the target.
//   - A position holding a joker in reale, or with jokers false, is
//     bad_position wherever the joker lies (hands, rows, stock, pile, pots,
//     melds).
//   - The referee's time-out (CallTimeOut, RULES §10) is read literally:
//     "the last round of turns starts with the partner of the player due to
//     take" names the round in progress. With 4 players, seats 0-3
//     clockwise, called while seat 1 plays after drawing: the player due to
//     take is seat 2, its partner seat 0, who played just before seat 1; the
//     round 0-1-2-3 is the last, so seat 1 finishes the turn, seats 2 and 3
//     play, and the deal ends with seat 3's discard (3 turns left; seat 0
//     has no further turn). Called before seat 1 has drawn, a full round
//     1-2-3-0 (4 turns). With 2 players each seat is its own team and its
//     own "partner": called while seat 0 plays, the player due to take is
//     seat 1, the round 1-0 is in progress and the deal ends with seat 0's
//     discard (1 turn); before seat 0 has drawn, the round 0-1 (2 turns).
//     Anticlockwise, "next" is the next seat in the direction of play. A
//     closing in the last round scores its 100 and ends the deal; if the
//     stock runs out first, the deal ends by stock exhaustion (end "stock");
//     otherwise it ends with end "timeout" and no closing bonus.
//     EndByReferee still ends a deal at once (stalemate). A position writes
//     the last round as "last_round":{"until":3,"turns_left":3} (until alone
//     is enough on input), a View carries the same object, and a Record
//     the number of moves played when the time-out was called
//     ("timeout_at"). The conformance format has no time-out: it is tested
//     by the engine's tests and the sample record.
//   - A vulnerable team's first melds may be laid only together when each
//     is under 75: Summary.CanMeld is then true if some combination of
//     disjoint melds worth 75 is legal, and Summary.MeldMinimum (75) tells
//     the frontend that the melds must be laid in one move.
package engine
