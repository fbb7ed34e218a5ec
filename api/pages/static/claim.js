// claim: the form where a signed-in person enters the code of the player
// profile a director made for them (POST /players/claim), on the pad, the
// join page and their own page. Sent once, not retried: a wrong code
// counts against the person, and 429 says to wait.
import { request } from './api.js';
import { t } from './i18n.js';
import './join-messages.js';

// mountClaim fills el with the form; onDone(player) follows a claim.
export function mountClaim(el, onDone) {
  el.classList.add('card', 'stack');
  el.innerHTML = `
    <h2 id="claim-h" data-role="h"></h2>
    <p class="muted" data-role="intro"></p>
    <form class="row" novalidate>
      <label><span data-role="l"></span>
        <input name="code" class="claim-code" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="12" required></label>
      <button class="primary" type="submit" data-role="submit"></button>
    </form>
    <p class="error" role="alert" data-role="error"></p>
    <p class="ok" role="status" data-role="ok"></p>`;
  const q = (r) => el.querySelector(`[data-role=${r}]`);
  const label = () => {
    q('h').textContent = t('claim.title');
    q('intro').textContent = t('claim.intro');
    q('l').textContent = t('claim.code');
    q('submit').textContent = t('claim.submit');
  };
  label();
  document.addEventListener('langchange', label);
  const form = el.querySelector('form');
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    q('error').textContent = '';
    q('ok').textContent = '';
    const code = form.code.value.trim();
    if (!code) {
      q('error').textContent = t('claim.empty');
      return;
    }
    const button = q('submit');
    button.disabled = true;
    button.textContent = t('claim.busy');
    try {
      const p = (await request('POST', '/players/claim', { body: { code } })).data;
      q('ok').textContent = t('claim.done', { name: p.name });
      form.hidden = true;
      if (onDone) onDone(p);
    } catch (err) {
      q('error').textContent = err.message;
    } finally {
      button.disabled = false;
      button.textContent = t('claim.submit');
    }
  });
}
