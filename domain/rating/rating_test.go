package rating_test

import (
	"math"
	"testing"

	"github.com/burraco/burraco/domain/rating"
)

// TestRatingsMoveOnlyOnRatedFinishedMatches's arithmetic: the worked
// example of Glickman's "Example of the Glicko-2 system".
func TestUpdateMatchesThePublishedWorkedExample(t *testing.T) {
	p := rating.Rating{Rating: 1500, RD: 200, Volatility: 0.06}
	games := []rating.Game{
		{Opponent: rating.Rating{Rating: 1400, RD: 30}, Score: 1},
		{Opponent: rating.Rating{Rating: 1550, RD: 100}, Score: 0},
		{Opponent: rating.Rating{Rating: 1700, RD: 300}, Score: 0},
	}
	got := rating.Update(p, games, 0.5)
	for _, c := range []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"rating", got.Rating, 1464.06, 0.01},
		{"rd", got.RD, 151.52, 0.01},
		{"volatility", got.Volatility, 0.05999, 0.00001},
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s = %.6f, want %.5f ± %g", c.name, c.got, c.want, c.tol)
		}
	}
}

func TestUpdate(t *testing.T) {
	even := rating.New()
	cases := []struct {
		name  string
		games []rating.Game
		check func(t *testing.T, got rating.Rating)
	}{
		{"AWinRaisesTheRating", []rating.Game{{Opponent: even, Score: 1}}, func(t *testing.T, got rating.Rating) {
			if got.Rating <= 1500 || got.RD >= 350 {
				t.Errorf("got %+v, want a rating above 1500 and a deviation below 350", got)
			}
		}},
		{"ALossLowersItAsMuch", []rating.Game{{Opponent: even, Score: 0}}, func(t *testing.T, got rating.Rating) {
			won := rating.Update(even, []rating.Game{{Opponent: even, Score: 1}}, rating.Tau)
			if math.Abs((1500-got.Rating)-(won.Rating-1500)) > 1e-9 {
				t.Errorf("a loss moved %.6f, a win %.6f", 1500-got.Rating, won.Rating-1500)
			}
		}},
		{"ADrawBetweenEqualsMovesNothingButTheDeviation", []rating.Game{{Opponent: even, Score: 0.5}}, func(t *testing.T, got rating.Rating) {
			if math.Abs(got.Rating-1500) > 1e-9 || got.RD >= 350 {
				t.Errorf("got %+v", got)
			}
		}},
		{"NoGameOnlyWidensTheDeviation", nil, func(t *testing.T, got rating.Rating) {
			want := math.Sqrt(350*350/(173.7178*173.7178)+0.06*0.06) * 173.7178
			if got.Rating != 1500 || math.Abs(got.RD-want) > 1e-9 || got.Volatility != 0.06 {
				t.Errorf("got %+v, want RD %.6f", got, want)
			}
		}},
		{"AnUpsetFarApartConvergesAndStaysFinite", []rating.Game{{Opponent: rating.Rating{Rating: 3000, RD: 30, Volatility: 0.06}, Score: 1}}, func(t *testing.T, got rating.Rating) {
			for _, x := range []float64{got.Rating, got.RD, got.Volatility} {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					t.Fatalf("got %+v", got)
				}
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.check(t, rating.Update(even, c.games, rating.Tau)) })
	}
}

func TestTeamIsTheMeanRatingAndTheRootMeanSquareDeviation(t *testing.T) {
	got := rating.Team(rating.Rating{Rating: 1400, RD: 30, Volatility: 0.06}, rating.Rating{Rating: 1600, RD: 40, Volatility: 0.06})
	if got.Rating != 1500 || math.Abs(got.RD-math.Sqrt((900+1600)/2.0)) > 1e-9 {
		t.Errorf("got %+v", got)
	}
	if got := rating.Team(); got != rating.New() {
		t.Errorf("no one: got %+v", got)
	}
}
