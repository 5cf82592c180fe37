/** Plain-text tables for the terminal. */

export type Cell = string | number;
export interface Column {
  header: string;
  /** Numbers and durations read best right-aligned. Default: left. */
  align?: 'left' | 'right';
}

export function renderTable(columns: readonly Column[], rows: ReadonlyArray<readonly Cell[]>): string {
  const text = rows.map((r) => r.map((c) => String(c)));
  const widths = columns.map((col, i) => Math.max(col.header.length, ...text.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (columns[i]?.align === 'right' ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header)), widths.map((w) => '─'.repeat(w)).join('  '), ...text.map(line)].join('\n');
}
