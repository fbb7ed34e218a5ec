// The console's phases and groups (issue 32; the API's contract is
// docs/PHASES.md):
//
// - the phases of the set-up (PATCH /tournaments/{id} with phases), each
//   with its movement, rounds, deals, VP table, carry-over and groups,
//   edited until the tournament runs, then listed with how far each is
//   (GET …/phases);
// - the groups of a phase grouped by hand, given with the draw of the
//   phase's first round (POST …/rounds with groups);
// - the standings of a phase, overall (with the VP carried over) or its
//   own rounds alone, of the whole field or of one group (GET
//   …/phases/{n}/standings), or the tournament's (GET …/standings) when it
//   is played in one phase.
//
// As for the prizes, nothing the director is typing is drawn over: the
// phases' form is rebuilt from the server only while it has no unsaved
// edit, the hand groups only when the entries change.
import { get, send, ApiError } from './api.js';
import { t, lang, fmtNumber } from './i18n.js';
import { parseBands, bandsText } from './console-vp.js';

const SETUP = ['draft', 'registration_open', 'registration_closed'];
const MOVEMENTS = ['mitchell', 'danish', 'modified_danish', 'round_robin', 'random'];
const GROUP_BY = ['', 'serpentine', 'blocks', 'club', 'hand'];
const CARRY = ['all', 'none', 'fraction'];
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

const $ = (id) => document.getElementById(id);

let ctx = null; // {el, act, said, problemText, confirmAction, state, onPhases}
// list is GET …/phases as last read (null: not read, or no phases).
const phases = { list: null, key: '', reading: null };
const standings = { key: '', reading: null, chosen: false, last: null };

// tourPhases are the set-up's phases ([] when played in one phase).
export function tourPhases() {
  return (ctx && ctx.state.tour && ctx.state.tour.phases) || [];
}

// phaseOfRound is the phase (with its number, from 1) round n belongs to.
export function phaseOfRound(n) {
  const ps = tourPhases();
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i];
    if (n >= p.first_round && n <= p.last_round) return { ...p, number: i + 1 };
  }
  return null;
}

function phaseLabel(p) {
  return p.name ? t('console.ph.labelNamed', { n: p.number, name: p.name }) : t('console.ph.label', { n: p.number });
}

// roundPhaseText says which phase round n is in ('' in one phase).
export function roundPhaseText(n) {
  const p = phaseOfRound(n);
  return p ? t('console.ph.ofRound', { n: p.number, of: tourPhases().length, name: p.name }) : '';
}

// nextRound is the number of the round the draw button draws.
function nextRound() {
  const r = ctx.state.rounds && ctx.state.rounds.items;
  return r && r.length ? r[r.length - 1].number + 1 : 1;
}

// drawLabel is the draw button's words: drawing the first round of a
// phase after the first starts that phase, and says so.
export function drawLabel() {
  const p = phaseOfRound(nextRound());
  if (p && p.number > 1 && p.first_round === nextRound()) return t('console.ph.startPhase', { phase: phaseLabel(p) });
  return t('console.draw');
}

// drawBody is the body of the next draw: the hand groups when the round is
// the first of a phase grouped by hand; undefined otherwise. It throws
// when a group is left empty.
export function drawBody() {
  const p = handPhase();
  if (!p) return undefined;
  const count = p.groups.count;
  const groups = Array.from({ length: count }, () => []);
  for (const s of $('groups-table').querySelectorAll('select[data-number]')) {
    groups[LETTERS.indexOf(s.value)].push(Number(s.dataset.number));
  }
  return { round: nextRound(), groups };
}

// handPhase is the phase whose first round is drawn next when it is
// grouped by hand.
function handPhase() {
  const p = phaseOfRound(nextRound());
  const running = ctx.state.tour.status === 'running';
  return running && p && p.first_round === nextRound() && p.groups && p.groups.by === 'hand' ? p : null;
}

