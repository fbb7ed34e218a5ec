// Package pairing draws the tables of one round of a tournament (RULES §10,
// movements): Mitchell, pure and modified Danish, round robin
// (all'italiana), random draw and knockout for pairs and teams, and the
// changing partnerships of individual events; it checks a referee's manual
// override of a round. It imports the standard library only.
//
// Every function is pure: the field (entries, history of earlier rounds,
// standings, forbidden pairs) comes in, the round (tables and byes) comes
// out, and the random source is injected, so a draw is reproducible from its
// seed (NewRand).
//
// # Constraints and how they give way
//
// A forbidden pair (the same club when the event forbids it, or a pair the
// referee listed) never meets: when a movement cannot avoid it the call
// fails with an *Error listing the entries it could not pair. The searched
// movements (Danish, modified Danish, random draw, individual) use a bounded
// backtracking search that pairs the best-placed entry first with the
// nearest allowed one; when the preferred constraints cannot all hold they
// give way in this order, the forbidden pairs never:
//
//   - modified Danish (RULES §10): no rematch of the previous round, older
//     rematches allowed and not avoided; then failure. The last round is
//     pure Danish: rematches, the previous round's included, are allowed.
//   - modified Danish avoiding repeats (the event's avoid_repeat_opponents,
//     beyond RULES): no rematch of any earlier round; then no rematch of the
//     previous round (except in the last round, where that too gives way);
//     then failure.
//   - random draw: no rematch; then rematches allowed.
//   - pure Danish: rematches are allowed (1–2, 3–4, … by standings), only
//     forbidden pairs are avoided, by moving the fewest entries.
//   - individual: partnerships first, no repeated partner, then repeats
//     allowed; then the partnerships are seated against each other, no
//     repeated opponent, then repeats allowed.
//
// The search pairs in order (standings, or the draw) and, when that fails
// within its budget, once more with the most constrained entries first
// (those with the fewest allowed opponents): a tight constraint, such as
// half the field from one club, defeats the first and not the second. A
// search that runs out of budget at every level reports the entries it left
// unpaired, though an exhaustive search might have paired them; the property
// tests check every refusal of a field of up to 12 entries exhaustively.
//
// # Byes
//
// An odd field leaves one entry out each round (four minus one to three
// players, individual). The bye goes to an entry with the fewest byes so far:
// in Danish the lowest-ranked of them, in a random draw one drawn at random;
// Mitchell and round robin give it by their fixed rotation (a phantom entry).
// So nobody gets a second bye before everybody had one, while the field
// allows it.
package pairing
