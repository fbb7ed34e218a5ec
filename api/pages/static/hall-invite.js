// The hall display's invitation (issue 28), kept apart from hall.js like
// the season: opened as /app/hall/ID#invite=TOKEN (the console gives that
// address when a director creates an invitation), the hall shows the
// invitation's QR code between rounds, so that a newcomer in the room scans
// it and joins the club. The token travels in the fragment, which the
// browser never sends to a server, so it is in no access log. An
// invitation that is no longer valid (revoked, expired, used up) shows
// nothing.
import { get } from './api.js';

const WORDS = {
  en: { title: 'Join the club', text: 'Scan the code with your phone to become a member of {club}.' },
  it: { title: 'Diventa socio', text: 'Inquadra il codice con il telefono per diventare socio di {club}.' },
};

function word(key) {
  return (WORDS[document.documentElement.lang] || WORDS.en)[key];
}

// inviteToken is the token of #invite=TOKEN, or ''.
export function inviteToken(hash) {
  const m = /(?:^#|&)invite=([A-Za-z0-9_-]{8,200})(?:&|$)/.exec(hash || '');
  return m ? m[1] : '';
}

export async function showInvite() {
  const token = inviteToken(location.hash);
  if (!token) return;
  let preview;
  try {
    preview = (await get(`/invitations/${token}`, { auth: false, interactive: false })).data;
  } catch {
    return;
  }
  if (preview.status !== 'valid') return;
  const section = document.createElement('section');
  section.id = 'hall-invite';
  section.setAttribute('aria-labelledby', 'hall-invite-h');
  section.hidden = true;
  const h = document.createElement('h2');
  h.id = 'hall-invite-h';
  const p = document.createElement('p');
  const img = document.createElement('img');
  img.className = 'qr';
  img.src = `/api/v1/invitations/${token}/qr`;
  img.width = 256;
  img.height = 256;
  section.append(h, img, p);
  (document.querySelector('.hall-grid') || document.getElementById('main')).append(section);
  const render = () => {
    const wasHidden = section.hidden;
    section.hidden = document.body.dataset.round === 'playing';
    h.textContent = word('title');
    p.textContent = word('text').replace('{club}', preview.club_name);
    img.alt = `${word('title')}: QR`;
    if (section.hidden !== wasHidden) window.dispatchEvent(new Event('resize'));
  };
  render();
  new MutationObserver(render).observe(document.body, { attributes: true, attributeFilter: ['data-round'] });
  document.addEventListener('langchange', render);
}