// wirePhases is called once the tournament's page is built.
export function wirePhases(c) {
  ctx = c;
  $('phase-add').addEventListener('click', () => {
    const rows = readForm();
    const tour = ctx.state.tour;
    rows.push(rows.length ? { name: '', movement: 'danish', rounds: 1, carry_over: 'all' }
      : { name: '', movement: tour.movement === 'knockout' ? 'danish' : tour.movement, rounds: tour.rounds || 1 });
    drawForm(rows);
    $('phases-form').dataset.dirty = '1';
    $('phases-save').hidden = false;
    $(`ph-${rows.length - 1}-name`).focus();
  });
  $('phases-form').addEventListener('submit', (e) => {
    e.preventDefault();
    savePhases(readForm());
  });
  // Removing every phase loses their set-up: asked first.
  $('phases-clear').addEventListener('click', async () => {
    // The phases leave the first one's movement and their rounds in all (docs/PHASES.md).
    const ps = tourPhases();
    const what = { n: ps.length, movement: ps.length ? t('console.mv.' + ps[0].movement) : '', rounds: ps.reduce((a, p) => a + p.rounds, 0) };
    const ok = await ctx.confirmAction({ title: t('console.ph.askClear'), lines: [t('console.ph.askClearWhat', what)],
      action: t('console.ph.clearAction') });
    if (ok) savePhases([]);
  });
  $('phases-form').addEventListener('input', (e) => {
    $('phases-form').dataset.dirty = '1';
    showDependent(e.target.closest('fieldset[data-phase]'));
  });
  $('phases-form').addEventListener('change', (e) => showDependent(e.target.closest('fieldset[data-phase]')));
  for (const id of ['st-phase', 'st-scope', 'st-group']) {
    $(id).addEventListener('change', () => {
      standings.chosen = true;
      if (id === 'st-phase') fillGroupChoice();
      readStandings(true);
    });
  }
}

// renderPhases shows the section, the hand groups and the standings for
// the tournament as it now is.
export function renderPhases() {
  const tour = ctx.state.tour;
  const setup = SETUP.includes(tour.status);
  const ps = tourPhases();
  const pairs = tour.kind === 'pairs'; // phases are for pairs events
  // Once the event runs in one phase there is nothing here for the director.
  const none = !setup && !ps.length;
  $('sec-phases').hidden = none;
  document.querySelector('nav.sections a[href="#sec-phases"]').hidden = none;
  $('phases-form').hidden = !setup || !pairs;
  $('phases-save').hidden = !ps.length && !$('phases-list').querySelector('fieldset[data-phase]');
  $('phases-done').hidden = setup || !ps.length;
  $('phases-clear').hidden = !ps.length;
  $('phases-summary').textContent = ps.length
    ? t('console.ph.summary', { n: ps.length, rounds: ps.reduce((a, p) => a + p.rounds, 0) })
    : pairs ? t('console.ph.one') : t('console.ph.pairsOnly');
  const form = $('phases-form');
  const saved = JSON.stringify(ps);
  if (setup && (form.dataset.saved !== saved || form.dataset.lang !== lang()) && !form.dataset.dirty) {
    form.dataset.saved = saved;
    form.dataset.lang = lang();
    drawForm(ps.map(fromServer));
  }
  readPhases();
  drawDone();
  drawHandGroups();
  fillStandingChoices();
  readStandings(false);
}

// hallGroups are the groups of the latest phase that has them, for the
// hall display of each (/app/hall/{id}?group=A) and its printed standings.
export function hallGroups() {
  const p = groupedPhase();
  return p ? p.groups_seeded.map((g) => g.name) : [];
}

// groupedPhase is the latest phase begun with groups seeded (null when
// none): the phase whose groups' standings the print links name.
export function groupedPhase() {
  const items = (phases.list && phases.list.items) || [];
  for (let i = items.length - 1; i >= 0; i--) {
    const seeded = items[i].groups_seeded || [];
    if (seeded.length && items[i].status !== 'pending') return items[i];
  }
  return null;
}

