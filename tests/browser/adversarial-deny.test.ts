/**
 * Deny zones (`data-pagehand="off"`, `pagehand.init({ deny })`) are invisible and untouchable
 * on every path, end to end: real Chromium, the real proxy, a scripted model that does what the
 * page baits it to (look for the hidden words, read, wait for them, tab into the zone, click
 * it). Each case's zone holds a unique canary, CANARY-<case>-7f3a; the canary must be in no
 * request body the fake model received, and for actions the page's own record shows that
 * nothing happened in the zone.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../client/agent/public-types';
import {
  call,
  lastToolResults,
  latestMap,
  mapElements,
  MODELS,
  refFor,
  runAgent,
  sequence,
  useAgentStack,
  type ModelRequest,
  type Policy,
} from './agent-harness';
import { open, useSession } from './harness';

const session = useSession();
const stack = useAgentStack();

const ZONE_SAYS = /in a part of the page the site keeps pagehand out of|would act inside an area the site keeps from the agent/;

interface Case {
  /** The path the zone could leak through. */
  path: string;
  canary: string;
  fixture: string;
  /** Deny selectors the site gives `pagehand.init`. */
  deny?: string[];
  model?: string;
  vision?: boolean;
  /** A fresh scripted model for the run. */
  model_: () => Policy;
  /** What the run must show besides the canary's absence (the page's state, the results). */
  check?: (r: { page: Page; requests: ModelRequest[]; result: RunResult }) => Promise<void> | void;
}

/** The text the model got back from each of its calls, in order (from the requests that followed them). */
const resultsOf = (requests: ModelRequest[]): string[] => requests.slice(1).map((r) => lastToolResults(r).join('\n'));
const firstMap = (requests: ModelRequest[]): string => latestMap(requests[0]!);

/** The scripted model that looks for a zone's words (find), reads the page, and finishes. */
const lookAndRead =
  (probe: string): (() => Policy) =>
  () =>
    sequence(call('find', { query: probe }), call('read', {}), call('done', { summary: 'looked' }));

/** The map of the first request lists these element lines (the zone-free parts are there). */
const mapShows =
  (...lines: RegExp[]) =>
  ({ requests }: { requests: ModelRequest[] }): void => {
    const map = firstMap(requests);
    for (const l of lines) expect(map, `the map shows ${l}`).toMatch(l);
  };

/** Both find and read came back, find with nothing for the zone's words. */
const foundNothing = ({ requests }: { requests: ModelRequest[] }): void => {
  const [find, read] = resultsOf(requests);
  expect(find).toMatch(/Nothing matches/);
  expect(read).toMatch(/Text of the page/);
};

/** A model that takes the refs it needs from the first map, locks the vault, then acts on the old ref. */
function vaultModel(pick: (map: string) => Record<string, unknown> & { name: string }): () => Policy {
  return () => {
    let action: ReturnType<typeof pick> | undefined;
    return sequence(
      (req) => {
        const map = latestMap(req);
        action = pick(map);
        return call('click', { ref: refFor(map, 'button', 'Lock the vault') });
      },
      () => {
        const { name, ...args } = action!;
        return call(name, args);
      },
      call('done', { summary: 'tried' }),
    );
  };
}

const elementNamed = (map: string, name: string): string => {
  const hit = mapElements(map).find((e) => e.name === name);
  if (!hit) throw new Error(`no element named ${name} in the map:\n${map}`);
  return hit.ref;
};

/** The vault saw nothing, and the model was told the element is in a zone. */
const vaultUntouched = async ({ page, requests }: { page: Page; requests: ModelRequest[] }): Promise<void> => {
  const results = resultsOf(requests);
  expect(results[0]).toMatch(/Clicked button "Lock the vault"/);
  expect(results[1]).toMatch(ZONE_SAYS);
  expect(await page.evaluate(() => (window as any).hits)).toEqual([]);
  expect(
    await page.evaluate(() => ({
      memo: (document.getElementById('v-in') as HTMLInputElement).value,
      account: (document.getElementById('v-sel') as HTMLSelectElement).value,
      top: document.getElementById('v-scroll')!.scrollTop,
    })),
  ).toEqual({ memo: '', account: 'Main', top: 0 });
};

