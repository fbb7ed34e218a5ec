// The director console (/app/console): for a club's admins and owners and
// for site admins. Everything goes through the public HTTP API (api.js):
// /me and /me/clubs say whether this person directs anything (staff pages
// refuse others plainly); GET /rules feeds the new-tournament form (the
// rule set and only its options); one tournament (?t=ID) is followed by
// polling its standings with If-None-Match every 2 s — any command moves the
// tournament's version, so one cheap poll notices every change, and only
// then are the entries, the forbidden pairs and the audit trail read again.
import './console-messages.js';
import { start } from './layout.js';
import { get, send, poll, session, ApiError } from './api.js';
import { t, has, lang, fmtNumber } from './i18n.js';
import { PARTS, partsTotal } from './score.js';
import { tableState } from './console-state.js';
import { mountClubTools, showEntryCodes } from './console-club.js';
import { wirePrizes, renderPrizes } from './console-prizes.js';
import { parseBands } from './console-vp.js';
import { wirePhases, renderPhases, roundPhaseText, drawLabel, drawBody, hallGroups, groupedPhase } from './console-phases.js';

const $ = (id) => document.getElementById(id);
const TIE_BREAKS = ['vp', 'mp_difference', 'mp_for', 'head_to_head', 'opponents_vp', 'lots'];
const DEFAULT_TIE_BREAKS = ['vp', 'mp_difference', 'head_to_head', 'opponents_vp', 'lots'];

const state = {
  me: null,
  directs: [], // memberships with role admin or owner
  clubs: [], // the clubs a tournament may be created for
  rules: [],
  id: 0,
  tour: null,
  entries: [],
  rounds: null, // GET …/rounds?latest=true: the latest round only, and the counts
  past: { version: -1, rounds: {} }, // earlier rounds read for a correction, by number, at the tournament's version
  forbidden: [],
  referees: [], // the tournament's assigned referees
  members: [], // the club's members who may referee it (referee, admin, owner)
  audit: [],
  picked: [], // players picked for a new entry: {id, name}
  stopPoll: null,
};

// el builds an element: props are properties (class, text, on<event>, or
// attributes), kids are appended.
function el(tag, props = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'value' || k === 'checked' || k === 'selected' || k === 'disabled') e[k] = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  e.append(...kids.flat().filter((x) => x !== null && x !== undefined && x !== false));
  return e;
}

function status(text) {
  $('console-status').textContent = text || '';
  $('console-status').hidden = !text;
}

function said(text) {
  $('console-msg').textContent = text;
}

// refuse shows why this page is not for this person, and what to do.
function refuse(text, link) {
  const box = $('console-refused');
  box.replaceChildren(el('p', { text }));
  if (link) box.append(el('p', {}, el('a', { href: link.href, text: link.text })));
  box.hidden = false;
  $('console-home').hidden = true;
  $('console-tournament').hidden = true;
}

// act runs a command; its error goes to the form's error line, its
// success to the page's status line, and the tournament is read again.
async function act(errorID, fn, done) {
  clearNotices();
  const err = $(errorID);
  try {
    const out = await fn();
    if (done) said(done);
    if (state.id) await refresh();
    return out;
  } catch (e) {
    if (err) err.textContent = problemText(e);
    else status(problemText(e));
    return null;
  }
}

// clearNotices empties what earlier actions said (the page's line and
// every form's error) as a new one starts: "The round is closed." beside
// the next action's refusal reads as if both were now.
function clearNotices() {
  said('');
  for (const e of document.querySelectorAll('#console-tournament .error, #new-error')) e.textContent = '';
}

// confirmAction asks before what cannot be undone, in a modal dialog whose
// default is not to do it: Go back has the focus, Escape is Go back too,
// and the other button is named for the action. It resolves true only
// when that button was pressed.
function confirmAction({ title, lines, action }) {
  const dlg = $('confirm-dialog');
  $('confirm-h').textContent = title;
  $('confirm-text').replaceChildren(...lines.filter(Boolean).map((l) => el('p', { text: l })));
  $('confirm-ok').textContent = action;
  $('confirm-cancel').textContent = t('console.keep');
  dlg.returnValue = '';
  return new Promise((resolve) => {
    dlg.addEventListener('close', () => resolve(dlg.returnValue === 'ok'), { once: true });
    dlg.showModal();
    $('confirm-cancel').focus();
  });
}

// problemText is an error's sentence, with the fields the server named.
function problemText(e) {
  if (!(e instanceof ApiError)) return String(e && e.message ? e.message : e);
  const fields = (e.problem.errors || []).map((f) => `${f.field}: ${f.message || f.code}`);
  return fields.length ? `${e.message} (${fields.join('; ')})` : e.message;
}

start();
main();

async function main() {
  if (!session()) {
    const next = location.pathname + location.search;
    refuse(t('console.signInFirst'), { href: '/app/signin?next=' + encodeURIComponent(next), text: t('nav.signin') });
    return;
  }
  try {
    state.me = (await get('/me')).data;
    const mine = (await get('/me/clubs?limit=100')).data.items || [];
    state.directs = mine.filter((m) => m.role === 'admin' || m.role === 'owner');
  } catch (e) {
    status(problemText(e));
    return;
  }
  if (!state.me.site_admin && state.directs.length === 0) {
    refuse(t('console.notDirector', { name: state.me.name }), { href: '/app/', text: t('notfound.home') });
    return;
  }
  state.id = Number(new URLSearchParams(location.search).get('t')) || 0;
  if (state.id > 0) await openTournament();
  else await openHome();
  document.addEventListener('langchange', () => (state.id ? render() : renderHome()));
}

// directsClub reports whether this person may direct the club's events.
function directsClub(clubID) {
  return state.me.site_admin || state.directs.some((m) => m.club_id === clubID);
}

// --- home: the tournaments, and a new one ---

async function openHome() {
  $('console-home').hidden = false;
  try {
    if (state.me.site_admin) {
      state.clubs = ((await get('/clubs?limit=100')).data.items || []).map((c) => ({ id: c.id, name: c.name }));
    } else {
      state.clubs = state.directs.map((m) => ({ id: m.club_id, name: m.club_name }));
    }
    state.rules = (await get('/rules')).data.items || [];
    const lists = await Promise.all(state.clubs.map((c) => get(`/tournaments?club_id=${c.id}&limit=100`)));
    state.tournaments = lists.flatMap((r) => r.data.items || []);
  } catch (e) {
    status(problemText(e));
    return;
  }
  fillCreateForm();
  renderHome();
  mountClubTools($('console-clubs'), state.directs.map((m) => ({ id: m.club_id, name: m.club_name })));
}

