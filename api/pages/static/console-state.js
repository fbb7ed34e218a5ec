// console-state: where a table of a round is, for the director's live
// view; pure, so that the browser test can ask it directly.

// tableState says where a table is: not started, deal k of n entered,
// waiting for confirmation, confirmed (complete), decided by a ruling;
// late when nothing happened there for more than the chosen minutes.
export function tableState(round, tb, now, lateMinutes, startedAt) {
  if (round.status === 'pairings_published') return { key: 'notStarted', cls: '' };
  if (!tb.ns || !tb.ew) return { key: 'bye', cls: 'state-confirmed' };
  const deals = tb.deals || [];
  const confirmed = deals.filter((d) => d.status === 'confirmed').length;
  const waiting = deals.filter((d) => d.status === 'entered').length;
  if (tb.result && tb.result.decided_by) return { key: 'decided', cls: 'state-confirmed', by: tb.result.decided_by };
  if (confirmed >= tb.planned_deals && waiting === 0) return { key: 'confirmed', cls: 'state-confirmed' };
  let last = startedAt;
  for (const d of deals) {
    last = Math.max(last, new Date(d.entered_at).getTime() || 0, d.confirmed_at ? new Date(d.confirmed_at).getTime() : 0);
  }
  const late = round.status === 'playing' && last > 0 && now - last > lateMinutes * 60e3;
  const mins = last > 0 ? Math.floor((now - last) / 60e3) : 0;
  if (waiting > 0) return { key: 'waiting', cls: late ? 'state-late' : 'state-waiting', k: deals.length, n: tb.planned_deals, late, mins };
  if (deals.length === 0) return { key: 'notStarted', cls: late ? 'state-late' : '', late, mins };
  return { key: 'dealOf', cls: late ? 'state-late' : '', k: deals.length, n: tb.planned_deals, late, mins };
}
