package domain

import "testing"

// TestSeasonRanking: the rules of the ranking on small hand-made evenings,
// each case's expectation worked out by hand.
func TestSeasonRanking(t *testing.T) {
	names := map[int64]string{1: "Anna", 2: "Bruno", 3: "Carla", 4: "Dario", 5: "Elena"}
	// Evening 10: Anna–Bruno first, Carla–Dario second, Elena alone third
	// (an individual-sized entry for the sake of the case).
	ten := seasonEvening{id: 10, entries: 3, rows: []eveningRow{{1, 40, []int64{1, 2}}, {2, 30, []int64{3, 4}}, {3, 20, []int64{5}}}}
	// Evening 11: Carla and Anna tied for first, Dario third, Bruno fourth.
	eleven := seasonEvening{id: 11, entries: 4, rows: []eveningRow{{1, 25, []int64{3}}, {1, 25, []int64{1}}, {3, 20, []int64{4}}, {4, 10, []int64{2}}}}
	type want struct {
		player int64
		place  int
		points float64
	}
	for _, tt := range []struct {
		name   string
		season Season
		want   []want
	}{
		{"PlacingPointsShareTheHigherPlaceOnATie", Season{Scheme: SchemePlacingPoints, PointsStep: 1, MinEvenings: 1},
			// Anna 3+4, Carla 2+4, Bruno 3+1, Dario 2+2 (Bruno won an evening), Elena 1.
			[]want{{1, 1, 7}, {3, 2, 6}, {2, 3, 4}, {4, 4, 4}, {5, 5, 1}}},
		{"APlaceIsNeverWorthLessThanZero", Season{Scheme: SchemePlacingPoints, PointsStep: 3, MinEvenings: 1},
			// Anna 3+4, Carla 0+4, Bruno 3+0, Dario 0+0, Elena 0.
			[]want{{1, 1, 7}, {3, 2, 4}, {2, 3, 3}, {4, 4, 0}, {5, 5, 0}}},
		{"ScalingMultipliesByEntriesOverTheReference", Season{Scheme: SchemePlacingPoints, PointsStep: 1, ReferenceSize: 6, MinEvenings: 1},
			// Evening 10 ×3/6, evening 11 ×4/6: Anna 1.5+2.67, Carla 1+2.67,
			// Dario 1+1.33, Bruno 1.5+0.67, Elena 0.5.
			[]want{{1, 1, 4.17}, {3, 2, 3.67}, {4, 3, 2.33}, {2, 4, 2.17}, {5, 5, 0.5}}},
		{"TotalVPSums", Season{Scheme: SchemeTotalVP, MinEvenings: 1},
			[]want{{1, 1, 65}, {3, 2, 55}, {2, 3, 50}, {4, 4, 50}, {5, 5, 20}}},
		{"AverageVPListsThoseUnderTheMinimumAfterUnranked", Season{Scheme: SchemeAverageVP, MinEvenings: 2},
			[]want{{1, 1, 32.5}, {3, 2, 27.5}, {2, 3, 25}, {4, 4, 25}, {5, 0, 20}}},
		{"EqualOnEveryCriterionSharesThePlaceListedByName", Season{Scheme: SchemeTotalVP, MinEvenings: 1},
			nil}, // its own evenings, below
	} {
		t.Run(tt.name, func(t *testing.T) {
			evenings := []seasonEvening{ten, eleven}
			if tt.want == nil {
				// Dario and Bruno (listed by name) played one evening each,
				// 2nd with 20 VP; Carla won hers.
				evenings = []seasonEvening{{id: 12, entries: 3, rows: []eveningRow{{1, 25, []int64{3}}, {2, 20, []int64{4, 2}}}}}
				tt.want = []want{{3, 1, 25}, {2, 2, 20}, {4, 2, 20}}
			}
			got := rankSeason(tt.season, evenings, names)
			if len(got) != len(tt.want) {
				t.Fatalf("%d rows, want %d", len(got), len(tt.want))
			}
			for i, w := range tt.want {
				if g := got[i]; g.PlayerID != w.player || g.Place != w.place || g.Points != w.points {
					t.Errorf("row %d: player %d place %d points %v, want %+v", i, g.PlayerID, g.Place, g.Points, w)
				}
			}
		})
	}
}