function renderHome() {
  const list = $('console-list');
  list.replaceChildren();
  if (!state.tournaments || state.tournaments.length === 0) {
    list.append(el('li', { class: 'muted', text: t('console.noneYet') }));
  }
  for (const tour of state.tournaments || []) {
    list.append(el('li', { class: 'tour-link' },
      el('a', { href: `/app/console?t=${tour.id}`, text: tour.name }),
      el('span', { class: 'muted', text: `${tour.club_name} · ${fmtDate(tour.starts_at)} · ${t('console.status.' + tour.status)}` })));
  }
  renderRuleSet();
}

function fmtDate(iso) {
  return new Date(iso).toLocaleString(lang(), { dateStyle: 'medium', timeStyle: 'short' });
}

function fillCreateForm() {
  const club = $('new-club');
  club.replaceChildren(...state.clubs.map((c) => el('option', { value: c.id, text: c.name })));
  const rules = $('new-rules');
  rules.replaceChildren(...state.rules.map((r) => el('option', { value: r.id, text: r.name[lang()] || r.name.en })));
  const at = new Date(Date.now() + 3600e3);
  at.setMinutes(0, 0, 0);
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60e3).toISOString().slice(0, 16);
  $('new-starts').value = local;
  $('new-tiebreaks').replaceChildren(...TIE_BREAKS.map((c) => el('label', { class: 'check' },
    el('input', { type: 'checkbox', id: 'tb-' + c, value: c, checked: DEFAULT_TIE_BREAKS.includes(c) }),
    el('span', { 'data-i18n': 'console.tb.' + c, text: t('console.tb.' + c) }))));
  rules.addEventListener('change', renderRuleSet);
  $('new-kind').addEventListener('change', renderDeals);
  for (const r of document.querySelectorAll('input[name=vp]')) {
    r.addEventListener('change', () => {
      $('new-vp-bands-label').hidden = !$('new-vp-custom').checked;
      renderDeals();
    });
  }
  $('new-form').addEventListener('submit', createTournament);
}

// renderRuleSet shows the chosen rule set's own options, deals per round
// and players per table, as GET /rules gives them.
function renderRuleSet() {
  const rs = state.rules.find((r) => r.id === $('new-rules').value);
  const box = $('new-options');
  box.querySelectorAll(':scope > :not(legend)').forEach((n) => n.remove());
  if (!rs) return;
  $('new-rules-about').textContent = rs.description[lang()] || rs.description.en;
  const keepPPT = $('new-ppt').value;
  $('new-ppt').replaceChildren(...rs.players.map((n) => el('option', { value: n, text: String(n), selected: String(n) === keepPPT })));
  renderDeals();
  for (const o of rs.options) {
    const id = 'opt-' + o.key;
    const about = o.description[lang()] || o.description.en;
    if (o.type === 'boolean') {
      box.append(el('label', { class: 'check' }, el('input', { type: 'checkbox', id, 'data-key': o.key, checked: !!o.default }), el('span', { text: about })));
    } else if (o.values && o.values.length) {
      box.append(el('label', {}, el('span', { text: about }),
        el('select', { id, 'data-key': o.key, 'data-type': o.type },
          ...o.values.map((v) => el('option', { value: v, text: optionValue(v), selected: v === o.default })))));
    } else {
      box.append(el('label', {}, el('span', { text: about }),
        el('input', { id, 'data-key': o.key, 'data-type': o.type, type: o.type === 'integer' ? 'number' : 'text',
          inputmode: o.type === 'integer' ? 'numeric' : undefined, min: o.minimum, max: o.maximum, value: o.default ?? '' })));
    }
  }
}

// optionValue is an option's value as people read it: "exactly8" is "Exactly
// 8 cards"; a value with no words of its own (20, "100/200") is itself.
function optionValue(v) {
  const key = 'console.ov.' + v;
  return has(key) ? t(key) : String(v);
}

// orList is "3 or 4", "2, 3 or 4" in the page's language.
function orList(ns) {
  return new Intl.ListFormat(lang(), { type: 'disjunction' }).format(ns.map(String));
}

// renderDeals offers the deals per round the chosen VP table can score:
// with the built-in table, only the counts it covers (the rule set's
// match.builtin_vp_deals), saying beside the choice why the others are
// missing; a team event has no built-in table at all, which is said too.
function renderDeals() {
  const rs = state.rules.find((r) => r.id === $('new-rules').value);
  if (!rs) return;
  const all = rs.match.deals_per_round && rs.match.deals_per_round.length ? rs.match.deals_per_round : [2, 3, 4];
  const builtin = $('new-vp-builtin').checked;
  const teams = $('new-kind').value === 'teams';
  const covered = rs.match.builtin_vp_deals || all;
  const offered = builtin && !teams ? all.filter((n) => covered.includes(n)) : all;
  const keep = $('new-deals').value || '3';
  $('new-deals').replaceChildren(...offered.map((n) => el('option', { value: n, text: String(n), selected: String(n) === keep })));
  const left = all.filter((n) => !offered.includes(n));
  const note = $('new-deals-note');
  note.textContent = builtin && teams ? t('console.teamsNeedVP')
    : left.length ? t('console.dealsNeedVP', { left: orList(left), covered: orList(offered) }) : '';
  note.hidden = !note.textContent;
}

