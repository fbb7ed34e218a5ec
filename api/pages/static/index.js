import './join-messages.js';
import { start } from './layout.js';
import { session, request } from './api.js';
import { t } from './i18n.js';

start();
const who = () => {
  const s = session();
  document.querySelector('[data-role=who]').textContent = s && s.user ? t('index.signedAs', { name: s.user.name }) : '';
};
who();
document.addEventListener('langchange', who);

// Signed in: one's own page, and a club of one's own (POST /clubs: the
// creator owns it); signed out: sign up.
const signedIn = !!session();
document.getElementById('home-signup').hidden = signedIn;
document.getElementById('home-me').hidden = !signedIn;
document.getElementById('home-club').hidden = !signedIn;
const form = document.getElementById('home-club-form');
form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const error = document.getElementById('home-club-error');
  const ok = document.getElementById('home-club-ok');
  error.textContent = '';
  ok.textContent = '';
  const name = form.name.value.trim();
  if (!name) {
    error.textContent = t('error.invalid_input');
    return;
  }
  form.querySelector('button').disabled = true;
  try {
    const club = (await request('POST', '/clubs', { body: { name, city: form.city.value.trim() } })).data;
    ok.textContent = t('home.created', { club: club.name });
    form.reset();
  } catch (err) {
    error.textContent = err.message;
  } finally {
    form.querySelector('button').disabled = false;
  }
});
