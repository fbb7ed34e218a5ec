// The console's prizes and categories (issue 32), one section of a
// tournament:
//
// - the prize list of its set-up (PATCH /tournaments/{id} with prizes),
//   edited row by row until the tournament runs, then shown as frozen;
// - the category tags of the entered players (PATCH /players/{id} with
//   categories; GET /players/{id} shows them to the club's directors
//   only, so each player is read once, when the director opens the grid);
// - the prizes given from the final standings (GET …/prizes), with the
//   printable page and the CSV.
//
// Nothing here re-renders what the director is typing: the prize form is
// rebuilt from the server only while it has no unsaved edit, and the
// grid only when the players or its columns change (the console's poll
// calls renderPrizes every time the tournament moves).
import { get, send, ApiError } from './api.js';
import { t, has, lang } from './i18n.js';

// SUGGESTED are the categories offered while typing one (any slug goes).
const SUGGESTED = ['ladies', 'mixed', 'men', 'newcomer', 'over65', 'junior', 'senior'];
// SETUP are the statuses in which the prize list may still change.
const SETUP = ['draft', 'registration_open', 'registration_closed'];
// FINAL are the statuses in which the standings may be final.
const FINAL = ['finished', 'results_published'];

const $ = (id) => document.getElementById(id);

let ctx = null; // {el, act, said, problemText, state}
const cats = new Map(); // player id -> {tags: [...]} or {error: '…'}, as read
const extraColumns = new Set(); // categories the director added to the grid
let awardsKey = ''; // what the awards shown were read for
let awardsReading = null;

// wirePrizes is called once the tournament's page is built: c holds the
// console's helpers and its state.
export function wirePrizes(c) {
  ctx = c;
  $('prize-add').addEventListener('click', () => {
    const rows = formRows();
    rows.push({ name: '', category: '', places: 1, cumulative: false });
    drawForm(rows, true);
    $('prize-table').querySelector('tbody tr:last-child input').focus();
  });
  $('prize-form').addEventListener('submit', savePrizes);
  $('prize-form').addEventListener('input', () => ($('prize-form').dataset.dirty = '1'));
  $('cat-details').addEventListener('toggle', () => $('cat-details').open && readCategories());
  $('cat-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const c = $('cat-new').value.trim().toLowerCase();
    if (!c) return;
    extraColumns.add(c);
    $('cat-new').value = '';
    drawGrid(true);
  });
  $('prize-datalist').replaceChildren(...SUGGESTED.map((s) => ctx.el('option', { value: s })));
}

// renderPrizes shows the section for the tournament as it now is.
export function renderPrizes() {
  const tour = ctx.state.tour;
  const setup = SETUP.includes(tour.status);
  const form = $('prize-form');
  form.classList.toggle('frozen', !setup);
  $('prize-frozen').hidden = setup || !(tour.prizes || []).length;
  $('prize-add').hidden = !setup;
  $('prize-save').hidden = !setup;
  const saved = JSON.stringify(tour.prizes || []) + '|' + groupLetters().join('');
  if (form.dataset.saved !== saved || form.dataset.setup !== String(setup) || form.dataset.lang !== lang()) {
    if (!form.dataset.dirty || !setup) {
      form.dataset.saved = saved;
      form.dataset.setup = String(setup);
      form.dataset.lang = lang();
      form.dataset.dirty = '';
      drawForm((tour.prizes || []).map((p) => ({ ...p })), setup);
    }
  }
  renderLinks();
  renderAwards();
  if ($('cat-details').open) drawGrid(false);
}

// --- the prize list ---

// formRows reads the prizes as the form has them now.
function formRows() {
  return [...$('prize-table').querySelectorAll('tbody tr[data-prize]')].map((tr) => ({
    name: tr.querySelector('.p-name').value,
    category: tr.querySelector('.p-category').value,
    group: tr.querySelector('.p-group') ? tr.querySelector('.p-group').value : '',
    places: Number(tr.querySelector('.p-places').value),
    cumulative: tr.querySelector('.p-cumulative').checked,
  }));
}

// groupLetters are the groups a prize may name: A, B, … as many as the
// phase with the most groups has (a phase grouped by club has as many as
// clubs, unknown before its draw: eight are offered); none without groups.
function groupLetters() {
  let n = 0;
  for (const p of ctx.state.tour.phases || []) {
    if (p.groups) n = Math.max(n, p.groups.count || 8);
  }
  return 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.slice(0, n).split('');
}