async function createTournament(e) {
  e.preventDefault();
  const body = {
    name: $('new-name').value.trim(),
    rules: $('new-rules').value,
    kind: $('new-kind').value,
    players_per_table: Number($('new-ppt').value),
    deals_per_round: Number($('new-deals').value),
    starts_at: $('new-starts').value ? new Date($('new-starts').value).toISOString() : undefined,
    movement: $('new-movement').value,
    rounds: Number($('new-rounds').value),
    tie_breaks: TIE_BREAKS.filter((c) => $('tb-' + c).checked),
  };
  const options = {};
  for (const input of $('new-options').querySelectorAll('[data-key]')) {
    if (input.type === 'checkbox') options[input.dataset.key] = input.checked;
    else if (input.value !== '') options[input.dataset.key] = input.dataset.type === 'integer' ? Number(input.value) : input.value;
  }
  if (Object.keys(options).length) body.options = options;
  if ($('new-rest-vp').value !== '') body.rest_vp = Number($('new-rest-vp').value);
  if ($('new-rest-mp').value !== '') body.rest_mp = Number($('new-rest-mp').value);
  if ($('new-vp-custom').checked) body.vp_table = { bands: parseBands($('new-vp-bands').value) };
  if (!body.name) {
    $('new-error').textContent = t('console.nameNeeded');
    $('new-name').focus();
    return;
  }
  $('new-submit').disabled = true;
  const res = await act('new-error', () => send('POST', `/clubs/${$('new-club').value}/tournaments`, body));
  $('new-submit').disabled = false;
  if (res) location.href = `/app/console?t=${res.data.id}`;
}

// --- one tournament ---

async function openTournament() {
  try {
    state.tour = (await get(`/tournaments/${state.id}`)).data;
  } catch (e) {
    refuse(problemText(e), { href: '/app/console', text: t('console.back') });
    return;
  }
  if (!directsClub(state.tour.club_id)) {
    refuse(t('console.notDirectorOf', { name: state.me.name, club: state.tour.club_name }), { href: '/app/console', text: t('console.back') });
    return;
  }
  try {
    state.rules = (await get('/rules')).data.items || []; // the rule set's name, not its code
  } catch {
    state.rules = [];
  }
  $('console-tournament').hidden = false;
  wireTournament();
  await refresh();
  // Follow the tournament: any change moves its version, and the
  // standings' ETag with it (answered from memory: a 304 costs the server
  // no read). Not the rounds: they have no ETag, so their poll answered
  // every table of every round every 2 s, and the console read everything
  // again each time (now it reads the latest round only: ?latest=true). The
  // first answer is of the tournament just read.
  let first = true;
  state.stopPoll = poll(`/tournaments/${state.id}/standings`, (data) => {
    const known = first && data.version === state.tour.version;
    first = false;
    if (!known) refresh();
  }, { interval: 2000, onError: (e) => status(problemText(e)) });
  setInterval(renderLive, 15000); // "late" moves with the clock too
}

let refreshing = null;

// refresh reads the tournament again (one read at a time) and renders it.
function refresh() {
  if (refreshing) return refreshing.then(() => refresh());
  refreshing = (async () => {
    try {
      const base = `/tournaments/${state.id}`;
      // The audit trail only grows: read what is new since the last event;
      // on opening, the last AUDIT_SHOWN events only (seq runs from 1 with no
      // gaps to the tournament's version), not the first 500 of thousands.
      // Of the rounds only the latest: the whole list of a big event is
      // megabytes (every table of every round), and what the console shows
      // of earlier rounds (a correction) it reads when asked (pastRound).
      const after = state.audit.length ? state.audit[state.audit.length - 1].seq : Math.max(0, (state.tour.version || 0) - AUDIT_SHOWN);
      const [tour, entries, rounds, forbidden, audit, referees, members] = await Promise.all([
        get(base), get(base + '/entries'), get(base + '/rounds?latest=true'), get(base + '/forbidden'), get(`${base}/audit?after=${after}&limit=500`),
        get(base + '/referees'), get(`/clubs/${state.tour.club_id}/members?limit=100`),
      ]);
      state.tour = tour.data;
      state.entries = entries.data.items || [];
      state.rounds = rounds.data;
      if (state.past.version !== state.tour.version) state.past = { version: state.tour.version, rounds: {} };
      state.forbidden = forbidden.data.pairs || [];
      state.referees = referees.data.items || [];
      state.members = (members.data.items || []).filter((m) => REFEREE_ROLES.includes(m.role));
      state.audit = state.audit.concat(audit.data.items || []);
      status('');
      render();
    } catch (e) {
      status(problemText(e));
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

// AUDIT_SHOWN is how many of the latest events the audit trail lists.
const AUDIT_SHOWN = 100;

// REFEREE_ROLES are the club roles that may referee its tournaments.
const REFEREE_ROLES = ['referee', 'admin', 'owner'];

const LIFECYCLE = {
  draft: ['open_registration', 'cancel'],
  registration_open: ['close_registration', 'cancel'],
  registration_closed: ['open_registration', 'start', 'cancel'],
  running: ['finish'],
  finished: ['publish_results'],
  results_published: [],
  cancelled: [],
};

function wireTournament() {
  $('ref-form').addEventListener('submit', assignReferee);
  $('entry-form').addEventListener('submit', addEntry);
  $('player-search').addEventListener('click', searchPlayers);
  $('player-q').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      searchPlayers();
    }
  });
  $('new-player-create').addEventListener('click', createPlayer);
  // The first round of a phase grouped by hand carries its groups (console-phases.js).
  $('round-draw').addEventListener('click', () => act('round-error', () => send('POST', `/tournaments/${state.id}/rounds`, drawBody()), t('console.drawn')));
  $('round-start').addEventListener('click', () => act('round-error', () => send('POST', `/tournaments/${state.id}/rounds/${currentRound().number}/start`), t('console.started')));
  $('round-close').addEventListener('click', closeRound);
  $('pair-form').addEventListener('submit', overridePairings);
  $('forb-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const a = Number($('forb-a').value);
    const b = Number($('forb-b').value);
    const pairs = state.forbidden.map((p) => [p[0].id, p[1].id]).concat([[a, b]]);
    setForbidden(pairs, $('forb-reason').value.trim());
  });
  $('late-minutes').addEventListener('change', renderLive);
  for (const id of ['corr-round', 'corr-table', 'corr-deal']) $(id).addEventListener('change', () => fillCorrection(id));
  buildPartsInputs('corr-ns', 'corr-ns');
  buildPartsInputs('corr-ew', 'corr-ew');
  $('corr-form').addEventListener('submit', correctDeal);
  $('rul-form').addEventListener('submit', giveRuling);
  $('pen-form').addEventListener('submit', givePenalty);
  wirePrizes({ el, act, said, problemText, state });
  wirePhases({ el, act, said, problemText, confirmAction, state, onPhases: renderPrintLinks });
}

