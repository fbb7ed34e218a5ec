// A deal followed without the server's engine, the way a frontend would
// animate it: from the cards dealt (a record's cards, or the move feed's
// start as one seat sees it), each move in notation moves cards between
// the hands, the stock, the discard pile, the pots and the melds. It keeps
// no rule: the server has checked every move; this only tracks where the
// cards went, and says so when a move cannot be followed.
//
// Followed from the feed, hands holds the viewer's cards only (the others
// are counts); a record knows every hand. Written for the Italian games
// without rows (fibur, reale): a fechado pickup, the rows of fibur-row and
// the Brazilian pot that becomes the stock are not followed.

import type { components } from "./schema.js";

type MoveNotation = components["schemas"]["MoveNotation"];
type MoveTaken = components["schemas"]["MoveTaken"];

/** Board is what a follower knows of a deal: every card where it can. */
export interface Board {
  players: number;
  /** hands[seat], or undefined where the seat's cards are hidden. */
  hands: (string[] | undefined)[];
  handSizes: number[];
  /** Known only from a record: top first. */
  stock: string[] | undefined;
  stockSize: number;
  pile: string[];
  /** Known only from a record: the one taken first first. */
  pots: string[][] | undefined;
  potsLeft: number;
  potTaken: boolean[];
  melds: string[][][];
}

/** fromCards is the board of a deal as dealt, every card known (a record's cards). */
export function fromCards(players: number, c: components["schemas"]["DealtCards"]): Board {
  const teams = players === 4 ? 2 : players;
  return {
    players,
    hands: c.hands.map((h) => [...h]),
    handSizes: c.hands.map((h) => h.length),
    stock: [...c.stock],
    stockSize: c.stock.length,
    pile: [...c.discard],
    pots: c.pots.map((p) => [...p]),
    potsLeft: c.pots.length,
    potTaken: Array.from({ length: teams }, () => false),
    melds: Array.from({ length: teams }, () => []),
  };
}

/** fromView is the board of a deal as dealt, as one seat sees it (the move feed's start). */
export function fromView(v: components["schemas"]["DealView"]): Board {
  return {
    players: v.players,
    hands: v.hand_sizes.map((_, seat) => (seat === v.seat ? [...(v.hand ?? [])] : undefined)),
    handSizes: [...v.hand_sizes],
    stock: undefined,
    stockSize: v.stock_size,
    pile: [...(v.pile ?? [])],
    pots: undefined,
    potsLeft: v.pots_left,
    potTaken: [...v.pot_taken],
    melds: v.melds.map((ms) => ms.map((m) => [...m.cards])),
  };
}

const team = (b: Board, seat: number): number => seat % b.melds.length;

function take(b: Board, seat: number, cards: readonly string[]): void {
  b.handSizes[seat] = (b.handSizes[seat] ?? 0) - cards.length;
  const hand = b.hands[seat];
  if (!hand) return;
  for (const c of cards) {
    const i = hand.indexOf(c);
    if (i < 0) throw new Error(`seat ${seat} lays ${c}, which its hand ${hand.join(" ")} does not hold`);
    hand.splice(i, 1);
  }
}

function give(b: Board, seat: number, cards: readonly string[], count = cards.length): void {
  b.handSizes[seat] = (b.handSizes[seat] ?? 0) + count;
  b.hands[seat]?.push(...cards);
}

/** drawCard takes the stock's top card: known from a record, or from what the feed shows the drawer. */
function drawCard(b: Board, seat: number, shown: readonly string[] | undefined): void {
  const top = b.stock?.shift();
  if (b.stock && top === undefined) throw new Error("a draw from an empty stock");
  b.stockSize--;
  give(b, seat, top !== undefined ? [top] : [...(shown ?? [])], 1);
}

/**
 * apply follows one move of seat. taken is what the move feed shows of it
 * (undefined when following a record, which knows every card): the card
 * drawn by the seat followed, and whether a pot was taken.
 */
export function apply(b: Board, seat: number, m: MoveNotation, taken?: MoveTaken): void {
  const t = team(b, seat);
  switch (m.move) {
    case "draw":
      drawCard(b, seat, taken?.drawn);
      break;
    case "pickup": {
      if (m.meld !== undefined || m.attach !== undefined) throw new Error("a fechado pickup is not followed here");
      const pile = b.pile.splice(0);
      give(b, seat, pile);
      break;
    }
    case "meld": {
      const melds = m.melds ?? (m.cards ? [m.cards] : []);
      if (m.row) throw new Error("a fibur-row meld is not followed here");
      for (const cards of melds) {
        take(b, seat, cards);
        b.melds[t]?.push([...cards]);
      }
      break;
    }
    case "attach": {
      if (m.row) throw new Error("a fibur-row attach is not followed here");
      const cards = m.cards ?? [];
      take(b, seat, cards);
      const meld = b.melds[t]?.[m.meld];
      if (!meld) throw new Error(`team ${t} has no meld ${m.meld}`);
      meld.push(...cards);
      break;
    }
    case "discard":
      take(b, seat, [m.card]);
      b.pile.push(m.card);
      break;
    case "redraw": {
      const hand = b.hands[seat];
      const up = taken?.turned_up?.[0] ?? hand?.[hand.length - 1];
      if (up === undefined) throw new Error("a redraw whose card is not known");
      take(b, seat, [up]);
      b.pile.push(up);
      drawCard(b, seat, taken?.drawn);
      break;
    }
  }
  takePot(b, seat, m, taken);
}

/**
 * takePot gives the seat its team's pot when the move took it: the feed
 * says so (pot_taken); a record does not, and a follower knows it by the
 * rule (RULES §6): a lay or a discard that empties the hand, while the
 * team's pot is there to take, takes it (a discard that empties the hand
 * after it is the closing).
 */
function takePot(b: Board, seat: number, m: MoveNotation, taken?: MoveTaken): void {
  const t = team(b, seat);
  const tookIt = taken
    ? taken.pot_taken === true
    : b.handSizes[seat] === 0 && !b.potTaken[t] && b.potsLeft > 0 && ["meld", "attach", "discard"].includes(m.move);
  if (!tookIt) return;
  const pot = b.pots?.shift() ?? taken?.pot ?? [];
  give(b, seat, pot, pot.length > 0 ? pot.length : 11);
  b.potsLeft--;
  b.potTaken[t] = true;
}

const sorted = (cs: readonly string[]): string[] => [...cs].sort();

/**
 * seenBy is the part of a board a seat's view shows, in a form to compare
 * with the server's view: hand and melds as sorted lists (the engine may
 * order a meld's cards its own way).
 */
export function seenBy(b: Board, seat: number) {
  return {
    hand: sorted(b.hands[seat] ?? []),
    hand_sizes: b.handSizes,
    pile: b.pile,
    stock_size: b.stockSize,
    pots_left: b.potsLeft,
    melds: b.melds.map((ms) => ms.map(sorted).sort()),
  };
}

/** viewOf is a server view in the form of seenBy. */
export function viewOf(v: components["schemas"]["DealView"]) {
  return {
    hand: sorted(v.hand ?? []),
    hand_sizes: v.hand_sizes,
    pile: v.pile ?? [],
    stock_size: v.stock_size,
    pots_left: v.pots_left,
    melds: v.melds.map((ms) => ms.map((m) => sorted(m.cards)).sort()),
  };
}