// --- the set-up ---

// fromServer is a phase as GET /tournaments gives it, for the form: the
// built-in VP table is no table of the director's own.
function fromServer(p) {
  const out = { ...p };
  if (p.vp_table_builtin) delete out.vp_table;
  return out;
}

function options(values, chosen, label) {
  return values.map((v) => ctx.el('option', { value: v, text: label(v), selected: String(v) === String(chosen ?? '') }));
}

// field is a labelled control of phase i: its id names the API's field
// (ph-2-carry_over_percent for phases[2].carry_over_percent), so that a
// refusal marks it.
function field(i, name, label, control, cls) {
  control.id = `ph-${i}-${name}`;
  return ctx.el('label', { class: cls || '' }, ctx.el('span', { text: label }), control);
}

// drawForm draws a fieldset per phase.
function drawForm(rows) {
  const { el } = ctx;
  const deals = ctx.state.tour.deals_per_round;
  $('phases-list').replaceChildren(...rows.map((p, i) => {
    const fs = el('fieldset', { class: 'stack phase', 'data-phase': i },
      el('legend', { text: t('console.ph.label', { n: i + 1 }) }),
      el('div', { class: 'grid2' },
        field(i, 'name', t('console.ph.name'), el('input', { value: p.name || '', maxlength: 60, required: true })),
        field(i, 'movement', t('console.movement'), el('select', {}, ...options(MOVEMENTS, p.movement, (m) => t('console.mv.' + m)))),
        field(i, 'rounds', t('console.rounds'), el('input', { type: 'number', min: 1, max: 50, value: p.rounds || 1, inputmode: 'numeric' })),
        field(i, 'mitchell_step', t('console.ph.step'), el('input', { type: 'number', min: 1, max: 50, value: p.mitchell_step || 1, inputmode: 'numeric' }), 'dep-mitchell'),
        field(i, 'deals_per_round', t('console.deals'), el('select', {},
          ...options(['', 2, 3, 4], p.deals_per_round === deals ? '' : p.deals_per_round, (d) => (d === '' ? t('console.ph.dealsSame', { n: deals }) : String(d))))),
        field(i, 'vp', t('console.vpTable'), el('select', {},
          ...options(['builtin', 'own'], p.vp_table ? 'own' : 'builtin', (v) => t(v === 'own' ? 'console.vpCustom' : 'console.ph.vpBuiltin')))),
        i === 0 ? null : field(i, 'carry_over', t('console.ph.carry'), el('select', {}, ...options(CARRY, p.carry_over || 'all', (c) => t('console.ph.carry.' + c)))),
        i === 0 ? null : field(i, 'carry_over_percent', t('console.ph.percent'),
          el('input', { type: 'number', min: 1, max: 99, value: p.carry_over_percent || 50, inputmode: 'numeric' }), 'dep-fraction'),
        field(i, 'groups-by', t('console.ph.groups'), el('select', {},
          ...options(GROUP_BY, p.groups ? p.groups.by : '', (b) => t('console.ph.by.' + (b || 'none'))))),
        field(i, 'groups-count', t('console.ph.groupCount'),
          el('input', { type: 'number', min: 2, max: 26, value: (p.groups && p.groups.count) || 2, inputmode: 'numeric' }), 'dep-count')),
      field(i, 'vp_table', t('console.vpBands'), el('textarea', { rows: 5, spellcheck: 'false', text: bandsText(p.vp_table && p.vp_table.bands) }), 'dep-bands'),
      el('div', { class: 'row' }, el('button', { type: 'button', class: 'ph-remove', text: t('console.ph.remove', { n: i + 1 }),
        onclick: () => {
          const now = readForm();
          now.splice(i, 1);
          drawForm(now);
          $('phases-form').dataset.dirty = '1';
        } })));
    showDependent(fs);
    return fs;
  }));
  if (!rows.length) $('phases-list').append(el('p', { class: 'muted', text: t('console.ph.none') }));
}