// closeRound closes the round being played. The server refuses while a
// table lacks its result: rather than a refusal after the click, the
// console says how many tables are not done and which, and offers to show
// them.
async function closeRound() {
  const r = currentRound();
  const open = r.tables.filter((tb) => !['confirmed', 'decided', 'bye'].includes(tableState(r, tb, Date.now(), 1e9, 0).key));
  if (open.length) {
    clearNotices();
    const see = await confirmAction({
      title: t('console.askClose', { n: r.number }),
      lines: [t('console.notConfirmed', { k: open.length, of: r.tables.length, tables: open.map((tb) => tb.number).join(', ') }), t('console.closeNeeds')],
      action: t('console.seeTables'),
    });
    if (see) {
      $('sec-live').scrollIntoView();
      $('sec-live').querySelector('.scroll-x').focus();
    }
    return;
  }
  await act('round-error', () => send('POST', `/tournaments/${state.id}/rounds/${r.number}/close`), t('console.closed'));
}

// arrange puts first what the director needs now: while the tournament
// runs, the round's controls and its live tables (the finish first once
// every round is closed), with the entries folded away while a round is
// played; before and after, the set-up's order.
const ORDER = ['sec-state', 'sec-referees', 'sec-entries', 'sec-phases', 'sec-prizes', 'sec-rounds', 'sec-live', 'sec-standings', 'sec-correct', 'sec-rulings', 'sec-print', 'sec-audit'];
const RUNNING_ORDER = ['sec-rounds', 'sec-live', 'sec-standings', 'sec-state', 'sec-phases', 'sec-entries', 'sec-referees', 'sec-correct', 'sec-rulings', 'sec-prizes', 'sec-print', 'sec-audit'];
// Once finished, the prizes given are what the director reads out next.
const FINISHED_ORDER = ['sec-state', 'sec-prizes', 'sec-standings', 'sec-print', 'sec-phases', 'sec-entries', 'sec-referees', 'sec-rounds', 'sec-live', 'sec-correct', 'sec-rulings', 'sec-audit'];

function arrange() {
  const r = currentRound();
  const running = state.tour.status === 'running';
  const finished = ['finished', 'results_published'].includes(state.tour.status);
  let order = running ? RUNNING_ORDER.slice() : finished ? FINISHED_ORDER.slice() : ORDER;
  // A finished event without prizes has none to read out: its section goes after the printouts.
  if (finished && !(state.tour.prizes || []).length) order = [...order.filter((x) => x !== 'sec-prizes'), 'sec-prizes'];
  if (running && roundsLeft().left === 0 && (!r || r.status === 'closed')) order = ['sec-state', ...order.filter((x) => x !== 'sec-state')];
  const box = $('console-tournament');
  const nav = box.querySelector('nav.sections');
  if (box.dataset.order !== order.join()) {
    box.dataset.order = order.join();
    for (const id of order) box.append($(id));
    for (const id of order) nav.append(nav.querySelector(`a[href="#${id}"]`));
  }
  // Fold the entries when a round starts and unfold them when it ends;
  // in between, the director's own opening or closing stays.
  const playing = running && !!r && r.status === 'playing';
  if (state.folded !== playing) {
    state.folded = playing;
    $('entries-details').open = !playing;
  }
}

function currentRound() {
  const r = state.rounds;
  return r && r.items && r.items.length ? r.items[r.items.length - 1] : null;
}

function entryName(ref) {
  return ref ? `${ref.number}. ${ref.name}` : '—';
}

function sideName(side) {
  return side && side.entries ? side.entries.map(entryName).join(' + ') : '—';
}

function render() {
  const tour = state.tour;
  document.title = `${tour.name} — ${t('console.title')}`;
  $('console-title').textContent = tour.name;
  const rs = state.rules.find((r) => r.id === tour.rules);
  const rulesName = rs ? rs.name[lang()] || rs.name.en : tour.rules;
  $('t-summary').textContent = `${tour.club_name} · ${fmtDate(tour.starts_at)} · ${rulesName} · ${t('console.mv.' + tour.movement)} · ` +
    t('console.summary', { rounds: tour.rounds, deals: tour.deals_per_round });
  $('t-status').replaceChildren(el('strong', { text: t('console.status.' + tour.status) }),
    document.createTextNode(' · ' + t('console.entriesCount', { n: state.entries.filter((x) => !x.withdrawn).length })));
  arrange();
  renderLifecycle();
  renderReferees();
  renderEntries();
  renderRounds();
  renderLive();
  renderCorrection();
  renderRulingForms();
  renderPrintLinks();
  renderPhases();
  renderPrizes();
  renderAudit();
}

// roundsLeft are the planned rounds not yet closed: what finishing now
// leaves unplayed.
function roundsLeft() {
  const planned = (state.rounds && state.rounds.planned_rounds) || state.tour.rounds || 0;
  // Every round before the latest is closed (a draw needs the one before closed).
  const r = currentRound();
  const closed = r ? r.number - (r.status === 'closed' ? 0 : 1) : 0;
  return { planned, closed, left: Math.max(0, planned - closed) };
}

function renderLifecycle() {
  const box = $('lc-buttons');
  const actions = LIFECYCLE[state.tour.status] || [];
  // Finish is the next step once every round is closed; before that it
  // stays reachable but quiet, so that it is not the button the eye finds.
  const r = currentRound();
  const finishDue = roundsLeft().left === 0 && (!r || r.status === 'closed');
  const cls = (a) => (a === 'cancel' ? '' : a === 'finish' && !finishDue ? 'quiet' : 'primary');
  // The buttons are made anew only when they change: a button replaced by
  // a reload between the press and the release of a click swallows it.
  const key = lang() + ' ' + actions.map((a) => a + ':' + cls(a)).join(',');
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    box.replaceChildren(...actions.map((a) => el('button', {
      type: 'button', id: 'lc-' + a, class: cls(a), text: t('console.lc.' + a),
      onclick: () => lifecycle(a),
    })));
  }
  $('lc-reason-label').hidden = !actions.includes('cancel');
}

