// A player's own page, /app/me: the tournaments they are entered in
// (GET /me/results: coming up, and past ones with place, VP and partners),
// their season rankings (GET /me/rankings; a server without it answers
// 404, which is no ranking), and the claim of a profile made for them.
import './join-messages.js';
import { start } from './layout.js';
import { get, session } from './api.js';
import { t, lang, fmtNumber } from './i18n.js';
import { mountClaim } from './claim.js';

const $ = (id) => document.getElementById(id);
let results = null;
let rankings = [];

start();
main();
document.addEventListener('langchange', render);

async function main() {
  if (!session()) {
    const p = $('me-status');
    const a = document.createElement('a');
    a.href = '/app/signin?next=' + encodeURIComponent('/app/me');
    a.textContent = t('me.signinFirst');
    p.replaceChildren(a);
    p.hidden = false;
    return;
  }
  try {
    results = (await get('/me/results')).data;
  } catch (err) {
    $('me-status').textContent = err.message;
    $('me-status').hidden = false;
    return;
  }
  try {
    rankings = (await get('/me/rankings')).data || [];
  } catch (err) {
    if (err.status !== 404) {
      $('me-status').textContent = err.message;
      $('me-status').hidden = false;
    }
    rankings = [];
  }
  render();
  mountClaim($('me-claim'), () => setTimeout(() => location.reload(), 1200));
  $('me-claim').hidden = false;
}

function fmtDate(iso) {
  return new Date(iso).toLocaleDateString(lang(), { day: 'numeric', month: 'short', year: 'numeric' });
}

function cell(text, cls) {
  const td = document.createElement('td');
  td.textContent = text;
  if (cls) td.className = cls;
  return td;
}

function render() {
  const s = session();
  $('me-who').textContent = s && s.user ? t('me.hello', { name: s.user.name }) : '';
  if (!results) return;
  $('me-upcoming').replaceChildren(
    ...(results.upcoming.length
      ? results.upcoming.map((r) => {
          const li = document.createElement('li');
          li.className = 'card';
          const strong = document.createElement('strong');
          strong.textContent = r.name;
          const with_ = r.partners.length ? ' · ' + t('me.partners') + ' ' + r.partners.join(', ') : '';
          li.append(strong, document.createElement('br'),
            `${r.club_name} · ${fmtDate(r.starts_at)} · ${t('me.status.' + r.status)}${with_}`);
          return li;
        })
      : [Object.assign(document.createElement('li'), { className: 'muted', textContent: t('me.noUpcoming') })]),
  );
  $('me-upcoming-s').hidden = false;
  const past = $('me-past').tBodies[0];
  past.replaceChildren(
    ...results.past.map((r) => {
      const tr = document.createElement('tr');
      const place = r.place ? t('me.placeOf', { place: r.place, n: r.entries }) : '—';
      tr.append(cell(`${r.name} (${r.club_name}, ${fmtDate(r.starts_at)})`), cell(place, 'num'),
        cell(fmtNumber(r.vp), 'num'), cell(r.partners.join(', ') || t('me.alone')));
      return tr;
    }),
  );
  if (!results.past.length) {
    const tr = document.createElement('tr');
    const td = cell(t('me.noPast'), 'muted');
    td.colSpan = 4;
    tr.append(td);
    past.append(tr);
  }
  $('me-past-s').hidden = false;
  const rb = $('me-rankings').tBodies[0];
  rb.replaceChildren(
    ...rankings.map((r) => {
      const tr = document.createElement('tr');
      const place = r.place == null ? t('me.unranked') : t('me.placeOfRanked', { place: r.place, n: r.players_ranked });
      tr.append(cell(`${r.season_name} (${r.club_name})`), cell(place, 'num'), cell(fmtNumber(r.points), 'num'),
        cell(fmtNumber(r.evenings), 'num'));
      return tr;
    }),
  );
  if (!rankings.length) {
    const tr = document.createElement('tr');
    const td = cell(t('me.noRankings'), 'muted');
    td.colSpan = 4;
    tr.append(td);
    rb.append(tr);
  }
  $('me-rankings-s').hidden = false;
}
