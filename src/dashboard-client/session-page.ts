import { ApiError, call, overview, type SessionRow } from './api.js';
import { byId, clear, h } from './dom.js';
import { renderHeader } from './header.js';
import { debounce, openStream, type StreamEvent } from './stream.js';
import { renderTerminal, type Segment } from './terminal-view.js';

interface PermissionView {
  readonly id: string;
  readonly ref: string;
  readonly tool: string;
  readonly summary: string;
  readonly expiresAt: string;
  readonly canAlways: boolean;
}

const terminalEveryMs = 500;
const keptEvents = 200;
const recentEvents = 500;

/**
 * `/sessions/<name>` and `/work-items/<owner>/<repo>/<n>` (docs/design.md §19): the message box,
 * the live Terminal, the session's Events, and its open permission requests.
 */
export function showSessionPage(main: HTMLElement, ref: string, title: string): void {
  document.title = `${title} · the-loop`;
  const details = h('p', { id: 'details', class: 'muted' }, 'loading…');
  const message = h('textarea', { id: 'message', name: 'message', rows: '3' });
  const send = h('button', { type: 'submit' }, 'Send');
  const outcome = h('p', { role: 'status', id: 'send-outcome', class: 'outcome' });
  const form = h(
    'form',
    { class: 'stack', 'aria-label': 'Send a message' },
    h('label', { for: 'message' }, 'Message'),
    message,
    h('div', {}, send, h('span', { class: 'muted' }, ' Ctrl-Enter (⌘-Enter) sends')),
    outcome,
  );
  const terminal = h('pre', {
    class: 'terminal',
    role: 'region',
    'aria-label': 'Terminal',
    tabindex: '0',
  });
  const permissions = h('div', { id: 'permissions' });
  const events = h('ol', { id: 'events', 'aria-label': 'Events' });
  clear(main);
  main.append(
    h('h1', {}, title),
    details,
    h(
      'div',
      { class: 'two' },
      h('div', {}, form, h('h2', { id: 'terminal-heading' }, 'Terminal'), terminal),
      h('div', {}, h('h2', {}, 'Permission requests'), permissions, h('h2', {}, 'Events'), events),
    ),
  );

  message.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void say();
  });

  async function say(): Promise<void> {
    const text = message.value;
    if (text.trim() === '') {
      outcome.textContent = 'refused: write a message first';
      return;
    }
    send.disabled = true;
    try {
      const answer = await call<{ line: string }>('POST', `/ui/say/${encodeURIComponent(ref)}`, {
        text,
      });
      outcome.textContent = answer.line;
      message.value = '';
    } catch (error) {
      outcome.textContent = `refused: ${(error as Error).message}`;
    } finally {
      send.disabled = false;
    }
  }

  const refreshDetails = async (): Promise<number | undefined> => {
    try {
      const view = await overview();
      renderHeader(view);
      const row = view.sessions.find((session) => session.ref === ref);
      details.textContent = row ? describe(row) : 'no such session (it may have been deleted)';
      if (row?.link) {
        details.append(
          ' · ',
          h(
            'a',
            { href: row.link.url, rel: 'noopener noreferrer', target: '_blank' },
            row.link.label,
          ),
        );
      }
      return view.seq;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401))
        details.textContent = (error as Error).message;
      return undefined;
    }
  };

  const refreshPermissions = async (): Promise<void> => {
    const open = await call<PermissionView[]>('GET', '/api/v1/permissions').catch(() => undefined);
    if (open === undefined) return;
    const mine = open.filter((request) => request.ref === ref);
    const shown = new Set(mine.map((request) => request.id));
    for (const element of [...permissions.children]) {
      if (!shown.has((element as HTMLElement).dataset['id'] ?? '')) element.remove();
    }
    for (const request of mine) {
      if (permissions.querySelector(`[data-id="${CSS.escape(request.id)}"]`)) continue;
      permissions.append(permissionCard(request, () => void refreshPermissions()));
    }
    if (mine.length === 0 && permissions.children.length === 0) {
      permissions.append(h('p', { class: 'muted', 'data-id': '' }, 'none open'));
    } else if (mine.length > 0) permissions.querySelector('[data-id=""]')?.remove();
  };

  const soonDetails = debounce(() => void refreshDetails(), 100);
  const soonPermissions = debounce(() => void refreshPermissions(), 50);
  void refreshPermissions();
  // The session's recent events come first: the stream replays the last few hundred events of
  // the instance, of which this session's are shown, then goes live.
  void refreshDetails().then((seq) => {
    const since = String(Math.max(0, (seq ?? 0) - recentEvents));
    openStream(
      { ref, since },
      (event) => {
        addEvent(events, event);
        if (event.name.startsWith('permission.')) soonPermissions();
        else soonDetails();
      },
      () => {
        soonDetails();
        soonPermissions();
      },
    );
  });
  keepTerminal(terminal, ref);
}

