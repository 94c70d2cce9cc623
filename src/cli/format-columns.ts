/**
 * Left-aligned columns two spaces apart, the last one unpadded so lines carry no trailing blanks.
 * Control characters in cells are shown escaped: a cell can never move the cursor or recolour the
 * terminal of the person reading the table.
 */
export function formatColumns(rows: readonly (readonly string[])[]): string {
  const cells = rows.map((row) => row.map(visible));
  const count = Math.max(0, ...cells.map((row) => row.length));
  const widths = Array.from({ length: count }, (_, column) =>
    Math.max(0, ...cells.map((row) => length(row[column] ?? ''))),
  );
  return cells
    .map((row) =>
      row
        .map((cell, column) =>
          column === row.length - 1
            ? cell
            : cell + ' '.repeat((widths[column] ?? 0) - length(cell)),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Code points, so a name with an accent or an emoji does not shift the columns after it. */
function length(text: string): number {
  return [...text].length;
}

function visible(text: string): string {
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => {
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
