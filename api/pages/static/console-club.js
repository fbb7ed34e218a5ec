// The console's club tools (issue 28), for each club the person directs:
// invitations (POST/GET/DELETE /clubs/{id}/invitations; a new one's link,
// a button that copies it and its QR code), the player codes of the club's
// profiles without an account (GET /clubs/{id}/claim-codes; POST
// /players/{id}/unlink undoes a wrong claim), and the import of a CSV list
// of players (POST /clubs/{id}/players/import, first with dry_run=true).
// Also the codes of a tournament's entered players, under its entries.
import './join-messages.js';
import { get, request, BASE, session, ApiError } from './api.js';
import { t, lang } from './i18n.js';

function el(tag, props = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? '' : v);
  }
  e.append(...kids.filter((k) => k !== null && k !== undefined));
  return e;
}

function fmtDate(iso) {
  return new Date(iso).toLocaleString(lang(), { dateStyle: 'medium', timeStyle: 'short' });
}

// mountClubTools fills container with one card per club.
export function mountClubTools(container, clubs) {
  const draw = () => {
    container.replaceChildren(...clubs.map((c) => clubCard(c)));
  };
  draw();
  document.addEventListener('langchange', draw);
}

function clubCard(club) {
  const id = club.id;
  const card = el('section', { class: 'card stack club-tools', 'data-club': id, 'aria-labelledby': `club-${id}-h` },
    el('h2', { id: `club-${id}-h`, text: t('console.club.title', { club: club.name }) }));
  card.append(invitations(club), codes(club), importer(club));
  return card;
}

// --- invitations ---

function invitations(club) {
  const box = el('div', { class: 'stack invitations' });
  const list = el('ul', { class: 'plain stack inv-list' });
  const error = el('p', { class: 'error', role: 'alert' });
  const fresh = el('div', { class: 'notice stack inv-new', hidden: true });
  const expires = el('input', { type: 'datetime-local', name: 'expires' });
  const maxUses = el('input', { type: 'number', name: 'max_uses', min: '1', max: '10000', inputmode: 'numeric' });
  const form = el('form', { class: 'row', novalidate: true },
    el('label', {}, el('span', { text: t('console.inv.expires') }), expires),
    el('label', {}, el('span', { text: t('console.inv.maxUses') }), maxUses),
    el('button', { class: 'primary', type: 'submit', text: t('console.inv.create') }));
  const load = async () => {
    try {
      const items = (await get(`/clubs/${club.id}/invitations`)).data.items || [];
      list.replaceChildren(...(items.length ? items.map((inv) => invitationRow(club, inv, load, error)) :
        [el('li', { class: 'muted', text: t('console.inv.none') })]));
    } catch (e) {
      error.textContent = e.message;
    }
  };
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.textContent = '';
    const body = {};
    if (expires.value) body.expires_at = new Date(expires.value).toISOString();
    if (maxUses.value) body.max_uses = Number(maxUses.value);
    try {
      const inv = (await request('POST', `/clubs/${club.id}/invitations`, { body })).data;
      showFresh(fresh, inv, club);
      form.reset();
      load();
    } catch (err) {
      error.textContent = err.message;
    }
  });
  box.append(el('h3', { text: t('console.inv.title') }), el('p', { class: 'muted', text: t('console.inv.intro') }), form, error, fresh, list);
  load();
  return box;
}

