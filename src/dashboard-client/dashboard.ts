import { byId, h } from './dom.js';
import { showSessionPage } from './session-page.js';
import { showSessionsPage } from './sessions-page.js';

/** The dashboard's entry module: which page the address names (docs/dashboard.md). */
function route(): void {
  const main = byId('main');
  const parts = window.location.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return showSessionsPage(main);
  if (parts[0] === 'sessions' && parts.length === 2) {
    const name = parts[1] ?? '';
    return showSessionPage(main, `standing:${name}`, name);
  }
  if (parts[0] === 'work-items' && parts.length === 4) {
    const [, owner, repo, number] = parts;
    return showSessionPage(main, `github:${owner}/${repo}#${number}`, `${owner}/${repo}#${number}`);
  }
  main.replaceChildren(h('p', {}, 'No such page. '), h('a', { href: '/' }, 'The sessions'));
}

route();