// showDependent shows a phase's fields that its choices call for: the
// Mitchell step, the percentage carried, the number of groups, the bands.
function showDependent(fs) {
  if (!fs) return;
  const i = fs.dataset.phase;
  // Asked of the fieldset, not the document: drawForm calls this before
  // the fieldset is in the page.
  const v = (name) => (fs.querySelector(`[id="ph-${i}-${name}"]`) || {}).value;
  const show = (cls, on) => fs.querySelectorAll('.' + cls).forEach((n) => (n.hidden = !on));
  show('dep-mitchell', v('movement') === 'mitchell');
  show('dep-fraction', v('carry_over') === 'fraction');
  show('dep-count', ['serpentine', 'blocks', 'hand'].includes(v('groups-by')));
  show('dep-bands', v('vp') === 'own');
}

// readForm is the phases as the form has them, as the API takes them.
function readForm() {
  return [...$('phases-list').querySelectorAll('fieldset[data-phase]')].map((fs) => {
    const i = fs.dataset.phase;
    const v = (name) => ($(`ph-${i}-${name}`) || { value: '' }).value;
    const p = { name: v('name').trim(), movement: v('movement'), rounds: Number(v('rounds')) };
    if (p.movement === 'mitchell' && v('mitchell_step')) p.mitchell_step = Number(v('mitchell_step'));
    if (v('deals_per_round')) p.deals_per_round = Number(v('deals_per_round'));
    if (v('vp') === 'own') p.vp_table = { bands: parseBands(v('vp_table')) };
    if (Number(i) > 0) {
      p.carry_over = v('carry_over');
      if (p.carry_over === 'fraction') p.carry_over_percent = Number(v('carry_over_percent'));
    }
    const by = v('groups-by');
    if (by) p.groups = by === 'club' ? { by } : { by, count: Number(v('groups-count')) };
    return p;
  });
}

async function savePhases(rows) {
  for (const n of $('phases-list').querySelectorAll('[aria-invalid]')) n.removeAttribute('aria-invalid');
  const res = await ctx.act('phases-error', async () => {
    try {
      return await send('PATCH', `/tournaments/${ctx.state.id}`, { phases: rows });
    } catch (err) {
      markInvalid(err);
      throw err;
    }
  }, rows.length ? t('console.ph.saved') : t('console.ph.cleared'));
  if (res) {
    const form = $('phases-form');
    form.dataset.dirty = '';
    form.dataset.saved = '';
    renderPhases();
  }
}

// markInvalid marks the controls the refusal names: phases[2].groups.count
// is ph-2-groups-count; phases[1].vp_table.bands[0] is ph-1-vp_table.
function markInvalid(err) {
  if (!(err instanceof ApiError)) return;
  for (const f of err.problem.errors || []) {
    const m = /^phases\[(\d+)\]\.(\w+)(?:\.(\w+))?/.exec(f.field || '');
    if (!m) continue;
    let el = $(`ph-${m[1]}-${m[2]}-${m[3]}`) || $(`ph-${m[1]}-${m[2]}`);
    // A VP table required of a phase that has the built-in one: its bands
    // are hidden, the choice of table is what to change.
    if (el && el.closest('label').hidden && m[2] === 'vp_table') el = $(`ph-${m[1]}-vp`);
    if (el) el.setAttribute('aria-invalid', 'true');
  }
}

// --- the phases once running ---

// readPhases reads GET …/phases whenever the tournament moves.
function readPhases() {
  const tour = ctx.state.tour;
  if (!tourPhases().length || SETUP.includes(tour.status)) {
    phases.list = null;
    phases.key = '';
    return;
  }
  const key = String(tour.version);
  if (phases.key === key) return;
  phases.key = key;
  const reading = (phases.reading = get(`/tournaments/${ctx.state.id}/phases`).then((res) => {
    if (reading !== phases.reading) return;
    phases.list = res.data;
    if (ctx.onPhases) ctx.onPhases(); // the hall display of each group
    drawDone();
    fillStandingChoices();
    readStandings(false);
  }).catch((err) => {
    if (reading !== phases.reading) return;
    phases.key = '';
    $('phases-done-error').textContent = ctx.problemText(err);
  }));
}

