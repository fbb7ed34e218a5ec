package main

import (
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/burraco/burraco/api"
)

const eventDescription = "One event of a table's event stream (text/event-stream), as an object: its event name (the `event:` line), " +
	"its id (the `id:` line: a table version, what Last-Event-ID sends back) and its data (the JSON of the `data:` line). " +
	"One schema per event name, told apart by event: move (data: PlayedMove), deal (data: DealChange), state (data: TableState). " +
	"A client that meets an event name it does not know skips it."

// eventSchemas describes a table's event stream event by event
// (api.TableEventKinds): one schema per event name, {event, id, data} with
// event a one-value enum and data that event's own schema, and TableEvent
// (the text/event-stream response's schema) as oneOf them with a
// discriminator on event. OpenAPI 3.0 has no way to type server-sent
// events; this one is what generators read as a tagged union (a client
// switches on event and reads data without a cast). swag gives a flat
// object whose data is any object.
func eventSchemas(doc *openapi3.T) error {
	schemas := doc.Components.Schemas
	event := schemas["TableEvent"]
	if event == nil || event.Value == nil {
		return fmt.Errorf("no TableEvent schema")
	}
	flat := event.Value
	union := &openapi3.Schema{Description: eventDescription,
		Discriminator: &openapi3.Discriminator{PropertyName: "event", Mapping: map[string]openapi3.MappingRef{}}}
	for _, k := range api.TableEventKinds() {
		if schemas[k.Data] == nil {
			return fmt.Errorf("TableEvent %s: no %s schema", k.Event, k.Data)
		}
		s := &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeObject}, Title: k.Event, Description: k.Summary,
			Required: []string{"event", "id", "data"},
			Properties: openapi3.Schemas{
				"event": {Value: &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeString}, Enum: []any{k.Event}}},
				"id":    flat.Properties["id"],
				"data":  {Ref: "#/components/schemas/" + k.Data},
			}}
		schemas[k.Schema] = &openapi3.SchemaRef{Value: s}
		ref := "#/components/schemas/" + k.Schema
		union.OneOf = append(union.OneOf, &openapi3.SchemaRef{Ref: ref})
		union.Discriminator.Mapping[k.Event] = openapi3.MappingRef{Ref: ref}
	}
	event.Value = union
	return nil
}