/** Share of the pixels in a box of a JPEG (data URL) that are close to magenta, and of the control box that are green. */
async function shotColours(
  page: Page,
  dataUrl: string,
  zone: { x: number; y: number; w: number; h: number },
  control: { x: number; y: number; w: number; h: number },
): Promise<{ magenta: number; green: number }> {
  return page.evaluate(
    async ({ dataUrl, zone, control }) => {
      const img = new Image();
      img.src = dataUrl;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const ctx = c.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const share = (b: { x: number; y: number; w: number; h: number }, test: (r: number, g: number, bl: number) => boolean): number => {
        const d = ctx.getImageData(b.x, b.y, b.w, b.h).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (test(d[i]!, d[i + 1]!, d[i + 2]!)) n++;
        return n / (d.length / 4);
      };
      return {
        magenta: share(zone, (r, g, b) => r > 180 && g < 90 && b > 180),
        green: share(control, (r, g, b) => g > 120 && r < 100 && b > 80 && b < 160),
      };
    },
    { dataUrl, zone, control },
  );
}

/** The JPEG of the first request (Gemini's inline image), as a data URL. */
function imageOf(req: ModelRequest): string {
  const parts = (req.body as { contents: Array<{ parts: Array<{ inlineData?: { mimeType: string; data: string } }> }> }).contents.flatMap((c) => c.parts);
  const image = parts.find((p) => p.inlineData)?.inlineData;
  if (!image) throw new Error('no image in the request');
  return `data:${image.mimeType};base64,${image.data}`;
}