// showFresh shows a new invitation's link, once, with its QR code, and
// the address of the hall display of each of the club's tournaments not
// yet finished that shows the QR code between rounds (hall-invite.js reads
// the token from the address's #invite=).
function showFresh(box, inv, club) {
  const link = location.origin + inv.link;
  const copied = el('span', { class: 'ok', role: 'status' });
  const input = el('input', { readonly: true, value: link, class: 'inv-link', 'aria-label': t('console.inv.new') });
  box.replaceChildren(
    el('p', { text: t('console.inv.new') }),
    input,
    el('div', { class: 'row' },
      el('button', { type: 'button', class: 'inv-copy', text: t('console.inv.copy'), onclick: async () => {
        try {
          await navigator.clipboard.writeText(link);
        } catch {
          input.select(); // no clipboard here (not https): selected, for a copy by hand
        }
        copied.textContent = t('console.inv.copied');
      } }), copied),
    el('img', { class: 'qr', src: inv.qr, alt: t('console.inv.qr'), width: '192', height: '192' }));
  box.hidden = false;
  const token = inv.link.split('/').pop();
  get(`/tournaments?club_id=${club.id}&limit=50`).then((res) => {
    const open = (res.data.items || []).filter((x) => ['registration_open', 'registration_closed', 'running'].includes(x.status));
    if (!open.length) return;
    box.append(el('p', { text: t('console.inv.hall') }),
      el('ul', { class: 'inv-halls' }, ...open.map((x) => el('li', {},
        el('a', { href: `/app/hall/${x.id}#invite=${token}`, target: '_blank', rel: 'noopener', text: x.name })))));
  }).catch(() => {}); // the link and the QR code above are what matters
}

function invitationRow(club, inv, reload, error) {
  const limits = [inv.expires_at ? t('console.inv.until', { date: fmtDate(inv.expires_at) }) : t('console.inv.never')];
  if (inv.max_uses) limits.push(`${inv.uses}/${inv.max_uses}`);
  else limits.push(`${t('console.inv.uses')}: ${inv.uses}`);
  const li = el('li', { class: 'row inv', 'data-invitation': inv.id },
    el('span', { text: `${t('console.inv.created')} ${fmtDate(inv.created_at)} · ${limits.join(' · ')} · ` }),
    el('strong', { text: t('console.inv.status.' + inv.status) }));
  if (inv.status === 'valid') {
    li.append(el('button', { type: 'button', class: 'inv-revoke', text: t('console.inv.revoke'), onclick: async () => {
      try {
        await request('DELETE', `/clubs/${club.id}/invitations/${inv.id}`);
        reload();
      } catch (e) {
        error.textContent = e.message;
      }
    } }));
  }
  return li;
}

// --- player codes ---

const codeCache = new Map();

// claimCodes reads a club's codes (again when fresh is set).
async function claimCodes(clubID, fresh) {
  if (fresh || !codeCache.has(clubID)) {
    codeCache.set(clubID, get(`/clubs/${clubID}/claim-codes`).then((r) => r.data.items || []));
  }
  return codeCache.get(clubID);
}

function codes(club) {
  const box = el('div', { class: 'stack codes' });
  const body = el('tbody');
  const error = el('p', { class: 'error', role: 'alert' });
  const ok = el('p', { class: 'ok', role: 'status' });
  const unlink = async (c) => {
    error.textContent = '';
    ok.textContent = '';
    try {
      const p = (await request('POST', `/players/${c.player_id}/unlink`)).data;
      ok.textContent = t('console.codes.unlinked', { name: p.name });
      load(true);
    } catch (err) {
      error.textContent = err.message;
    }
  };
  const row = (c) => el('tr', { 'data-player': c.player_id },
    el('td', { text: c.name + (c.federation_id ? ` (${c.federation_id})` : '') }),
    el('td', {}, c.claimed ? el('span', { class: 'muted', text: t('console.codes.claimed') }) : el('code', { class: 'claim', text: c.code })),
    el('td', {}, c.claimed ? el('button', { type: 'button', class: 'unlink', text: t('console.codes.unlinkButton'),
      'aria-label': t('console.codes.unlinkButton') + ' ' + c.name, onclick: () => unlink(c) }) : null));
  const load = async (fresh) => {
    try {
      const items = await claimCodes(club.id, fresh);
      body.replaceChildren(...(items.length ? items.map(row) :
        [el('tr', {}, el('td', { colspan: 3, class: 'muted', text: t('console.codes.none') }))]));
    } catch (e) {
      error.textContent = e.message;
    }
  };
  box.append(el('h3', { text: t('console.codes.title') }), el('p', { class: 'muted', text: t('console.codes.intro') }),
    el('div', { class: 'scroll-x' }, el('table', { class: 'codes-table' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: t('console.codes.player') }),
        el('th', { scope: 'col', text: t('console.codes.code') }), el('th', { scope: 'col', text: t('console.codes.undo') }))),
      body)),
    error, ok);
  load(false);
  return box;
}

