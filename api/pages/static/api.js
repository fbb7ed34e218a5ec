// api: the pages' only way to the server, the public HTTP API under
// /api/v1, as a third-party frontend would use it.
//
// - The bearer token lives in sessionStorage, or in localStorage when the
//   person asked to be remembered.
// - A 401 refreshes the session once (POST /auth/refresh) and repeats the
//   request; refresh tokens rotate and a replayed one ends the session, so
//   one refresh at a time, and a token another tab refreshed is used as is.
//   When the session is gone, a sign-in dialog opens over the page and the
//   request goes on after it: what the person typed stays where it was.
// - A problem+json answer becomes an ApiError whose message is a sentence
//   chosen by its stable code (i18n), not the server's English detail.
// - send() retries network failures and 429/502/503/504 with the same
//   Idempotency-Key, so a submission is entered once however often it is
//   sent.
// - poll() follows a resource with ETag / If-None-Match.
import { t, has } from './i18n.js';

export const BASE = '/api/v1';
const STORE_KEY = 'burraco.session';

export class ApiError extends Error {
  constructor(status, problem) {
    super(messageFor(status, problem));
    this.status = status;
    this.problem = problem || {};
    this.code = this.problem.code || (status === 0 ? 'network' : 'http_' + status);
  }
}

// messageFor turns a problem into a sentence for a person, by its code.
export function messageFor(status, problem) {
  const code = problem && problem.code;
  if (code && has('error.' + code)) return t('error.' + code);
  if (status === 0) return t('error.network');
  if (status >= 500) return t('error.server');
  return (problem && (problem.detail || problem.title)) || t('error.server');
}

// --- the session ---

export function session() {
  const raw = sessionStorage.getItem(STORE_KEY) || localStorage.getItem(STORE_KEY);
  if (!raw) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

function storeSession(tokens, remember) {
  const s = {
    access: tokens.access_token,
    refresh: tokens.refresh_token,
    user: tokens.user,
    remember: !!remember,
  };
  clearSession();
  (remember ? localStorage : sessionStorage).setItem(STORE_KEY, JSON.stringify(s));
  return s;
}

export function clearSession() {
  sessionStorage.removeItem(STORE_KEY);
  localStorage.removeItem(STORE_KEY);
}

export async function signIn(email, password, remember) {
  const res = await raw('POST', '/auth/login', { body: { email, password }, auth: false });
  return storeSession(res.data, remember);
}

export async function signOut() {
  const s = session();
  clearSession();
  if (s && s.refresh) {
    try {
      await raw('POST', '/auth/logout', { body: { refresh_token: s.refresh }, auth: false });
    } catch {
      /* the session is gone here either way */
    }
  }
}

let refreshing = null;
// Who was signed in when the session ended: the sign-in dialog asks them again.
let lastEmail = '';
let lastRemember = false;

// refresh exchanges the refresh token for a new pair, once at a time.
// usedAccess is the token the failed request carried: if the stored one
// differs, someone (another request, another tab) has refreshed already.
function refresh(usedAccess) {
  const s = session();
  if (s && s.access !== usedAccess) return Promise.resolve(true);
  if (!s || !s.refresh) return Promise.resolve(false);
  if (!refreshing) {
    refreshing = raw('POST', '/auth/refresh', { body: { refresh_token: s.refresh }, auth: false })
      .then((res) => {
        storeSession(res.data, s.remember);
        return true;
      })
      .catch((err) => {
        if (err.status === 401) {
          lastEmail = (s.user && s.user.email) || '';
          lastRemember = !!s.remember;
          clearSession();
        }
        return false;
      })
      .finally(() => {
        refreshing = null;
      });
  }
  return refreshing;
}

// signInNeeded is called when a request needs a session and there is none;
// it resolves once the person has signed in (the default opens a dialog).
let signInNeeded = defaultSignInDialog;
export function onSignInNeeded(fn) {
  signInNeeded = fn;
}

// --- requests ---

// raw sends one request and returns {status, data, etag, headers}; a
// non-2xx (but 304) answer throws ApiError, a network failure ApiError
// with status 0.
async function raw(method, path, { body, headers = {}, auth = true, signal } = {}) {
  const h = { Accept: 'application/json, application/problem+json', ...headers };
  let token = null;
  if (auth) {
    const s = session();
    if (s) {
      token = s.access;
      h.Authorization = 'Bearer ' + token;
    }
  }
  if (body !== undefined) h['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(BASE + path, {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      cache: 'no-store',
    });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(0, null);
  }
  const ct = res.headers.get('Content-Type') || '';
  let data = null;
  if (res.status !== 204 && res.status !== 304 && ct.includes('json')) {
    try {
      data = await res.json();
    } catch {
      throw new ApiError(0, null); // cut off mid-answer: as a network failure
    }
  }
  if (!res.ok && res.status !== 304) {
    const err = new ApiError(res.status, data);
    err.token = token;
    err.retryAfter = Number(res.headers.get('Retry-After')) || 0;
    throw err;
  }
  return { status: res.status, data, etag: res.headers.get('ETag'), headers: res.headers };
}

