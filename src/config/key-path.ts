import { escapeInvisible } from './quote.js';

const plainSegment = /^[A-Za-z0-9_-]+$/;

/**
 * `['standing', 'sessions', 1, 'name']` → `standing.sessions[1].name`. A key that is not a plain
 * word (a hostile file can use any string as a key) is shown quoted: `harnesses["a b"]`.
 */
export function keyPath(segments: readonly (string | number)[]): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (plainSegment.test(segment)) path += path === '' ? segment : `.${segment}`;
    else path += `[${escapeInvisible(JSON.stringify(segment))}]`;
  }
  return path;
}