// showEntryCodes lists, in el, the codes of a tournament's players who
// have no account yet, for the director to hand out.
export async function showEntryCodes(box, clubID, entries) {
  let items;
  try {
    items = await claimCodes(clubID, false);
  } catch {
    return; // a referee who does not direct the club: no codes, nothing said
  }
  const ids = new Set(entries.flatMap((x) => (x.players || []).map((p) => p.id)));
  const mine = items.filter((c) => c.code && ids.has(c.player_id));
  box.replaceChildren();
  if (!mine.length) return;
  box.append(t('console.codes.title') + ': ');
  mine.forEach((c, i) => box.append(i ? ', ' : '', c.name + ' ', el('code', { class: 'claim', text: c.code })));
}

// --- import ---

function importer(club) {
  const box = el('div', { class: 'stack import' });
  const file = el('input', { type: 'file', accept: '.csv,text/csv,text/plain', name: 'file' });
  const error = el('p', { class: 'error', role: 'alert' });
  const summary = el('p', { role: 'status' });
  const body = el('tbody');
  const table = el('div', { class: 'scroll-x', hidden: true }, el('table', { class: 'import-table' },
    el('thead', {}, el('tr', {}, el('th', { scope: 'col', class: 'num', text: t('console.imp.line') }),
      el('th', { scope: 'col', text: t('console.imp.name') }), el('th', { scope: 'col', text: t('console.imp.outcome') }),
      el('th', { scope: 'col', text: t('console.imp.why') }))), body));
  const run = el('button', { type: 'button', class: 'primary imp-run', text: t('console.imp.run'), hidden: true });
  const check = el('button', { type: 'button', class: 'imp-check', text: t('console.imp.check') });
  const send = async (dry) => {
    error.textContent = '';
    const f = file.files && file.files[0];
    if (!f) {
      error.textContent = t('console.imp.file');
      return;
    }
    try {
      const rep = await postCSV(`/clubs/${club.id}/players/import${dry ? '?dry_run=true' : ''}`, await f.text());
      summary.textContent = dry ? t('console.imp.summary', rep) : t('console.imp.done', rep);
      body.replaceChildren(...rep.lines.map((l) => el('tr', { class: 'imp-' + l.outcome },
        el('td', { class: 'num', text: String(l.line) }), el('td', { text: l.name }),
        el('td', { text: t('console.imp.o.' + l.outcome) }), el('td', { text: t('console.imp.r.' + l.reason) }))));
      table.hidden = false;
      run.hidden = !dry || rep.created + rep.updated === 0;
      if (!dry) codeCache.delete(club.id);
    } catch (err) {
      error.textContent = err.message;
    }
  };
  check.addEventListener('click', () => send(true));
  run.addEventListener('click', () => send(false));
  file.addEventListener('change', () => {
    run.hidden = true;
    table.hidden = true;
    summary.textContent = '';
  });
  box.append(el('h3', { text: t('console.imp.title') }), el('p', { class: 'muted', text: t('console.imp.intro') }),
    el('div', { class: 'row' }, el('label', {}, el('span', { text: t('console.imp.file') }), file), check, run),
    error, summary, table);
  return box;
}

// postCSV sends a CSV body (api.js sends JSON only), with the session's
// token, and returns the answer's JSON; a problem becomes an Error with
// the problem's sentence.
async function postCSV(path, text) {
  const s = session();
  const res = await fetch(BASE + path, {
    method: 'POST',
    headers: { 'Content-Type': 'text/csv; charset=utf-8', Accept: 'application/json, application/problem+json',
      Authorization: s ? 'Bearer ' + s.access : '' },
    body: text,
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}
