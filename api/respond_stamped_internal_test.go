package api

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
)

// TestStampedPageIsTheWholePagesEncoding checks that a lobby page put
// together from its tables' kept encodings is, byte for byte, the page
// encoded whole, before and after one of its tables changes (the other
// tables' encodings then come from memory), and for an empty page.
func TestStampedPageIsTheWholePagesEncoding(t *testing.T) {
	s := &server{stamped: newStampedBodies(maxStampedBodies), stampedItems: newStampedBodies(maxStampedItems)}
	at := time.Date(2026, 11, 26, 20, 0, 0, 0, time.UTC)
	club, winner := int64(3), 1
	uid1, uid2, uid5 := int64(1), int64(2), int64(5)
	tables := []domain.Table{
		{ID: 9, CreatorID: 1, Rules: "fibur", Players: 4, Status: domain.TableOpen, FreeSeats: 3, Version: 2,
			InviteCode: "abc<&>", Options: json.RawMessage(`{"open_with":50}`), CreatedAt: at, UpdatedAt: at,
			Seats: []domain.Seat{{Seat: 0, UserID: &uid1, UserName: "Anna \"la\" Rossi"}}},
		{ID: 8, CreatorID: 2, ClubID: &club, Rules: "aberto", Players: 2, Status: domain.TableFinished, Version: 40,
			Winner: &winner, CreatedAt: at, UpdatedAt: at, FinishedAt: &at,
			Tournament: &domain.TableTournament{ID: 4, Round: 2, Table: 1},
			Seats:      []domain.Seat{{Seat: 0, Bot: true}, {Seat: 1, UserID: &uid2, UserName: "Bruno"}}},
	}
	check := func(name string, p domain.Page[domain.Table]) {
		t.Helper()
		p.Stamp = name
		rec := httptest.NewRecorder()
		if err := respondStampedPage(s, rec, httptest.NewRequest("GET", "/api/v1/tables", nil), p,
			tableHandlers{s}.tableBody, func(t domain.Table) any { return tableOut(t) }); err != nil {
			t.Fatal(err)
		}
		var whole bytes.Buffer
		if err := encodeJSON(&whole, TableList{Items: mapSlice(p.Items, tableOut), Total: p.Total, Limit: p.Limit, Offset: p.Offset}); err != nil {
			t.Fatal(err)
		}
		if rec.Body.String() != whole.String() {
			t.Errorf("%s: page\n%s\nwhole\n%s", name, rec.Body, whole.String())
		}
	}
	check("first", domain.Page[domain.Table]{Items: tables, Total: 7, Limit: 2, Offset: 4})
	tables[0].Version, tables[0].FreeSeats = 3, 2
	tables[0].Seats = append(tables[0].Seats, domain.Seat{Seat: 1, UserID: &uid5, UserName: "Carla"})
	check("after a join", domain.Page[domain.Table]{Items: tables, Total: 7, Limit: 2, Offset: 4})
	if _, ok := s.stampedItems.get(tables[1].ShownStamp()); !ok {
		t.Error("the unchanged table's encoding is not kept")
	}
	check("empty", domain.Page[domain.Table]{Items: []domain.Table{}, Total: 0, Limit: 20})
}