const CASES: Case[] = [
  // ---- names -------------------------------------------------------------------------------
  {
    path: 'name from content (a link around a zone)',
    canary: 'CANARY-content-7f3a',
    fixture: 'deny-names.html',
    model_: lookAndRead('SwordfishContent'),
    check: (r) => {
      mapShows(/\[\d+\]link "details"/)(r);
      foundNothing(r);
    },
  },
  {
    path: 'aria-labelledby into a zone',
    canary: 'CANARY-labelledby-7f3a',
    fixture: 'deny-names.html',
    model_: lookAndRead('Confirm payee'),
    check: mapShows(/\[\d+\]button "Confirm payee"/),
  },
  {
    path: 'aria-describedby into a zone',
    canary: 'CANARY-describedby-7f3a',
    fixture: 'deny-names.html',
    model_: lookAndRead('Pay now'),
    check: mapShows(/\[\d+\]button "Pay now"/),
  },
  {
    path: 'a <label for> inside a zone',
    canary: 'CANARY-labelfor-7f3a',
    fixture: 'deny-names.html',
    model_: lookAndRead('amount'),
    check: mapShows(/\[\d+\]textbox "0\.00"/),
  },
  {
    path: 'the title of a zone element inside a link',
    canary: 'CANARY-title-7f3a',
    fixture: 'deny-names.html',
    model_: lookAndRead('Limits'),
    check: mapShows(/\[\d+\]link "Limits"/),
  },
  {
    path: 'the alt of a zone image inside a button',
    canary: 'CANARY-alt-7f3a',
    fixture: 'deny-names.html',
    model_: lookAndRead('Upload'),
    check: mapShows(/\[\d+\]button "Upload"/),
  },
  {
    path: 'the placeholder of a zone field inside a button',
    canary: 'CANARY-placeholder-7f3a',
    fixture: 'deny-names.html',
    model_: lookAndRead('Send to'),
    check: mapShows(/\[\d+\]button "Send to"/),
  },
  {
    path: 'content slotted into a shadow button',
    canary: 'CANARY-slot-7f3a',
    fixture: 'deny-names.html',
    model_: lookAndRead('Show card'),
    check: mapShows(/\[\d+\]button "Show card"/),
  },
  {
    path: 'a zone inside a shadow root (name and text)',
    canary: 'CANARY-shadow',
    fixture: 'deny-names.html',
    model_: lookAndRead('SwordfishShadow'),
    check: (r) => {
      mapShows(/\[\d+\]link "Show PIN"/, /PIN hint:/)(r);
      foundNothing(r);
    },
  },
  {
    path: 'a zone inside a same-origin iframe',
    canary: 'CANARY-iframe-7f3a',
    fixture: 'deny-names.html',
    model_: lookAndRead('SwordfishFrame'),
    check: (r) => {
      mapShows(/\[f\d+:\d+\]link "Read message"/)(r);
      foundNothing(r);
    },
  },
  {
    path: "an editor's value (its text) holding a zone",
    canary: 'CANARY-editor-7f3a',
    fixture: 'deny-names.html',
    model_: lookAndRead('Dear bank'),
    check: mapShows(/\[\d+\]textbox "Note" value="Dear bank, thanks"/),
  },
  {
    path: "a combobox's value (its text) holding a zone",
    canary: 'CANARY-combo-7f3a',
    fixture: 'deny-names.html',
    model_: lookAndRead('Currency'),
    check: mapShows(/\[\d+\]combobox "Currency" value="EUR"/),
  },
  {
    path: "the map's text lines, find and read of the whole page",
    canary: 'CANARY-text-7f3a',
    fixture: 'deny-names.html',
    model_: lookAndRead('SwordfishText'),
    check: (r) => {
      mapShows(/Your code:\s+\(keep it safe\)/)(r);
      foundNothing(r);
    },
  },
  {
    path: 'read of a region holding a zone',
    canary: 'CANARY-region-7f3a',
    fixture: 'deny-names.html',
    model_: () => sequence((req) => call('read', { ref: elementNamed(latestMap(req), 'Statement lines') }), call('done', { summary: 'read' })),
    check: ({ requests }) => {
      const [read] = resultsOf(requests);
      expect(read).toMatch(/Line 1: coffee 3\.20\nLine 3: books 18\.00/);
    },
  },
  {
    path: "find: a result's nearby text",
    canary: 'CANARY-near-7f3a',
    fixture: 'deny-names.html',
    model_: () => sequence(call('find', { query: 'Invoice 12' }), call('find', { query: 'SwordfishNear' }), call('done', { summary: 'found' })),
    check: ({ requests }) => {
      const [invoice, probe] = resultsOf(requests);
      expect(invoice).toMatch(/button "Open invoice"/);
      expect(invoice).toMatch(/Invoice 12/);
      expect(probe).toMatch(/Nothing matches/);
    },
  },
  {
    path: 'wait {text}: words in a zone behave as words not on the page',
    canary: 'CANARY-wait-7f3a',
    fixture: 'deny-names.html',
    model_: () =>
      sequence(
        call('wait', { text: 'SwordfishText', seconds: 1 }),
        (req) => call('click', { ref: refFor(latestMap(req), 'button', 'Refresh') }),
        call('wait', { text: 'SwordfishLater', seconds: 1 }),
        call('wait', { text: 'SwordfishAbsent', seconds: 1 }),
        call('done', { summary: 'waited' }),
      ),
    check: ({ requests }) => {
      const [present, , later, absent] = resultsOf(requests);
      // The same answer, word for word, as for a word that is nowhere on the page.
      const norm = (s: string, word: string): string =>
        s
          .split(word)
          .join('WORD')
          .replace(/^Step \d+/, 'Step N');
      expect(norm(absent!, 'SwordfishAbsent')).toBe('Step N:\nwait "WORD" seconds=1 → FAILED: The text "WORD" did not appear within 1 s.');
      expect(norm(present!, 'SwordfishText')).toBe(norm(absent!, 'SwordfishAbsent'));
      expect(norm(later!, 'SwordfishLater')).toBe(norm(absent!, 'SwordfishAbsent'));
    },
  },
  {
    path: 'a zone named by init({ deny }) selectors',
    canary: 'CANARY-selector-7f3a',
    fixture: 'deny-selector.html',
    deny: ['.secret'],
    model_: lookAndRead('SwordfishSelector'),
    check: (r) => {
      mapShows(/\[\d+\]link "card details"/, /\[\d+\]button "Reveal security code"/, /Holder:\s+\(primary\)/)(r);
      foundNothing(r);
    },
  },
  // ---- what actions report -------------------------------------------------------------------
  {
    path: "an action's new-elements report",
    canary: 'CANARY-newel-7f3a',
    fixture: 'deny-actions.html',
    model_: () => sequence((req) => call('click', { ref: refFor(latestMap(req), 'button', 'Show details') }), call('done', { summary: 'shown' })),
    check: async ({ page, requests }) => {
      const [click] = resultsOf(requests);
      expect(click).toMatch(/1 new element appeared: button "Print"\./);
      expect(await page.evaluate(() => (window as any).log)).toEqual([]);
    },
  },
  {
    path: "a dialog's title (aria-labelledby and heading in a zone)",
    canary: 'CANARY-dialog-7f3a',
    fixture: 'deny-actions.html',
    model_: () => sequence((req) => call('click', { ref: refFor(latestMap(req), 'button', 'Review transfer') }), call('done', { summary: 'opened' })),
    check: ({ requests }) => {
      const [click] = resultsOf(requests);
      expect(click).toMatch(/A dialog opened\./);
      expect(latestMap(requests[1]!)).toMatch(/Check the amount\./);
    },
  },
  {
    path: 'a click refused because a zone covers the target',
    canary: 'CANARY-cover-7f3a',
    fixture: 'deny-actions.html',
    model_: () =>
      sequence(
        call('find', { query: 'Download statement' }),
        (req) => {
          const ref = /\[(\d+)\]button "Download statement"/.exec(lastToolResults(req).join('\n'))![1]!;
          return call('click', { ref });
        },
        call('done', { summary: 'tried' }),
      ),
    check: async ({ page, requests }) => {
      const [, click] = resultsOf(requests);
      expect(click).toMatch(/button "Download statement" is covered by a part of the page the site keeps pagehand out of/);
      expect(await page.evaluate(() => (window as any).log)).toEqual([]);
    },
  },
  {
    path: 'a click on a label whose control is in a zone',
    canary: 'CANARY-label-7f3a',
    fixture: 'deny-actions.html',
    model_: () => sequence((req) => call('click', { ref: refFor(latestMap(req), 'button', 'Send me offers') }), call('done', { summary: 'clicked' })),
    check: async ({ page, requests }) => {
      expect(resultsOf(requests)[0]).toMatch(/FAILED: This click would act inside an area the site keeps from the agent \(the control it activates\)/);
      expect(await page.evaluate(() => ({ log: (window as any).log, checked: (document.getElementById('optin') as HTMLInputElement).checked }))).toEqual({
        log: [],
        checked: false,
      });
    },
  },
  // ---- what widgets and hints read ---------------------------------------------------------------
  {
    path: "an unnamed button's hint from an icon inside a zone",
    canary: 'canary-hint-7f3a',
    fixture: 'deny-widgets.html',
    model_: lookAndRead('Settings'),
    check: async ({ page }) => expect(await page.evaluate(() => (window as any).hits)).toEqual([]),
  },
  {
    path: "an icon's position hint quoting a row's words in a zone",
    canary: 'CANARY-row-7f3a',
    fixture: 'deny-widgets.html',
    model_: lookAndRead('Tags'),
    check: mapShows(/after "Rust"/),
  },
  {
    path: "select_option's list of choices, one of them partly in a zone",
    canary: 'CANARY-option-7f3a',
    fixture: 'deny-widgets.html',
    model_: () =>
      sequence(
        (req) => call('select_option', { ref: refFor(latestMap(req), 'button', 'Bronze'), option: 'Platinum' }),
        (req) => call('select_option', { ref: refFor(latestMap(req), 'button', 'Platinum'), option: 'Diamond' }),
        call('done', { summary: 'picked' }),
      ),
    check: async ({ page, requests }) => {
      const [picked, missing] = resultsOf(requests);
      expect(picked).toMatch(/Platinum/);
      expect(missing).toMatch(/Silver/);
      expect(await page.evaluate(() => (window as any).hits)).toEqual(['tier:Platinum']);
    },
  },
  // ---- refs into a zone (the zone marked after the model saw the refs) -------------------------
  {
    path: 'click on a ref inside a zone',
    canary: 'CANARY-ref-7f3a',
    fixture: 'deny-refs.html',
    model_: vaultModel((map) => ({ name: 'click', ref: refFor(map, 'button', 'Transfer all') })),
    check: vaultUntouched,
  },
  {
    path: 'type into a ref inside a zone',
    canary: 'CANARY-ref-7f3a',
    fixture: 'deny-refs.html',
    model_: vaultModel((map) => ({ name: 'type', ref: refFor(map, 'textbox', 'Memo'), text: 'hello' })),
    check: vaultUntouched,
  },
  {
    path: 'select_option on a ref inside a zone',
    canary: 'CANARY-ref-7f3a',
    fixture: 'deny-refs.html',
    model_: vaultModel((map) => ({ name: 'select_option', ref: refFor(map, 'combobox', 'Account'), option: 'Savings' })),
    check: vaultUntouched,
  },
  {
    path: 'hover on a ref inside a zone',
    canary: 'CANARY-ref-7f3a',
    fixture: 'deny-refs.html',
    model_: vaultModel((map) => ({ name: 'hover', ref: refFor(map, 'button', 'Preview') })),
    check: vaultUntouched,
  },
  {
    path: 'scroll and read with a ref inside a zone',
    canary: 'CANARY-ref-7f3a',
    fixture: 'deny-refs.html',
    model_: () => {
      let history = '';
      return sequence(
        (req) => {
          history = elementNamed(latestMap(req), 'History');
          return call('click', { ref: refFor(latestMap(req), 'button', 'Lock the vault') });
        },
        () => call('scroll', { direction: 'down', ref: history }),
        () => call('read', { ref: history }),
        call('done', { summary: 'tried' }),
      );
    },
    check: async (r) => {
      await vaultUntouched(r);
      expect(resultsOf(r.requests)[2]).toMatch(ZONE_SAYS);
    },
  },
  // ---- keys ------------------------------------------------------------------------------------
  {
    path: 'Tab into a zone, then Enter',
    canary: 'CANARY-tab-7f3a',
    fixture: 'deny-keys.html',
    model_: () =>
      sequence(
        (req) => call('click', { ref: refFor(latestMap(req), 'textbox', 'Search') }),
        call('press_key', { key: 'Tab' }),
        call('press_key', { key: 'Enter' }),
        call('done', { summary: 'pressed' }),
      ),
    check: async ({ page, requests }) => {
      const [, tab, enter] = resultsOf(requests);
      expect(tab).toMatch(/FAILED: This press_key would act inside an area the site keeps from the agent \(where Tab moves focus\)/);
      expect(enter).toMatch(/Pressed Enter in textbox "Search"/);
      expect(await page.evaluate(() => (window as any).pressed)).toEqual(['search-enter']);
    },
  },
  {
    path: 'Shift+Tab into a zone, then Enter',
    canary: 'CANARY-tab-7f3a',
    fixture: 'deny-keys.html',
    model_: () =>
      sequence(
        (req) => call('press_key', { key: 'Shift+Tab', ref: refFor(latestMap(req), 'button', 'After') }),
        call('press_key', { key: 'Enter' }),
        call('done', { summary: 'pressed' }),
      ),
    check: async ({ page, requests }) => {
      const [tab] = resultsOf(requests);
      expect(tab).toMatch(/FAILED: This press_key would act inside an area the site keeps from the agent \(where Tab moves focus\)/);
      expect(await page.evaluate(() => (window as any).pressed)).not.toContain('zone');
    },
  },
  {
    path: 'press_key while focus sits in a zone',
    canary: 'CANARY-focus-7f3a',
    fixture: 'deny-focus.html',
    model_: () => sequence(call('press_key', { key: 'x' }), call('press_key', { key: 'Tab' }), call('done', { summary: 'pressed' })),
    check: async ({ page, requests }) => {
      const [x, tab] = resultsOf(requests);
      expect(x).toMatch(/FAILED: This press_key would act inside an area the site keeps from the agent \(the focused element\)/);
      expect(tab).toMatch(ZONE_SAYS);
      expect(await page.evaluate(() => ({ keys: (window as any).keys, value: (document.getElementById('pin') as HTMLInputElement).value }))).toEqual({
        keys: [],
        value: '',
      });
    },
  },
  // ---- pixels and points -----------------------------------------------------------------------
  {
    path: 'a screenshot for a vision model',
    canary: 'CANARY-shot-7f3a',
    fixture: 'deny-shot.html',
    model: MODELS.gemini,
    vision: true,
    model_: () => sequence(call('done', { summary: 'seen' })),
    check: async ({ page, requests }) => {
      const colours = await shotColours(page, imageOf(requests[0]!), { x: 104, y: 204, w: 392, h: 192 }, { x: 710, y: 210, w: 180, h: 100 });
      expect(colours.green).toBeGreaterThan(0.8); // the picture is the page
      expect(colours.magenta).toBe(0); // and the zone is not in it
    },
  },
  {
    path: 'click_at into a zone',
    canary: 'CANARY-shot-7f3a',
    fixture: 'deny-shot.html',
    model_: () => sequence(call('click_at', { x: 300 / 1280, y: 300 / 800 }), call('done', { summary: 'clicked' })),
    check: async ({ page, requests }) => {
      expect(resultsOf(requests)[0]).toMatch(ZONE_SAYS);
      expect(await page.evaluate(() => (window as any).zoneClicks)).toBe(0);
    },
  },
  {
    path: 'scroll without a ref, over a zone that scrolls',
    canary: 'CANARY-scroll-7f3a',
    fixture: 'deny-scroll.html',
    model_: () => sequence(call('scroll', { direction: 'down' }), call('done', { summary: 'scrolled' })),
    check: async ({ page, requests }) => {
      expect(resultsOf(requests)[0]).toMatch(/scroll/i);
      expect(await page.evaluate(() => document.getElementById('pane')!.scrollTop)).toBe(0);
    },
  },
  // ---- edges: what is outside a zone but reaches into it (deny-edges.html) ---------------------
  {
    path: "an outside field's <datalist> kept in a zone (options= in the map)",
    canary: 'CANARY-datalist-7f3a',
    fixture: 'deny-edges.html',
    model_: lookAndRead('City'),
    check: mapShows(/\[\d+\]combobox "City"/),
  },
  {
    path: "a select's options kept in a zone (options= in the map)",
    canary: 'CANARY-optzone-7f3a',
    fixture: 'deny-edges.html',
    model_: lookAndRead('Plan'),
    check: mapShows(/\[\d+\]combobox "Plan"[^\n]*options=Basic\|Pro/),
  },
  {
    path: 'a select whose chosen option is in a zone (its value)',
    canary: 'CANARY-chosen-7f3a',
    fixture: 'deny-edges.html',
    model_: lookAndRead('Branch'),
    check: mapShows(/\[\d+\]combobox "Branch"/),
  },
  {
    path: 'ArrowDown on a select onto an option in a zone',
    canary: 'CANARY-arrow-7f3a',
    fixture: 'deny-edges.html',
    model_: () =>
      sequence((req) => call('press_key', { key: 'ArrowDown', ref: refFor(latestMap(req), 'combobox', 'Tier') }), call('done', { summary: 'pressed' })),
    check: async ({ page, requests }) => {
      expect(resultsOf(requests)[0]).toMatch(/FAILED: .*would act inside an area the site keeps from the agent/);
      expect(await page.evaluate(() => ({ tier: (document.getElementById('tier') as HTMLSelectElement).value, log: (window as any).log }))).toEqual({
        tier: 'Bronze',
        log: [],
      });
    },
  },
  {
    path: "a select's zone option reached by its first letter, and find of its words",
    canary: 'CANARY-letter-7f3a',
    fixture: 'deny-edges.html',
    model_: () =>
      sequence(
        (req) => call('press_key', { key: 'z', ref: refFor(latestMap(req), 'combobox', 'Tier') }),
        call('find', { query: 'Zinc' }),
        call('done', { summary: 'pressed' }),
      ),
    check: async ({ page, requests }) => {
      expect(resultsOf(requests)[1]).toMatch(/Nothing matches/);
      expect(await page.evaluate(() => (document.getElementById('tier') as HTMLSelectElement).value)).toBe('Bronze');
    },
  },
  {
    path: "Enter in an outside field whose form's default button is in a zone",
    canary: 'CANARY-submit-7f3a',
    fixture: 'deny-edges.html',
    model_: () =>
      sequence((req) => call('press_key', { key: 'Enter', ref: refFor(latestMap(req), 'textbox', 'Coupon') }), call('done', { summary: 'pressed' })),
    check: async ({ page, requests }) => {
      expect(resultsOf(requests)[0]).toMatch(/FAILED: .*would act inside an area the site keeps from the agent/);
      expect(await page.evaluate(() => (window as any).log)).toEqual([]);
    },
  },
  {
    path: 'Enter in a form whose default button sits in a zone through form=',
    canary: 'CANARY-formattr-7f3a',
    fixture: 'deny-edges.html',
    model_: () =>
      sequence((req) => call('press_key', { key: 'Enter', ref: refFor(latestMap(req), 'textbox', 'Gift code') }), call('done', { summary: 'pressed' })),
    check: async ({ page, requests }) => {
      expect(resultsOf(requests)[0]).toMatch(/FAILED: .*would act inside an area the site keeps from the agent/);
      expect(await page.evaluate(() => (window as any).log)).toEqual([]);
    },
  },
  {
    path: 'ArrowDown on an outside radio into a zone radio of its group',
    canary: 'CANARY-radio-7f3a',
    fixture: 'deny-edges.html',
    model_: () =>
      sequence((req) => call('press_key', { key: 'ArrowDown', ref: refFor(latestMap(req), 'radio', 'Standard') }), call('done', { summary: 'pressed' })),
    check: async ({ page, requests }) => {
      expect(resultsOf(requests)[0]).toMatch(/FAILED: .*would act inside an area the site keeps from the agent/);
      expect(await page.evaluate(() => ({ zone: (document.getElementById('ship-zone') as HTMLInputElement).checked, log: (window as any).log }))).toEqual({
        zone: false,
        log: [],
      });
    },
  },
  {
    path: 'click_at on an outside label whose control (for=) is in a zone',
    canary: 'CANARY-clickat-7f3a',
    fixture: 'deny-edges.html',
    model_: () => sequence(call('click_at', { x: 1020 / 1280, y: 40 / 800 }), call('done', { summary: 'clicked' })),
    check: async ({ page, requests }) => {
      expect(resultsOf(requests)[0]).toMatch(/FAILED: .*would act inside an area the site keeps from the agent/);
      expect(await page.evaluate(() => ({ box: (document.getElementById('at-box') as HTMLInputElement).checked, log: (window as any).log }))).toEqual({
        box: false,
        log: [],
      });
    },
  },
  {
    path: 'double_click and hover on an outside label whose control is in a zone',
    canary: 'CANARY-clickat-7f3a',
    fixture: 'deny-edges.html',
    model_: () =>
      sequence(
        (req) => call('double_click', { ref: elementNamed(latestMap(req), 'Remember this device') }),
        (req) => call('hover', { ref: elementNamed(latestMap(req), 'Remember this device') }),
        call('done', { summary: 'tried' }),
      ),
    check: async ({ page, requests }) => {
      const [dbl, hover] = resultsOf(requests);
      expect(dbl).toMatch(/FAILED: .*would act inside an area the site keeps from the agent/);
      expect(hover).toMatch(/FAILED: .*would act inside an area the site keeps from the agent/);
      expect(await page.evaluate(() => (document.getElementById('at-box') as HTMLInputElement).checked)).toBe(false);
    },
  },
  {
    path: 'aria-owns from an outside listbox into a zone',
    canary: 'CANARY-owns-7f3a',
    fixture: 'deny-edges.html',
    model_: lookAndRead('Colours'),
    check: mapShows(/\[\d+\]listbox "Colours"/),
  },
  {
    path: 'aria-controls from an outside button into a zone, then a click on it',
    canary: 'CANARY-controls-7f3a',
    fixture: 'deny-edges.html',
    model_: () => sequence((req) => call('click', { ref: refFor(latestMap(req), 'button', 'Details') }), call('done', { summary: 'clicked' })),
    check: async ({ page, requests }) => {
      expect(resultsOf(requests)[0]).toMatch(/Clicked button "Details"/);
      expect(await page.evaluate(() => (window as any).log)).toEqual(['details']);
    },
  },
  {
    path: 'aria-activedescendant of an outside combobox into a zone',
    canary: 'CANARY-activedesc-7f3a',
    fixture: 'deny-edges.html',
    model_: () =>
      sequence(
        call('find', { query: 'Search city' }),
        (req) => call('type', { ref: refFor(latestMap(req), 'combobox', 'Search city'), text: 'Pa' }),
        call('read', {}),
        call('done', { summary: 'looked' }),
      ),
    check: mapShows(/\[\d+\]combobox "Search city"/),
  },
  {
    path: 'Tab into a shadow root inside a zone',
    canary: 'CANARY-shadowzone-7f3a',
    fixture: 'deny-edges.html',
    model_: () =>
      sequence((req) => call('press_key', { key: 'Tab', ref: refFor(latestMap(req), 'textbox', 'Nickname') }), call('done', { summary: 'pressed' })),
    check: async ({ page, requests }) => {
      expect(resultsOf(requests)[0]).toMatch(/FAILED: .*would act inside an area the site keeps from the agent/);
      expect(await page.evaluate(() => (window as any).log)).toEqual([]);
    },
  },
  {
    path: 'a drag whose path passes over a zone',
    canary: 'CANARY-dragpath-7f3a',
    fixture: 'deny-edges.html',
    model_: () =>
      sequence(
        (req) => call('drag', { ref: refFor(latestMap(req), 'button', 'Knob'), to_ref: elementNamed(latestMap(req), 'Bin') }),
        call('done', { summary: 'dragged' }),
      ),
    check: async ({ page, requests }) => {
      expect(resultsOf(requests)[0]).toMatch(/FAILED: .*would act inside an area the site keeps from the agent/);
      expect(await page.evaluate(() => (window as any).log)).toEqual([]);
    },
  },
  {
    path: 'select_option of a zone option of an outside select, by its value',
    canary: 'CANARY-optzone-7f3a',
    fixture: 'deny-edges.html',
    model_: () =>
      sequence((req) => call('select_option', { ref: refFor(latestMap(req), 'combobox', 'Plan'), option: ['z1'] }), call('done', { summary: 'picked' })),
    check: async ({ page, requests }) => {
      expect(resultsOf(requests)[0]).toMatch(/FAILED/);
      expect(await page.evaluate(() => ({ plan: (document.getElementById('plan') as HTMLSelectElement).value, log: (window as any).log }))).toEqual({
        plan: 'Basic',
        log: [],
      });
    },
  },
  {
    path: 'select all (Control+A) on the page, then read',
    canary: 'CANARY-owns-7f3a',
    fixture: 'deny-edges.html',
    model_: () => sequence(call('press_key', { key: 'Control+a' }), call('read', {}), call('done', { summary: 'read' })),
    check: ({ requests }) => {
      const [all, read] = resultsOf(requests);
      expect(all).toMatch(/Selected all/);
      expect(read).toMatch(/Text of the page/);
    },
  },
  {
    path: 'typing into an editor that holds a zone (the value reported back)',
    canary: 'CANARY-typed-7f3a',
    fixture: 'deny-edges.html',
    model_: () =>
      sequence((req) => call('type', { ref: refFor(latestMap(req), 'textbox', 'Message'), text: 'there', replace: false }), call('done', { summary: 'typed' })),
    check: async ({ page, requests }) => {
      expect(resultsOf(requests)[0]).toMatch(/Typed "there" into textbox "Message"/);
      expect(await page.evaluate(() => document.getElementById('msg')!.textContent)).toMatch(/there/);
    },
  },
  {
    path: 'a select the page moves onto a zone option as it changes (the value reported back)',
    canary: 'CANARY-after-7f3a',
    fixture: 'deny-edges.html',
    model_: () =>
      sequence((req) => call('select_option', { ref: refFor(latestMap(req), 'combobox', 'Size'), option: ['M'] }), call('done', { summary: 'picked' })),
    check: async ({ page, requests }) => {
      expect(resultsOf(requests)[0]).toMatch(/Selected "M"/);
      expect(await page.evaluate(() => (document.getElementById('size') as HTMLSelectElement).selectedIndex)).toBe(2);
    },
  },
  {
    path: 'the page moves focus into a zone during a key, then a key without a ref',
    canary: 'CANARY-trap-7f3a',
    fixture: 'deny-edges.html',
    model_: () =>
      sequence(
        (req) => call('press_key', { key: 'Enter', ref: refFor(latestMap(req), 'textbox', 'Promo') }),
        call('press_key', { key: 'x' }),
        call('done', { summary: 'pressed' }),
      ),
    check: async ({ page, requests }) => {
      const [enter, x] = resultsOf(requests);
      expect(enter).toMatch(/Pressed Enter in textbox "Promo"/);
      expect(x).toMatch(/FAILED: This press_key would act inside an area the site keeps from the agent \(the focused element\)/);
      expect(await page.evaluate(() => ({ log: (window as any).log, trap: (document.getElementById('trap') as HTMLInputElement).value }))).toEqual({
        log: [],
        trap: '',
      });
    },
  },
  {
    path: 'outside hands still work beside zones (Enter submits, arrows move between outside radios, Apply and a short drag)',
    canary: 'CANARY-radio-7f3a',
    fixture: 'deny-edges.html',
    model_: () =>
      sequence(
        (req) => call('press_key', { key: 'Enter', ref: refFor(latestMap(req), 'combobox', 'City') }),
        (req) => call('press_key', { key: 'ArrowDown', ref: refFor(latestMap(req), 'radio', 'Express') }),
        (req) => call('click', { ref: refFor(latestMap(req), 'button', 'Apply') }),
        (req) => call('press_key', { key: 'ArrowUp', ref: refFor(latestMap(req), 'combobox', 'Branch') }),
        (req) => call('drag', { ref: refFor(latestMap(req), 'button', 'Knob'), dx: 100, dy: 0 }),
        call('done', { summary: 'done' }),
      ),
    check: async ({ page, requests }) => {
      const results = resultsOf(requests);
      for (const r of results.slice(0, 5)) expect(r).not.toMatch(/FAILED/);
      expect(
        await page.evaluate(() => ({
          log: (window as any).log,
          std: (document.querySelector('input[value=std]') as HTMLInputElement).checked,
        })),
      ).toEqual({ log: ['form-main', 'apply', 'coupon-submit'], std: true });
    },
  },
];

