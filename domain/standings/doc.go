// Package standings ranks the entries of a tournament from the results of
// its rounds (RULES §10): each entry's VP, MP for and against and their
// difference, opponents, head-to-head results, penalties with their reasons,
// byes (the event's rest score) and abandonments (6 or 8 VP at most for the
// pair that leaves), then the ranking by an ordered, configurable list of
// tie-breaks, each tie broken visibly: every row says which criterion put it
// ahead of the next one, so a hall screen can show "ahead on MP difference".
// It imports the standard library only.
//
// # Tie-breaks
//
// Each criterion is applied to the entries still tied. When it separates
// some of them, those still tied among themselves are compared again from
// the same criterion, so head-to-head is recomputed within the smaller group
// (the absolute criteria — VP, MP, opponents' VP — cannot separate them
// again and pass on to the next).
//
//   - vp: total VP, after VP penalties.
//   - mp_difference: MP for − MP against − MP penalties.
//   - mp_for: MP for.
//   - head_to_head: a mini-table among the tied entries: each one's VP won
//     in its matches against the others of the group. It applies only when
//     every two entries of the group met, and the same number of times
//     (else it cannot compare them fairly and separates nobody).
//   - opponents_vp: the sum of the final VP of every opponent met (one term
//     per meeting; byes add nothing).
//   - lots: a draw recorded with the standings: the seed gives every entry
//     a lot number (1 is best), the same for every computation with that
//     seed, so the result can be reproduced and checked.
//
// Without lots in the list, entries tied on every criterion share a rank.
//
// # Byes, abandonment, penalties
//
// A bye scores the event's rest score (Config.RestVP, RestMP) and no
// opponent. A pair that abandons a table keeps the VP its table's result
// gives it, but at most AbandonCap (6 VP in rounds of 2–3 deals, 8 in
// rounds of 4) — "unless it already has less" read as the VP of that table;
// the pair left behind keeps what it scored, or gets the rest score when the
// event says so (Config.RemainingGetsRest). Penalties are positive amounts
// taken off: VP from the VP total, MP from the MP difference (MP for and
// against stay as played).
package standings