async function lifecycle(action) {
  const body = { action };
  if (action === 'cancel') {
    body.reason = $('lc-reason').value.trim();
    if (!body.reason) {
      $('lc-error').textContent = t('error.reason_required');
      $('lc-reason').focus();
      return;
    }
    const ok = await confirmAction({ title: t('console.askCancel'), lines: [t('console.askCancelLost'), t('console.reasonIs', { reason: body.reason })],
      action: t('console.lc.cancel') });
    if (!ok) return;
  }
  if (action === 'finish') {
    // Always asked: what the console knows of the rounds may be a poll
    // old (a round closed a moment ago reads as playing), and finishing
    // cannot be undone. A round still being played the server refuses.
    const r = currentRound();
    const { planned, closed, left } = roundsLeft();
    const lines = [];
    if (r && r.status !== 'closed') lines.push(t('console.roundStillPlaying', { n: r.number }));
    lines.push(left === 0 ? t('console.allPlayed', { n: planned })
      : left === 1 ? t('console.roundNotPlayed', { n: planned })
        : t('console.roundsNotPlayed', { from: closed + 1, to: planned }));
    lines.push(t('console.askFinishFinal'));
    const ok = await confirmAction({ title: t('console.askFinish'), lines, action: t('console.lc.finish') });
    if (!ok) return;
  }
  await act('lc-error', () => send('POST', `/tournaments/${state.id}/lifecycle`, body), t('console.lcDone.' + action));
}

// --- referees ---

// renderReferees lists the tournament's referees, each with a button that
// removes them, and offers the club's other referees (and its admins and
// owners, who may referee too) to assign.
function renderReferees() {
  const list = $('ref-list');
  list.replaceChildren(...state.referees.map((r) => el('li', { class: 'row', 'data-user': r.user_id },
    el('span', {}, el('strong', { text: r.name }), el('span', { class: 'muted', text: ' · ' + (r.role ? t('console.role.' + r.role) : t('console.leftClub')) })),
    el('button', { type: 'button', class: 'unassign', 'data-user': r.user_id, text: t('console.remove'),
      'aria-label': t('console.removeReferee', { name: r.name }),
      onclick: async () => {
        const ok = await confirmAction({ title: t('console.askRemoveReferee', { name: r.name }), lines: [t('console.askRemoveRefereeWhat')],
          action: t('console.removeRefereeAction') });
        if (ok) await act('ref-error', () => send('DELETE', `/tournaments/${state.id}/referees/${r.user_id}`), t('console.refereeRemoved', { name: r.name }));
      } }))));
  if (!state.referees.length) list.append(el('li', { class: 'muted', text: t('console.noReferees') }));
  const assigned = new Set(state.referees.map((r) => r.user_id));
  const free = state.members.filter((m) => !assigned.has(m.user_id));
  const keep = $('ref-user').value;
  $('ref-user').replaceChildren(...free.map((m) => el('option', { value: m.user_id, selected: String(m.user_id) === keep,
    text: `${m.user_name} · ${t('console.role.' + m.role)}` })));
  $('ref-form').hidden = !free.length;
  $('ref-none').hidden = free.length > 0;
}

async function assignReferee(e) {
  e.preventDefault();
  const id = Number($('ref-user').value);
  const m = state.members.find((x) => x.user_id === id);
  if (!m) return;
  const res = await act('ref-error', () => send('PUT', `/tournaments/${state.id}/referees/${id}`), t('console.refereeAssigned', { name: m.user_name }));
  if (res) $('ref-user').focus();
}

// --- entries ---

function renderEntries() {
  const body = $('entries-table').querySelector('tbody');
  body.replaceChildren(...state.entries.map((x) => {
    const stateText = x.withdrawn ? t('console.withdrawn') : x.checked_in ? t('console.checkedIn') : t('console.notCheckedIn');
    const actions = el('div', { class: 'row' });
    if (!x.withdrawn) {
      actions.append(el('button', {
        type: 'button', class: 'checkin', 'data-entry': x.id,
        text: x.checked_in ? t('console.undoCheckIn') : t('console.checkIn'),
        'aria-label': (x.checked_in ? t('console.undoCheckIn') : t('console.checkIn')) + ' ' + x.display_name,
        onclick: () => act('entries-error', () => send('POST', `/tournaments/${state.id}/entries/${x.id}/check-in`, x.checked_in ? { undo: true } : {})),
      }));
      actions.append(el('button', {
        type: 'button', class: 'withdraw', 'data-entry': x.id, text: t('console.withdraw'),
        'aria-label': t('console.withdraw') + ' ' + x.display_name,
        onclick: async () => {
          const running = state.tour.status === 'running';
          const ok = await confirmAction({ title: t('console.askWithdraw', { name: x.display_name }),
            lines: [running ? t('console.askWithdrawRunning') : t('console.askWithdrawBefore')], action: t('console.withdrawAction') });
          if (!ok) return;
          const reason = $('withdraw-reason').value.trim();
          act('entries-error', () => send('POST', `/tournaments/${state.id}/entries/${x.id}/withdraw`, reason ? { reason } : {}), t('console.withdrawnDone'))
            .then((res) => res && ($('withdraw-reason').value = ''));
        },
      }));
    }
    const players = x.players.map((p) => p.name).join(', ');
    return el('tr', { class: x.withdrawn ? 'withdrawn' : '', 'data-entry': x.id },
      el('td', { class: 'num', text: String(x.number) }),
      el('td', {}, el('strong', { text: x.display_name }), x.name && players ? el('span', { class: 'muted', text: ' · ' + players }) : null),
      el('td', { text: stateText }),
      el('td', {}, actions));
  }));
  if (!state.entries.length) body.append(el('tr', { class: 'empty' }, el('td', { colspan: 4, class: 'muted', text: t('console.noEntries') })));
  $('entries-count').textContent = `(${state.entries.filter((x) => !x.withdrawn).length})`;
  const open = ['draft', 'registration_open', 'registration_closed', 'running'].includes(state.tour.status);
  $('entry-form').hidden = !open;
  if (directsClub(state.tour.club_id)) showEntryCodes($('entries-codes'), state.tour.club_id, state.entries);
}

