// The contract test proper: a client written the way a frontend author would
// write one, from nothing but openapi.yaml. schema.d.ts is generated from
// ../../openapi.yaml by openapi-typescript just before this file is type-checked
// (tsc --noEmit --strict) and run (node --test) against a real server.
//
// Rules: no `any`, no casts of API data. If something cannot be typed from the
// spec, the spec is wrong: fix the swag annotations, not this file.
//
// Env: BURRACO_BASE_URL (the server, e.g. http://127.0.0.1:41234) and
// OPENAPI_JSON (openapi.yaml converted to JSON, for the run-time checker).

import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";
import createClient from "openapi-fetch";
import type { components, operations, paths } from "./schema.js";
import { conformance, loadDocument } from "./spec.js";
import { apply, fromCards, fromView, seenBy, viewOf, type Board } from "./follow.js";
import { readEvents, ruleSetName, type TableEvent } from "./events.js";

type User = components["schemas"]["User"];
type TokenResponse = components["schemas"]["TokenResponse"];
type Club = components["schemas"]["Club"];
type Player = components["schemas"]["Player"];
type Tournament = components["schemas"]["Tournament"];
type TournamentStatus = Tournament["status"];
type Problem = components["schemas"]["Problem"];
type Role = components["schemas"]["Member"]["role"];
// Query parameters are declared as typed values first: openapi-fetch infers
// `params` and `body` generically, which lets an undeclared key through
// without an excess-property error; an annotated literal does not.
type Query<Op extends keyof operations> = NonNullable<operations[Op]["parameters"]["query"]>;
// The same holds for request bodies: each is checked with `satisfies`.
// (a JSON body: the CSV of a player import has none).
type Body<Op extends keyof operations> =
  NonNullable<operations[Op]["requestBody"]>["content"] extends { "application/json": infer B } ? B : never;

const baseUrl = process.env["BURRACO_BASE_URL"];
const specFile = process.env["OPENAPI_JSON"];
if (!baseUrl || !specFile) {
  throw new Error("set BURRACO_BASE_URL and OPENAPI_JSON (go test ./docs/client/ does)");
}

const client = createClient<paths>({ baseUrl });
const violations: string[] = [];
const document = loadDocument(specFile);
client.use(conformance(document, violations));

/** noViolations fails when a response broke openapi.yaml since the last call. */
function noViolations(): void {
  const found = violations.splice(0);
  if (found.length > 0) assert.fail(`responses that do not match openapi.yaml:\n${found.join("\n")}`);
}

function bearer(token: string): { Authorization: string } {
  return { Authorization: `Bearer ${token}` };
}

/**
 * isProblem checks the RFC 9457 envelope that every error shares (after the
 * conformance middleware's verdict, which names an undeclared status best).
 */
function isProblem(res: Response, p: Problem, status: number, code: string): void {
  noViolations();
  assert.equal(res.status, status, `status ${res.status}, want ${status}: ${JSON.stringify(p)}`);
  assert.match(res.headers.get("Content-Type") ?? "", /^application\/problem\+json/);
  assert.equal(p.status, res.status);
  assert.equal(p.code, code);
  assert.equal(p.type, `urn:burraco:problem:${code}`);
  assert.ok(p.title.length > 0);
  assert.equal(p.request_id, res.headers.get("X-Request-ID"));
}

// A run-unique suffix, so that the test also passes against a server that
// already has data.
const run = Date.now().toString(36);
const anna = { email: `anna.${run}@example.com`, password: "correct horse battery", name: "Anna Rossi" } satisfies Body<"register">;
const bruno = { email: `bruno.${run}@example.com`, password: "another long password", name: "Bruno Bianchi" } satisfies Body<"register">;

let annaUser: User;
let brunoUser: User;
let tokens: TokenResponse;
let club: Club;
let player: Player;

// Each test starts clean and ends with every response checked.
beforeEach(() => void violations.splice(0));
afterEach(() => noViolations());

test("healthz", async () => {
  const { data, error, response } = await client.GET("/healthz");
  assert.equal(response.status, 200);
  assert.equal(error, undefined);
  assert.equal(data?.status, "ok");
});

test("register two users", async () => {
  {
    const { data, error, response } = await client.POST("/api/v1/auth/register", { body: anna });
    assert.equal(error, undefined);
    assert.equal(response.status, 201);
    assert.ok(data);
    assert.equal(response.headers.get("Location"), "/api/v1/me");
    assert.equal(data.email, anna.email);
    assert.equal(data.name, anna.name);
    assert.equal(data.site_admin, false);
    assert.ok(Number.isInteger(data.id) && data.id > 0);
    assert.ok(!Number.isNaN(Date.parse(data.created_at)));
    annaUser = data;
  }
  {
    const { data, response } = await client.POST("/api/v1/auth/register", { body: bruno });
    assert.equal(response.status, 201);
    assert.ok(data);
    assert.notEqual(data.id, annaUser.id);
    brunoUser = data;
  }
});

test("register: invalid input is a problem+json with every invalid field", async () => {
  const { data, error, response } = await client.POST("/api/v1/auth/register", {
    body: { email: "not-an-email", password: "short", name: "" } satisfies Body<"register">,
  });
  assert.equal(data, undefined);
  assert.ok(error);
  isProblem(response, error, 422, "invalid_input");
  const fields = (error.errors ?? []).map((e) => `${e.field}:${e.code}`).sort();
  assert.deepEqual(fields, ["email:invalid", "name:required", "password:too_short"]);
  for (const e of error.errors ?? []) assert.ok(e.message.length > 0, `${e.field} has no message`);
});

test("register: a taken email is a conflict", async () => {
  const { error, response } = await client.POST("/api/v1/auth/register", { body: anna });
  assert.ok(error);
  isProblem(response, error, 409, "conflict");
});

test("login", async () => {
  {
    const { error, response } = await client.POST("/api/v1/auth/login", {
      body: { email: anna.email, password: "wrong password!" } satisfies Body<"login">,
    });
    assert.ok(error);
    isProblem(response, error, 401, "unauthenticated");
  }
  const { data, error, response } = await client.POST("/api/v1/auth/login", {
    body: { email: anna.email, password: anna.password } satisfies Body<"login">,
  });
  assert.equal(error, undefined);
  assert.equal(response.status, 200);
  assert.ok(data);
  const access: string = data.access_token;
  const refresh: string = data.refresh_token;
  assert.ok(access.length > 0 && refresh.length > 0);
  assert.equal(data.token_type, "Bearer");
  assert.ok(data.expires_in > 0);
  assert.ok(Date.parse(data.refresh_expires_at) > Date.now());
  assert.equal(data.user.id, annaUser.id);
  tokens = data;
});

test("GET /me", async () => {
  {
    const { error, response } = await client.GET("/api/v1/me");
    assert.ok(error);
    isProblem(response, error, 401, "unauthenticated");
  }
  const { data, response } = await client.GET("/api/v1/me", { headers: bearer(tokens.access_token) });
  assert.equal(response.status, 200);
  assert.ok(data);
  assert.deepEqual(data, annaUser);
});

