import { start } from './layout.js';
import { session } from './api.js';
import { t } from './i18n.js';

start();
const who = () => {
  const s = session();
  document.querySelector('[data-role=who]').textContent = s && s.user ? t('index.signedAs', { name: s.user.name }) : '';
};
who();
document.addEventListener('langchange', who);