async function searchPlayers() {
  const q = $('player-q').value.trim();
  const out = $('player-results');
  out.replaceChildren();
  $('entry-error').textContent = '';
  if (!q) return;
  try {
    const res = await get(`/players?q=${encodeURIComponent(q)}&limit=20`);
    const items = res.data.items || [];
    if (!items.length) out.append(el('li', { class: 'muted', text: t('console.noPlayer', { q }) }));
    for (const p of items) {
      out.append(el('li', { class: 'row' },
        el('span', { text: p.name + (p.federation_id ? ` (${p.federation_id})` : '') }),
        el('button', { type: 'button', class: 'pick', 'data-player': p.id, text: t('console.pick'), 'aria-label': t('console.pick') + ' ' + p.name, onclick: () => pick(p) })));
    }
  } catch (e) {
    $('entry-error').textContent = problemText(e);
  }
}

function pick(p) {
  if (!state.picked.some((x) => x.id === p.id)) state.picked.push({ id: p.id, name: p.name });
  renderPicked();
}

function renderPicked() {
  const box = $('entry-picked');
  box.replaceChildren(...state.picked.map((p, i) => el('span', {}, i ? ', ' : '', p.name, ' ',
    el('button', { type: 'button', class: 'unpick', 'aria-label': t('console.unpick', { name: p.name }), text: '×', onclick: () => {
      state.picked = state.picked.filter((x) => x.id !== p.id);
      renderPicked();
    } }))));
}

async function createPlayer() {
  const name = $('new-player-name').value.trim();
  if (!name) {
    $('entry-error').textContent = t('console.nameNeeded');
    $('new-player-name').focus();
    return;
  }
  const res = await act('entry-error', () => send('POST', '/players', { name, club_id: state.tour.club_id }), t('console.playerCreated', { name }));
  if (res) {
    pick(res.data);
    $('new-player-name').value = '';
  }
}

async function addEntry(e) {
  e.preventDefault();
  if (!state.picked.length) {
    $('entry-error').textContent = t('console.pickFirst');
    return;
  }
  const body = { players: state.picked.map((p) => p.id) };
  const name = $('entry-name').value.trim();
  if (name) body.name = name;
  // The form is emptied as soon as the entry is added, before the
  // tournament is read again: emptied after, it would wipe a search the
  // director typed for the next entry while the reload was on its way.
  await act('entry-error', async () => {
    const res = await send('POST', `/tournaments/${state.id}/entries`, body);
    state.picked = [];
    renderPicked();
    $('entry-name').value = '';
    $('player-results').replaceChildren();
    $('player-q').value = '';
    return res;
  }, t('console.entryAdded'));
}

// --- rounds, pairings, forbidden pairs ---

function renderRounds() {
  const r = currentRound();
  const planned = state.rounds ? state.rounds.planned_rounds : 0;
  const phase = r ? roundPhaseText(r.number) : '';
  $('round-current').textContent = r
    ? t('console.roundNow', { n: r.number, of: planned || '?', status: t('console.rs.' + r.status) }) + (phase ? ' ' + phase : '')
    : t('console.noRound');
  $('round-draw').textContent = drawLabel();
  const running = state.tour.status === 'running';
  $('round-draw').hidden = !running || (r && r.status !== 'closed') || (planned > 0 && r && r.number >= planned);
  $('round-start').hidden = !running || !r || r.status !== 'pairings_published';
  $('round-close').hidden = !running || !r || r.status !== 'playing';
  // Closing is the next step once every table is done: then it is the primary button.
  const done = r && r.tables.every((tb) => ['confirmed', 'decided', 'bye'].includes(tableState(r, tb, Date.now(), 1e9, 0).key));
  $('round-close').className = done ? 'primary' : '';
  renderPairingForm(r);
  const active = state.entries.filter((x) => !x.withdrawn);
  for (const id of ['forb-a', 'forb-b']) {
    const keep = $(id).value;
    $(id).replaceChildren(...active.map((x) => el('option', { value: x.id, text: `${x.number}. ${x.display_name}`, selected: String(x.id) === keep })));
  }
  $('forb-list').replaceChildren(...state.forbidden.map((p, i) => el('li', { class: 'row' },
    el('span', { text: `${entryName(p[0])} ↔ ${entryName(p[1])}` }),
    el('button', { type: 'button', text: t('console.remove'), 'aria-label': t('console.remove') + ` ${entryName(p[0])} ↔ ${entryName(p[1])}`,
      onclick: () => setForbidden(state.forbidden.filter((_, j) => j !== i).map((q) => [q[0].id, q[1].id]), '') }))));
  if (!state.forbidden.length) $('forb-list').append(el('li', { class: 'muted', text: t('console.noForbidden') }));
  $('forb-count').textContent = `(${state.forbidden.length})`;
}

function setForbidden(pairs, reason) {
  const body = { pairs };
  if (reason) body.reason = reason;
  return act('forb-error', () => send('PUT', `/tournaments/${state.id}/forbidden`, body), t('console.forbiddenSaved'));
}

// renderPairingForm lets the director reseat a pairs round before it starts.
function renderPairingForm(r) {
  const form = $('pair-form');
  const can = r && r.status === 'pairings_published' && state.tour.kind === 'pairs' && r.tables.every((tb) => tb.ns && tb.ew);
  form.hidden = !can;
  if (!can) return;
  if (form.dataset.round === `${r.number}.${r.version}`) return; // keep what the director is choosing
  form.dataset.round = `${r.number}.${r.version}`;
  const active = state.entries.filter((x) => !x.withdrawn);
  const select = (id, chosen, label) => el('label', {}, el('span', { text: label }),
    el('select', { id }, ...active.map((x) => el('option', { value: x.id, text: `${x.number}. ${x.display_name}`, selected: x.id === chosen }))));
  $('pair-tables').replaceChildren(...r.tables.map((tb) => el('div', { class: 'row' },
    el('strong', { text: t('console.tableN', { n: tb.number }) }),
    select(`pair-${tb.number}-ns`, tb.ns.entries[0].id, t('console.tableSide', { n: tb.number, side: 'NS' })),
    select(`pair-${tb.number}-ew`, tb.ew.entries[0].id, t('console.tableSide', { n: tb.number, side: 'EW' })))));
}

