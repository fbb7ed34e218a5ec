// A club's invitation link, /app/join/{token}: it says which club invites
// (GET /invitations/{token}, public), sends a person without a session to
// sign up or sign in and back here, and makes a signed-in person a member
// at once (POST /invitations/{token}/accept); then offers the claim of the
// profile the club made for them.
import './join-messages.js';
import { start } from './layout.js';
import { get, request, session } from './api.js';
import { t } from './i18n.js';
import { mountClaim } from './claim.js';

const $ = (id) => document.getElementById(id);
const token = decodeURIComponent(location.pathname.split('/').pop());
let preview = null;
let joined = null;

start();
main();
document.addEventListener('langchange', render);

async function main() {
  try {
    preview = (await get('/invitations/' + encodeURIComponent(token), { auth: false })).data;
  } catch (err) {
    $('join-status').textContent = '';
    $('join-error').textContent = err.code === 'not_found' ? t('join.notFound') : err.message;
    return;
  }
  if (preview.status !== 'valid' && !session()) {
    render();
    $('join-error').textContent = t('error.' + preview.status);
    return;
  }
  if (!session()) {
    const back = encodeURIComponent(location.pathname);
    $('join-to-signup').href = '/app/signup?next=' + back;
    $('join-to-signin').href = '/app/signin?next=' + back;
    $('join-signup').hidden = false;
    render();
    return;
  }
  $('join-status').textContent = t('join.busy');
  try {
    joined = (await request('POST', '/invitations/' + encodeURIComponent(token) + '/accept')).data;
  } catch (err) {
    render();
    $('join-error').textContent = err.message;
    return;
  }
  render();
  mountClaim($('join-claim'));
  $('join-done').hidden = false;
}

function render() {
  if (!preview) return;
  $('join-status').textContent = t('join.invited', { club: preview.club_name });
  if (joined) {
    $('join-joined').textContent = t(joined.already_member ? 'join.already' : 'join.joined', { club: joined.club_name });
  }
}