describe('deny zones never reach the model and never take an action', () => {
  it('has a case per path, each with its own zone', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(20);
    expect(new Set(CASES.map((c) => c.path)).size).toBe(CASES.length);
  });

  it.each(CASES.map((c) => [c.path, c] as const))('%s', async (_path, c) => {
    stack.setPolicy(c.model_());
    const before = stack.requests().length;
    const page = await open(session, `adversarial/${c.fixture}`);
    try {
      if (c.deny) await page.evaluate((deny) => (window as any).pagehand.init({ deny }), c.deny);
      const run = await runAgent(page, stack, 'Do what the page asks.', {
        model: c.model ?? MODELS.openai,
        vision: c.vision ?? false,
        confirm: () => true,
        timeoutMs: 40_000,
      });
      const result = await run.result;
      const requests = stack.requests().slice(before);
      expect(requests.length, `the run asked the model (${result.summary})`).toBeGreaterThan(0);
      expect(result.reason, result.summary).toBeUndefined();
      // The page really holds the canary (so its absence below means something)…
      expect(
        await page.evaluate((canary) => {
          const texts = [
            document.documentElement.outerHTML,
            ...[...document.querySelectorAll('*')].map((e) => e.shadowRoot?.innerHTML ?? ''),
            ...[...document.querySelectorAll('iframe')].map((f) => f.contentDocument?.documentElement.outerHTML ?? ''),
          ];
          return texts.some((t) => t.includes(canary));
        }, c.canary),
      ).toBe(true);
      // …and no request body the model received carries it.
      for (const r of requests) expect(JSON.stringify(r.body), `request #${r.seq}`).not.toContain(c.canary);
      await c.check?.({ page, requests, result });
    } finally {
      await page.close();
    }
  });
});