// drawDone lists the phases with their rounds, carry-over, groups and how
// far each is.
function drawDone() {
  const { el } = ctx;
  const ps = tourPhases();
  const items = (phases.list && phases.list.items) || [];
  const current = phases.list ? phases.list.current : 0;
  $('phases-done-error').textContent = '';
  $('phases-table').querySelector('tbody').replaceChildren(...ps.map((p, i) => {
    const n = i + 1;
    const it = items.find((x) => x.number === n) || {};
    const carry = i === 0 ? '—' : p.carry_over === 'fraction' ? `${p.carry_over_percent}%` : t('console.ph.carry.' + (p.carry_over || 'all'));
    const groups = it.groups_seeded && it.groups_seeded.length
      ? it.groups_seeded.map((g) => `${g.name} (${g.entries.length})`).join(', ')
      : p.groups ? t('console.ph.by.' + p.groups.by) + (p.groups.count ? ` · ${p.groups.count}` : '') : '—';
    return el('tr', { 'data-phase': n, class: n === current ? 'current' : '' },
      el('td', { class: 'num', text: String(n) }),
      el('td', { text: p.name }),
      el('td', { text: t('console.mv.' + p.movement) }),
      el('td', { class: 'num', text: `${p.first_round}–${p.last_round}` }),
      el('td', { class: 'num', text: String(p.deals_per_round) }),
      el('td', { text: carry }),
      el('td', { text: groups }),
      el('td', { class: 'ph-status', text: it.status ? t('console.ph.st.' + it.status) : '' }));
  }));
}

// --- hand groups ---

// drawHandGroups offers a group for each entry when the next round is the
// first of a phase grouped by hand; the choices stay until the entries
// change.
function drawHandGroups() {
  const { el } = ctx;
  const p = handPhase();
  const r = ctx.state.rounds && ctx.state.rounds.items;
  const last = r && r.length ? r[r.length - 1] : null;
  const form = $('groups-form');
  form.hidden = !p || (last && last.status !== 'closed');
  if (form.hidden) return;
  const active = ctx.state.entries.filter((x) => !x.withdrawn);
  const key = `${p.number}|${lang()}|${active.map((x) => x.id).join(',')}`;
  if (form.dataset.key === key) return;
  form.dataset.key = key;
  $('groups-h').textContent = t('console.ph.handTitle', { phase: phaseLabel(p) });
  const letters = LETTERS.slice(0, p.groups.count).split('');
  // The first guess: serpentine by the standings so far, as a director
  // would start from.
  const order = standingsOrder(active);
  const guess = new Map(order.map((x, i) => {
    const lap = Math.floor(i / letters.length);
    const k = i % letters.length;
    return [x.id, letters[lap % 2 ? letters.length - 1 - k : k]];
  }));
  $('groups-table').querySelector('tbody').replaceChildren(...order.map((x) => el('tr', {},
    el('th', { scope: 'row', text: `${x.number}. ${x.display_name}` }),
    el('td', {}, el('select', { 'data-number': x.number, 'aria-label': t('console.ph.groupOf', { name: `${x.number}. ${x.display_name}` }) },
      ...letters.map((g) => el('option', { value: g, text: t('console.ph.group', { g }), selected: guess.get(x.id) === g })))))));
}

// standingsOrder is the entries in the order of the last standings read
// (by number when there are none).
function standingsOrder(entries) {
  const rows = (standings.last && standings.last.rows) || [];
  const rank = new Map(rows.map((r, i) => [r.entry.id, i]));
  return [...entries].sort((a, b) => (rank.get(a.id) ?? 1e9) - (rank.get(b.id) ?? 1e9) || a.number - b.number);
}

// --- standings ---

