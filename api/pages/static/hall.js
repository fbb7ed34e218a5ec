// The hall display: a tournament's standings and its latest round's
// seating in large type, for a screen in the club room. No sign-in for a
// public tournament. It follows the tournament by polling the standings
// with If-None-Match each second (a 304 costs a few bytes); when they
// change (any command moves the tournament's version), it reads the
// rounds again. Long standings page themselves. With ?group=A (or
// #group=A) it shows one group of the current phase (issue 32): that
// group's standings (GET …/phases/{n}/standings?group=A, read when the
// tournament's standings' ETag says something changed: that route has
// none of its own) and its tables.
import { start } from './layout.js';
import { get, poll, session } from './api.js';
import { t, fmtNumber } from './i18n.js';
import { showSeason } from './hall-season.js';
import { showInvite } from './hall-invite.js';

const $ = (id) => document.getElementById(id);
// Seconds a page of the standings stays up (?seconds=, 3 to 60).
const PAGE_SECONDS = Math.min(60, Math.max(3, Number(new URLSearchParams(location.search).get('seconds')) || 10));
const state = { id: 0, standings: null, rounds: null, page: 0, pages: 1, seatPage: 0, seatPages: 1, version: -1, group: groupParam() };

start();
main();

function tournamentID() {
  const m = location.pathname.match(/^\/app\/hall\/(\d+)$/);
  const id = Number(m ? m[1] : new URLSearchParams(location.search).get('tournament'));
  return Number.isInteger(id) && id > 0 ? id : 0;
}

// groupParam is the group asked for by ?group= or #group= (a letter), or ''.
function groupParam() {
  const g = (new URLSearchParams(location.search).get('group') || new URLSearchParams(location.hash.slice(1)).get('group') || '').toUpperCase();
  return /^[A-Z]$/.test(g) ? g : '';
}

function status(text) {
  $('hall-status').textContent = text;
  $('hall-status').hidden = !text;
}

async function main() {
  state.id = tournamentID();
  if (!state.id) {
    status(t('hall.noID'));
    return;
  }
  const opts = { auth: !!session(), interactive: false };
  get(`/tournaments/${state.id}`, opts).then(
    (res) => {
      const name = res.data.name + (state.group ? ' · ' + t('hall.group', { g: state.group }) : '');
      $('hall-title').textContent = name;
      document.title = name;
    },
    (err) => status(err.message),
  );
  const stop = poll(`/tournaments/${state.id}/standings`, state.group ? (s) => onGroupChange(s, opts) : onStandings, {
    interval: 1000,
    auth: opts.auth,
    onError: (err) => {
      status(err.message);
      if (err.status === 404) stop(); // no such tournament (or not public): nothing to follow
    },
  });
  setInterval(nextPage, PAGE_SECONDS * 1000);
  showSeason(state.id); // the club's season between rounds (hall-season.js)
  showInvite(); // an invitation's QR code between rounds, from #invite= (hall-invite.js)
  setInterval(clock, 1000);
  clock();
  window.addEventListener('resize', () => {
    renderStandings();
    renderRound();
  });
  document.addEventListener('langchange', () => {
    renderStandings();
    renderRound();
  });
}

let groupReading = Promise.resolve();

// onGroupChange reads the group's standings in the current phase (the
// phase of the latest round drawn, so a new phase's group of the same
// letter once it is drawn) whenever the tournament's standings change,
// one read at a time. Until the phase's groups are drawn the group is not
// found: that is said, and the hall waits for the next change.
function onGroupChange(s, opts) {
  groupReading = groupReading.then(async () => {
    try {
      const current = (await get(`/tournaments/${state.id}/phases`, opts)).data.current;
      const g = (await get(`/tournaments/${state.id}/phases/${current}/standings?group=${state.group}`, opts)).data;
      await onStandings({ ...g, version: s.version });
    } catch (err) {
      status(err.message);
    }
  });
}

function clock() {
  $('hall-clock').textContent = new Date().toLocaleTimeString(document.documentElement.lang, { hour: '2-digit', minute: '2-digit' });
}

