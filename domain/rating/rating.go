// Package rating is the Glicko-2 rating system (Mark Glickman, "Example of
// the Glicko-2 system", 2022 revision of the 2001 paper), pure: a player's
// rating, its deviation and volatility, updated from the games of one rating
// period. It knows nothing of users, tables or storage.
package rating

import "math"

// scale is the Glicko-2 scale factor between the Glicko scale (1500, 350)
// and the internal one (0, 2.01…): 400/ln 10.
const scale = 173.7178

// Defaults of a new player, as the paper suggests.
const (
	DefaultRating     = 1500.0
	DefaultRD         = 350.0
	DefaultVolatility = 0.06
	// Tau constrains how much the volatility changes over time; the paper
	// suggests 0.3 to 1.2 and uses 0.5 in its example.
	Tau = 0.5
	// epsilon is the convergence tolerance of the volatility iteration
	// (the paper's 0.000001).
	epsilon = 0.000001
)

// Rating is a player's Glicko-2 rating on the Glicko scale.
type Rating struct {
	Rating     float64 // r
	RD         float64 // rating deviation
	Volatility float64 // σ
}

// New is the rating of a player who has not played.
func New() Rating {
	return Rating{Rating: DefaultRating, RD: DefaultRD, Volatility: DefaultVolatility}
}

// Game is one game of a rating period: the opponent's rating and deviation,
// and the score (1 win, 0.5 draw, 0 loss).
type Game struct {
	Opponent Rating
	Score    float64
}

// Update returns the player's rating after the games of one rating period,
// with system constant tau (Tau). With no games only the deviation grows
// (step 6 of the paper). Scores outside [0, 1] and non-finite ratings are the
// caller's error: the result is then meaningless, but Update does not panic.
func Update(p Rating, games []Game, tau float64) Rating {
	mu, phi := (p.Rating-DefaultRating)/scale, p.RD/scale
	if len(games) == 0 {
		return Rating{Rating: p.Rating, RD: math.Sqrt(phi*phi+p.Volatility*p.Volatility) * scale, Volatility: p.Volatility}
	}
	// Steps 3 and 4: the estimated variance v and improvement Δ.
	var vInv, sum float64
	for _, g := range games {
		muj, phij := (g.Opponent.Rating-DefaultRating)/scale, g.Opponent.RD/scale
		gj := gOf(phij)
		e := expected(mu, muj, gj)
		vInv += gj * gj * e * (1 - e)
		sum += gj * (g.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	// Step 5: the new volatility.
	sigma := volatility(phi, p.Volatility, v, delta, tau)
	// Steps 6 and 7: the new deviation and rating.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	// Step 8: back to the Glicko scale.
	return Rating{Rating: scale*muNew + DefaultRating, RD: scale * phiNew, Volatility: sigma}
}

// gOf is the paper's g(φ).
func gOf(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

// expected is the paper's E(μ, μj, φj), with g(φj) given.
func expected(mu, muj, gj float64) float64 { return 1 / (1 + math.Exp(-gj*(mu-muj))) }

// maxIterations bounds the volatility iteration: it converges in a handful
// of steps on any sane input; the bound only keeps a NaN from looping.
const maxIterations = 100

// volatility is step 5 of the paper: the new σ', found by the Illinois
// algorithm (a regula falsi) on f(x), x = ln σ'², exactly as the paper.
func volatility(phi, sigma, v, delta, tau float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 && k < maxIterations {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < maxIterations; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}

// Team is the opponent a pair's player meets in a pairs game: the opposing
// players taken as one, with their mean rating and their combined deviation,
// the root mean square of theirs (so two opponents as uncertain as one
// another combine to that same uncertainty; one well-known and one new
// opponent to something in between).
func Team(players ...Rating) Rating {
	if len(players) == 0 {
		return New()
	}
	var r, rd2, vol float64
	for _, p := range players {
		r += p.Rating
		rd2 += p.RD * p.RD
		vol += p.Volatility
	}
	n := float64(len(players))
	return Rating{Rating: r / n, RD: math.Sqrt(rd2 / n), Volatility: vol / n}
}
