package domain

import (
	"slices"

	"github.com/burraco/burraco/domain/tourney"
)

// regionGroups gives a draw (or pairings set by hand) that seeds a phase
// whose groups are by region its groups, from the players' profiles: the
// tourney package knows entries, not profiles (docs/PHASES.md). An
// entry's region is its first player's that has one; the groups are the
// regions by name, entries without a region in a last group. Groups the
// caller gives for such a draw are refused: the profiles decide. Any other
// command is cmd.
func regionGroups(tx Tx, st *tourney.State, cmd tourney.Command) (tourney.Command, error) {
	switch c := cmd.(type) {
	case tourney.DrawRound:
		if !st.GroupsByRegion(c.Round) {
			return cmd, nil
		}
		if c.Groups != nil {
			return nil, Errorf(Code(tourney.CodeBadGroups), "the phase's groups are by region: the players' profiles make them, give none")
		}
		groups, err := regionsOf(tx, st)
		c.Groups = groups
		return c, err
	case tourney.OverridePairings:
		if !st.GroupsByRegion(c.Round) || c.Groups != nil {
			return cmd, nil
		}
		groups, err := regionsOf(tx, st)
		c.Groups = groups
		return c, err
	}
	return cmd, nil
}

// regionsOf is the entries still in by their region, as entry numbers.
func regionsOf(tx Tx, st *tourney.State) ([][]int, error) {
	byRegion := map[string][]int{}
	for _, e := range st.Entries() {
		if e.Withdrawn {
			continue
		}
		region := ""
		for _, id := range e.Players {
			p, err := tx.Players().Get(id)
			if ErrorCode(err) == ENotFound {
				continue // a deleted profile has no region
			}
			if err != nil {
				return nil, err
			}
			if p.Region != "" {
				region = p.Region
				break
			}
		}
		byRegion[region] = append(byRegion[region], e.Number)
	}
	var names []string
	for r := range byRegion {
		if r != "" {
			names = append(names, r)
		}
	}
	slices.Sort(names)
	if _, ok := byRegion[""]; ok {
		names = append(names, "")
	}
	if len(names) > tourney.MaxGroups {
		return nil, Errorf(Code(tourney.CodeBadGroups), "the entries come from %d regions: a phase has at most %d groups", len(names), tourney.MaxGroups)
	}
	out := make([][]int, len(names))
	for i, r := range names {
		out[i] = byRegion[r]
	}
	return out, nil
}
