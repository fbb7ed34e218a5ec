// The hall display: a tournament's standings and its latest round's
// seating in large type, for a screen in the club room. No sign-in for a
// public tournament. It follows the tournament by polling the standings
// with If-None-Match each second (a 304 costs a few bytes); when they
// change (any command moves the tournament's version), it reads the
// rounds again. Long standings page themselves.
import { start } from './layout.js';
import { get, poll, session } from './api.js';
import { t, fmtNumber } from './i18n.js';
import { showSeason } from './hall-season.js';

const $ = (id) => document.getElementById(id);
// Seconds a page of the standings stays up (?seconds=, 3 to 60).
const PAGE_SECONDS = Math.min(60, Math.max(3, Number(new URLSearchParams(location.search).get('seconds')) || 10));
const state = { id: 0, standings: null, rounds: null, page: 0, pages: 1, version: -1 };

start();
main();

function tournamentID() {
  const m = location.pathname.match(/^\/app\/hall\/(\d+)$/);
  const id = Number(m ? m[1] : new URLSearchParams(location.search).get('tournament'));
  return Number.isInteger(id) && id > 0 ? id : 0;
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
      $('hall-title').textContent = res.data.name;
      document.title = res.data.name;
    },
    (err) => status(err.message),
  );
  const stop = poll(`/tournaments/${state.id}/standings`, onStandings, {
    interval: 1000,
    auth: opts.auth,
    onError: (err) => {
      status(err.message);
      if (err.status === 404) stop(); // no such tournament (or not public): nothing to follow
    },
  });
  setInterval(nextPage, PAGE_SECONDS * 1000);
  showSeason(state.id); // the club's season between rounds (hall-season.js)
  setInterval(clock, 1000);
  clock();
  window.addEventListener('resize', () => renderStandings());
  document.addEventListener('langchange', () => {
    renderStandings();
    renderRound();
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
      state.rounds = (await get(`/tournaments/${state.id}/rounds`, { auth: !!session(), interactive: false })).data;
      renderRound();
    } catch (err) {
      status(err.message);
    }
  }
}

// pageSize is how many rows fit on the screen under the table's heading.
function pageSize() {
  const table = $('hall-table');
  const row = table.tBodies[0].rows[0];
  const rowH = row ? row.getBoundingClientRect().height : 48;
  const top = table.getBoundingClientRect().top + window.scrollY + table.tHead.getBoundingClientRect().height;
  const room = window.innerHeight - top - 2 * rowH;
  return Math.max(5, Math.floor(room / Math.max(rowH, 1)));
}

function renderStandings() {
  const s = state.standings;
  if (!s) return;
  const rows = s.rows;
  const size = pageSize();
  state.pages = Math.max(1, Math.ceil(rows.length / size));
  state.page = Math.min(state.page, state.pages - 1);
  const shown = rows.slice(state.page * size, (state.page + 1) * size);
  document.body.dataset.first = String(state.page * size);
  $('hall-table').tBodies[0].replaceChildren(...shown.map(standingRow));
  $('hall-page').textContent = state.pages > 1 ? t('hall.page', { page: state.page + 1, pages: state.pages }) : '';
  $('hall-standings-note').textContent = [
    s.after_round ? t('hall.afterRound', { n: s.after_round }) : t('hall.beforeFirst'),
    s.provisional ? t('hall.provisional') : t('hall.final'),
  ].join(' · ');
}

function standingRow(r) {
  const tr = document.createElement('tr');
  if (r.provisional) tr.className = 'provisional';
  const cells = [
    [String(r.rank), 'num'],
    [`${r.entry.number}. ${r.entry.name}`, 'name'],
    [fmtNumber(r.vp), 'num'],
    [(r.mp_difference > 0 ? '+' : '') + fmtNumber(r.mp_difference), 'num'],
  ];
  for (const [text, cls] of cells) {
    const td = document.createElement('td');
    td.className = cls;
    td.textContent = text;
    tr.append(td);
  }
  return tr;
}

function nextPage() {
  if (state.pages <= 1) return;
  state.page = (state.page + 1) % state.pages;
  renderStandings();
}

// renderRound shows the latest round: its seating (for the players to find
// their tables) and, while it is played, the tables still playing.
function renderRound() {
  const list = state.rounds;
  const section = $('hall-round');
  if (!list || !list.items.length) {
    section.hidden = true;
    return;
  }
  const r = list.items[list.items.length - 1];
  document.body.dataset.round = r.status; // hall-season.js shows the season when no round is playing
  section.hidden = false;
  $('hall-round-h').textContent = t('hall.round.' + r.status, { n: r.number });
  const open = r.tables.filter((tb) => !(tb.result && tb.result.final)).map((tb) => tb.number);
  $('hall-playing').textContent =
    r.status === 'playing' ? (open.length ? t('hall.stillPlaying', { tables: open.join(', ') }) : t('hall.allDone')) : '';
  const names = (side) => (side ? side.entries.map((e) => `${e.number}. ${e.name}`).join(' / ') : '–');
  $('hall-seating').tBodies[0].replaceChildren(
    ...r.tables.map((tb) => {
      const tr = document.createElement('tr');
      for (const [text, cls] of [[String(tb.number), 'num'], [names(tb.ns), 'name'], [names(tb.ew), 'name']]) {
        const td = document.createElement('td');
        td.className = cls;
        td.textContent = text;
        tr.append(td);
      }
      if (r.status === 'playing' && open.includes(tb.number)) tr.className = 'provisional';
      return tr;
    }),
  );
}