test("create, get and list clubs", async () => {
  const name = `Circolo Contratto ${run}`;
  {
    const { data, error, response } = await client.POST("/api/v1/clubs", {
      headers: bearer(tokens.access_token),
      body: { name, city: "Torino", description: "Tuesdays" } satisfies Body<"createClub">,
    });
    assert.equal(error, undefined);
    assert.equal(response.status, 201);
    assert.ok(data);
    assert.equal(data.name, name);
    assert.equal(data.city, "Torino");
    assert.equal(data.description, "Tuesdays");
    assert.equal(response.headers.get("Location"), `/api/v1/clubs/${data.id}`);
    club = data;
  }
  {
    const { data, response } = await client.GET("/api/v1/clubs/{clubID}", { params: { path: { clubID: club.id } } });
    assert.equal(response.status, 200);
    assert.deepEqual(data, club);
  }
  {
    const query: Query<"listClubs"> = { q: run, limit: 5 };
    const { data, response } = await client.GET("/api/v1/clubs", { params: { query } });
    assert.equal(response.status, 200);
    assert.ok(data);
    assert.equal(data.total, 1);
    assert.equal(data.limit, 5);
    assert.equal(data.offset, 0);
    assert.deepEqual(
      data.items.map((c) => c.id),
      [club.id],
    );
  }
  {
    // Past the schema's maximum: a 400 invalid_parameter naming it (a
    // 422 invalid_input before issue 29).
    const query: Query<"listClubs"> = { limit: 1000 };
    const { error, response } = await client.GET("/api/v1/clubs", { params: { query } });
    assert.ok(error);
    isProblem(response, error, 400, "invalid_parameter");
    assert.deepEqual(
      error.errors?.map((e) => e.field),
      ["limit"],
    );
  }
  {
    const { error, response } = await client.GET("/api/v1/clubs/{clubID}", { params: { path: { clubID: 999999999 } } });
    assert.ok(error);
    isProblem(response, error, 404, "not_found");
  }
});

test("add and list members", async () => {
  const role: Role = "member";
  {
    const { data, error, response } = await client.POST("/api/v1/clubs/{clubID}/members", {
      params: { path: { clubID: club.id } },
      headers: bearer(tokens.access_token),
      body: { email: bruno.email.toUpperCase(), role } satisfies Body<"addMember">, // by the email they registered with
    });
    assert.equal(error, undefined);
    assert.equal(response.status, 201);
    assert.ok(data);
    assert.equal(data.club_id, club.id);
    assert.equal(data.user_id, brunoUser.id);
    assert.equal(data.user_name, bruno.name);
    assert.equal(data.user_email, bruno.email);
    assert.equal(data.role, "member");
    assert.equal(response.headers.get("Location"), `/api/v1/clubs/${club.id}/members/${brunoUser.id}`);
  }
  {
    const { data, response } = await client.GET("/api/v1/clubs/{clubID}/members", {
      params: { path: { clubID: club.id } },
      headers: bearer(tokens.access_token),
    });
    assert.equal(response.status, 200);
    assert.ok(data);
    assert.equal(data.total, 2);
    const roles = new Map<number, Role>(data.items.map((m) => [m.user_id, m.role]));
    assert.equal(roles.get(annaUser.id), "owner");
    assert.equal(roles.get(brunoUser.id), "member");
  }
  {
    const { data, response } = await client.GET("/api/v1/me/clubs", { headers: bearer(tokens.access_token) });
    assert.equal(response.status, 200);
    assert.ok(data);
    const mine = data.items.find((m) => m.club_id === club.id);
    assert.ok(mine);
    assert.equal(mine.club_name, club.name);
    assert.equal(mine.role, "owner");
  }
  {
    const { data, response } = await client.GET("/api/v1/clubs/{clubID}/members", {
      params: { path: { clubID: club.id }, query: { role: "owner" } satisfies Query<"listMembers"> },
      headers: bearer(tokens.access_token),
    });
    assert.equal(response.status, 200);
    assert.deepEqual(
      data?.items.map((m) => m.user_id),
      [annaUser.id],
    );
  }
});

test("create, patch and get a player", async () => {
  const federationId = `TO-${run}`;
  {
    const { data, error, response } = await client.POST("/api/v1/players", {
      headers: bearer(tokens.access_token),
      body: { name: anna.name, user_id: annaUser.id, club_id: club.id, federation_id: federationId } satisfies Body<"createPlayer">,
    });
    assert.equal(error, undefined);
    assert.equal(response.status, 201);
    assert.ok(data);
    assert.equal(data.name, anna.name);
    assert.equal(data.user_id, annaUser.id);
    assert.equal(data.club_id, club.id);
    assert.equal(data.federation_id, federationId);
    assert.equal(response.headers.get("Location"), `/api/v1/players/${data.id}`);
    player = data;
  }
  {
    const { data, error, response } = await client.PATCH("/api/v1/players/{playerID}", {
      params: { path: { playerID: player.id } },
      headers: bearer(tokens.access_token),
      body: { name: "Anna Maria Rossi", clear_club: true } satisfies Body<"updatePlayer">,
    });
    assert.equal(error, undefined);
    assert.equal(response.status, 200);
    assert.ok(data);
    assert.equal(data.name, "Anna Maria Rossi");
    assert.equal(data.club_id, undefined);
    assert.equal(data.federation_id, federationId);
    player = data;
  }
  {
    const { data, response } = await client.GET("/api/v1/players/{playerID}", {
      params: { path: { playerID: player.id } },
    });
    assert.equal(response.status, 200);
    assert.deepEqual(data, player);
  }
  {
    const query: Query<"listPlayers"> = { q: federationId };
    const { data, response } = await client.GET("/api/v1/players", { params: { query } });
    assert.equal(response.status, 200);
    assert.deepEqual(
      data?.items.map((p) => p.id),
      [player.id],
    );
  }
});

