/**
 * Dropdowns built from plain elements, as others build them: a clickable box with a ▾ whose
 * classless divs show inside it (absolutely placed), a trigger with a ::after caret followed by
 * a list with one delegated listener, options created on click and appended to <body> with a
 * listener on their container. Once shown, each option is a target of its own (an option, not
 * folded into the trigger's name), clicking one picks it, and select_option on the trigger
 * picks by label.
 */
import { describe, expect, it } from 'vitest';
import { act } from './actions-helpers';
import { mapBody, open, useSession } from './harness';

const s = useSession();

const refOfLine = (body: string[], pattern: RegExp): string => {
  const hits = body.filter((l) => pattern.test(l));
  if (hits.length !== 1) throw new Error(`${hits.length} lines match ${pattern} in:\n${body.join('\n')}`);
  return /\[(\d+)\]/.exec(hits[0]!)![1]!;
};

const OPTIONS = ['5ft 8in', '5ft 9in', '5ft 10in', '5ft 11in', '6ft'];
const cases = [
  { file: 'map/dropdown-inside.html', early: false },
  { file: 'map/dropdown-inside.html', early: true },
  { file: 'map/dropdown-delegated.html', early: false },
  { file: 'map/dropdown-delegated.html', early: true },
  { file: 'map/dropdown-portal.html', early: true },
];

describe('dropdowns built from plain elements', () => {
  for (const c of cases) {
    it(`${c.file}, bundle ${c.early ? 'at document start' : 'after load'}: each option is a target once shown`, async () => {
      const page = await open(s, c.file, { early: c.early });
      let body = await mapBody(page);
      const trigger = refOfLine(body, /clickable "Select height ▾"/);
      expect((await act(page, 'click', { ref: trigger })).ok).toBe(true);
      body = await mapBody(page);
      // The trigger is named by what it shows, not by its options.
      expect(body.find((l) => l.includes(`[${trigger}]`))).toMatch(/^\[\d+\]clickable "Select height ▾"( expanded)?$/);
      for (const o of OPTIONS) refOfLine(body, new RegExp(`\\]option "${o}"$`));
      const r = await act(page, 'click', { ref: refOfLine(body, /\]option "5ft 10in"$/) });
      expect(r.ok, r.message).toBe(true);
      expect(await page.textContent('#chosen')).toBe('height 5ft 10in');
      await page.close();
    });
  }

  for (const c of cases) {
    it(`${c.file}, bundle ${c.early ? 'at document start' : 'after load'}: select_option on the trigger picks by label`, async () => {
      const page = await open(s, c.file, { early: c.early });
      const body = await mapBody(page);
      const r = await act(page, 'select_option', { ref: refOfLine(body, /clickable "Select height ▾"/), option: '5ft 11in' });
      expect(r.ok, r.message).toBe(true);
      expect(await page.textContent('#chosen')).toBe('height 5ft 11in');
      await page.close();
    });
  }

  it('leaves a clickable card with a list of features whole', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><body>
      <div style="cursor:pointer;width:300px;border:1px solid" onclick="void 0"><h3>Pro plan</h3>
        <ul><li>Free shipping</li><li>Two-year warranty</li><li>Priority support</li></ul></div>
      <button>Details</button><ul><li>Weight 2 kg</li><li>Colour red</li><li>Size M</li></ul>
    </body>`,
    );
    expect(await mapBody(page)).toEqual([
      '*[1]clickable "Pro plan Free shipping Two-year warranty Priority support"',
      '*[2]button "Details"',
      'Weight 2 kg',
      'Colour red',
      'Size M',
    ]);
    await page.close();
  });

  it('keeps a deny zone out: an option in a zone is no choice, and the box is not named by it', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><style>.box{position:relative;width:200px;cursor:pointer;border:1px solid}.menu{position:absolute;top:100%;left:0;background:#fff}</style><body>
      <div class="box" id="box" onclick="const m = this.querySelector('.menu'); m.hidden = !m.hidden">Pick a plan ▾ <span data-pagehand="off">ZONE-BOX-WORD</span>
        <div class="menu" hidden><div>Basic</div><div data-pagehand="off">ZONE-PLAN</div><div>Pro</div><div>Team</div></div></div>
    </body>`,
    );
    await act(page, 'click', { ref: refOfLine(await mapBody(page), /clickable "Pick a plan/) });
    const body = await mapBody(page);
    expect(body.filter((l) => /\]option "/.test(l)).map((l) => /"(.*)"/.exec(l)![1])).toEqual(['Basic', 'Pro', 'Team']);
    expect(body.join('\n')).not.toMatch(/ZONE/);
    const r = await act(page, 'select_option', { ref: refOfLine(body, /clickable "Pick a plan/), option: 'ZONE-PLAN' });
    expect(r.ok).toBe(false);
    // The zone's option is as absent as an option that does not exist: not matched, not listed.
    expect(r.message).toMatch(/^No option matching "ZONE-PLAN" in .*; options: Basic, Pro, Team\.?$/);
    await page.close();
  });
});
