// The score pad: a player of the table (or a referee) enters each deal's
// parts on a phone, sees the table's running totals and VP, and confirms
// what the other side entered. Everything goes through /api/v1:
//   GET  /me/tournaments                       my seats ("my table")
//   GET  /tournaments/{t}/rounds/{r}/tables/{n} the sheet, polled by ETag
//   POST …/scores, …/confirm                   with the sheet's version and an Idempotency-Key
// The deal being typed is a draft in localStorage, with the key and body of
// a submission once sent: a reload loses nothing, and sending again after a
// lost answer repeats the same request, which the server answers once.
import { start } from './layout.js';
import { get, send, poll, session, newKey, ApiError } from './api.js';
import { t, apply, fmtNumber } from './i18n.js';
import { partsTotal, dealDiff, PARTS } from './score.js';
import { tableState } from './console-state.js';
import { mountClaim } from './claim.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const ctx = { tid: 0, round: 0, table: 0, side: '', referee: false, tournament: null, sheet: null, stop: null };

start();
main();

async function main() {
  if (!session()) {
    status(t('pad.signinFirst'), '/app/signin?next=' + encodeURIComponent(location.pathname + location.search));
    return;
  }
  let mine;
  try {
    mine = (await get('/me/tournaments')).data.items;
  } catch (err) {
    status(err.message);
    return;
  }
  ctx.tid = Number(params.get('t'));
  ctx.round = Number(params.get('r'));
  ctx.table = Number(params.get('table'));
  if (ctx.tid > 0 && ctx.round > 0 && ctx.table > 0) {
    await openTable(mine);
    return;
  }
  await listTables(mine);
}

// status shows a sentence at the top (with a link when href is given).
function status(text, href) {
  const p = $('pad-status');
  p.replaceChildren();
  if (href) {
    const a = document.createElement('a');
    a.href = href;
    a.textContent = text;
    p.append(a);
  } else {
    p.textContent = text;
  }
  p.hidden = !text;
}

function padURL(tid, round, table) {
  return `/app/pad?t=${tid}&r=${round}&table=${table}`;
}

// --- "my table" ---

async function listTables(mine) {
  const links = [];
  const refRounds = [];
  for (const m of mine) {
    for (const s of m.seats) {
      if (s.bye || s.round_status === 'closed') continue;
      const vs = s.opponents.map((o) => o.name).join(', ');
      links.push({
        href: padURL(m.tournament.id, s.round, s.table),
        title: t('pad.seat', { table: s.table, round: s.round }),
        text: `${m.tournament.name} · ${t('pad.youPlay', { side: s.side.toUpperCase(), vs })}`,
      });
    }
    if (m.roles.includes('referee') && m.current_round > 0) {
      try {
        const r = (await get(`/tournaments/${m.tournament.id}/rounds/${m.current_round}`)).data;
        refRounds.push(r.number);
        for (const tb of r.tables) {
          // What a referee walks to: who sits there, and how far they are.
          const s = tableState(r, tb, Date.now(), 1e9, 0);
          links.push({
            href: padURL(m.tournament.id, r.number, tb.number),
            title: t('pad.tableN', { n: tb.number }),
            text: tb.ns && tb.ew ? `NS: ${sideNames(tb.ns)}\nEW: ${sideNames(tb.ew)}` : sideNames(tb.ns || tb.ew),
            state: t('pad.ts.' + s.key, { k: s.k, n: s.n }),
            stateKey: s.key,
            table: tb.number,
            referee: true,
            tournament: m.tournament.name,
          });
        }
      } catch (err) {
        status(err.message);
      }
    }
  }
  const playing = links.filter((l) => !l.referee);
  if (playing.length === 1 && links.length === 1) {
    location.replace(playing[0].href);
    return;
  }
  if (links.length === 0) {
    status(t('pad.noTable'));
    // Entered by the director before having an account? The profile's
    // code makes it theirs, and the pad finds the table (issue 28).
    mountClaim($('pad-claim'), () => setTimeout(() => location.reload(), 800));
    $('pad-claim').hidden = false;
    return;
  }
  // A referee's list is the round's tables; a player's, their own.
  const tournaments = new Set(links.filter((l) => l.referee).map((l) => l.tournament));
  $('pad-tables-h').textContent = refRounds.length ? t('pad.roundTables', { n: refRounds.join(', ') }) : t('pad.myTables');
  const ul = $('pad-table-list');
  ul.replaceChildren(
    ...links.map((l) => {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.className = 'table-link';
      a.href = l.href;
      if (l.table) a.dataset.table = l.table;
      const strong = document.createElement('strong');
      strong.textContent = l.title;
      const span = document.createElement('span');
      span.className = 'names';
      span.textContent = (l.referee && tournaments.size > 1 ? l.tournament + ' · ' : '') + l.text;
      a.append(strong);
      if (l.state) {
        const st = document.createElement('span');
        st.className = 'table-state state-' + l.stateKey;
        st.textContent = l.state;
        a.append(' ', st);
      }
      a.append(document.createElement('br'), span);
      li.append(a);
      return li;
    }),
  );
  $('pad-tables').hidden = false;
}