test("create, set up, list and get a tournament; assign its referee", async () => {
  const startsAt = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString().replace(/\.\d+Z$/, "Z");
  let draft: Tournament;
  {
    const { data, error, response } = await client.POST("/api/v1/clubs/{clubID}/tournaments", {
      params: { path: { clubID: club.id } },
      headers: bearer(tokens.access_token),
      body: {
        name: `Torneo di Primavera ${run}`,
        rules: "fibur",
        players_per_table: 4,
        kind: "pairs",
        starts_at: startsAt,
        options: { target: 1005, direction: "anticlockwise" },
        movement: "mitchell",
        rounds: 6,
        mitchell_step: 2,
        tie_breaks: ["vp", "mp_for", "lots"],
        forbid_same_club: true,
      } satisfies Body<"createTournament">,
    });
    assert.equal(error, undefined);
    assert.equal(response.status, 201);
    assert.ok(data);
    assert.equal(response.headers.get("Location"), `/api/v1/tournaments/${data.id}`);
    assert.equal(data.club_id, club.id);
    assert.equal(data.club_name, club.name);
    assert.equal(data.status, "draft");
    assert.equal(data.deals_per_round, 3);
    assert.equal(data.options.target, 1005);
    assert.equal(data.options.direction, "anticlockwise");
    assert.equal(data.options.joker_points, 30); // the fibur default, filled in
    assert.equal(Date.parse(data.starts_at), Date.parse(startsAt));
    assert.equal(data.movement, "mitchell");
    assert.equal(data.rounds, 6);
    assert.equal(data.mitchell_step, 2);
    assert.deepEqual(data.tie_breaks, ["vp", "mp_for", "lots"]);
    assert.equal(data.forbid_same_club, true);
    // Defaults: the built-in 3-deal VP table, a bye worth 14 VP and 355 MP.
    assert.equal(data.vp_table_builtin, true);
    assert.equal(data.vp_table?.bands.length, 11);
    assert.deepEqual(data.vp_table?.bands[1], { from: 55, to: 150, winner: 11, loser: 9 });
    assert.equal(data.rest_vp, 14);
    assert.equal(data.rest_mp, 355);
    assert.equal(data.version, 0);
    draft = data;
  }
  {
    // A draft is hidden from anyone but the club's admins.
    const { error, response } = await client.GET("/api/v1/tournaments/{tournamentID}", {
      params: { path: { tournamentID: draft.id } },
    });
    assert.ok(error);
    isProblem(response, error, 404, "not_found");
  }
  {
    const { error, response } = await client.POST("/api/v1/clubs/{clubID}/tournaments", {
      params: { path: { clubID: club.id } },
      headers: bearer(tokens.access_token),
      body: { name: "Row of four", rules: "fibur-row", players_per_table: 4, kind: "pairs", starts_at: startsAt } satisfies Body<"createTournament">,
    });
    assert.ok(error);
    isProblem(response, error, 422, "invalid_input");
    assert.deepEqual(
      error.errors?.map((e) => e.field),
      ["players_per_table"],
    );
  }
  {
    // 2-deal rounds have no built-in VP table; a bad one has every problem listed.
    const { error, response } = await client.POST("/api/v1/clubs/{clubID}/tournaments", {
      params: { path: { clubID: club.id } },
      headers: bearer(tokens.access_token),
      body: {
        name: "Two deals",
        rules: "fibur",
        players_per_table: 4,
        kind: "pairs",
        starts_at: startsAt,
        deals_per_round: 2,
        vp_table: { bands: [{ from: 0, to: 50, winner: 11, loser: 9 }, { from: 60, winner: 20, loser: 0 }] },
      } satisfies Body<"createTournament">,
    });
    assert.ok(error);
    isProblem(response, error, 422, "invalid_input");
    assert.deepEqual(
      error.errors?.map((e) => `${e.field}:${e.code}`),
      ["vp_table.bands[0]:first_not_tie", "vp_table.bands[1]:gap"],
    );
  }
  {
    // The status is not PATCHed: the lifecycle's actions move it.
    const status: TournamentStatus = "registration_open";
    const { error, response } = await client.PATCH("/api/v1/tournaments/{tournamentID}", {
      params: { path: { tournamentID: draft.id } },
      headers: bearer(tokens.access_token),
      body: { status } satisfies Body<"updateTournament">,
    });
    assert.ok(error);
    isProblem(response, error, 422, "invalid_input");
    assert.deepEqual(
      error.errors?.map((e) => `${e.field}:${e.code}`),
      ["status:lifecycle_action"],
    );
  }
  let edited: Tournament;
  {
    // A draft's set-up changes: 2-deal rounds with the club's own table.
    const { data, error, response } = await client.PATCH("/api/v1/tournaments/{tournamentID}", {
      params: { path: { tournamentID: draft.id } },
      headers: bearer(tokens.access_token),
      body: {
        deals_per_round: 2,
        vp_table: {
          name: "2-deal",
          bands: [
            { from: 0, to: 30, winner: 10, loser: 10 },
            { from: 35, to: 150, winner: 13, loser: 7 },
            { from: 155, winner: 20, loser: 0 },
          ],
        },
        rest_vp: 12,
      } satisfies Body<"updateTournament">,
    });
    assert.equal(error, undefined);
    assert.equal(response.status, 200);
    assert.ok(data);
    assert.equal(data.vp_table_builtin, false);
    assert.equal(data.vp_table?.name, "2-deal");
    assert.equal(data.rest_vp, 12);
    assert.deepEqual(data.options, draft.options);
    edited = data;
  }
  {
    const query: Query<"listTournaments"> = { club_id: club.id, status: "draft", q: run, limit: 5 };
    const { data, response } = await client.GET("/api/v1/tournaments", { params: { query }, headers: bearer(tokens.access_token) });
    assert.equal(response.status, 200);
    assert.ok(data);
    assert.equal(data.total, 1);
    assert.deepEqual(data.items, [edited]);
  }
  {
    const { data, response } = await client.GET("/api/v1/tournaments/{tournamentID}", {
      params: { path: { tournamentID: edited.id } },
      headers: bearer(tokens.access_token),
    });
    assert.equal(response.status, 200);
    assert.deepEqual(data, edited);
  }
  {
    // Referees: the club's owner may referee; a plain member may not.
    const { data, error, response } = await client.PUT("/api/v1/tournaments/{tournamentID}/referees/{userID}", {
      params: { path: { tournamentID: draft.id, userID: annaUser.id } },
      headers: bearer(tokens.access_token),
    });
    assert.equal(error, undefined);
    assert.equal(response.status, 200);
    assert.equal(data?.user_id, annaUser.id);
    assert.equal(data?.role, "owner");
    const refused = await client.PUT("/api/v1/tournaments/{tournamentID}/referees/{userID}", {
      params: { path: { tournamentID: draft.id, userID: brunoUser.id } },
      headers: bearer(tokens.access_token),
    });
    assert.ok(refused.error);
    isProblem(refused.response, refused.error, 422, "not_a_referee");
    const list = await client.GET("/api/v1/tournaments/{tournamentID}/referees", {
      params: { path: { tournamentID: draft.id } },
      headers: bearer(tokens.access_token),
    });
    assert.equal(list.response.status, 200);
    assert.deepEqual(
      list.data?.items.map((r) => r.name),
      [anna.name],
    );
    const removed = await client.DELETE("/api/v1/tournaments/{tournamentID}/referees/{userID}", {
      params: { path: { tournamentID: draft.id, userID: annaUser.id } },
      headers: bearer(tokens.access_token),
    });
    assert.equal(removed.response.status, 204);
  }
});

type TableState = components["schemas"]["TableState"];
type PlayedMove = components["schemas"]["PlayedMove"];

/**
 * follow reads the moves past version seen (ours, then the bot's, one
 * version each), applies them to board, checks that board is then what
 * next shows us, and returns how many were the bot's.
 */
async function follow(board: Board, tableID: number, seen: number, next: TableState, auth: { Authorization: string }): Promise<number> {
  const items = await movesSince(tableID, seen, auth);
  assert.equal(items[0]?.seat, 0);
  items.forEach((m, i) => assert.equal(m.version, seen + 1 + i, "one version per move"));
  assert.equal(items[items.length - 1]?.version, next.version);
  let bot = 0;
  for (const m of items) {
    if (m.seat !== 0) {
      assert.equal(m.taken?.drawn, undefined, "the bot's draws are hidden from us");
      bot++;
    }
    apply(board, m.seat, m.move, m.taken);
  }
  if (next.view) assert.deepEqual(seenBy(board, 0), viewOf(next.view), `after version ${next.version}`);
  return bot;
}

/** movesSince reads the current deal's moves past a version (the move feed). */
async function movesSince(tableID: number, since: number, auth: { Authorization: string }): Promise<PlayedMove[]> {
  const res = await client.GET("/api/v1/tables/{tableID}/moves", {
    params: { path: { tableID }, query: { since } satisfies Query<"listTableMoves"> },
    headers: auth,
  });
  assert.equal(res.response.status, 200);
  assert.ok(res.data);
  return res.data.items;
}

