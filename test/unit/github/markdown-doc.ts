import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configSchema } from '../../../src/config/config-schema.js';
import { schemaKeyPaths } from '../config/schema-key-paths.js';

const docs = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../docs');

export function readDoc(name: string): string {
  return readFileSync(path.join(docs, name), 'utf8');
}

/** The cells of a table row, split at pipes that are not inside a code span. */
function cells(line: string): string[] {
  const found: string[] = [];
  let current = '';
  let fence = '';
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index] ?? '';
    if (char === '`') {
      let run = '';
      while (line[index] === '`') {
        run += '`';
        index += 1;
      }
      index -= 1;
      if (fence === '') fence = run;
      else if (run === fence) fence = '';
      current += run;
    } else if (char === '|' && fence === '') {
      found.push(current.trim());
      current = '';
    } else {
      current += char;
    }
  }
  return found.slice(1);
}

/**
 * The body rows of every table whose header row starts with `firstHeader`, as cells. Rows of a
 * table indented in a list item count too.
 */
export function tableRows(markdown: string, firstHeader: string): string[][] {
  const rows: string[][] = [];
  let inTable = false;
  for (const raw of markdown.split('\n')) {
    const line = raw.trim();
    if (!line.startsWith('|')) {
      inTable = false;
      continue;
    }
    const row = cells(line);
    if (row[0] === firstHeader) {
      inTable = true;
      continue;
    }
    if (inTable && !/^-+$/.test(row[0] ?? '')) rows.push(row);
  }
  return rows;
}

/** What a cell's code span holds, as CommonMark reads it, or undefined when it is no code span. */
export function codeSpan(cell: string): string | undefined {
  const match = /^(`+)([\s\S]*?)\1$/.exec(cell.trim());
  if (!match) return undefined;
  const content = match[2] ?? '';
  return content.startsWith(' ') && content.endsWith(' ') && content.trim() !== ''
    ? content.slice(1, -1)
    : content;
}

/** The fenced blocks with one info string (`""` for none), without a list item's indentation. */
export function fencedBlocks(markdown: string, info: string): string[] {
  const blocks: string[] = [];
  let open: { indent: string; info: string; lines: string[] } | undefined;
  for (const line of markdown.split('\n')) {
    const fence = /^( *)```(.*)$/.exec(line);
    if (open === undefined) {
      if (fence) open = { indent: fence[1] ?? '', info: (fence[2] ?? '').trim(), lines: [] };
    } else if (fence && fence[1] === open.indent && fence[2] === '') {
      if (open.info === info) blocks.push(`${open.lines.join('\n')}\n`);
      open = undefined;
    } else {
      const indent = open.indent;
      open.lines.push(line.startsWith(indent) ? line.slice(indent.length) : line);
    }
  }
  return blocks;
}

const topLevel = Object.keys(configSchema().properties ?? {});
const schemaPaths = schemaKeyPaths(configSchema());

/**
 * Code spans outside fenced blocks that read as a config key path (`github.poll.enabled`) but
 * name neither a key of the schema nor an event the code logs (`github.retry` must appear quoted
 * in `sources`).
 */
export function unknownKeyMentions(markdown: string, sources: string): string[] {
  const prose = markdown.replace(/^ *```[\s\S]*?^ *```$/gm, '');
  const keyLike = new RegExp(`^(?:${topLevel.join('|')})(?:\\.[A-Za-z_\\[\\]<>.]+)?$`);
  return [...prose.matchAll(/`([^`\n]+)`/g)]
    .map((match) => match[1] ?? '')
    .filter((span) => keyLike.test(span))
    .filter((span) => !schemaPaths.has(span) && !sources.includes(`'${span}'`));
}

/** The text of every TypeScript file in the given src/ folders, to look names up in. */
export function sourceText(...folders: string[]): string {
  return folders
    .flatMap((folder) => {
      const dir = path.join(docs, '../src', folder);
      return readdirSync(dir)
        .filter((name) => name.endsWith('.ts'))
        .map((name) => readFileSync(path.join(dir, name), 'utf8'));
    })
    .join('\n');
}
