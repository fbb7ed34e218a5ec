package engine

// Score is one team's match points (MP) for a deal, broken down as on the
// score sheet (RULES §7a). Total is the sum of the parts, rounded up to a
// multiple of 10 when the option round_up_10 is on.
type Score struct {
	Cards   int `json:"cards"`   // value of the team's melded cards
	Bonus   int `json:"bonus"`   // burraco (canastra) bonuses
	Closing int `json:"closing"` // 100 for the team that closed (chiusura)
	Hand    int `json:"hand"`    // minus the cards left in hands (and rows, and an Italian unplayed pot)
	Pot     int `json:"pot"`     // minus 100 for a pot (pozzetto, morto) not taken
	Total   int `json:"total"`
}

// Sum returns the sum of the parts, before any rounding.
func (s Score) Sum() int { return s.Cards + s.Bonus + s.Closing + s.Hand + s.Pot }

// Score returns each team's score for the deal as it stands. It is final
// once the deal is over; before that it is the score a referee would give if
// the deal were ended now (without the pot rule for unplayed pots changing).
func (g *Game) Score() []Score {
	r, teams := g.rules, g.rules.Teams()
	out := make([]Score, teams)
	anyTaken := false
	for _, t := range g.potTaken {
		anyTaken = anyTaken || t
	}
	for t := range out {
		s := &out[t]
		for _, m := range g.melds[t] {
			for _, c := range m.Cards {
				s.Cards += r.CardPoints(c)
			}
			s.Bonus += r.MeldBonus(m)
		}
		if g.end == Closed && g.closer >= 0 && r.Team(g.closer) == t {
			s.Closing = 100
		}
		brUnplayed := r.ID.Brazilian() && g.potUnplayed[t]
		for seat := range g.hands {
			if r.Team(seat) != t || (brUnplayed && seat == g.potSeat[t]) {
				continue
			}
			s.Hand -= g.points(g.hands[seat])
			if seat < len(g.rows) {
				s.Hand -= g.points(g.rows[seat])
			}
		}
		if brUnplayed || (!g.potTaken[t] && (anyTaken || r.Options.PotPenaltyIfNeither)) {
			s.Pot = -100
		}
		s.Total = s.Sum()
		if r.Options.RoundUp10 {
			s.Total = roundUp10(s.Total)
		}
	}
	return out
}

// roundUp10 rounds n up (towards +∞) to a multiple of 10.
func roundUp10(n int) int {
	if m := n % 10; m != 0 {
		if n > 0 {
			return n + 10 - m
		}
		return n - m
	}
	return n
}

func (g *Game) points(cs []Card) int {
	n := 0
	for _, c := range cs {
		n += g.rules.CardPoints(c)
	}
	return n
}

// MeldBonus returns the bonus of one meld (RULES §7a): 200 clean, 150
// semi-clean (fibur), 100 dirty burraco (150/300 with canastra_bonus
// 150/300); reale's clean A..K 500 and A..A 1000 instead of the 200;
// fechado's canastra of 2s 1000, and with real_canastra a clean set of all
// 8 cards of a rank 1000. Melds under 7 cards have no bonus.
func (r Rules) MeldBonus(m Meld) int {
	n := len(m.Cards)
	if n < 7 {
		return 0
	}
	o := r.Options
	switch {
	case r.ID == Reale && m.Kind == Sequence && m.Clean() && m.Low == Ace && n == 14:
		return 1000
	case r.ID == Reale && m.Kind == Sequence && m.Clean() && m.Low == Ace && n == 13:
		return 500
	case r.ID == Fechado && m.Kind == Set && m.SetRank == Two:
		return 1000
	case r.ID == Fechado && o.RealCanastra && m.Kind == Set && m.Clean() && n == 8:
		return 1000
	}
	dirty, clean := 100, 200
	if o.CanastraBonus == CanastraBonus150 {
		dirty, clean = 150, 300
	}
	switch m.Burraco(o.SemiClean, o.SemiCleanSet == SemiCleanSetAtLeast8) {
	case Clean:
		return clean
	case SemiClean:
		return 150
	case Dirty:
		return dirty
	}
	return 0
}