// A whole deal against the built-in bot, played from the client's own view
// of the table: the seat draws, then discards the first card of its hand
// the rules accept (a 422 moves on to the next card). Between its turns it
// polls the way a frontend would (If-None-Match for a 304, and a long poll
// past the version it saw). Then it reads the deal list and the deal's
// record, which holds every move it made.
test("play a whole 2-player deal against a bot", async () => {
  const auth = bearer(tokens.access_token);
  const created = await client.POST("/api/v1/tables", {
    headers: auth,
    body: { rules: "fibur", players: 2, match: { deals: 1 }, grace_seconds: 0 } satisfies Body<"createTable">,
  });
  assert.equal(created.response.status, 201);
  assert.ok(created.data);
  const tableID = created.data.id;
  const path = { tableID };
  const bot = await client.POST("/api/v1/tables/{tableID}/bots", { params: { path }, headers: auth });
  assert.equal(bot.data?.seats[1]?.bot, true);
  const started = await client.POST("/api/v1/tables/{tableID}/start", { params: { path }, headers: auth });
  assert.equal(started.data?.status, "playing");

  const first = await client.GET("/api/v1/tables/{tableID}/state", { params: { path }, headers: auth });
  assert.ok(first.data);
  let state: TableState = first.data;
  let etag = first.response.headers.get("ETag") ?? "";
  assert.equal(etag, `"t${tableID}.v${state.version}.s0"`);
  {
    // A long poll for a version past the current one waits, then ends
    // with 304 when nothing moved.
    const waited = await client.GET("/api/v1/tables/{tableID}/state", {
      params: { path, query: { since: state.version, wait: 1 } satisfies Query<"getTableState"> },
      headers: auth,
    });
    assert.equal(waited.response.status, 304);
    assert.equal(waited.response.headers.get("ETag"), etag);
  }
  // The move feed: the deal as dealt as seat 0 sees it, and the bot's
  // moves so far; followed without the engine, it is the state's view.
  const feed = await client.GET("/api/v1/tables/{tableID}/moves", { params: { path }, headers: auth });
  assert.equal(feed.response.status, 200);
  assert.ok(feed.data && state.view);
  assert.equal(feed.data.version, state.version);
  const board: Board = fromView(feed.data.start);
  for (const m of feed.data.items) apply(board, m.seat, m.move, m.taken);
  assert.deepEqual(seenBy(board, 0), viewOf(state.view));
  let botMoves = 0;
  let mine = 0;
  let refused = 0;
  let polls = 0;
  for (let step = 0; state.table.status !== "finished"; step++) {
    assert.ok(step < 500, "the deal did not end");
    const view: TableState["view"] = state.view;
    const seen: number = state.version;
    assert.ok(view, "a running table's state has a view");
    assert.equal(view.seat, 0);
    if (view.turn !== 0) {
      // The bot plays at once, inside our move: the turn is ours again.
      assert.fail(`the bot's turn is pending: ${JSON.stringify(view)}`);
    }
    if (step % 5 === 0) {
      // Nothing changed since the last answer: 304, same ETag, no body.
      const same = await client.GET("/api/v1/tables/{tableID}/state", {
        params: { path, header: { "If-None-Match": etag } },
        headers: auth,
      });
      assert.equal(same.response.status, 304);
      assert.equal(same.response.headers.get("ETag"), etag);
      // A long poll past an older version answers at once with the state.
      const since = state.version - 1;
      const poll = await client.GET("/api/v1/tables/{tableID}/state", {
        params: { path, query: { since, wait: 5 } satisfies Query<"getTableState"> },
        headers: auth,
      });
      assert.equal(poll.response.status, 200);
      assert.equal(poll.data?.version, state.version);
      polls++;
    }
    let next: TableState | undefined;
    if (view.phase === "take") {
      const drawn = await client.POST("/api/v1/tables/{tableID}/moves", {
        params: { path },
        headers: auth,
        body: { move: "draw", version: state.version } satisfies Body<"playMove">,
      });
      assert.equal(drawn.response.status, 200, JSON.stringify(drawn.error));
      next = drawn.data;
      etag = drawn.response.headers.get("ETag") ?? "";
    } else {
      for (const card of view.hand ?? []) { // absent for a spectator; this seat has one
        const discarded = await client.POST("/api/v1/tables/{tableID}/moves", {
          params: { path },
          headers: auth,
          body: { move: "discard", card, version: state.version } satisfies Body<"playMove">,
        });
        if (discarded.response.status === 422) {
          assert.ok(discarded.error);
          isProblem(discarded.response, discarded.error, 422, discarded.error.code);
          refused++;
          continue;
        }
        assert.equal(discarded.response.status, 200, JSON.stringify(discarded.error));
        next = discarded.data;
        etag = discarded.response.headers.get("ETag") ?? "";
        break;
      }
    }
    assert.ok(next, `no move was accepted from ${JSON.stringify(view)}`);
    assert.ok(next.version > state.version);
    // Our move, then the bot's, one version each: the feed past the version
    // we saw lists them in order, and following them gives the new view.
    botMoves += await follow(board, tableID, seen, next, auth);
    state = next;
    mine++;
  }
  assert.ok(mine > 2 && polls > 0 && botMoves > 2, `${mine} moves, ${botMoves} of the bot, ${polls} polls`);
  console.log(`deal played: ${mine} moves of ours, ${botMoves} of the bot followed, ${refused} discards refused, ${polls} polls`);
  // A stale version is a 409 that names the current one.
  const stale = await client.POST("/api/v1/tables/{tableID}/moves", {
    params: { path },
    headers: auth,
    body: { move: "draw", version: 1 } satisfies Body<"playMove">,
  });
  assert.ok(stale.error);
  assert.ok(stale.response.status === 409, `status ${stale.response.status}`);

  const deals = await client.GET("/api/v1/tables/{tableID}/deals", { params: { path }, headers: auth });
  assert.equal(deals.data?.items.length, 1);
  const deal = deals.data?.items[0];
  assert.ok(deal?.score !== undefined && deal.score.length === 2, JSON.stringify(deal));
  assert.deepEqual(state.deals, deals.data?.items);
  const record = await client.GET("/api/v1/tables/{tableID}/deals/{number}/record", {
    params: { path: { tableID, number: 1 } },
    headers: auth,
  });
  assert.equal(record.response.status, 200);
  assert.ok(record.data);
  const ours = record.data.moves.filter((m) => m.seat === 0);
  assert.equal(ours.length, mine, "the record holds every move the client made");
  for (const m of record.data.moves) {
    if (m.move === "discard") assert.match(m.card, /^([A2-9TJQK][SHDC]|JK)$/);
  }
  // The record is self-contained: its cards and moves rebuild the deal
  // without the engine, every hand known, to the last view we saw.
  const cards = record.data.cards;
  assert.ok(cards, "the record carries the dealt cards");
  const rebuilt = fromCards(record.data.players, cards);
  for (const m of record.data.moves) apply(rebuilt, m.seat, m, undefined);
  assert.ok(state.view);
  assert.deepEqual(seenBy(rebuilt, 0), viewOf(state.view));
  assert.equal(rebuilt.hands[1]?.length, state.view.hand_sizes[1]);
});

type DealChange = components["schemas"]["DealChange"];

/** Followed is what a follower read: each move and deal change, as "VERSION what". */
type Followed = { lines: string[]; versions: number[]; board: Board | undefined; changes: DealChange[] };

