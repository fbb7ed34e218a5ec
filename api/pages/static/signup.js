// Sign up: POST /auth/register, then log in (POST /auth/login) and go on
// to where the person came from (?next=, e.g. a club's invitation) or to
// their page. The rules are the API's; its refusals are shown by field.
import './join-messages.js';
import { start, safeNext } from './layout.js';
import { request, signIn } from './api.js';
import { t } from './i18n.js';

start();
const form = document.getElementById('signup');
const error = document.getElementById('signup-error');
const submit = document.getElementById('signup-submit');
const next = new URLSearchParams(location.search).get('next');
const goTo = next ? safeNext(next) : '/app/me';
if (next) document.getElementById('to-signin').href = '/app/signin?next=' + encodeURIComponent(goTo);

// fieldMessage is the sentence for one of the API's field errors.
function fieldMessage(field, code) {
  const key = {
    'name:required': 'signup.nameRequired',
    'name:too_long': 'signup.nameTooLong',
    'name:invalid': 'signup.nameRequired',
    'email:required': 'signup.emailInvalid',
    'email:invalid': 'signup.emailInvalid',
    'email:too_long': 'signup.emailInvalid',
    'password:required': 'signup.passwordShort',
    'password:too_short': 'signup.passwordShort',
    'password:too_long': 'signup.passwordLong',
  }[field + ':' + code];
  return key ? t(key) : t('error.invalid_input');
}

function clear() {
  error.textContent = '';
  for (const f of ['name', 'email', 'password']) {
    document.getElementById(f + '-error').textContent = '';
    form[f].removeAttribute('aria-invalid');
  }
}

function show(field, text) {
  document.getElementById(field + '-error').textContent = text;
  form[field].setAttribute('aria-invalid', 'true');
}

// precheck says at once what the server would refuse for sure.
function precheck() {
  const bad = [];
  if (!form.name.value.trim()) bad.push(['name', 'signup.nameRequired']);
  if (!/^[^\s@]+@[^\s@]+$/.test(form.email.value.trim())) bad.push(['email', 'signup.emailInvalid']);
  if ([...form.password.value].length < 10) bad.push(['password', 'signup.passwordShort']);
  for (const [field, key] of bad) show(field, t(key));
  return bad.length === 0;
}

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  clear();
  if (!precheck()) return;
  submit.disabled = true;
  submit.textContent = t('signup.busy');
  const email = form.email.value.trim();
  try {
    await request('POST', '/auth/register', {
      body: { name: form.name.value.trim(), email, password: form.password.value },
      auth: false,
    });
    await signIn(email, form.password.value, form.remember.checked);
    location.href = goTo;
  } catch (err) {
    if (err.code === 'conflict') show('email', t('signup.emailTaken'));
    else if (err.code === 'invalid_input' && err.problem.errors) {
      for (const fe of err.problem.errors) if (form[fe.field]) show(fe.field, fieldMessage(fe.field, fe.code));
    } else error.textContent = err.message;
    submit.disabled = false;
    submit.textContent = t('signup.submit');
  }
});
