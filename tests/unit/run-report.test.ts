/**
 * The run report's builder (common/run-report.ts), shared by the runner and the panel: the events
 * gathered into steps, every string escaped wherever it lands, only inline images, the box over
 * the picture in the picture's proportions, and the outcome, a failed step, failed checks and a
 * repaired step told apart.
 */
import { describe, expect, it } from 'vitest';
import { outcomeOf, reportCollector, reportHtml } from '../../common/run-report';

const BAD = '<img src=x onerror=alert(1)></script><script>alert(2)</script>"\'&';
const PNG = 'data:image/png;base64,iVBORw0KGgo=';

function hostileRun() {
  const c = reportCollector(BAD, `https://shop.test/?q=${BAD}`, '2026-01-02T03:04:05.000Z');
  const rect = { x: 100, y: 50, width: 200, height: 40 };
  c.event('step', { step: 1, phase: 'start' });
  c.event('step', { step: 1, phase: 'thinking', text: 'not kept' });
  c.event('step', {
    step: 1,
    phase: 'planned',
    reasoning: { evaluation: BAD, memory: BAD, nextGoal: BAD },
    calls: [{ name: 'click', args: { ref: '7' } }],
    elapsedMs: 1200,
    url: `https://shop.test/${BAD}`,
    usage: { promptTokens: 90, completionTokens: 10, cost: 0.0012 },
  });
  c.event('action', { step: 1, phase: 'start', call: { name: 'click', args: { ref: '7' } }, target: { ref: '7', role: 'button', name: BAD, rect } });
  c.event('action', { step: 1, phase: 'end', call: { name: 'click', args: { ref: '7' } }, result: { ok: false, message: BAD } });
  c.event('message', { text: BAD, from: 'model' });
  c.question({ kind: 'deletion', reason: BAD, call: { name: 'click', args: { ref: '7' } }, target: { role: 'button', name: BAD } }, false);
  c.shot(1, { src: PNG, width: 1000, height: 500 });
  c.event('step', { step: 2, phase: 'start', repairs: 3 });
  c.event('step', { step: 2, phase: 'planned', calls: [{ name: 'type', args: { ref: '2', text: BAD } }] });
  c.shot(2, { src: `javascript:alert(1)//${PNG}`, width: 1000, height: 500 });
  return c.run({ ok: false, summary: BAD, reason: 'failed', usage: { promptTokens: 100, completionTokens: 20 } }, { failedChecks: [BAD] });
}

describe('reportCollector', () => {
  it('gathers each step once, pairs an action with its result, keeps the question and the repair', () => {
    const run = hostileRun();
    expect(run.steps.map((s) => s.step)).toEqual([1, 2]);
    expect(run.steps[0]!.actions).toHaveLength(1);
    expect(run.steps[0]!.actions[0]).toMatchObject({ target: { ref: '7' }, result: { ok: false } });
    expect(run.steps[0]!.questions[0]).toMatchObject({ kind: 'deletion', allowed: false });
    expect(run.steps[0]!.tokens).toBe(100);
    expect(run.steps[1]!.repairs).toBe(3);
  });
});

describe('reportHtml', () => {
  it('escapes every string from the page, the model and the user: no element, no script, no attribute breaks out', () => {
    const html = reportHtml(hostileRun());
    expect(html).not.toMatch(/<script|<\/script|<img src=x|javascript:/i);
    expect(html).not.toMatch(/onerror=alert\(1\)>/);
    const escaped = '&lt;img src=x onerror=alert(1)&gt;&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;&quot;&#39;&amp;';
    // task (title and heading), summary, reasoning x3, message, action, result, question, failed check, url, planned call
    expect(html.split(escaped).length - 1).toBeGreaterThanOrEqual(10);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:;`);
  });

  it("shows only inline pictures, with the box in the picture's proportions", () => {
    const html = reportHtml(hostileRun());
    expect(html.match(/<img /g)).toHaveLength(1);
    expect(html).toContain(`src="${PNG}"`);
    expect(html).toContain('<span class="box" style="left:10.000%;top:10.000%;width:20.000%;height:8.000%"></span>');
  });

  it('puts the outcome first and makes the failed step, the question, the failed check and the repaired step stand out', () => {
    const html = reportHtml(hostileRun());
    expect(html.indexOf('data-outcome="failed"')).toBeLessThan(html.indexOf('data-step="1"'));
    expect(html).toMatch(/<section class="step bad" data-step="1">[^]*<span class="tag bad">failed<\/span><span class="tag denied">denied<\/span>/);
    expect(html).toContain('data-failed-checks');
    expect(html).toContain('<section class="step repaired" data-step="2">');
    expect(html).toContain('repaired step 3 of the recording');
    expect(html).toMatch(/<span class="tag denied">denied<\/span><\/div>/);
  });

  it('names the outcome: ok, refused (a risky step not allowed) or failed; a failed check fails an ok run', () => {
    expect(outcomeOf({ ok: true })).toBe('ok');
    expect(outcomeOf({ ok: true, failedChecks: ['x'] })).toBe('failed');
    expect(outcomeOf({ ok: false, reason: 'refused' })).toBe('refused');
    expect(outcomeOf({ ok: false, reason: 'failed', refused: [{ step: 1, call: 'click [2]', kind: 'deletion', outcome: 'denied' }] })).toBe('refused');
    expect(outcomeOf({ ok: false, reason: 'max_steps' })).toBe('failed');
  });

  it('gives the end reason only where the verdict does not: a refused run whose model then gave up is not also "reason: failed"', () => {
    const base = { task: 't', url: 'https://shop.test/', summary: 's', steps: [] };
    const meta = (run: Parameters<typeof reportHtml>[0]): string => /data-outcome="\w+">[^]*?<p class="meta">([^<]*)<\/p>/.exec(reportHtml(run))![1]!;
    const refused = { ...base, ok: false, reason: 'failed', refused: [{ step: 1, call: 'click [2]', kind: 'deletion', outcome: 'denied' as const }] };
    expect(reportHtml(refused)).toContain('data-outcome="refused"');
    expect(meta(refused)).not.toContain('reason');
    expect(meta({ ...base, ok: false, reason: 'max_steps' })).toContain('reason: max_steps');
    expect(meta({ ...base, ok: true, reason: 'done' })).not.toContain('reason');
  });
});