/** record notes a move or a deal change a follower read, and follows it on its board. */
function record(f: Followed, ev: TableEvent): void {
  // A switch on the event name narrows data: no cast. The never default
  // makes tsc fail when openapi.yaml gains an event this client ignores.
  switch (ev.event) {
    case "move": {
      const m = ev.data;
      assert.equal(ev.id, m.version);
      if (m.taken?.drawn_hidden === true) assert.equal(m.taken.drawn, undefined, "a hidden draw shows no card");
      if (m.move.move === "draw") assert.equal(m.taken?.drawn_hidden, true, "another seat's draw is said to be hidden");
      assert.ok(f.board, `a move of deal ${m.deal} before its start`);
      apply(f.board, m.seat, m.move, m.taken);
      f.lines.push(`${m.version} move ${m.index} of deal ${m.deal}`);
      f.versions.push(m.version);
      break;
    }
    case "deal": {
      const c = ev.data;
      assert.equal(ev.id, c.version);
      assert.ok(c.ended.score !== undefined && c.ended.score.length === 2, "the ended deal's score");
      assert.equal(c.next.number, c.ended.number + 1);
      assert.equal(c.start.hand, undefined, "a watcher is dealt no hand");
      // Deal ended: a frontend shows its score, then the next deal as dealt.
      f.board = fromView(c.start);
      f.lines.push(`${c.version} deal ${c.ended.number} ended, deal ${c.next.number} (${ruleSetName(c.start.rules)}) dealt`);
      f.versions.push(c.version);
      f.changes.push(c);
      break;
    }
    case "state":
      break;
    default: {
      const unknown: never = ev;
      throw new Error(`unknown event ${JSON.stringify(unknown)}`);
    }
  }
}

// Before a switch on event, data is any of the events' data: reading a
// move's fields from it does not compile.
// @ts-expect-error: a TableState or a DealChange has no move
export const untyped = (ev: TableEvent): unknown => ev.data.move;

/** contiguous fails unless versions are from, from+1, … in order. */
function contiguous(versions: number[], from: number, how: string): void {
  versions.forEach((v, i) => assert.equal(v, from + i, `${how}: version ${v} where ${from + i} was due (a gap or a repeat)`));
}

// An all-bot 2-deal match (the creator watches), followed across its
// deal change the two ways a frontend would: the event stream, opened
// before the start, and the move feed, each answer's version passed as
// the next since (from the start, and from late in deal 1). Both read
// every version once, deal 1's moves, the change (deal 1's score, deal 2
// as dealt), deal 2's moves, and both boards end on the server's view.
test("follow an all-bot 2-deal match across its deal change: the feed and the event stream", async () => {
  const auth = bearer(tokens.access_token);
  const created = await client.POST("/api/v1/tables", {
    headers: auth,
    body: { rules: "fibur", players: 2, match: { deals: 2 }, grace_seconds: 0, spectate: true } satisfies Body<"createTable">,
  });
  assert.ok(created.data, JSON.stringify(created.error));
  const tableID = created.data.id;
  const path = { tableID };
  for (let i = 0; i < 2; i++) {
    const bot = await client.POST("/api/v1/tables/{tableID}/bots", { params: { path }, headers: auth });
    assert.equal(bot.response.status, 200);
  }
  // The stream, opened while the table is open: its first event is the
  // state (no deal yet). Read with fetch: openapi-fetch (and its checking
  // middleware) would wait for the end of a body that never ends.
  const abort = new AbortController();
  const res = await fetch(`${baseUrl}/api/v1/tables/${tableID}/events`, { headers: auth, signal: abort.signal });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("Content-Type"), "text/event-stream");
  const events = readEvents(res, document);
  const first = await events.next();
  assert.ok(!first.done && first.value.event === "state", "the stream starts with the state");
  const opened = first.value.data.version;
  assert.equal(first.value.data.table.status, "open");

  const started = await client.POST("/api/v1/tables/{tableID}/start", { params: { path }, headers: auth });
  assert.equal(started.data?.status, "finished", "the bots play the whole match at once");

  // The feed from the version seen while open: deal 1 (its start, which
  // the stream does not carry), its change to deal 2, then deal 2.
  const fed: Followed = { lines: [], versions: [], board: undefined, changes: [] };
  const deal1 = await followFeed(tableID, opened, fed, auth);
  const streamed: Followed = { lines: [], versions: [], board: fromView(deal1), changes: [] };
  let last: TableState | undefined;
  for await (const ev of events) {
    record(streamed, ev);
    if (ev.event === "state") {
      last = ev.data;
      if (ev.data.table.status === "finished") break;
    }
  }
  abort.abort();
  assert.ok(last?.view, "the stream ends on the finished match's state");
  assert.deepEqual(streamed.lines, fed.lines, "the stream and the feed read the same moves and deal change");
  contiguous(fed.versions, fed.versions[0] ?? 0, "the feed");
  assert.equal(fed.versions[fed.versions.length - 1], last.version);
  assert.equal(fed.changes.length, 1, "one deal change");
  assert.match(fed.lines.join("\n"), /deal 1 ended, deal 2 \(Burraco \(FIBUR\)\) dealt/);
  for (const f of [fed, streamed]) {
    assert.ok(f.board);
    assert.deepEqual(seenBy(f.board, -1), viewOf(last.view), "followed to the server's last view");
  }
  assert.deepEqual(fed.changes[0]?.ended, last.deals[0], "the deal change tells deal 1 as the deal list does");

  // A follower late in deal 1 (three moves before its end) reads its
  // rest, the change, deal 2: the same lines from there on.
  const change = fed.changes[0];
  assert.ok(change);
  const late: Followed = { lines: [], versions: [], board: undefined, changes: [] };
  const from = change.version - 4;
  await followFeed(tableID, from, late, auth, true);
  assert.deepEqual(late.lines, fed.lines.slice(fed.versions.indexOf(from + 1)));
  console.log(`followed ${fed.versions.length} versions across a deal change (at ${change.version}) by the feed and the stream`);
});

/**
 * followFeed reads the move feed from since to the end of the match,
 * passing each answer's version as the next since, into f; it returns the
 * first answer's start (the deal as dealt). With partial, the first
 * answer's deal is not followed on a board (it starts mid-deal).
 */
async function followFeed(tableID: number, since: number, f: Followed, auth: { Authorization: string }, partial = false): Promise<components["schemas"]["DealView"]> {
  let first: components["schemas"]["DealView"] | undefined;
  for (let n = 0; n < 5; n++) {
    const res = await client.GET("/api/v1/tables/{tableID}/moves", {
      params: { path: { tableID }, query: { since } satisfies Query<"listTableMoves"> },
      headers: auth,
    });
    assert.ok(res.data, JSON.stringify(res.error));
    const feed = res.data;
    first ??= feed.start;
    f.board ??= partial ? undefined : fromView(feed.start);
    for (const m of feed.items) {
      if (f.board !== undefined) {
        record(f, { event: "move", id: m.version, data: m });
        continue;
      }
      f.lines.push(`${m.version} move ${m.index} of deal ${m.deal}`); // mid-deal: not on a board
      f.versions.push(m.version);
    }
    if (feed.deal_change !== undefined) record(f, { event: "deal", id: feed.deal_change.version, data: feed.deal_change });
    if (feed.version === since) return first;
    assert.ok(feed.version > since, `since ${since} answered version ${feed.version}`);
    since = feed.version;
  }
  assert.fail("the feed did not reach the end of the match in 5 answers");
}

type TournamentParts = components["schemas"]["TournamentParts"];
type TournamentDealInput = components["schemas"]["TournamentDealInput"];
type TournamentTable = components["schemas"]["TournamentTable"];

/** side is one side's score of a deal, its total the parts' sum. */
function side(cards: number, burraco: number, closing: number, hand: number, pot: number): TournamentParts {
  return { cards, burraco, closing, hand, pot, total: cards + burraco + closing - hand - pot };
}

