package api

import "encoding/json"

// The event names of a table's event stream.
const (
	eventMove  = "move"
	eventDeal  = "deal"
	eventState = "state"
)

// TableEvent is one event of a table's event stream (text/event-stream),
// as an object: the "event:" line's name, the "id:" line's version and the
// JSON of the "data:" line. openapi.yaml describes it as one schema per
// event name (TableEventKinds), told apart by event, so that a generated
// client switches on event and reads data typed; swag sees this flat form.
type TableEvent struct {
	Event string          `json:"event" enums:"move,deal,state" example:"move"`
	ID    int64           `json:"id" example:"115"`
	Data  json.RawMessage `json:"data" swaggertype:"object"`
} // @name TableEvent

// TableEventKind is one event name of the stream, for openapi.yaml: the
// schema of the event (Schema) and of its data (Data).
type TableEventKind struct {
	Event, Schema, Data, Summary string
}

// TableEventKinds lists the stream's events, in the order openapi.yaml
// gives them.
func TableEventKinds() []TableEventKind {
	return []TableEventKind{
		{Event: eventMove, Schema: "TableMoveEvent", Data: "PlayedMove",
			Summary: "A move (id: the version it made), as the move feed gives it: cards another seat drew hidden."},
		{Event: eventDeal, Schema: "TableDealEvent", Data: "DealChange",
			Summary: "A deal ended and the next was dealt (id: the version that dealt it), between the last move of the one and the first of the other: the ended deal's score, and the next deal as dealt."},
		{Event: eventState, Schema: "TableStateEvent", Data: "TableState",
			Summary: "The whole state (id: its version), after the moves and deal changes that led to it."},
	}
}
