// layout: what every page shares — the header's links, the language
// switch and the signed-in person — and the page's translation.
import { apply, mountSwitch, t } from './i18n.js';
import { session, signOut } from './api.js';

export function start() {
  apply(document);
  const langs = document.querySelector('.langs');
  if (langs) mountSwitch(langs);
  renderAccount();
  document.addEventListener('langchange', renderAccount);
}

function renderAccount() {
  const el = document.querySelector('[data-role=account]');
  if (!el) return;
  el.replaceChildren();
  const s = session();
  if (!s) {
    const a = document.createElement('a');
    a.href = '/app/signin?next=' + encodeURIComponent(location.pathname + location.search);
    a.textContent = t('nav.signin');
    el.append(a);
    return;
  }
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'lang';
  b.textContent = t('nav.signout');
  b.addEventListener('click', async () => {
    await signOut();
    location.href = '/app/signin';
  });
  el.append(b);
}

// safeNext is the page to go to after signing in: only one of ours.
export function safeNext(next) {
  return typeof next === 'string' && /^\/app\/[\w\-/?=&%.]*$/.test(next) && !next.startsWith('//') ? next : '/app/';
}