// One live round of a tournament run by its referee: four pairs entered,
// the round drawn and started; at one table a player (Bruno) enters the
// deals and the referee confirms them, at the other the referee enters them
// (confirmed at once). Each score command sends the sheet's ETag in
// If-Match; a stale one is a 409 naming the current version, bad parts a
// 422 listing every field. Then the round closes and the standings answer
// with an ETag a hall screen polls with (304).
test("run one live round of a tournament as its referee", async () => {
  const auth = bearer(tokens.access_token);
  const startsAt = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString().replace(/\.\d+Z$/, "Z");
  const created = await client.POST("/api/v1/clubs/{clubID}/tournaments", {
    params: { path: { clubID: club.id } },
    headers: auth,
    body: {
      name: `Torneo dal vivo ${run}`,
      rules: "fibur",
      players_per_table: 4,
      kind: "pairs",
      starts_at: startsAt,
      movement: "danish",
      rounds: 1,
    } satisfies Body<"createTournament">,
  });
  assert.equal(created.response.status, 201, JSON.stringify(created.error));
  assert.ok(created.data);
  const tournamentID = created.data.id;
  const path = { tournamentID };
  const referee = await client.PUT("/api/v1/tournaments/{tournamentID}/referees/{userID}", {
    params: { path: { tournamentID, userID: annaUser.id } },
    headers: auth,
  });
  assert.equal(referee.response.status, 200);

  const lifecycle = async (action: Body<"tournamentLifecycle">["action"]) => {
    const { data, error, response } = await client.POST("/api/v1/tournaments/{tournamentID}/lifecycle", {
      params: { path },
      headers: auth,
      body: { action } satisfies Body<"tournamentLifecycle">,
    });
    assert.equal(response.status, 200, JSON.stringify(error));
    assert.ok(data);
    return data;
  };
  assert.equal((await lifecycle("open_registration")).status, "registration_open");

  // Bruno logs in and makes his own player profile; the club's players fill the field.
  const brunoLogin = await client.POST("/api/v1/auth/login", {
    body: { email: bruno.email, password: bruno.password } satisfies Body<"login">,
  });
  assert.ok(brunoLogin.data);
  const brunoAuth = bearer(brunoLogin.data.access_token);
  const brunoProfile = await client.POST("/api/v1/players", {
    headers: brunoAuth,
    body: { name: bruno.name, user_id: brunoUser.id } satisfies Body<"createPlayer">,
  });
  assert.ok(brunoProfile.data);
  const newPlayer = async (name: string): Promise<number> => {
    const { data } = await client.POST("/api/v1/players", {
      headers: auth,
      body: { name: `${name} ${run}`, club_id: club.id } satisfies Body<"createPlayer">,
    });
    assert.ok(data);
    return data.id;
  };
  const entryIDs: number[] = [];
  for (let i = 0; i < 4; i++) {
    const first: number = i === 0 ? brunoProfile.data.id : await newPlayer(`Giocatore ${i}A`);
    const second: number = await newPlayer(`Giocatore ${i}B`);
    const { data, error, response } = await client.POST("/api/v1/tournaments/{tournamentID}/entries", {
      params: { path },
      headers: auth,
      body: { players: [first, second] } satisfies Body<"addTournamentEntry">,
    });
    assert.equal(response.status, 201, JSON.stringify(error));
    assert.ok(data);
    assert.equal(response.headers.get("Location"), `/api/v1/tournaments/${tournamentID}/entries/${data.id}`);
    assert.equal(data.fee_paid, false); // the director sees it
    entryIDs.push(data.id);
  }
  await lifecycle("close_registration");
  const started = await lifecycle("start");
  assert.equal(started.status, "running");
  assert.equal(started.entries, 4);

  const drawn = await client.POST("/api/v1/tournaments/{tournamentID}/rounds", { params: { path }, headers: auth });
  assert.equal(drawn.response.status, 201, JSON.stringify(drawn.error));
  assert.equal(drawn.response.headers.get("Location"), `/api/v1/tournaments/${tournamentID}/rounds/1`);
  const round = await client.POST("/api/v1/tournaments/{tournamentID}/rounds/{round}/start", {
    params: { path: { tournamentID, round: 1 } },
    headers: auth,
  });
  assert.equal(round.data?.status, "playing");
  const tables = round.data?.tables ?? [];
  assert.equal(tables.length, 2);
  const brunoEntry = entryIDs[0];
  const brunoTable = tables.find((t) => t.ns?.entries[0]?.id === brunoEntry || t.ew?.entries[0]?.id === brunoEntry);
  const otherTable = tables.find((t) => t !== brunoTable);
  assert.ok(brunoTable && otherTable);

  const deals: TournamentDealInput[] = [
    { number: 1, ns: side(320, 200, 100, 0, 0), ew: side(145, 0, 0, 35, 100) },
    { number: 2, ns: side(90, 0, 0, 60, 0), ew: side(410, 300, 100, 0, 0) },
    { number: 3, ns: side(255, 100, 100, 0, 0), ew: side(180, 50, 0, 20, 0) },
  ];
  const sheet = async (table: number) => {
    const { data, response } = await client.GET("/api/v1/tournaments/{tournamentID}/rounds/{round}/tables/{table}", {
      params: { path: { tournamentID, round: 1, table } },
    });
    assert.ok(data);
    const etag = response.headers.get("ETag") ?? "";
    assert.ok(etag.length > 0);
    return { table: data, etag };
  };
  const tablePath = (table: TournamentTable) => ({ tournamentID, round: 1, table: table.number });

  // Bruno enters his table's deals; a bad one first, then a stale ETag.
  {
    const { etag } = await sheet(brunoTable.number);
    const bad = await client.POST("/api/v1/tournaments/{tournamentID}/rounds/{round}/tables/{table}/scores", {
      params: { path: tablePath(brunoTable), header: { "If-Match": etag } },
      headers: brunoAuth,
      body: {
        deals: [{ number: 1, ns: { ...side(320, 200, 100, 0, 0), total: 600 }, ew: side(142, 0, 100, 0, 0) }],
      } satisfies Body<"enterTournamentScores">,
    });
    assert.ok(bad.error);
    isProblem(bad.response, bad.error, 422, "bad_score");
    assert.deepEqual(bad.error.errors?.map((e) => `${e.field}:${e.code}`).sort(), [
      "deals[0].ew.cards:not_multiple_5",
      "deals[0].ew.closing:two_closings",
      "deals[0].ew.total:not_multiple_5",
      "deals[0].ns.total:parts_sum",
    ]);
    const entered = await client.POST("/api/v1/tournaments/{tournamentID}/rounds/{round}/tables/{table}/scores", {
      params: { path: tablePath(brunoTable), header: { "If-Match": etag } },
      headers: { ...brunoAuth, "Idempotency-Key": `bruno-${run}` },
      body: { deals } satisfies Body<"enterTournamentScores">,
    });
    assert.equal(entered.response.status, 200, JSON.stringify(entered.error));
    assert.ok(entered.data);
    assert.deepEqual(
      entered.data.deals.map((d) => d.status),
      ["entered", "entered", "entered"],
    );
    const stale = await client.POST("/api/v1/tournaments/{tournamentID}/rounds/{round}/tables/{table}/confirm", {
      params: { path: tablePath(brunoTable), header: { "If-Match": etag } },
      headers: auth,
    });
    assert.ok(stale.error);
    isProblem(stale.response, stale.error, 409, "stale_sheet");
    assert.equal(stale.error.current_version, entered.data.version);
    assert.equal(stale.response.headers.get("ETag"), entered.response.headers.get("ETag"));
    // The referee confirms with the version the problem gave.
    const confirmed = await client.POST("/api/v1/tournaments/{tournamentID}/rounds/{round}/tables/{table}/confirm", {
      params: { path: tablePath(brunoTable) },
      headers: auth,
      body: { version: stale.error.current_version ?? 0 } satisfies Body<"confirmTournamentScores">,
    });
    assert.equal(confirmed.response.status, 200, JSON.stringify(confirmed.error));
    assert.ok(confirmed.data);
    assert.equal(confirmed.data.result.final, true);
    assert.equal(confirmed.data.deals[2]?.confirmed_by, annaUser.id);
    assert.equal(confirmed.data.result.mp_ns, 620 + 30 + 455);
    assert.equal(confirmed.data.result.mp_ew, 10 + 810 + 210);
  }
  // The referee enters the other table: confirmed at once.
  {
    const { etag } = await sheet(otherTable.number);
    const entered = await client.POST("/api/v1/tournaments/{tournamentID}/rounds/{round}/tables/{table}/scores", {
      params: { path: tablePath(otherTable), header: { "If-Match": etag } },
      headers: auth,
      body: { deals } satisfies Body<"enterTournamentScores">,
    });
    assert.equal(entered.response.status, 200, JSON.stringify(entered.error));
    assert.ok(entered.data?.result.final);
    assert.equal(entered.data.deals[0]?.entered_side, undefined);
  }
  const closed = await client.POST("/api/v1/tournaments/{tournamentID}/rounds/{round}/close", {
    params: { path: { tournamentID, round: 1 } },
    headers: auth,
  });
  assert.equal(closed.data?.status, "closed");

  const standings = await client.GET("/api/v1/tournaments/{tournamentID}/standings", { params: { path } });
  assert.equal(standings.response.status, 200);
  assert.ok(standings.data);
  assert.equal(standings.data.rows.length, 4);
  assert.equal(standings.data.after_round, 1);
  // MP 1105 to 1030 at both tables: a difference of 75 is 11-9 by the 3-deal table.
  assert.deepEqual(
    standings.data.rows.map((r) => r.vp),
    [11, 11, 9, 9],
  );
  const etag = standings.response.headers.get("ETag") ?? "";
  const again = await client.GET("/api/v1/tournaments/{tournamentID}/standings", {
    params: { path, header: { "If-None-Match": etag } },
  });
  assert.equal(again.response.status, 304);
  assert.equal((await lifecycle("finish")).status, "finished");

  // The entry's history, for anyone; the audit trail, for the staff only.
  const history = await client.GET("/api/v1/tournaments/{tournamentID}/entries/{entryID}/history", {
    params: { path: { tournamentID, entryID: brunoEntry ?? 0 } },
  });
  assert.equal(history.response.status, 200);
  assert.equal(history.data?.lines.length, 1);
  assert.equal(history.data?.lines[0]?.table, brunoTable.number);
  const audit = await client.GET("/api/v1/tournaments/{tournamentID}/audit", {
    params: { path, query: { after: 0, limit: 100 } satisfies Query<"getTournamentAudit"> },
    headers: auth,
  });
  assert.equal(audit.response.status, 200);
  const kinds = audit.data?.items.map((e) => e.kind) ?? [];
  assert.deepEqual(kinds.slice(-6), ["round_started", "score_entered", "score_confirmed", "score_entered", "round_closed", "finished"]);
  const hidden = await client.GET("/api/v1/tournaments/{tournamentID}/audit", { params: { path } });
  assert.ok(hidden.error);
  isProblem(hidden.response, hidden.error, 401, "unauthenticated");
});

