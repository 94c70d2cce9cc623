import type { StatusReport } from '../api/routes/status-routes.js';
import { formatColumns } from './format-columns.js';
import { formatStandingList } from './format-standing-list.js';

/** `the-loop status`: who this instance is, its services, its sessions, and what is wrong. */
export function formatStatus(report: StatusReport): string {
  const { instance } = report;
  const name = instance.name === '' ? '(unnamed)' : instance.name;
  const lines = [
    `instance: ${name} · scope ${instance.scopeMode}`,
    ...instance.warnings.map((warning) => `  warning: ${warning}`),
    '',
    'services:',
    indent(
      formatColumns(
        report.services.map((service) => [service.name, service.state, service.detail]),
      ),
    ),
    '',
    'sessions:',
    indent(formatStandingList(report.sessions)),
    '',
  ];
  if (report.problems.length > 0) {
    lines.push('problems:', ...report.problems.map((problem) => `  - ${problem}`), '');
  }
  const count = report.problems.length === 1 ? '1 problem' : `${report.problems.length} problems`;
  lines.push(report.ok ? 'ok' : `not ok (${count})`);
  return lines.join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : `  ${line}`))
    .join('\n');
}
