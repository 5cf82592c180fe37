/**
 * Issue 28's hands: a canvas acted on by its ref, drags that start at a point of the viewport
 * (to a point or by an offset), key combinations delivered a task apart (a React shortcut
 * recorder that re-registers its listener per key), and `accept` read by the HTML rules.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ActionResult } from '../../client/page/actions/contract';
import { open, useSession } from './harness';
import { act, mapElements, refOf } from './actions-helpers';

const s = useSession(); // 1280x800

/** Where the canvas's content box starts in the viewport (margin 40/20, border 2). */
const PAD = { left: 42, top: 22 };
/** A point of the canvas (canvas pixels) as fractions of the viewport, as click_at takes it. */
const frac = (x: number, y: number) => ({ x: (PAD.left + x) / 1280, y: (PAD.top + y) / 800 });

interface Drawn {
  strokes: Array<{ from: [number, number]; to: [number, number]; points: number }>;
  block: [number, number];
  clicks: Array<[number, number]>;
}
const drawn = async (page: Page): Promise<Drawn> => JSON.parse((await page.textContent('#log')) ?? '{}');
/** Within a pixel: a fraction of the viewport lands on a pixel's edge. */
const near = (got: readonly number[], want: readonly number[]) => {
  expect(got.length).toBe(want.length);
  got.forEach((v, i) => expect(Math.abs(v - want[i]!), `${JSON.stringify(got)} vs ${JSON.stringify(want)}`).toBeLessThanOrEqual(1));
};

async function canvasRef(page: Page): Promise<string> {
  const hits = (await mapElements(page)).filter((e) => e.role === 'canvas');
  expect(hits).toHaveLength(1);
  return hits[0]!.ref;
}

describe('a canvas by its ref', () => {
  it('click and drag take the ref the map lists', async () => {
    const page = await open(s, 'actions/canvas-draw.html');
    const ref = await canvasRef(page);
    let r = await act(page, 'click', { ref });
    expect(r.ok, r.message).toBe(true);
    near((await drawn(page)).clicks[0]!, [300, 150]);
    r = await act(page, 'drag', { ref, dx: 100, dy: 50 });
    expect(r.ok, r.message).toBe(true);
    // The click made a dot (a stroke of its own); the drag is the second stroke.
    const { strokes } = await drawn(page);
    expect(strokes).toHaveLength(2);
    const stroke = strokes[1]!;
    near(stroke.from, [300, 150]);
    near(stroke.to, [400, 200]);
    await page.close();
  });
});

describe('drag from a point', () => {
  it('to a point: a block drawn on the canvas moves where it is let go', async () => {
    const page = await open(s, 'actions/canvas-draw.html');
    const from = frac(70, 70);
    const to = frac(270, 170);
    const r = await act(page, 'drag', { x: from.x, y: from.y, to_x: to.x, to_y: to.y });
    expect(r.ok, r.message).toBe(true);
    expect(r.message).toMatch(/^Dragged from \(/);
    const d = await drawn(page);
    near(d.block, [240, 140]);
    expect(d.strokes).toEqual([]);
    await page.close();
  });

  it('by an offset: the stroke runs from the point, with moves between', async () => {
    const page = await open(s, 'actions/canvas-draw.html');
    const from = frac(200, 250);
    const r = await act(page, 'drag', { x: from.x, y: from.y, dx: 150, dy: -100 });
    expect(r.ok, r.message).toBe(true);
    const d = await drawn(page);
    expect(d.strokes).toHaveLength(1);
    near(d.strokes[0]!.from, [200, 250]);
    near(d.strokes[0]!.to, [350, 150]);
    expect(d.strokes[0]!.points).toBeGreaterThan(2);
    near(d.block, [40, 40]);
    await page.close();
  });

  it('half a point is a clear error; a point off the canvas draws nothing on it', async () => {
    const page = await open(s, 'actions/canvas-draw.html');
    let r = await act(page, 'drag', { x: 0.5, to_x: 0.6, to_y: 0.5 });
    expect(r).toMatchObject({ ok: false, error: { kind: 'bad_args' } });
    expect(r.message).toMatch(/"x" and "y" go together/);
    r = await act(page, 'drag', { x: 0.1, y: 0.1, to_x: 0.2 });
    expect(r).toMatchObject({ ok: false, error: { kind: 'bad_args' } });
    expect(r.message).toMatch(/"to_x" and "to_y" go together/);
    // Past the canvas, in the empty page below it: the body is there, so the press is made.
    r = await act(page, 'drag', { x: 0.9, y: 0.9, dx: -10, dy: 0 });
    expect(r.ok, r.message).toBe(true);
    expect((await drawn(page)).strokes).toEqual([]);
    await page.close();
  });
});

describe('keys a task apart', () => {
  it('a React shortcut recorder that re-registers its listener per key records Control+Shift+Y', async () => {
    const page = await open(s, 'actions/shortcut-recorder-react.html');
    const ref = await refOf(page, 'textbox', /Open palette/);
    const r = await act(page, 'press_key', { key: 'Control+Shift+Y', ref });
    expect(r.ok, r.message).toBe(true);
    expect(await page.textContent('#combo')).toBe('Control+Shift+Y');
    await page.close();
  });
});

describe('accept by the HTML rules', () => {
  const file = (name: string, type: string) => ({ name, type, text: 'data' });
  const actWith = (page: Page, args: Record<string, unknown>, files: Array<ReturnType<typeof file>>): Promise<ActionResult> =>
    page.evaluate(
      ([a, f]) => (window as any).pagehand.act({ name: 'upload', args: a }, { files: f.map((x) => new File([x.text], x.name, { type: x.type })) }),
      [args, files] as const,
    );

  it('*/* takes any file; a family, extensions and case are read as the picker reads them', async () => {
    const page = await open(s, 'actions/upload-accept.html');
    const files = [file('notes.txt', 'text/plain'), file('take.MP3', 'audio/mpeg'), file('ME.PNG', 'image/png'), file('scan.pdf', 'application/pdf')];
    let r = await actWith(page, { ref: await refOf(page, 'button', /Any file/), files: ['notes.txt'] }, files);
    expect(r.ok, r.message).toBe(true);
    r = await actWith(page, { ref: await refOf(page, 'button', /Recording/), files: ['take.MP3'] }, files);
    expect(r.ok, r.message).toBe(true);
    r = await actWith(page, { ref: await refOf(page, 'button', /Picture/), files: ['ME.PNG'] }, files);
    expect(r.ok, r.message).toBe(true);
    r = await actWith(page, { ref: await refOf(page, 'button', /Scan/), files: ['scan.pdf'] }, files);
    expect(r.ok, r.message).toBe(true);
    r = await actWith(page, { ref: await refOf(page, 'button', /Recording/), files: ['notes.txt'] }, files);
    expect(r.ok).toBe(false);
    expect(await page.textContent('#log')).toBe('any notes.txt;audio take.MP3;pic ME.PNG;scan scan.pdf;');
    await page.close();
  });
});