// fillStandingChoices offers the phases (and their groups) to read; the
// current phase is chosen until the director picks another.
function fillStandingChoices() {
  const { el } = ctx;
  const ps = tourPhases();
  for (const id of ['st-phase-label', 'st-scope-label', 'st-group-label']) $(id).hidden = !ps.length;
  if (!ps.length) return;
  const current = phases.list ? phases.list.current : 1;
  const keep = standings.chosen ? $('st-phase').value : String(current || 1);
  $('st-phase').replaceChildren(...ps.map((p, i) => el('option', { value: i + 1, text: p.name ? t('console.ph.option', { n: i + 1, name: p.name }) : t('console.ph.label', { n: i + 1 }),
    selected: String(i + 1) === keep })));
  fillGroupChoice();
}

function fillGroupChoice() {
  const { el } = ctx;
  const n = Number($('st-phase').value);
  const item = phases.list && (phases.list.items || []).find((x) => x.number === n);
  const groups = (item && item.groups_seeded) || [];
  const keep = $('st-group').value;
  $('st-group').replaceChildren(el('option', { value: '', text: t('console.ph.allGroups') }),
    ...groups.map((g) => el('option', { value: g.name, text: t('console.ph.group', { g: g.name }), selected: g.name === keep })));
  $('st-group-label').hidden = !groups.length;
}

// readStandings reads the standings chosen, again when the tournament
// moves or the choice changes.
function readStandings(force) {
  const tour = ctx.state.tour;
  const ps = tourPhases();
  let path = `/tournaments/${ctx.state.id}/standings`;
  if (ps.length && !SETUP.includes(tour.status)) {
    if (!phases.list) return; // which phase is current comes first: readPhases reads them then
    const q = new URLSearchParams({ scope: $('st-scope').value });
    if ($('st-group').value) q.set('group', $('st-group').value);
    path = `/tournaments/${ctx.state.id}/phases/${$('st-phase').value || 1}/standings?${q}`;
  }
  const key = `${tour.version}|${path}|${lang()}`;
  if (!force && key === standings.key) return;
  standings.key = key;
  const reading = (standings.reading = get(path).then((res) => {
    if (reading !== standings.reading) return;
    $('st-error').textContent = '';
    if (!res.data.group) standings.last = res.data; // the whole field's, for the hand groups' guess
    drawStandings(res.data);
  }).catch((err) => {
    if (reading !== standings.reading) return;
    standings.key = '';
    $('st-error').textContent = ctx.problemText(err);
  }));
}

function drawStandings(s) {
  const { el } = ctx;
  const carried = s.scope === 'overall' && (s.rows || []).some((r) => r.carried_vp);
  $('st-table').querySelector('th.st-carried').hidden = !carried;
  const note = [];
  if (s.group) note.push(t('console.ph.group', { g: s.group }));
  note.push(s.after_round ? t('console.st.after', { n: s.after_round }) : t('console.st.none'));
  note.push(s.provisional ? t('console.st.provisional') : t('console.st.final'));
  $('st-note').textContent = note.join(' · ');
  $('st-table').querySelector('tbody').replaceChildren(...(s.rows || []).map((r) => el('tr', { 'data-entry': r.entry.id, class: r.provisional ? 'provisional' : '' },
    el('td', { class: 'num', text: String(r.rank) }),
    el('td', { text: `${r.entry.number}. ${r.entry.name}` }),
    el('td', { class: 'num st-played', text: String(r.played) }),
    carried ? el('td', { class: 'num st-carried', text: fmtNumber(r.carried_vp || 0) }) : null,
    el('td', { class: 'num st-vp', text: fmtNumber(r.vp) }),
    el('td', { class: 'num st-diff', text: (r.mp_difference > 0 ? '+' : '') + fmtNumber(r.mp_difference) }))));
  if (!(s.rows || []).length) {
    $('st-table').querySelector('tbody').append(el('tr', {}, el('td', { colspan: 6, class: 'muted', text: t('console.noEntries') })));
  }
}
