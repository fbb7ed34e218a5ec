import './join-messages.js';
import { start, safeNext } from './layout.js';
import { signIn } from './api.js';
import { t } from './i18n.js';

start();
// Sign up instead, coming back to the same page after.
const next = new URLSearchParams(location.search).get('next');
if (next) document.getElementById('to-signup').href = '/app/signup?next=' + encodeURIComponent(safeNext(next));
const form = document.getElementById('signin');
const error = document.getElementById('signin-error');
const submit = document.getElementById('signin-submit');
form.addEventListener('submit', async (e) => {
  e.preventDefault();
  error.textContent = '';
  if (!form.email.value || !form.password.value) {
    error.textContent = t('error.invalid_input');
    return;
  }
  submit.disabled = true;
  submit.textContent = t('signin.busy');
  try {
    await signIn(form.email.value.trim(), form.password.value, form.remember.checked);
    location.href = safeNext(new URLSearchParams(location.search).get('next'));
  } catch (err) {
    error.textContent = err.message;
    submit.disabled = false;
    submit.textContent = t('signin.submit');
  }
});