// --- one table ---

async function openTable(mine) {
  const m = mine.find((x) => x.tournament.id === ctx.tid);
  const seat = m && m.seats.find((s) => s.round === ctx.round && s.table === ctx.table && !s.bye);
  ctx.side = seat ? seat.side : '';
  ctx.referee = !!(m && m.roles.includes('referee'));
  try {
    ctx.tournament = m ? m.tournament : (await get(`/tournaments/${ctx.tid}`)).data;
    if (!seat && !ctx.referee) ctx.referee = await isStaff(ctx.tournament.club_id);
  } catch (err) {
    status(err.message);
    return;
  }
  if (!seat && !ctx.referee) {
    status(t('error.not_at_table'));
    return;
  }
  $('pad-title').textContent = ctx.tournament.name;
  $('pad-sheet').hidden = false;
  buildForm();
  $('pad-form').addEventListener('submit', onSubmit);
  $('pad-confirm-button').addEventListener('click', onConfirm);
  document.addEventListener('langchange', () => ctx.sheet && render(ctx.sheet));
  ctx.stop = poll(sheetPath(), render, { interval: 1500, onError: (err) => status(err.message) });
}

// isStaff: a club admin or owner may use any table's pad, as the API lets them.
async function isStaff(clubID) {
  const clubs = (await get('/me/clubs?limit=100')).data.items || [];
  return clubs.some((c) => c.club_id === clubID && ['owner', 'admin', 'referee'].includes(c.role));
}

function sheetPath() {
  return `/tournaments/${ctx.tid}/rounds/${ctx.round}/tables/${ctx.table}`;
}

function sideNames(side) {
  if (!side) return '';
  const names = side.players && side.players.length ? side.players.map((p) => p.name) : side.entries.map((e) => e.name);
  return names.join(' – ');
}

// render shows the sheet as the server has it. The form is left alone but
// for its heading and deal number: what is typed stays.
function render(sheet) {
  ctx.sheet = sheet;
  status('');
  // The deal being typed was confirmed meanwhile (this person confirmed
  // the other side's entry of it, or a referee did): the draft is done.
  const d = loadDraft();
  if (d && d.number && isConfirmed(sheet, d.number)) clearDraft();
  $('pad-sheet-h').textContent = t('pad.seat', { table: sheet.number, round: sheet.round });
  // Which side this person is, first and large: the rest of the page
  // (the columns, "entered by EW") reads from it.
  const you = $('pad-you');
  you.textContent = ctx.side ? t('pad.youAre', { side: t('pad.side.' + ctx.side), table: sheet.number }) : t('pad.youReferee', { table: sheet.number });
  you.className = 'you' + (ctx.side ? ' you-' + ctx.side : '');
  // The own side's column says so too, where the parts are typed.
  for (const side of ['ns', 'ew']) {
    $('pad-' + side).querySelector('legend').textContent = side === ctx.side ? t('pad.legendYou', { side: side.toUpperCase() }) : side.toUpperCase();
  }
  $('pad-sides').textContent = `NS: ${sideNames(sheet.ns)}\nEW: ${sideNames(sheet.ew)}`;
  renderDeals(sheet);
  renderActions(sheet);
  updateTotals();
}

