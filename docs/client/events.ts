// A table's event stream read the way a frontend would: fetch, the
// text/event-stream parsed event by event, each event the object
// {event, id, data} that openapi.yaml types as TableEvent (one schema per
// event name). Each is checked against the document before it is handed
// on, so the type it is given is one the server was seen to keep; then a
// switch on event narrows data with no cast.

import type { components } from "./schema.js";
import { validate, type Document } from "./spec.js";

export type TableEvent = components["schemas"]["TableEvent"];
export type RuleSet = components["schemas"]["DealView"]["rules"];

const tableEvent = { $ref: "#/components/schemas/TableEvent" };

/** isTableEvent is true when v matches openapi.yaml's TableEvent; problems get what does not. */
export function isTableEvent(doc: Document, v: unknown, problems: string[]): v is TableEvent {
  problems.push(...validate(doc, tableEvent, v));
  return problems.length === 0;
}

/**
 * readEvents yields the events of a text/event-stream response, skipping
 * comments (heartbeats); it throws on an event that is not a TableEvent.
 */
export async function* readEvents(res: Response, doc: Document): AsyncGenerator<TableEvent> {
  if (res.body === null) throw new Error("the event stream has no body");
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buf += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, end);
      buf = buf.slice(end + 2);
      const ev = parseEvent(block, doc);
      if (ev !== undefined) yield ev;
    }
  }
}

/** parseEvent reads one event's lines (undefined for a comment). */
function parseEvent(block: string, doc: Document): TableEvent | undefined {
  let event = "";
  let id = "";
  let data = "";
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") event = value;
    else if (field === "id") id = value;
    else if (field === "data") data += value;
  }
  if (event === "" && data === "") return undefined;
  const v: unknown = { event, id: Number(id), data: JSON.parse(data) };
  const problems: string[] = [];
  if (!isTableEvent(doc, v, problems)) throw new Error(`event ${event} (id ${id}) is not a TableEvent: ${problems.join("; ")}`);
  return v;
}

/**
 * ruleSetName names a rule set for a person. The switch is exhaustive:
 * tsc fails here when openapi.yaml gains a rule set this client does not
 * know (the never default).
 */
export function ruleSetName(r: RuleSet): string {
  switch (r) {
    case "fibur":
      return "Burraco (FIBUR)";
    case "fibur-row":
      return "Burraco in 2 with rows";
    case "reale":
      return "Burraco Reale";
    case "aberto":
      return "Buraco Aberto";
    case "fechado":
      return "Buraco Fechado";
    default: {
      const unknown: never = r;
      throw new Error(`unknown rule set ${String(unknown)}`);
    }
  }
}
