// The hall display's season (issue 28), kept apart from hall.js: between
// rounds (no round being played: hall.js marks the latest round's status
// on <body data-round>), the top of the ranking of the current season of
// the tournament's club, beside the standings. The club's seasons are read
// once; the ranking is polled with If-None-Match every 15 seconds (a 304
// while nothing changed). A club without a current season shows nothing.
import { get, poll, session } from './api.js';
import { fmtNumber } from './i18n.js';

const TOP = 10;
// The section's few words, here rather than in the pages' catalogue so
// that the season stays one file to take out or move.
const WORDS = {
  en: { title: 'Season ranking', player: 'Player', points: 'Points', evenings: 'Evenings' },
  it: { title: 'Classifica della stagione', player: 'Giocatore', points: 'Punti', evenings: 'Serate' },
};

function word(key) {
  return (WORDS[document.documentElement.lang] || WORDS.en)[key];
}

export async function showSeason(tournamentID) {
  const opts = { auth: !!session(), interactive: false };
  let clubID, season;
  try {
    clubID = (await get(`/tournaments/${tournamentID}`, opts)).data.club_id;
    season = (await get(`/clubs/${clubID}/seasons`, opts)).data.items.find((s) => s.current);
  } catch {
    return; // the standings say what went wrong
  }
  if (!season) return;
  const section = seasonSection();
  let ranking = null;
  const render = () => renderSeason(section, season, ranking);
  poll(`/clubs/${clubID}/seasons/${season.id}/ranking`, (r) => {
    ranking = r;
    render();
  }, { interval: 15000, auth: opts.auth });
  new MutationObserver(render).observe(document.body, { attributes: true, attributeFilter: ['data-round'] });
  document.addEventListener('langchange', render);
}

function seasonSection() {
  const section = document.createElement('section');
  section.id = 'hall-season';
  section.setAttribute('aria-labelledby', 'hall-season-h');
  section.hidden = true;
  section.innerHTML = `<h2 id="hall-season-h"></h2>
    <table id="hall-season-table"><thead><tr>
      <th scope="col" class="num">#</th><th scope="col"></th><th scope="col" class="num"></th><th scope="col" class="num"></th>
    </tr></thead><tbody></tbody></table>`;
  (document.querySelector('.hall-grid') || document.getElementById('main')).append(section);
  return section;
}

function renderSeason(section, season, ranking) {
  const rows = ranking ? ranking.rows.filter((r) => r.ranked).slice(0, TOP) : [];
  const wasHidden = section.hidden;
  section.hidden = !rows.length || document.body.dataset.round === 'playing';
  // The standings are as wide as the columns leave them: hall.js measures
  // them again on a resize.
  if (section.hidden !== wasHidden) window.dispatchEvent(new Event('resize'));
  if (section.hidden) return;
  section.querySelector('h2').textContent = `${word('title')} — ${season.name}`;
  const heads = section.querySelectorAll('th');
  [heads[1].textContent, heads[2].textContent, heads[3].textContent] = [word('player'), word('points'), word('evenings')];
  section.querySelector('tbody').replaceChildren(
    ...rows.map((r) => {
      const tr = document.createElement('tr');
      const digits = Number.isInteger(r.points) ? 0 : 2;
      for (const [text, cls] of [[String(r.place), 'num'], [r.name, 'name'], [fmtNumber(r.points, digits), 'num'], [String(r.evenings), 'num']]) {
        const td = document.createElement('td');
        td.className = cls;
        td.textContent = text;
        tr.append(td);
      }
      return tr;
    }),
  );
}