// One round of a tournament played online, from the player's side: Anna,
// its director, creates it with played "online" and enters herself with a
// partner the bot plays; the round's start opens the online tables. She
// finds hers in /me/tournaments and plays it by long polls (draw, then the
// first card she may discard) to the end; the engine writes each deal into her sheet (engine, confirmed,
// linked to its record), and a score by hand is a 409 online_sheet.
test("play one table of a tournament played online", async () => {
  // Anna directs it and plays in it with her own profile (auth requests
  // are rate-limited per address: no new login here); the bot plays her
  // partner and the other pairs.
  const auth = bearer(tokens.access_token);
  const playerAuth = auth;
  const profile = { data: player };
  const startsAt = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString().replace(/\.\d+Z$/, "Z");
  const created = await client.POST("/api/v1/clubs/{clubID}/tournaments", {
    params: { path: { clubID: club.id } },
    headers: auth,
    body: {
      name: `Torneo online ${run}`,
      rules: "fibur",
      players_per_table: 4,
      kind: "pairs",
      deals_per_round: 3,
      starts_at: startsAt,
      movement: "modified_danish",
      rounds: 1,
      played: "online",
      online: { turn_seconds: 0, round_seconds: 0, absent: "forfeit", grace_seconds: 300, staff_watch: true },
    } satisfies Body<"createTournament">,
  });
  assert.equal(created.response.status, 201, JSON.stringify(created.error));
  assert.equal(created.data?.played, "online");
  assert.equal(created.data?.online?.absent, "forfeit");
  const tournamentID = created.data?.id ?? 0;
  const path = { tournamentID };
  const lifecycle = async (action: Body<"tournamentLifecycle">["action"]) => {
    const { error, response } = await client.POST("/api/v1/tournaments/{tournamentID}/lifecycle", {
      params: { path },
      headers: auth,
      body: { action } satisfies Body<"tournamentLifecycle">,
    });
    assert.equal(response.status, 200, JSON.stringify(error));
  };
  await lifecycle("open_registration");
  for (let i = 0; i < 4; i++) {
    const players: number[] = [];
    for (let k = 0; k < 2; k++) {
      if (i === 0 && k === 0) {
        players.push(profile.data.id);
        continue;
      }
      const { data } = await client.POST("/api/v1/players", {
        headers: auth,
        body: { name: `Online ${i}${k} ${run}`, club_id: club.id } satisfies Body<"createPlayer">,
      });
      assert.ok(data);
      players.push(data.id);
    }
    const entered = await client.POST("/api/v1/tournaments/{tournamentID}/entries", {
      params: { path },
      headers: auth,
      body: { players } satisfies Body<"addTournamentEntry">,
    });
    assert.equal(entered.response.status, 201, JSON.stringify(entered.error));
  }
  await lifecycle("close_registration");
  await lifecycle("start");
  const drawn = await client.POST("/api/v1/tournaments/{tournamentID}/rounds", { params: { path }, headers: auth });
  assert.equal(drawn.response.status, 201, JSON.stringify(drawn.error));
  const started = await client.POST("/api/v1/tournaments/{tournamentID}/rounds/{round}/start", {
    params: { path: { tournamentID, round: 1 } },
    headers: auth,
  });
  assert.equal(started.data?.status, "playing");

  const mine = await client.GET("/api/v1/me/tournaments", { headers: playerAuth });
  const seat = mine.data?.items.find((m) => m.tournament.id === tournamentID)?.seats[0];
  assert.ok(seat?.online_table, JSON.stringify(mine.data));
  const tableID = seat.online_table;
  const tpath = { tableID };
  let since = -1;
  for (let step = 0; ; step++) {
    assert.ok(step < 3000, "the match did not end");
    const polled = await client.GET("/api/v1/tables/{tableID}/state", {
      params: { path: tpath, query: (since < 0 ? {} : { since, wait: 5 }) satisfies Query<"getTableState"> },
      headers: playerAuth,
    });
    if (polled.response.status === 304) continue;
    assert.equal(polled.response.status, 200, JSON.stringify(polled.error));
    const state: TableState | undefined = polled.data;
    assert.ok(state);
    assert.equal(state.table.tournament?.id, tournamentID);
    if (state.table.status === "finished") break;
    since = state.version;
    const view = state.view;
    if (!view || view.turn !== state.seat) continue;
    const tries: Body<"playMove">[] = view.phase === "take"
      ? [{ move: "draw", version: state.version }]
      : (view.hand ?? []).map((card) => ({ move: "discard", card, version: state.version }) satisfies Body<"playMove">);
    for (const body of tries) {
      const moved = await client.POST("/api/v1/tables/{tableID}/moves", { params: { path: tpath }, headers: playerAuth, body });
      if (moved.response.status === 422) continue;
      assert.equal(moved.response.status, 200, JSON.stringify(moved.error));
      break;
    }
  }

  const round = await client.GET("/api/v1/tournaments/{tournamentID}/rounds/{round}", { params: { path: { tournamentID, round: 1 } } });
  const table = round.data?.tables.find((t) => t.online_table === tableID);
  assert.ok(table, JSON.stringify(round.data));
  assert.equal(table.deals.length, 3);
  assert.ok(table.result.final);
  for (const d of table.deals) {
    assert.ok(d.engine && d.status === "confirmed" && d.record?.table === tableID && d.record.deal === d.number, JSON.stringify(d));
  }
  const sheet = await client.GET("/api/v1/tournaments/{tournamentID}/rounds/{round}/tables/{table}", {
    params: { path: { tournamentID, round: 1, table: table.number } },
  });
  const byHand = await client.POST("/api/v1/tournaments/{tournamentID}/rounds/{round}/tables/{table}/scores", {
    params: { path: { tournamentID, round: 1, table: table.number }, header: { "If-Match": sheet.response.headers.get("ETag") ?? "" } },
    headers: auth,
    body: { deals: [{ number: 4, ns: side(100, 0, 0, 0, 0), ew: side(50, 0, 0, 0, 0) }] } satisfies Body<"enterTournamentScores">,
  });
  assert.ok(byHand.error);
  isProblem(byHand.response, byHand.error, 409, "online_sheet");
});

