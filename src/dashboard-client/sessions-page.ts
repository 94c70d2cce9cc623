import { ApiError, call, overview, type Overview, type SessionRow } from './api.js';
import { byId, clear, h } from './dom.js';
import { renderHeader } from './header.js';
import { debounce, openStream } from './stream.js';

/**
 * `/`: every session of this instance in the table "Sessions", its actions, and the form
 * "Create a session" (docs/design.md §19). Kept live by the event stream.
 */
export function showSessionsPage(main: HTMLElement): void {
  document.title = 'Sessions · the-loop';
  const outcome = h('p', { role: 'status', id: 'action-outcome', class: 'outcome' });
  const table = h(
    'table',
    { id: 'sessions' },
    h('caption', { class: 'muted' }, 'Sessions'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...[
          'Name',
          'Kind',
          'Status',
          'Agent state',
          'Harness',
          'Folder',
          'Talks in',
          'Actions',
        ].map((title) => h('th', { scope: 'col' }, title)),
      ),
    ),
    h('tbody', { id: 'session-rows' }),
  );
  const form = createForm();
  const confirm = createConfirmDialog();
  clear(main);
  main.append(h('h1', {}, 'Sessions'), outcome, table, form.section, confirm.dialog);

  let last: Overview | undefined;
  const refresh = async (): Promise<void> => {
    try {
      last = await overview();
      renderHeader(last);
      renderRows(last.sessions);
      form.setHarnesses(last.harnesses, last.defaultHarness);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) {
        outcome.textContent = `could not load the sessions: ${(error as Error).message}`;
      }
    }
  };
  const soon = debounce(() => void refresh(), 100);
  openStream({}, soon, soon);
  void refresh();

  function renderRows(rows: readonly SessionRow[]): void {
    const body = byId('session-rows');
    clear(body);
    if (rows.length === 0) {
      body.append(h('tr', {}, h('td', { colspan: '8', class: 'muted' }, 'no sessions yet')));
    }
    for (const row of rows) body.append(renderRow(row));
  }

  function renderRow(row: SessionRow): HTMLTableRowElement {
    const status = row.exitStatus === undefined ? row.status : `${row.status} (${row.exitStatus})`;
    return h(
      'tr',
      { 'data-ref': row.ref },
      h('td', {}, h('a', { href: row.page }, row.name)),
      h('td', {}, row.kind),
      h('td', {}, status),
      h('td', {}, row.agentState ?? '—'),
      h('td', {}, row.harness),
      h('td', { class: 'folder' }, row.cwd),
      h(
        'td',
        {},
        row.link
          ? h(
              'a',
              { href: row.link.url, rel: 'noopener noreferrer', target: '_blank' },
              row.link.label,
            )
          : '—',
      ),
      h('td', { class: 'actions' }, ...actions(row)),
    );
  }

  function actions(row: SessionRow): HTMLButtonElement[] {
    const running = row.status === 'running';
    const buttons: HTMLButtonElement[] = [];
    const button = (
      label: string,
      run: () => Promise<string>,
      extra: Record<string, string> = {},
    ) => {
      const element = h(
        'button',
        { type: 'button', 'aria-label': `${label} ${row.name}`, ...extra },
        label,
      );
      element.addEventListener('click', () => {
        void act(element, run);
      });
      buttons.push(element);
    };
    if (row.kind === 'work item') {
      const body = { ref: row.ref };
      if (running)
        button('Stop', () => post('/api/v1/work-items/stop', body, `stopped ${row.name}`));
      else button('Start', () => post('/api/v1/work-items/start', body, `started ${row.name}`));
      return buttons;
    }
    const base = `/api/v1/standing-sessions/${encodeURIComponent(row.name)}`;
    if (running) {
      button('Stop', () => post(`${base}/stop`, undefined, `stopped ${row.name}`));
      button('Restart', () => post(`${base}/restart`, undefined, `restarted ${row.name}`));
    } else button('Start', () => post(`${base}/start`, undefined, `started ${row.name}`));
    if (row.kind === 'created' || row.kind === 'undeclared') {
      button(
        'Delete',
        async () => {
          if (!(await confirm.ask(row.name))) return '';
          await call('DELETE', base);
          return `deleted ${row.name}`;
        },
        { class: 'danger' },
      );
    }
    return buttons;
  }

  async function post(path: string, body: unknown, done: string): Promise<string> {
    await call('POST', path, body);
    return done;
  }

  async function act(button: HTMLButtonElement, run: () => Promise<string>): Promise<void> {
    button.disabled = true;
    try {
      const said = await run();
      if (said) outcome.textContent = said;
    } catch (error) {
      outcome.textContent = `refused: ${(error as Error).message}`;
    } finally {
      button.disabled = false;
      await refresh();
    }
  }

  function createForm() {
    const alert = h('p', { id: 'create-refusal', class: 'refusal' });
    const harness = h('select', { id: 'create-harness', name: 'harness' });
    const fields = {
      name: h('input', { id: 'create-name', name: 'name', required: true, autocomplete: 'off' }),
      cwd: h('input', { id: 'create-cwd', name: 'cwd', placeholder: '.', autocomplete: 'off' }),
      prompt: h('textarea', { id: 'create-prompt', name: 'prompt' }),
      description: h('input', { id: 'create-description', name: 'description' }),
      slackChannel: h('input', {
        id: 'create-slack',
        name: 'slackChannel',
        placeholder: 'C0123ABC',
      }),
      autoStart: h('input', {
        id: 'create-autostart',
        name: 'autoStart',
        type: 'checkbox',
        checked: true,
      }),
    };
    const label = (id: string, text: string) => h('label', { for: id }, text);
    const element = h(
      'form',
      { class: 'stack', 'aria-labelledby': 'create-heading', novalidate: true },
      label('create-name', 'Name'),
      fields.name,
      label('create-harness', 'Harness'),
      harness,
      label('create-cwd', 'Working folder'),
      fields.cwd,
      label('create-prompt', 'Prompt'),
      fields.prompt,
      h(
        'details',
        {},
        h('summary', {}, 'More options'),
        h(
          'div',
          { class: 'stack' },
          label('create-description', 'Description'),
          fields.description,
          label('create-slack', 'Slack channel'),
          fields.slackChannel,
          h('label', { for: 'create-autostart' }, fields.autoStart, ' Auto-start'),
        ),
      ),
      h('div', {}, h('button', { type: 'submit' }, 'Create')),
    );
    element.addEventListener('submit', (event) => {
      event.preventDefault();
      void submit();
    });
    async function submit(): Promise<void> {
      alert.removeAttribute('role');
      alert.textContent = '';
      const body: Record<string, unknown> = {
        name: fields.name.value.trim(),
        harness: harness.value,
        autoStart: fields.autoStart.checked,
      };
      const optional: [string, string][] = [
        ['cwd', fields.cwd.value.trim()],
        ['prompt', fields.prompt.value],
        ['description', fields.description.value.trim()],
        ['slackChannel', fields.slackChannel.value.trim()],
      ];
      for (const [key, value] of optional) if (value !== '') body[key] = value;
      try {
        await call('POST', '/api/v1/standing-sessions', body);
        outcome.textContent = `created ${String(body['name'])}`;
        element.reset();
        if (last) harness.value = last.defaultHarness;
        await refresh();
      } catch (error) {
        // role=alert on the filled element: screen readers announce it, as the refusal it is.
        alert.setAttribute('role', 'alert');
        alert.textContent = (error as Error).message;
      }
    }
    let shown = '';
    return {
      section: h(
        'section',
        {},
        h('h2', { id: 'create-heading' }, 'Create a session'),
        element,
        alert,
      ),
      setHarnesses(names: readonly string[], chosen: string) {
        const key = names.join(',');
        if (key === shown) return;
        shown = key;
        clear(harness);
        for (const name of names)
          harness.append(h('option', { value: name, selected: name === chosen }, name));
      },
    };
  }
}

/** The in-page confirmation whose confirming button is "Delete". */
function createConfirmDialog() {
  const text = h('p', { id: 'confirm-text' });
  const cancel = h('button', { type: 'button', value: 'cancel' }, 'Cancel');
  const confirm = h('button', { type: 'button', value: 'delete', class: 'danger' }, 'Delete');
  const dialog = h(
    'dialog',
    { 'aria-labelledby': 'confirm-heading', 'aria-describedby': 'confirm-text' },
    h('h2', { id: 'confirm-heading' }, 'Delete this session?'),
    text,
    cancel,
    confirm,
  );
  let settle: ((yes: boolean) => void) | undefined;
  const close = (yes: boolean) => {
    dialog.close();
    settle?.(yes);
    settle = undefined;
  };
  cancel.addEventListener('click', () => close(false));
  confirm.addEventListener('click', () => close(true));
  dialog.addEventListener('cancel', () => {
    settle?.(false);
    settle = undefined;
  });
  return {
    dialog,
    ask(name: string): Promise<boolean> {
      text.textContent = `Delete ${name}? It is stopped, and its record and Slack binding are removed.`;
      dialog.showModal();
      cancel.focus();
      return new Promise((resolve) => {
        settle = resolve;
      });
    },
  };
}