function renderDeals(sheet) {
  const body = $('pad-deals').tBodies[0];
  body.replaceChildren(
    ...sheet.deals.map((d) => {
      const tr = document.createElement('tr');
      tr.className = d.status;
      const state =
        d.status === 'confirmed' ? t('pad.confirmed') : t('pad.enteredBy', { side: (d.entered_side || '').toUpperCase() });
      for (const [text, cls] of [[String(d.number)], [fmtNumber(d.ns.total), 'num'], [fmtNumber(d.ew.total), 'num'], [state]]) {
        const td = document.createElement('td');
        td.textContent = text;
        if (cls) td.className = cls;
        tr.append(td);
      }
      return tr;
    }),
  );
  const sum = (side) => sheet.deals.reduce((a, d) => a + d[side].total, 0);
  $('pad-mp-ns').textContent = fmtNumber(sum('ns'));
  $('pad-mp-ew').textContent = fmtNumber(sum('ew'));
  const r = sheet.result;
  const hasVP = r && r.deals > 0;
  $('pad-vp-ns').textContent = hasVP ? String(r.vp_ns) : '–';
  $('pad-vp-ew').textContent = hasVP ? String(r.vp_ew) : '–';
  $('pad-vp-note').textContent = hasVP && !r.final ? t('pad.provisional') : '';
}

// toConfirm are the entered deals this person may confirm: the other
// side's, or any for a referee.
function toConfirm(sheet) {
  return sheet.deals.filter((d) => d.status === 'entered' && (ctx.referee || d.entered_side !== ctx.side));
}

function renderActions(sheet) {
  const confirmable = toConfirm(sheet);
  $('pad-confirm').hidden = confirmable.length === 0;
  $('pad-confirm-text').textContent = confirmable
    .map((d) => t('pad.checkDeal', { n: d.number, side: (d.entered_side || '').toUpperCase(), ns: d.ns.total, ew: d.ew.total }))
    .join(' ');
  const mineWaiting = sheet.deals.filter((d) => d.status === 'entered' && !ctx.referee && d.entered_side === ctx.side);
  $('pad-waiting').hidden = mineWaiting.length === 0;
  $('pad-waiting').textContent = mineWaiting.length
    ? t('pad.waiting', { n: mineWaiting.map((d) => d.number).join(', '), side: ctx.side === 'ns' ? 'EW' : 'NS' })
    : '';
  const r = sheet.result;
  const done = r && r.final;
  $('pad-done').hidden = !done;
  $('pad-done').textContent = done ? t('pad.done', { ns: r.vp_ns, ew: r.vp_ew }) : '';
  const number = nextNumber(sheet);
  $('pad-form').hidden = done || number === 0;
  if ($('pad-form').hidden && loadDraft()) localStorage.removeItem(draftKey()); // nothing left to enter
  if (number) {
    $('pad-form-h').textContent = t('pad.dealN', { n: number });
    $('pad-submit').textContent = t('pad.enter', { n: number });
  }
}

// nextNumber is the deal the form enters: the draft's, else the table's
// next; 0 when the sheet is full.
function nextNumber(sheet) {
  const d = loadDraft();
  if (d && d.number && d.number <= sheet.deals.length + 1 && !isConfirmed(sheet, d.number)) return d.number;
  const next = sheet.deals.length + 1;
  return next <= sheet.planned_deals ? next : 0;
}

function isConfirmed(sheet, n) {
  const d = sheet.deals[n - 1];
  return !!d && d.status === 'confirmed';
}

// --- the form and its draft ---

function buildForm() {
  for (const side of ['ns', 'ew']) {
    const fs = $('pad-' + side);
    for (const part of PARTS) {
      const label = document.createElement('label');
      const input = document.createElement('input');
      input.id = `${side}-${part}`;
      input.name = `${side}.${part}`;
      if (part === 'closing' || part === 'pot') {
        label.className = 'check';
        input.type = 'checkbox';
        input.value = '100';
      } else {
        input.type = 'text';
        input.inputMode = 'numeric';
        input.autocomplete = 'off';
        input.pattern = '[0-9]*';
      }
      const span = document.createElement('span');
      span.dataset.i18n = 'part.' + part;
      label.append(span, input);
      if (input.type === 'checkbox') label.prepend(input);
      fs.append(label);
    }
    const out = document.createElement('output');
    out.id = `${side}-total`;
    out.className = 'total';
    out.setAttribute('aria-live', 'polite');
    out.setAttribute('for', PARTS.map((p) => `${side}-${p}`).join(' '));
    fs.append(out);
  }
  const run = document.createElement('p');
  run.id = 'pad-running';
  run.className = 'muted';
  $('pad-error').before(run);
  apply($('pad-form'));
  restoreDraft();
  $('pad-form').addEventListener('input', () => {
    saveDraft();
    updateTotals();
  });
}

