/**
 * DESIGN §2 Scope and budget: viewport plus about one screen, counts for the rest, positions
 * in screens, a token budget that is never exceeded.
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { mapText, open, splitMap, useSession } from './harness';

const s = useSession();

// 200 rows of 40px: the 800px viewport holds 20, one more screen another 20.
const LONG = `<!doctype html><title>Long list</title><style>body{margin:0} .r{height:40px;margin:0;box-sizing:border-box}</style><body>
  ${Array.from({ length: 200 }, (_, i) => `<div class="r"><button>Item ${i + 1}</button></div>`).join('')}</body>`;

describe('scope and budget', () => {
  it('lists the viewport and one screen below, counts the rest, and reports the page position', async () => {
    const page = await open(s, LONG);
    const { header, body, notes } = splitMap(await mapText(page));
    expect(header).toMatch(/^page "Long list" http:\/\/127\.0\.0\.1:\d+\/\S+ {2}viewport 1280x800 {2}scroll 0\.0↑ 9\.0↓ screens$/);
    expect(body).toHaveLength(40);
    expect(body[0]).toBe('*[1]button "Item 1"');
    expect(body[39]).toBe('*[40]button "Item 40"');
    expect(notes).toEqual(['… 160 more interactive below (scroll down)']);

    await page.evaluate(() => window.scrollTo(0, 4000));
    const after = splitMap(await mapText(page));
    expect(after.header).toContain('scroll 5.0↑ 4.0↓ screens');
    expect(after.body[0]).toBe('*[41]button "Item 81"'); // one screen above: rows 81–100
    expect(after.body).toContain('*[61]button "Item 101"');
    expect(after.notes).toEqual(['… 80 more interactive above (scroll up)', '… 60 more interactive below (scroll down)']);
  });

  it('reports every scroll container position and counts what is clipped inside it', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><body>
      <div aria-label="Messages" role="region" style="height:100px;overflow:auto">
        ${Array.from({ length: 10 }, (_, i) => `<button style="display:block;height:25px;margin:0;box-sizing:border-box">Msg ${i + 1}</button>`).join('')}
      </div></body>`,
    );
    const { body } = splitMap(await mapText(page));
    expect(body).toEqual([
      '*[1]region "Messages" scroll 0.0↑ 1.5↓ (6 more inside, scroll it)',
      '*[2]button "Msg 1"',
      '*[3]button "Msg 2"',
      '*[4]button "Msg 3"',
      '*[5]button "Msg 4"',
    ]);
  });

  it('never exceeds the token budget and fills it by priority: viewport before nearby', async () => {
    const page = await open(s, LONG);
    for (const maxTokens of [300, 800, 3000]) {
      const map = await page.evaluate((o) => (window as any).pagehand.map(o), { maxTokens });
      const real = encode(map.text).length;
      expect(real).toBeLessThanOrEqual(maxTokens);
      expect(map.stats.tokens).toBeLessThanOrEqual(maxTokens);
      const { body, notes } = splitMap(map.text);
      // Whatever fits comes from the top of the page down; nothing is cut mid-line.
      body.forEach((line, i) => expect(line).toMatch(new RegExp(`^\\*?\\[\\d+\\]button "Item ${i + 1}"$`)));
      if (body.length < 20) expect(notes.some((n) => /more interactive in view, left out for length/.test(n))).toBe(true);
    }
  });

  it('puts the focused form first when the budget is tight', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><body style="margin:0">
      ${Array.from({ length: 30 }, (_, i) => `<button style="display:block;height:20px">Top ${i + 1}</button>`).join('')}
      <form aria-label="Sign in" style="margin-top:10px"><input aria-label="User" id="u"><input type="password" aria-label="Password"><button>Log in</button></form>
      <script>document.getElementById('u').focus()</script></body>`,
    );
    const { body } = splitMap(await mapText(page, { maxTokens: 260 }));
    // How many "Top" buttons fit depends on the budget; the form always does.
    expect(body.slice(-4).map((l) => l.replace(/\*?\[\d+\]/, '[#]'))).toEqual([
      'form "Sign in"',
      '  [#]textbox "User" focused',
      '  [#]textbox "Password" type=password',
      '  [#]button "Log in"',
    ]);
    expect(body.length).toBeLessThan(34);
  });
});