async function onStandings(s) {
  status('');
  state.standings = s;
  // Marks for the browser test's budget: the first standings shown
  // (from the navigation's start) and how long each rendering takes.
  performance.mark('hall-standings-start');
  renderStandings();
  performance.measure('hall-standings-render', 'hall-standings-start');
  if (!performance.getEntriesByName('hall-standings-shown').length) performance.mark('hall-standings-shown');
  document.body.dataset.version = String(s.version);
  if (s.version !== state.version) {
    state.version = s.version;
    try {
      // Only the latest round: the hall shows nothing of the others.
      state.rounds = (await get(`/tournaments/${state.id}/rounds?latest=true`, { auth: !!session(), interactive: false })).data;
      renderRound();
    } catch (err) {
      status(err.message);
    }
  }
}

// minRows is the fewest rows a page shows, however little room there is:
// a phone scrolls instead; a screen in the hall shows only what fits.
const minRows = () => (window.innerWidth < 700 ? 5 : 1);

// beforeFirstRound: no round has a result yet, so the standings rank
// nothing; the entries are listed by name, for a player to find her own.
function beforeFirstRound(s) {
  return !s.after_round;
}

// ordered is the rows as shown: the standings' order, or before the first
// round by the entry's name (then number), in the page's language.
function ordered(s) {
  if (!beforeFirstRound(s)) return s.rows;
  const coll = new Intl.Collator(document.documentElement.lang, { sensitivity: 'base', numeric: true });
  return [...s.rows].sort((a, b) => coll.compare(a.entry.name, b.entry.name) || a.entry.number - b.entry.number);
}

// paginate splits rows (the built <tr>s of table) into pages that fit
// the screen under the table's heading, leaving a line for pageLine below
// it: rows wrap (full names, the players under the entry), so each is
// measured, laid out in the table as it will be shown. It returns the
// index of each page's first row.
function paginate(table, rows, pageLine) {
  const tbody = table.tBodies[0];
  pageLine.textContent = ' ';
  tbody.replaceChildren(...rows);
  const top = tbody.getBoundingClientRect().top + window.scrollY;
  const line = parseFloat(getComputedStyle(pageLine).fontSize) || 24;
  // A table that starts low on the screen (the seating under the
  // standings, on a narrow screen) is scrolled to: half a screen a page.
  const room = Math.max(window.innerHeight / 2, window.innerHeight - top - 2.5 * line);
  const starts = [0];
  let used = 0;
  rows.forEach((tr, i) => {
    const h = tr.getBoundingClientRect().height;
    if (used + h > room && i - starts[starts.length - 1] >= minRows()) {
      starts.push(i);
      used = 0;
    }
    used += h;
  });
  return starts;
}

// showPage shows page p of rows in table (starts as paginate gives them),
// says which on pageLine, and returns its first row's index.
function showPage(table, rows, starts, p, pageLine) {
  const end = p + 1 < starts.length ? starts[p + 1] : rows.length;
  table.tBodies[0].replaceChildren(...rows.slice(starts[p], end));
  pageLine.textContent = starts.length > 1 ? t('hall.page', { page: p + 1, pages: starts.length }) : '';
  return starts[p];
}

function renderStandings() {
  const s = state.standings;
  if (!s) return;
  const before = beforeFirstRound(s);
  const h = $('hall-standings-h');
  h.dataset.i18n = before ? 'hall.entries' : 'hall.standings';
  h.textContent = t(h.dataset.i18n) + (state.group ? ' · ' + t('hall.group', { g: state.group }) : '');
  // The texts above the table first: the rows are measured below them.
  $('hall-standings-note').textContent = before
    ? [t('hall.beforeFirst'), t('hall.alphabetical')].join(' · ')
    : [t('hall.afterRound', { n: s.after_round }), s.provisional ? t('hall.provisional') : t('hall.final')].join(' · ');
  const rows = ordered(s).map((r) => standingRow(r, before));
  const starts = paginate($('hall-table'), rows, $('hall-page'));
  state.pages = starts.length;
  state.page = Math.min(state.page, state.pages - 1);
  document.body.dataset.first = String(showPage($('hall-table'), rows, starts, state.page, $('hall-page')));
}