function readForm() {
  const parts = {};
  for (const side of ['ns', 'ew']) {
    parts[side] = {};
    for (const part of PARTS) {
      const input = $(`${side}-${part}`);
      parts[side][part] = input.type === 'checkbox' ? (input.checked ? 100 : 0) : Number(input.value.trim() || 0);
    }
  }
  return parts;
}

function validNumbers() {
  return [...$('pad-form').querySelectorAll('input[inputmode=numeric]')].every((i) => /^\d*$/.test(i.value.trim()));
}

function updateTotals() {
  const parts = readForm();
  const up10 = !!(ctx.tournament && ctx.tournament.options && ctx.tournament.options.round_up_10);
  const tot = {};
  for (const side of ['ns', 'ew']) {
    tot[side] = partsTotal(parts[side], up10);
    $(`${side}-total`).textContent = t('pad.total', { n: fmtNumber(tot[side]) });
  }
  if (!ctx.sheet) return;
  const n = nextNumber(ctx.sheet);
  const others = ctx.sheet.deals.filter((d) => d.number !== n);
  const run = (side) => others.reduce((a, d) => a + d[side].total, 0) + tot[side];
  $('pad-running').textContent = t('pad.running', { ns: fmtNumber(run('ns')), ew: fmtNumber(run('ew')) });
}

function draftKey() {
  return `burraco.pad.${ctx.tid}.${ctx.round}.${ctx.table}`;
}

function loadDraft() {
  try {
    return JSON.parse(localStorage.getItem(draftKey()) || 'null');
  } catch {
    return null;
  }
}

function saveDraft(extra = {}) {
  const old = loadDraft() || {};
  const values = {};
  for (const input of $('pad-form').querySelectorAll('input')) {
    values[input.id] = input.type === 'checkbox' ? input.checked : input.value;
  }
  const number = old.number || (ctx.sheet ? nextNumber(ctx.sheet) : 0);
  localStorage.setItem(draftKey(), JSON.stringify({ ...old, number, values, ...extra }));
}

function restoreDraft() {
  const d = loadDraft();
  if (!d || !d.values) return;
  for (const [id, v] of Object.entries(d.values)) {
    const input = $(id);
    if (!input) continue;
    if (input.type === 'checkbox') input.checked = !!v;
    else input.value = v;
  }
}

function clearDraft() {
  localStorage.removeItem(draftKey());
  $('pad-form').reset();
  updateTotals();
}

// --- sending ---

async function onSubmit(e) {
  e.preventDefault();
  const err = $('pad-error');
  err.textContent = '';
  if (!validNumbers()) {
    err.textContent = t('pad.digitsOnly');
    return;
  }
  const sheet = ctx.sheet;
  const number = nextNumber(sheet);
  const parts = readForm();
  const up10 = !!(ctx.tournament.options && ctx.tournament.options.round_up_10);
  for (const side of ['ns', 'ew']) parts[side].total = partsTotal(parts[side], up10);
  const body = { version: sheet.version, deals: [{ number, ns: parts.ns, ew: parts.ew }] };
  // A submission sent before (its answer lost, or the page reloaded) with
  // the same parts is sent again as it was: same body, same key.
  const d = loadDraft() || {};
  let sent = d.sent;
  if (!sent || JSON.stringify(sent.body.deals) !== JSON.stringify(body.deals)) {
    sent = { key: newKey(), body };
    saveDraft({ number, sent });
  }
  await submit('/scores', sent, () => clearDraft());
}

async function onConfirm() {
  const sheet = ctx.sheet;
  const deals = toConfirm(sheet).map((d) => d.number);
  const sent = { key: newKey(), body: { version: sheet.version, deals } };
  await submit('/confirm', sent, () => {});
}

// submit sends one command with its key, retrying lost connections; the
// answer is the sheet, shown at once.
async function submit(route, sent, onDone) {
  const buttons = [$('pad-submit'), $('pad-confirm-button')];
  buttons.forEach((b) => (b.disabled = true));
  $('pad-conflict').hidden = true;
  try {
    const res = await send('POST', sheetPath() + route, sent.body, {
      key: sent.key,
      onRetry: (n) => status(t('pad.retrying', { n })),
    });
    onDone();
    render(res.data);
  } catch (err) {
    await failed(err);
  } finally {
    buttons.forEach((b) => (b.disabled = false));
  }
}