test("refresh, then log out", async () => {
  const { data, error, response } = await client.POST("/api/v1/auth/refresh", {
    body: { refresh_token: tokens.refresh_token } satisfies Body<"refreshTokens">,
  });
  assert.equal(error, undefined);
  assert.equal(response.status, 200);
  assert.ok(data);
  assert.notEqual(data.refresh_token, tokens.refresh_token);
  assert.equal(data.user.id, annaUser.id);
  tokens = data;
  {
    const me = await client.GET("/api/v1/me", { headers: bearer(tokens.access_token) });
    assert.equal(me.data?.id, annaUser.id);
  }
  {
    const out = await client.POST("/api/v1/auth/logout", {
      body: { refresh_token: tokens.refresh_token } satisfies Body<"logout">,
    });
    assert.equal(out.response.status, 204);
    assert.equal(out.error, undefined);
  }
  {
    const { error, response } = await client.POST("/api/v1/auth/refresh", {
      body: { refresh_token: tokens.refresh_token } satisfies Body<"refreshTokens">,
    });
    assert.ok(error);
    isProblem(response, error, 401, "unauthenticated");
  }
});

// Never called: these lines only have to fail to compile. They show that the
// generated types are precise (a spec that degraded to `any` or to loose
// objects would make the @ts-expect-error lines themselves errors).
export function mustNotCompile(): void {
  // @ts-expect-error -- the lifecycle's actions are an enum
  void client.POST("/api/v1/tournaments/{tournamentID}/lifecycle", { params: { path: { tournamentID: 1 } }, body: { action: "pause" } });
  // @ts-expect-error -- a deal's parts are all given
  void client.POST("/api/v1/tournaments/{tournamentID}/rounds/{round}/tables/{table}/scores", { params: { path: { tournamentID: 1, round: 1, table: 1 } }, body: { deals: [{ number: 1, ns: { cards: 100 }, ew: { cards: 50 } }] } });
  // @ts-expect-error -- no such path
  void client.GET("/api/v1/nope");
  // @ts-expect-error -- name is required
  void client.POST("/api/v1/clubs", { body: { city: "Roma" } });
  // @ts-expect-error -- not a role
  void client.POST("/api/v1/clubs/{clubID}/members", { params: { path: { clubID: 1 } }, body: { user_id: 1, role: "king" } });
  // @ts-expect-error -- the path parameter is required
  void client.GET("/api/v1/players/{playerID}", {});
  // @ts-expect-error -- limit is an integer
  void client.GET("/api/v1/clubs", { params: { query: { limit: "5" } } });
  // @ts-expect-error -- not a rule set
  void client.POST("/api/v1/clubs/{clubID}/tournaments", { params: { path: { clubID: 1 } }, body: { name: "T", rules: "poker", players_per_table: 4, kind: "pairs", starts_at: "2026-05-01T15:00:00Z" } });
  // @ts-expect-error -- a discard names its card
  void client.POST("/api/v1/tables/{tableID}/moves", { params: { path: { tableID: 1 } }, body: { move: "discard", version: 3 } });
  // @ts-expect-error -- attach's meld is an index, not a card list
  void client.POST("/api/v1/tables/{tableID}/moves", { params: { path: { tableID: 1 } }, body: { move: "attach", meld: ["5H"], cards: ["5H"] } });
  // @ts-expect-error -- not a move
  void client.POST("/api/v1/tables/{tableID}/moves", { params: { path: { tableID: 1 } }, body: { move: "fly" } });
  // @ts-expect-error -- 2 or 4 players per table
  void client.POST("/api/v1/clubs/{clubID}/tournaments", { params: { path: { clubID: 1 } }, body: { name: "T", rules: "fibur", players_per_table: 3, kind: "pairs", starts_at: "2026-05-01T15:00:00Z" } });
}

// Exact types, checked at compile time only.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export const typeChecks: [
  Equal<Problem["code"], string>,
  Equal<NonNullable<Problem["errors"]>, components["schemas"]["FieldError"][]>,
  Equal<Role, "member" | "referee" | "admin" | "owner">,
  Equal<TokenResponse["access_token"], string>,
  Equal<Player["club_id"], number | undefined>,
  Equal<
    TournamentStatus,
    "draft" | "registration_open" | "registration_closed" | "running" | "finished" | "results_published" | "cancelled"
  >,
  Equal<Tournament["players_per_table"], 2 | 4>,
  Equal<Tournament["movement"], "mitchell" | "danish" | "modified_danish" | "round_robin" | "random" | "knockout">,
  Equal<NonNullable<Tournament["vp_table"]>["bands"][number]["to"], number | undefined>,
  Equal<Tournament["options"]["target"], number>,
  Equal<components["schemas"]["MoveNotation"]["move"], "draw" | "pickup" | "meld" | "attach" | "discard" | "redraw">,
  Equal<components["schemas"]["MoveAttach"]["meld"], number>,
  Equal<components["schemas"]["MovePickup"]["meld"], string[] | undefined>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true];