// request is raw with the session kept alive: a 401 refreshes and repeats,
// and with no session left asks the person to sign in, then repeats.
export async function request(method, path, opts = {}) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await raw(method, path, opts);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 401 || opts.auth === false || attempt >= 2) throw err;
      if (!(await refresh(err.token))) {
        if (opts.interactive === false) throw err;
        await signInNeeded();
      }
    }
  }
}

export const get = (path, opts) => request('GET', path, opts);

const RETRYABLE = new Set([0, 429, 502, 503, 504]);

// newKey makes an Idempotency-Key for one submission.
export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

// send submits a change: POST/PUT/PATCH/DELETE with an Idempotency-Key
// (opts.key, else a new one) kept for every retry of this submission.
// Network failures and overloads are retried up to opts.retries times
// (default 4) with a growing pause; opts.onRetry(attempt, err) is told.
export async function send(method, path, body, opts = {}) {
  const key = opts.key || newKey();
  const headers = { 'Idempotency-Key': key, ...(opts.headers || {}) };
  const retries = opts.retries ?? 4;
  for (let attempt = 0; ; attempt++) {
    try {
      return await request(method, path, { ...opts, body, headers });
    } catch (err) {
      if (!(err instanceof ApiError) || !RETRYABLE.has(err.status) || attempt >= retries) throw err;
      if (opts.onRetry) opts.onRetry(attempt + 1, err);
      const pause = err.retryAfter ? err.retryAfter * 1000 : Math.min(4000, 300 * 2 ** attempt);
      await new Promise((r) => setTimeout(r, pause));
    }
  }
}

// poll follows path: onChange(data) at once and whenever its ETag changes;
// a 304 costs nothing. Errors go to onError (it keeps polling). Returns a
// function that stops it.
export function poll(path, onChange, { interval = 1000, onError, auth = true } = {}) {
  let etag = null;
  let stopped = false;
  let timer = null;
  let ctrl = null;
  const tick = async () => {
    ctrl = new AbortController();
    try {
      const headers = etag ? { 'If-None-Match': etag } : {};
      const res = await request('GET', path, { headers, signal: ctrl.signal, auth, interactive: auth });
      if (res.status !== 304) {
        etag = res.etag;
        onChange(res.data);
      }
    } catch (err) {
      if (err.name !== 'AbortError' && onError) onError(err);
    }
    if (!stopped) timer = setTimeout(tick, interval);
  };
  tick();
  return () => {
    stopped = true;
    clearTimeout(timer);
    if (ctrl) ctrl.abort();
  };
}

// --- the sign-in dialog of a page whose session ended ---

let dialogOpen = null;

function defaultSignInDialog() {
  if (dialogOpen) return dialogOpen;
  dialogOpen = new Promise((resolve) => {
    const d = document.createElement('dialog');
    d.className = 'signin-dialog';
    d.setAttribute('aria-labelledby', 'signin-dialog-title');
    d.innerHTML = `
      <form method="dialog" class="stack">
        <h2 id="signin-dialog-title"></h2>
        <p class="muted" data-role="why"></p>
        <label><span data-role="l-email"></span><input name="email" type="email" autocomplete="username" required></label>
        <label><span data-role="l-password"></span><input name="password" type="password" autocomplete="current-password" required></label>
        <p class="error" role="alert" data-role="error"></p>
        <button class="primary" type="submit" data-role="submit"></button>
      </form>`;
    d.querySelector('h2').textContent = t('signin.title');
    d.querySelector('[data-role=why]').textContent = t('signin.expired');
    d.querySelector('[data-role=l-email]').textContent = t('signin.email');
    d.querySelector('[data-role=l-password]').textContent = t('signin.password');
    d.querySelector('[data-role=submit]').textContent = t('signin.submit');
    const s = session();
    d.querySelector('input[name=email]').value = (s && s.user && s.user.email) || lastEmail;
    d.addEventListener('cancel', (e) => e.preventDefault()); // no way around it but signing in
    d.querySelector('form').addEventListener('submit', async (e) => {
      e.preventDefault();
      const f = e.target;
      try {
        await signIn(f.email.value, f.password.value, s ? s.remember : lastRemember);
        d.close();
        d.remove();
        dialogOpen = null;
        resolve();
      } catch (err) {
        d.querySelector('[data-role=error]').textContent = err.message;
      }
    });
    document.body.append(d);
    d.showModal();
    // The email is usually known: the cursor goes where typing starts.
    const email = d.querySelector('input[name=email]');
    (email.value ? d.querySelector('input[name=password]') : email).focus();
  });
  return dialogOpen;
}
