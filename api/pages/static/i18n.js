// i18n: Italian and English. The language is the one the person chose
// (remembered in localStorage), else the browser's, else Italian; elements
// with data-i18n="key" get their text from the catalogue, and
// data-i18n-attr="placeholder:key;aria-label:key2" their attributes.
import { messages } from './messages.js';

const KEY = 'burraco.lang';
const LANGS = ['it', 'en'];

export function lang() {
  const saved = localStorage.getItem(KEY);
  if (LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || '']) {
    const base = String(l).toLowerCase().slice(0, 2);
    if (LANGS.includes(base)) return base;
  }
  return 'it';
}

// t returns the message of key in the current language, with {name}
// placeholders filled from vars; an unknown key is shown as itself, so a
// missing translation is visible rather than blank.
export function t(key, vars = {}) {
  const l = lang();
  const text = (messages[l] && messages[l][key]) ?? messages.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

export function has(key) {
  return key in messages.en;
}

export function setLang(l) {
  if (!LANGS.includes(l)) return;
  localStorage.setItem(KEY, l);
  apply(document);
  document.dispatchEvent(new CustomEvent('langchange', { detail: l }));
}

// apply translates root's marked elements and sets the document language.
export function apply(root = document) {
  document.documentElement.lang = lang();
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of el.dataset.i18nAttr.split(';')) {
      const [attr, key] = pair.split(':');
      if (attr && key) el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

// mountSwitch fills el with a button per language; the current one is
// pressed.
export function mountSwitch(el) {
  el.replaceChildren();
  for (const l of LANGS) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'lang';
    b.textContent = l.toUpperCase();
    b.lang = l;
    // the name starts with the visible text (axe: label-content-name-mismatch)
    b.setAttribute('aria-label', l.toUpperCase() + (l === 'it' ? ' (Italiano)' : ' (English)'));
    b.setAttribute('aria-pressed', String(l === lang()));
    b.addEventListener('click', () => {
      setLang(l);
      mountSwitch(el);
    });
    el.append(b);
  }
}

// fmtNumber formats a number in the current language (1.234 / 1,234).
export function fmtNumber(n, digits = 0) {
  return Number(n).toLocaleString(lang(), { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
