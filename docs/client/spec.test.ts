// The run-time checker must itself catch drift, or a green client.test.ts
// would mean nothing.

import assert from "node:assert/strict";
import { test } from "node:test";
import { loadDocument, validate, type Schema } from "./spec.js";

const specFile = process.env["OPENAPI_JSON"];
if (!specFile) throw new Error("set OPENAPI_JSON (go test ./docs/client/ does)");
const doc = loadDocument(specFile);
const user: Schema = { $ref: "#/components/schemas/User" };
const good = {
  id: 1,
  email: "a@example.com",
  name: "A",
  site_admin: false,
  created_at: "2026-01-02T03:04:05Z",
  updated_at: "2026-01-02T03:04:05Z",
};

test("the checker accepts a valid User", () => {
  assert.deepEqual(validate(doc, user, good), []);
});

test("the checker reports drift", () => {
  const { name: _dropped, ...noName } = good;
  const memberList: Schema = { $ref: "#/components/schemas/MemberList" };
  const cases: [Schema, unknown, RegExp][] = [
    [user, noName, /required property name is missing/],
    [user, { ...good, id: 1.5 }, /\$\.id: number, want integer/],
    [user, { ...good, site_admin: "no" }, /\$\.site_admin: string, want boolean/],
    [user, { ...good, email: null }, /\$\.email: null, but the schema is not nullable/],
    [user, { ...good, created_at: "yesterday" }, /is not a date-time/],
    [user, { ...good, nickname: "x" }, /property nickname is not in the schema/],
    [memberList, { items: [good], total: 1, limit: 20, offset: 0 }, /\$\.items\[0\]: required property club_id is missing/],
    [memberList, { items: null, total: 1, limit: 20, offset: 0 }, /\$\.items: null/],
  ];
  for (const [schema, value, want] of cases) {
    const got = validate(doc, schema, value);
    assert.ok(
      got.some((v) => want.test(v)),
      `${JSON.stringify(value)}: got ${JSON.stringify(got)}, want ${want}`,
    );
  }
  const member = { club_id: 1, club_name: "C", user_id: 1, user_name: "A", user_email: "a@b.it", role: "king", created_at: good.created_at };
  assert.deepEqual(validate(doc, { $ref: "#/components/schemas/Member" }, member), [
    '$.role: "king" is not one of ["member","referee","admin","owner"]',
  ]);
});

test("the checker reads the move notation's oneOf, by kind", () => {
  const record: Schema = { $ref: "#/components/schemas/RecordMove" };
  const at = "2026-01-02T03:04:05Z";
  for (const move of [
    { move: "draw" },
    { move: "discard", card: "KS" },
    { move: "attach", meld: 0, cards: ["8H"] },
    { move: "pickup", meld: ["7H", "8H"] },
    { move: "meld", melds: [["5H", "6H", "7H"]], wild_as: "6H" },
  ]) {
    assert.deepEqual(validate(doc, record, { seat: 1, at, auto: false, by: "player", ...move }), [], JSON.stringify(move));
  }
  const cases: [unknown, RegExp][] = [
    [{ seat: 0, at, move: "discard" }, /required property card is missing/],
    [{ seat: 0, at, move: "attach", meld: ["8H"] }, /\$\.meld: array, want integer/],
    [{ seat: 0, at, move: "draw", card: "KS" }, /property card is not in the schema/],
    [{ seat: 0, at, move: "fly" }, /"fly" is not one of/],
    [{ at, move: "draw" }, /required property seat is missing/],
    [{ seat: 0, at, move: "draw", colour: "red" }, /property colour is not in the schema/],
    [{ seat: 0, at, auto: true, move: "draw" }, /required property by is missing/],
  ];
  for (const [value, want] of cases) {
    const got = validate(doc, record, value);
    assert.ok(got.some((v) => want.test(v)), `${JSON.stringify(value)}: got ${JSON.stringify(got)}, want ${want}`);
  }
});
