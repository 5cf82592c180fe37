/**
 * `read` keeps the structure a person sees: blank lines the page shows (pre-formatted text,
 * `<br><br>`, an editor's empty line), side-by-side boxes apart, and table or grid cells with
 * their column's header — from markup (`<th>`, ARIA grids, rows split by pinned columns) or
 * from layout (a CSS grid's first row styled apart, a weekday strip above a grid or above a
 * wrapping flex row). Deny zones stay out of cells and out of headers.
 */
import { describe, expect, it } from 'vitest';
import { act } from './actions-helpers';
import { open, useSession } from './harness';

const s = useSession();

async function pageText(page: import('playwright-core').Page): Promise<string> {
  const r = await act(page, 'read', {});
  expect(r.ok, r.message).toBe(true);
  return r.message.replace(/^Text of the page:\n/, '');
}

describe('read keeps structure', () => {
  it('keeps blank lines the page shows and separates side-by-side boxes', async () => {
    const page = await open(s, 'actions/read-structure.html');
    const text = await pageText(page);
    expect(
      text.startsWith(
        [
          'First paragraph of the comment.',
          '',
          'Second paragraph, after a blank line.',
          'Third line, right below.',
          'One paragraph.',
          'Another paragraph.',
          'Line A',
          'Line B',
          '',
          'Line C after a blank line',
          'Note one',
          '',
          'Note two',
          'Price $5 In stock Buy',
        ].join('\n'),
      ),
      text,
    ).toBe(true);
    await page.close();
  });

  it('gives table and grid cells their column headers, whatever the markup', async () => {
    const page = await open(s, 'actions/read-structure.html');
    const text = await pageText(page);
    const after = text.slice(text.indexOf('Price $5 In stock Buy\n') + 'Price $5 In stock Buy\n'.length);
    expect(after.split('\n')).toEqual([
      // <table> with <thead>: empty leading cells no longer shift the days.
      'March',
      'Mo | Tu | We | Th | Fr | Sa | Su',
      'We: 1 | Th: 2 | Fr: 3 | Sa: 4 | Su: 5',
      'Mo: 6 | Tu: 7 | We: 8 | Th: 9 | Fr: 10 | Sa: 11 | Su: 12',
      // Row headers stay plain; a header in a zone heads nothing; hidden and zone rows are out.
      'Price | Stock',
      'Basic | Price: $5 | 12%',
      'Pro | Price: $9 | Stock: 3 left | 15%',
      // ARIA grid: aria-colindex places a cell.
      'Mo | Tu | We',
      'Tu: 1 | We: 2',
      'Mo: 3 | Tu: 4 | We: 5',
      // Rows split in parts (pinned columns) join by aria-rowindex.
      'Order | Total | Status',
      '#1001 | Total: $40 | Status: Shipped',
      // CSS grid whose first row is styled apart.
      'Mo | Tu | We | Th | Fr | Sa | Su',
      'Th: 1 | Fr: 2 | Sa: 3 | Su: 4',
      'Mo: 5 | Tu: 6 | We: 7 | Th: 8 | Fr: 9 | Sa: 10 | Su: 11',
      // A weekday strip drawn apart, above a grid placed by grid-column-start.
      'M | T | W | T | F | S | S',
      'W: 1 | T: 2 | F: 3 | S: 4 | S: 5',
      'M: 6 | T: 7 | W: 8',
      // A weekday strip above a wrapping flex row with blank boxes first.
      'Mon',
      'Tue',
      'Wed',
      'Thu',
      'Fri',
      'Sat',
      'Sun',
      'Fri: 1 | Sat: 2 | Sun: 3',
      'Mon: 4 | Tue: 5 | Wed: 6 | Thu: 7',
    ]);
    expect(text).not.toMatch(/zone|secret|Hidden plan/i);
    await page.close();
  });

  it('leaves tables without headers and grids of long items as before', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><body>
      <table><tr><td>Logo</td><td>Welcome to the site</td></tr></table>
      <div style="display:grid;grid-template-columns:1fr 1fr;width:600px">
        <div><h3>Card one</h3><p>First card text that runs long enough to be content rather than a cell of a grid.</p></div>
        <div><h3>Card two</h3><p>Second card text.</p></div>
      </div>
      <div style="display:flex;flex-wrap:wrap"><a href="#a">Tag A</a> <a href="#b">Tag B</a></div>
    </body>`,
    );
    expect((await pageText(page)).split('\n')).toEqual([
      'Logo | Welcome to the site',
      'Card one',
      'First card text that runs long enough to be content rather than a cell of a grid.',
      'Card two',
      'Second card text.',
      'Tag A',
      'Tag B',
    ]);
    await page.close();
  });
});