async function failed(err) {
  if (!(err instanceof ApiError)) throw err;
  status('');
  if (err.code === 'stale_sheet' || err.code === 'already_confirmed') {
    await staleSheet(err);
    return;
  }
  if (err.status === 403) {
    status(err.message);
    $('pad-form').hidden = true;
    $('pad-confirm').hidden = true;
    return;
  }
  const fields = (err.problem.errors || []).map((f) => f.message).filter(Boolean);
  $('pad-error').textContent = [err.message, ...fields].join(' ');
}

// staleSheet: someone entered first. The sheet is read again and shown,
// with what changed since the version this person saw; what they typed
// stays in the form (a new submission, so a new key, when sent again).
async function staleSheet(err) {
  const before = ctx.sheet;
  let now;
  try {
    now = (await get(sheetPath(), { headers: { 'Cache-Control': 'no-cache' } })).data;
  } catch (e) {
    $('pad-error').textContent = e.message;
    return;
  }
  const d = loadDraft() || {};
  // The deal this person was sending: the one to compare with theirs.
  const number = d.number || (before ? nextNumber(before) : 0);
  delete d.sent;
  localStorage.setItem(draftKey(), JSON.stringify(d));
  render(now);
  const typed = readForm();
  const up10 = !!(ctx.tournament.options && ctx.tournament.options.round_up_10);
  for (const side of ['ns', 'ew']) typed[side].total = partsTotal(typed[side], up10);
  const theirs = now.deals.find((x) => x.number === number);
  const p = (text, cls) => {
    const e = document.createElement('p');
    e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  const kids = [];
  if (theirs) {
    const side = theirs.entered_side;
    const who = side ? `${side.toUpperCase()} (${sideNames(now[side])})` : t('pad.theReferee');
    const state = theirs.status === 'confirmed' ? t('pad.confirmed') : t('pad.unconfirmed');
    kids.push(p(t('pad.conflictDeal', { n: number, who, status: state }), 'conflict-head'));
    const table = compareDeal(theirs, typed, side ? side.toUpperCase() : t('pad.theReferee'));
    kids.push(table);
    if (!table.querySelector('tr.differs')) kids.push(p(t('pad.same')));
  } else {
    kids.push(p(err.message, 'conflict-head'));
  }
  // Other deals that moved meanwhile (a deal confirmed, say), in a line each.
  for (const c of dealDiff(before, now).filter((c) => c.n !== number)) {
    kids.push(p(t('pad.changed', { ...c, status: c.status === 'confirmed' ? t('pad.confirmed') : t('pad.unconfirmed') })));
  }
  kids.push(p(t('pad.kept')));
  const box = $('pad-conflict');
  box.replaceChildren(...kids);
  box.hidden = false;
}

// compareDeal sets the deal entered first beside the one typed, a small
// table per side, each part in a row; the parts that differ are marked (in
// words for a screen reader, in colour and weight for the eye).
function compareDeal(theirs, typed, by) {
  const wrap = document.createElement('div');
  wrap.className = 'compare';
  const cell = (tag, text, cls) => {
    const c = document.createElement(tag);
    c.textContent = text;
    if (cls) c.className = cls;
    return c;
  };
  for (const side of ['ns', 'ew']) {
    const table = document.createElement('table');
    table.className = 'compare-side';
    table.dataset.side = side;
    const cap = cell('caption', side.toUpperCase());
    const head = document.createElement('tr');
    head.append(cell('th', t('pad.part')), cell('th', t('pad.theirs', { side: by }), 'num'), cell('th', t('pad.yoursCol'), 'num'));
    head.querySelectorAll('th').forEach((th) => th.setAttribute('scope', 'col'));
    const thead = document.createElement('thead');
    thead.append(head);
    const body = document.createElement('tbody');
    for (const part of [...PARTS, 'total']) {
      const a = theirs[side][part] || 0;
      const b = typed[side][part] || 0;
      const tr = document.createElement('tr');
      tr.dataset.part = part;
      const name = cell('th', part === 'total' ? t('pad.totalLabel') : t('part.' + part));
      name.setAttribute('scope', 'row');
      tr.append(name, cell('td', fmtNumber(a), 'num'), cell('td', fmtNumber(b), 'num'));
      if (a !== b) {
        tr.className = 'differs';
        name.append(cell('span', ' ' + t('pad.differs'), 'differs-mark'));
      }
      body.append(tr);
    }
    table.append(cap, thead, body);
    wrap.append(table);
  }
  return wrap;
}
