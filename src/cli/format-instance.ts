import { formatColumns } from './format-columns.js';

/** The body of GET /api/v1/instance (docs/design.md §7.4). */
export interface InstanceReport {
  readonly name: string;
  readonly scope: { readonly mode: string; readonly workItems: readonly string[] };
  readonly managed: readonly {
    readonly ref: string;
    readonly sources?: readonly string[];
    readonly status?: string;
    readonly url?: string;
  }[];
  readonly warnings?: readonly string[];
}

/** `the-loop instance`: name and scope, then the work items it declares and the ones it manages. */
export function formatInstance(report: InstanceReport): string {
  const name = report.name === '' ? '(unnamed)' : report.name;
  const lines = [
    `instance: ${name} · scope ${report.scope.mode}`,
    ...(report.warnings ?? []).map((warning) => `  warning: ${warning}`),
    '',
    report.scope.workItems.length === 0 ? 'declared work items: none' : 'declared work items:',
    ...report.scope.workItems.map((ref) => `  ${ref}`),
    '',
    report.managed.length === 0 ? 'managed work items: none' : 'managed work items:',
  ];
  const rows = report.managed.map((item) => [
    `  ${item.ref}`,
    [...(item.sources ?? []), ...(item.status ? [item.status] : [])].join(', '),
    item.url ?? '',
  ]);
  if (rows.length > 0) lines.push(formatColumns(rows));
  return lines.join('\n');
}