// drawForm shows rows in the prize table: inputs while editable, text
// once frozen.
function drawForm(rows, editable) {
  const { el } = ctx;
  const body = $('prize-table').querySelector('tbody');
  const letters = groupLetters();
  $('prize-table').querySelector('thead th.p-group-col').hidden = !letters.length;
  body.replaceChildren(...rows.map((p, i) => {
    const n = i + 1;
    if (!editable) {
      return el('tr', { 'data-prize': i },
        el('td', { text: p.name }),
        letters.length ? el('td', { text: p.group ? t('console.ph.group', { g: p.group }) : '—' }) : null,
        el('td', { text: p.category ? catName(p.category) : p.group ? '—' : t('console.prize.overall') }),
        el('td', { class: 'num', text: String(p.places) }),
        el('td', { text: p.cumulative ? t('console.prize.yes') : t('console.prize.no') }));
    }
    return el('tr', { 'data-prize': i },
      el('td', {}, el('input', { class: 'p-name', value: p.name || '', maxlength: 100, required: true,
        'aria-label': t('console.prize.nameN', { n }) })),
      letters.length ? el('td', {}, el('select', { class: 'p-group', 'aria-label': t('console.prize.groupN', { n }) },
        el('option', { value: '', text: '—' }),
        ...letters.map((g) => el('option', { value: g, text: g, selected: p.group === g })))) : null,
      el('td', {}, el('input', { class: 'p-category', value: p.category || '', maxlength: 24, list: 'prize-datalist',
        autocapitalize: 'none', spellcheck: 'false', 'aria-label': t('console.prize.categoryN', { n }) })),
      el('td', {}, el('input', { class: 'p-places', type: 'number', min: 1, max: 100, value: p.places || 1, inputmode: 'numeric',
        'aria-label': t('console.prize.placesN', { n }) })),
      el('td', {}, el('input', { class: 'p-cumulative', type: 'checkbox', checked: !!p.cumulative,
        'aria-label': t('console.prize.cumulativeN', { n }) })),
      el('td', {}, el('button', { type: 'button', class: 'p-remove', text: t('console.remove'),
        'aria-label': t('console.prize.removeN', { n }),
        onclick: () => {
          const now = formRows();
          now.splice(i, 1);
          drawForm(now, true);
          $('prize-form').dataset.dirty = '1';
        } })));
  }));
  // The actions' column is there only while the list may change.
  $('prize-table').querySelector('thead th.p-actions').hidden = !editable;
  if (!rows.length) {
    body.append(el('tr', { class: 'empty' }, el('td', { colspan: (editable ? 5 : 4) + (letters.length ? 1 : 0), class: 'muted', text: t('console.prize.none') })));
  }
}

// savePrizes sends the whole list (an empty one clears it); the fields
// the server refuses are marked where they are.
async function savePrizes(e) {
  e.preventDefault();
  const rows = formRows().map((p) => {
    const out = { name: p.name.trim(), places: p.places };
    const c = p.category.trim();
    if (c) out.category = c;
    if (p.group) out.group = p.group;
    if (p.cumulative) out.cumulative = true;
    return out;
  });
  for (const i of $('prize-table').querySelectorAll('[aria-invalid]')) i.removeAttribute('aria-invalid');
  const res = await ctx.act('prize-error', async () => {
    try {
      return await send('PATCH', `/tournaments/${ctx.state.id}`, { prizes: rows });
    } catch (err) {
      markInvalid(err);
      throw err;
    }
  }, t('console.prize.saved'));
  if (res) {
    const form = $('prize-form');
    form.dataset.dirty = '';
    form.dataset.saved = ''; // drawn again from what the server stored
    renderPrizes();
  }
}

// markInvalid sets aria-invalid on the inputs the problem's errors name
// (prizes[i].name, .category, .places).
function markInvalid(err) {
  if (!(err instanceof ApiError)) return;
  const cls = { name: 'p-name', category: 'p-category', group: 'p-group', places: 'p-places' };
  for (const f of err.problem.errors || []) {
    const m = /^prizes\[(\d+)\]\.(\w+)$/.exec(f.field || '');
    if (!m || !cls[m[2]]) continue;
    const input = $('prize-table').querySelector(`tbody tr[data-prize="${m[1]}"] .${cls[m[2]]}`);
    if (input) input.setAttribute('aria-invalid', 'true');
  }
}

