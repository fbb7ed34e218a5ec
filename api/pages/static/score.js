// score: the arithmetic of a deal's parts, as the server checks it
// (RULES §7a): total = cards + burraco + closing − hand − pot, rounded up
// to a multiple of 10 under the Brazilian option round_up_10.
export const PARTS = ['cards', 'burraco', 'closing', 'hand', 'pot'];

export function partsTotal(p, roundUp10) {
  const n = (p.cards || 0) + (p.burraco || 0) + (p.closing || 0) - (p.hand || 0) - (p.pot || 0);
  if (!roundUp10) return n;
  const r = ((n % 10) + 10) % 10;
  return r === 0 ? n : n + 10 - r;
}

// dealDiff lists the deals that differ between two versions of a sheet:
// {n, side, ns, ew, status} for each deal new or changed in after.
export function dealDiff(before, after) {
  const out = [];
  for (const d of after.deals) {
    const old = before && before.deals.find((x) => x.number === d.number);
    if (old && old.status === d.status && old.ns.total === d.ns.total && old.ew.total === d.ew.total) continue;
    out.push({ n: d.number, side: (d.entered_side || '').toUpperCase(), ns: d.ns.total, ew: d.ew.total, status: d.status });
  }
  return out;
}