// playersLine is the players' names of an entry, when its name is not
// already them (an entry without a name of its own is named by its
// players); '' otherwise.
function playersLine(entry, players) {
  const names = (players || []).map((p) => p.name);
  const line = names.join(' – ');
  return names.length < 2 || line === entry.name ? '' : line;
}

// entryCell fills td with an entry ("3. Name") and, under it, its players.
function entryCell(td, entry, players) {
  const name = document.createElement('span');
  name.className = 'entry-name';
  name.textContent = `${entry.number}. ${entry.name}`;
  td.append(name);
  const line = playersLine(entry, players);
  if (line) {
    const p = document.createElement('span');
    p.className = 'players';
    p.textContent = line;
    td.append(p);
  }
}

function standingRow(r, before) {
  const tr = document.createElement('tr');
  if (r.provisional) tr.className = 'provisional';
  const cells = [
    [before ? '' : String(r.rank), 'num'],
    [null, 'name'],
    [fmtNumber(r.vp), 'num'],
    [(r.mp_difference > 0 ? '+' : '') + fmtNumber(r.mp_difference), 'num'],
  ];
  for (const [text, cls] of cells) {
    const td = document.createElement('td');
    td.className = cls;
    if (text === null) entryCell(td, r.entry, r.players);
    else td.textContent = text;
    tr.append(td);
  }
  return tr;
}

function nextPage() {
  if (state.pages > 1) {
    state.page = (state.page + 1) % state.pages;
    renderStandings();
  }
  if (state.seatPages > 1) {
    state.seatPage = (state.seatPage + 1) % state.seatPages;
    renderRound();
  }
}

// renderRound shows the latest round: its seating (for the players to find
// their tables) and, while it is played, the tables still playing.
function renderRound() {
  const list = state.rounds;
  const section = $('hall-round');
  const wasHidden = section.hidden;
  section.hidden = !list || !list.items.length;
  // The standings are as wide as the seating leaves them: measured again.
  if (section.hidden !== wasHidden) renderStandings();
  if (section.hidden) return;
  const last = list.items[list.items.length - 1];
  // One group's hall shows its own tables (table numbers run on across groups).
  const r = state.group ? { ...last, tables: last.tables.filter((tb) => tb.group === state.group) } : last;
  document.body.dataset.round = r.status; // hall-season.js shows the season when no round is playing
  $('hall-round-h').textContent = t('hall.round.' + r.status, { n: r.number });
  const open = r.tables.filter((tb) => !(tb.result && tb.result.final)).map((tb) => tb.number);
  $('hall-playing').textContent =
    r.status === 'playing' ? (open.length ? t('hall.stillPlaying', { tables: open.join(', ') }) : t('hall.allDone')) : '';
  // A side: each entry (a pair or team; an individual event's two
  // players) with the players who sit there under it.
  const side = (td, sd) => {
    if (!sd || !sd.entries.length) {
      td.textContent = '–';
      return;
    }
    for (const e of sd.entries) {
      const block = document.createElement('span');
      block.className = 'side-entry';
      entryCell(block, e, sd.entries.length === 1 ? sd.players : []);
      td.append(block);
    }
  };
  const rows = r.tables.map((tb) => {
    const tr = document.createElement('tr');
    const num = document.createElement('td');
    num.className = 'num';
    num.textContent = String(tb.number);
    tr.append(num);
    for (const sd of [tb.ns, tb.ew]) {
      const td = document.createElement('td');
      td.className = 'name';
      side(td, sd);
      tr.append(td);
    }
    if (r.status === 'playing' && open.includes(tb.number)) tr.className = 'provisional';
    return tr;
  });
  // Long seating pages itself too, with the standings.
  const starts = paginate($('hall-seating'), rows, $('hall-seating-page'));
  state.seatPages = starts.length;
  state.seatPage = Math.min(state.seatPage, state.seatPages - 1);
  showPage($('hall-seating'), rows, starts, state.seatPage, $('hall-seating-page'));
}