// catName is a category as people read it: the known ones in words,
// the others as their tag.
function catName(c) {
  const key = 'console.catName.' + c; // apart from console.cat.*: a tag named title is no sentence
  return has(key) ? t(key) : c;
}

// --- the printouts ---

function renderLinks() {
  const { el } = ctx;
  const has = (ctx.state.tour.prizes || []).length > 0;
  const base = `/api/v1/tournaments/${ctx.state.id}`;
  $('prize-links').hidden = !has;
  $('prize-links').replaceChildren(
    el('li', {}, el('a', { id: 'print-prizes', href: `${base}/print/prizes?lang=${lang()}`, target: '_blank', rel: 'noopener', text: t('console.pr.prizes') })),
    el('li', {}, el('a', { id: 'csv-prizes', href: `${base}/export/prizes.csv`, text: t('console.pr.csvPrizes') })));
}

// --- the prizes given ---

// renderAwards reads the prizes given once the standings may be final,
// again whenever the tournament moves (a correction after the finish)
// or a category changes.
function renderAwards() {
  const tour = ctx.state.tour;
  const box = $('prize-awards');
  const has = (tour.prizes || []).length > 0;
  if (!has) {
    box.replaceChildren();
    awardsKey = '';
    return;
  }
  if (!FINAL.includes(tour.status)) {
    awardsKey = '';
    box.replaceChildren(ctx.el('p', { class: 'muted', text: t('console.prize.whenFinal') }));
    return;
  }
  const key = `${tour.version}.${lang()}.${catsVersion}`;
  if (key === awardsKey) return;
  awardsKey = key;
  const reading = (awardsReading = get(`/tournaments/${ctx.state.id}/prizes`).then((res) => {
    if (reading === awardsReading) drawAwards(res.data.awards || []);
  }).catch((err) => {
    if (reading !== awardsReading) return;
    awardsKey = ''; // tried again at the next render
    box.replaceChildren(ctx.el('p', { class: 'error', role: 'alert', text: ctx.problemText(err) }));
  }));
}

function drawAwards(awards) {
  const { el } = ctx;
  const box = $('prize-awards');
  box.replaceChildren(el('h3', { id: 'awards-h', text: t('console.prize.given') }),
    ...awards.map((a, i) => {
      // "Over 65 · Over 65" says it twice: a prize named as its category is its name.
      const cat = a.category ? catName(a.category) : '';
      let title = cat && cat.toLowerCase() !== a.name.toLowerCase() ? `${a.name} · ${cat}` : a.name;
      // "Girone A" needs no "· Group A" after it.
      if (a.group && !new RegExp(`\\b${a.group}$`).test(a.name)) title += ' · ' + t('console.ph.group', { g: a.group });
      const list = el('ol', { class: 'plain stack awards', 'aria-labelledby': `award-${i}-h` },
        ...a.winners.map((w) => {
          // The players, when the entry has a name of its own.
          const players = (w.players || []).map((p) => p.name);
          const named = players.length && players.join(' – ') !== w.entry.name;
          return el('li', { 'data-entry': w.entry.id, 'data-place': w.place },
            el('span', { class: 'place', text: t('console.prize.place', { n: w.place }) }), ' ',
            el('strong', { class: 'winner', text: w.entry.name }),
            el('span', { class: 'muted', text: ' · ' + [named ? players.join(', ') : '', t('console.prize.entryNo', { n: w.entry.number }),
              a.group ? t('console.prize.rankGroup', { n: w.rank, g: a.group }) : t('console.prize.rank', { n: w.rank })].filter(Boolean).join(' · ') }));
        }));
      const short = a.winners.length < a.places
        ? el('p', { class: 'muted', text: a.winners.length ? t('console.prize.fewer', { k: a.winners.length, n: a.places }) : t('console.prize.nobody') })
        : null;
      return el('div', { class: 'award stack', 'data-award': i },
        el('h4', { id: `award-${i}-h`, text: title }), a.winners.length ? list : null, short);
    }));
}

