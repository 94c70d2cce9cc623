import type { Overview } from './api.js';
import { byId, clear, h } from './dom.js';

/** The header: the instance's name and scope, and each surface's state. */
export function renderHeader(view: Overview): void {
  const name = view.instance.name || '(unnamed)';
  byId('instance').textContent = `Instance ${name} · scope ${view.instance.scope}`;
  const list = byId('surfaces');
  clear(list);
  for (const surface of view.surfaces) {
    list.append(
      h(
        'li',
        { class: `state-${surface.state}`, title: surface.detail },
        `${surface.name}: ${surface.state}`,
      ),
    );
  }
}