function describe(row: SessionRow): string {
  const parts = [
    row.kind,
    row.exitStatus === undefined ? row.status : `${row.status} (${row.exitStatus})`,
    `agent ${row.agentState ?? '—'}`,
    `harness ${row.harness}`,
    `in ${row.cwd}`,
  ];
  return parts.join(' · ');
}

function addEvent(list: HTMLElement, event: StreamEvent): void {
  const ts = typeof event.data['ts'] === 'string' ? event.data['ts'].slice(11, 19) : '';
  const fields = Object.entries(event.data)
    .filter(([key]) => key !== 'ts' && key !== 'event' && key !== 'ref')
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  list.prepend(h('li', {}, `${ts} ${event.name} ${fields}`.trim()));
  while (list.children.length > keptEvents) list.lastElementChild?.remove();
}

function permissionCard(request: PermissionView, changed: () => void): HTMLElement {
  const reasonId = `reason-${request.id}`;
  const reason = h('input', { id: reasonId, name: 'reason', autocomplete: 'off' });
  const result = h('p', { role: 'status', class: 'outcome' });
  const decide = async (verb: 'allow' | 'allow-always' | 'deny'): Promise<void> => {
    try {
      const body = verb === 'deny' && reason.value.trim() ? { reason: reason.value.trim() } : {};
      const answer = await call<{ outcome: string }>(
        'POST',
        `/api/v1/permissions/${encodeURIComponent(request.id)}/${verb}`,
        body,
      );
      result.textContent = answer.outcome;
    } catch (error) {
      result.textContent = `refused: ${(error as Error).message}`;
    }
    changed();
  };
  const button = (label: string, verb: 'allow' | 'allow-always' | 'deny') => {
    const element = h('button', { type: 'button' }, label);
    element.addEventListener('click', () => void decide(verb));
    return element;
  };
  return h(
    'section',
    {
      class: 'permission',
      'data-id': request.id,
      'aria-label': `Permission request ${request.id}`,
    },
    h(
      'p',
      {},
      h('strong', {}, request.tool),
      ` · ${request.id} · expires ${request.expiresAt.slice(11, 19)} UTC`,
    ),
    h('pre', {}, request.summary),
    h(
      'div',
      {},
      button('Allow', 'allow'),
      request.canAlways && button('Allow always', 'allow-always'),
      button('Deny', 'deny'),
    ),
    h('label', { for: reasonId }, 'Reason'),
    ' ',
    reason,
    result,
  );
}

/** Refreshes the Terminal while the page is open and shown; serve captures once for all viewers. */
function keepTerminal(view: HTMLElement, ref: string): void {
  let running = false;
  const tick = async (): Promise<void> => {
    if (running || document.hidden) return;
    running = true;
    try {
      const answer = await call<{ lines: Segment[][] }>(
        'GET',
        `/ui/terminal/${encodeURIComponent(ref)}`,
      );
      renderTerminal(view, answer.lines);
    } catch (error) {
      view.textContent = `(${(error as Error).message})`;
    } finally {
      running = false;
    }
  };
  void tick();
  window.setInterval(() => void tick(), terminalEveryMs);
  document.addEventListener('visibilitychange', () => void tick());
  byId('main').dataset['ref'] = ref;
}