async function overridePairings(e) {
  e.preventDefault();
  const r = currentRound();
  const body = {
    tables: r.tables.map((tb) => ({ number: tb.number, ns: Number($(`pair-${tb.number}-ns`).value), ew: Number($(`pair-${tb.number}-ew`).value) })),
    byes: (r.byes || []).map((b) => b.id),
    reason: $('pair-reason').value.trim(),
  };
  if (!body.reason) {
    $('pair-error').textContent = t('error.reason_required');
    return;
  }
  await act('pair-error', () => send('PUT', `/tournaments/${state.id}/rounds/${r.number}/pairings`, body), t('console.pairingsSaved'));
}

// --- the tables, live ---

// roundStartedAt is when round n started: the round says (started_at),
// else the audit trail.
function roundStartedAt(n) {
  const r = roundByNumber(n);
  if (r && r.started_at) return new Date(r.started_at).getTime();
  const ev = state.audit.filter((a) => a.kind === 'round_started' && a.data && a.data.round === n).pop();
  return ev ? new Date(ev.at).getTime() : 0;
}

function renderLive() {
  if (!state.tour) return;
  const r = currentRound();
  const body = $('live-table').querySelector('tbody');
  if (!r) {
    body.replaceChildren(el('tr', {}, el('td', { colspan: 5, class: 'muted', text: t('console.noRound') })));
    $('live-summary').textContent = '';
    return;
  }
  const lateMinutes = Math.max(1, Number($('late-minutes').value) || 20);
  const startedAt = roundStartedAt(r.number);
  const now = Date.now();
  const counts = {};
  body.replaceChildren(...r.tables.map((tb) => {
    const s = tableState(r, tb, now, lateMinutes, startedAt);
    counts[s.key] = (counts[s.key] || 0) + 1;
    let text = t('console.ts.' + s.key, { k: s.k, n: s.n, by: s.by ? t('console.rk.' + s.by) : '' });
    if (s.late) text += ' · ' + t('console.late', { m: s.mins });
    const mp = tb.result ? `${fmtNumber(tb.result.mp_ns)}–${fmtNumber(tb.result.mp_ew)}` : '';
    return el('tr', { class: s.cls, 'data-table': tb.number, 'data-state': s.key },
      el('td', { class: 'num', text: tb.group ? `${tb.number} · ${tb.group}` : String(tb.number) }),
      el('td', { text: sideName(tb.ns) }),
      el('td', { text: sideName(tb.ew) }),
      el('td', { class: 'num', text: mp }),
      el('td', { class: 'state', text }));
  }));
  $('live-summary').textContent = t('console.liveSummary', {
    n: r.number, done: (counts.confirmed || 0) + (counts.decided || 0) + (counts.bye || 0), of: r.tables.length,
  });
}

// --- corrections ---

function buildPartsInputs(box, prefix) {
  const fs = $(box);
  for (const p of PARTS) {
    fs.append(el('label', {}, el('span', { 'data-i18n': 'console.part.' + p, text: t('console.part.' + p) }),
      el('input', { id: `${prefix}-${p}`, type: 'number', inputmode: 'numeric', step: 5, oninput: () => showTotals() })));
  }
  fs.append(el('output', { id: `${prefix}-total`, class: 'total', for: PARTS.map((p) => `${prefix}-${p}`).join(' ') }));
}

function partsOf(prefix) {
  const o = {};
  for (const p of PARTS) o[p] = Number($(`${prefix}-${p}`).value) || 0;
  o.total = partsTotal(o, !!(state.tour && state.tour.options && state.tour.options.round_up_10));
  return o;
}

function showTotals() {
  for (const side of ['ns', 'ew']) $(`corr-${side}-total`).textContent = t('console.total', { n: partsOf(`corr-${side}`).total });
}

// roundByNumber is round n as the console has it: the latest, or an
// earlier one read for a correction at the tournament's version (null
// until read: pastRound reads it).
function roundByNumber(n) {
  const r = currentRound();
  return r && r.number === n ? r : state.past.rounds[n] || null;
}

// pastRound reads earlier round n once per version of the tournament, and
// fills the correction form again with it.
async function pastRound(n) {
  const version = state.past.version;
  if (state.past.reading === n) return; // one read at a time is enough
  state.past.reading = n;
  try {
    const r = (await get(`/tournaments/${state.id}/rounds/${n}`)).data;
    if (state.past.version !== version) return; // the tournament moved on: read again on the next fill
    state.past.rounds[n] = r;
    if (Number($('corr-round').value) === n) fillCorrection('round');
  } catch (e) {
    $('corr-error').textContent = problemText(e);
  } finally {
    if (state.past.version === version) state.past.reading = 0;
  }
}

function renderCorrection() {
  // Rounds 1 to the latest, but a latest whose pairings are only published.
  const last = currentRound();
  const upTo = last ? last.number - (last.status === 'pairings_published' ? 1 : 0) : 0;
  const numbers = Array.from({ length: upTo }, (_, i) => i + 1);
  const keepR = $('corr-round').value || (upTo ? String(upTo) : '');
  $('corr-round').replaceChildren(...numbers.map((n) => el('option', { value: n, text: String(n), selected: String(n) === keepR })));
  fillCorrection('refresh');
}

// fillCorrection fills the table and deal lists and, when the choice
// changed, the parts of the chosen deal as they are.
function fillCorrection(changed) {
  const n = Number($('corr-round').value);
  const r = roundByNumber(n);
  if (n && !r) pastRound(n);
  const tables = r ? r.tables.filter((tb) => tb.ns && tb.ew) : [];
  const keepT = $('corr-table').value;
  $('corr-table').replaceChildren(...tables.map((tb) => el('option', { value: tb.number, text: String(tb.number), selected: String(tb.number) === keepT })));
  const tb = tables.find((x) => String(x.number) === $('corr-table').value);
  const keepD = $('corr-deal').value;
  const deals = tb ? tb.deals || [] : [];
  $('corr-deal').replaceChildren(...deals.map((d) => el('option', { value: d.number, selected: String(d.number) === keepD,
    text: `${d.number}${d.tie_break ? ' (' + t('console.tieBreak') + ')' : ''} · ${d.ns.total}–${d.ew.total}` })));
  $('corr-submit').disabled = !deals.length;
  if (changed === 'refresh' && $('corr-form').dataset.filled) return; // keep what the director typed
  const d = deals.find((x) => String(x.number) === $('corr-deal').value);
  for (const side of ['ns', 'ew']) {
    for (const p of PARTS) $(`corr-${side}-${p}`).value = d ? d[side][p] : '';
  }
  $('corr-form').dataset.filled = d ? '1' : '';
  showTotals();
}