// --- the players' categories ---

let catsVersion = 0; // moves when a tag is saved: the awards are read again
let reading = null;

// players are the entered players (withdrawn entries left out), each
// once, in the entries' order, with the entry's number.
function players() {
  const seen = new Set();
  const out = [];
  for (const x of ctx.state.entries) {
    if (x.withdrawn) continue;
    for (const p of x.players || []) {
      if (seen.has(p.id)) continue;
      seen.add(p.id);
      out.push({ id: p.id, name: p.name, entry: x.number });
    }
  }
  return out;
}

// readCategories reads the tags of the players not read yet, six at a
// time, then draws the grid.
async function readCategories() {
  if (reading) return reading;
  reading = (async () => {
    const todo = players().filter((p) => !cats.has(p.id));
    $('cat-status').textContent = todo.length ? t('console.cat.reading') : '';
    for (let i = 0; i < todo.length; i += 6) {
      await Promise.all(todo.slice(i, i + 6).map(async (p) => {
        try {
          cats.set(p.id, { tags: (await get(`/players/${p.id}`)).data.categories || [] });
        } catch (err) {
          cats.set(p.id, { tags: [], error: ctx.problemText(err) });
        }
      }));
    }
    $('cat-status').textContent = '';
    drawGrid(true);
  })().finally(() => {
    reading = null;
  });
  return reading;
}

// columns are the grid's categories: those of the prize list, those the
// director added, and those any player has, in that order.
function columns() {
  const out = [];
  const add = (c) => c && !out.includes(c) && out.push(c);
  for (const p of ctx.state.tour.prizes || []) add(p.category);
  for (const c of extraColumns) add(c);
  for (const v of cats.values()) for (const c of v.tags) add(c);
  return out;
}

// drawGrid draws a row per player and a column per category; unless
// forced, only when the players or the columns changed.
function drawGrid(force) {
  const { el } = ctx;
  const ps = players();
  if (ps.some((p) => !cats.has(p.id))) {
    readCategories();
    return;
  }
  const cols = columns();
  const key = lang() + '|' + ps.map((p) => `${p.id}:${p.entry}`).join(',') + '|' + cols.join(',');
  const table = $('cat-table');
  if (!force && table.dataset.key === key) return;
  table.dataset.key = key;
  $('cat-count').textContent = `(${ps.length})`;
  table.querySelector('thead').replaceChildren(el('tr', {},
    el('th', { scope: 'col', text: t('console.cat.player') }),
    ...cols.map((c) => el('th', { scope: 'col', class: 'cat-col', text: catName(c) }))));
  table.querySelector('tbody').replaceChildren(...ps.map((p) => {
    const v = cats.get(p.id);
    return el('tr', { 'data-player': p.id },
      el('th', { scope: 'row' }, `${p.entry}. ${p.name}`, v.error ? el('span', { class: 'error', text: ' ' + v.error }) : null),
      ...cols.map((c) => el('td', { class: 'cat-cell' }, el('input', {
        type: 'checkbox', class: 'cat', 'data-cat': c, checked: v.tags.includes(c), disabled: !!v.error,
        'aria-label': t('console.cat.tick', { name: p.name, cat: catName(c) }),
        onchange: (e) => setCategory(p, c, e.target),
      }))));
  }));
  if (!ps.length) {
    table.querySelector('tbody').append(el('tr', {}, el('td', { colspan: cols.length + 1, class: 'muted', text: t('console.noEntries') })));
  }
}

// setCategory gives or takes a player's tag at once; the box is held
// until the server answers, and put back if it refuses.
async function setCategory(p, c, box) {
  const v = cats.get(p.id);
  const tags = box.checked ? [...new Set([...v.tags, c])].sort() : v.tags.filter((x) => x !== c);
  box.disabled = true;
  $('cat-error').textContent = '';
  ctx.said('');
  try {
    const res = await send('PATCH', `/players/${p.id}`, { categories: tags });
    cats.set(p.id, { tags: res.data.categories || [] });
    catsVersion++;
    ctx.said(t('console.cat.saved', { name: p.name }));
    renderAwards();
  } catch (err) {
    box.checked = !box.checked;
    $('cat-error').textContent = `${p.name}: ${ctx.problemText(err)}`;
  } finally {
    box.disabled = false;
  }
}