async function correctDeal(e) {
  e.preventDefault();
  const round = Number($('corr-round').value);
  const table = Number($('corr-table').value);
  const number = Number($('corr-deal').value);
  const reason = $('corr-reason').value.trim();
  if (!reason) {
    $('corr-error').textContent = t('error.reason_required');
    $('corr-reason').focus();
    return;
  }
  const tb = (roundByNumber(round) || { tables: [] }).tables.find((x) => x.number === table);
  const body = { version: tb ? tb.version : undefined, deal: { number, ns: partsOf('corr-ns'), ew: partsOf('corr-ew') }, reason };
  const res = await act('corr-error', () => send('POST', `/tournaments/${state.id}/rounds/${round}/tables/${table}/corrections`, body),
    t('console.corrected', { deal: number, table }));
  if (res) {
    $('corr-reason').value = '';
    $('corr-form').dataset.filled = '';
    fillCorrection('deal');
  }
}

// --- rulings and penalties ---

function renderRulingForms() {
  const r = currentRound();
  const keepT = $('rul-table').value;
  const tables = r ? r.tables.filter((tb) => tb.ns && tb.ew) : [];
  $('rul-table').replaceChildren(...tables.map((tb) => el('option', { value: tb.number, text: String(tb.number), selected: String(tb.number) === keepT })));
  const entries = state.entries.filter((x) => !x.withdrawn);
  const keepE = $('rul-entry').value;
  $('rul-entry').replaceChildren(el('option', { value: '', text: '—' }),
    ...entries.map((x) => el('option', { value: x.id, text: `${x.number}. ${x.display_name}`, selected: String(x.id) === keepE })));
  const keepP = $('pen-entry').value;
  $('pen-entry').replaceChildren(...state.entries.map((x) => el('option', { value: x.id, text: `${x.number}. ${x.display_name}`, selected: String(x.id) === keepP })));
  $('rul-submit').disabled = !tables.length;
}

async function giveRuling(e) {
  e.preventDefault();
  const r = currentRound();
  const table = Number($('rul-table').value);
  const tb = r && r.tables.find((x) => x.number === table);
  if (!tb) return;
  const body = { version: tb.version, kind: $('rul-kind').value };
  if ($('rul-entry').value) body.entry = Number($('rul-entry').value);
  if ($('rul-deals').value) body.deals = Number($('rul-deals').value);
  if ($('rul-reason').value.trim()) body.reason = $('rul-reason').value.trim();
  const res = await act('rul-error', () => send('POST', `/tournaments/${state.id}/rounds/${r.number}/tables/${table}/rulings`, body), t('console.ruled', { table }));
  if (res) $('rul-reason').value = '';
}

async function givePenalty(e) {
  e.preventDefault();
  const body = { entry: Number($('pen-entry').value), reason: $('pen-reason').value.trim() };
  if ($('pen-round').value) body.round = Number($('pen-round').value);
  if ($('pen-vp').value) body.vp = Number($('pen-vp').value);
  if ($('pen-mp').value) body.mp = Number($('pen-mp').value);
  if (!body.reason) {
    $('pen-error').textContent = t('error.reason_required');
    return;
  }
  const res = await act('pen-error', () => send('POST', `/tournaments/${state.id}/penalties`, body), t('console.penalised'));
  if (res) for (const id of ['pen-vp', 'pen-mp', 'pen-reason', 'pen-round']) $(id).value = '';
}

// --- printouts, exports, the audit trail ---

function renderPrintLinks() {
  const base = `/api/v1/tournaments/${state.id}`;
  const l = lang();
  const links = [
    ['print-standings', `${base}/print/standings?lang=${l}`, 'console.pr.standings'],
    ['print-tables', `${base}/print/tables?lang=${l}`, 'console.pr.tables'],
    ['print-results', `${base}/print/results?lang=${l}`, 'console.pr.results'],
    ['csv-standings', `${base}/export/standings.csv`, 'console.pr.csvStandings'],
    ['csv-rounds', `${base}/export/rounds.csv`, 'console.pr.csvRounds'],
    ['csv-sheets', `${base}/export/sheets.csv`, 'console.pr.csvSheets'],
    ['hall-link', `/app/hall/${state.id}`, 'console.pr.hall'],
    // Each group's hall display, and beside it its printed standings (the
    // phase's, overall: with the VP carried in).
    ...hallGroups().flatMap((g) => [[`hall-link-${g}`, `/app/hall/${state.id}?group=${g}`, 'console.pr.hallGroup', { g }],
      [`print-standings-${g}`, `${base}/print/standings?phase=${groupedPhase().number}&group=${g}&lang=${l}`, 'console.pr.standingsGroup', { g }]]),
  ];
  $('print-links').replaceChildren(...links.map(([id, href, key, vars]) => el('li', {}, el('a', { id, href, target: id.startsWith('csv') ? undefined : '_blank', rel: 'noopener', text: t(key, vars) }))));
}

function renderAudit() {
  const name = new Map(state.entries.map((x) => [x.id, `${x.number}. ${x.display_name}`]));
  const items = state.audit.slice(-AUDIT_SHOWN).reverse();
  $('audit-list').replaceChildren(...items.map((a) => {
    const d = a.data || {};
    const where = [d.round ? t('console.roundN', { n: d.round }) : '', d.table ? t('console.tableN', { n: d.table }) : '', d.deal ? t('console.dealN', { n: d.deal }) : '',
      d.entry && name.has(d.entry) ? name.get(d.entry) : ''].filter(Boolean).join(', ');
    return el('li', { 'data-kind': a.kind },
      el('time', { datetime: a.at, text: new Date(a.at).toLocaleTimeString(lang(), { hour: '2-digit', minute: '2-digit', second: '2-digit' }) }),
      el('strong', { text: t('console.ev.' + a.kind) }),
      where ? ` · ${where}` : '',
      a.reason ? el('span', { class: 'muted', text: ` — ${a.reason}` }) : '');
  }));
  if (!items.length) $('audit-list').append(el('li', { class: 'muted', text: t('console.noAudit') }));
}
