/**
 * A run report: one self-contained HTML page of what a run did (`pagehand run --report`, the
 * test kit's `--report`, the panel's "Save report"). Two pure parts shared by the runner and the
 * panel: `reportCollector` gathers a run's events (as the run handle emits them, after
 * redaction: deny-zone text and secrets' values never reach them) into `ReportRun`, and
 * `reportHtml` writes the page. The page needs no script and loads nothing: its CSP says so,
 * screenshots are data: URLs, and every string from the page or the model is escaped.
 */

export interface ReportRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ReportCall {
  name: string;
  args?: Record<string, unknown>;
}

export interface ReportAction {
  call: ReportCall;
  /** The acted-on element as the map showed it, with its box (viewport px) when the call was planned. */
  target?: { ref: string; role: string; name: string; rect?: ReportRect };
  result?: { ok: boolean; message: string };
}

/** A risky call asked about, and the answer. */
export interface ReportQuestion {
  kind: string;
  reason: string;
  call: ReportCall;
  target?: { role: string; name: string; rect?: ReportRect };
  allowed: boolean;
}

/** The page as the model was shown it for this step, the viewport's size in CSS px. */
export interface ReportShot {
  src: string;
  width: number;
  height: number;
}

export interface ReportStep {
  step: number;
  reasoning?: { evaluation?: string; memory?: string; nextGoal?: string };
  calls?: ReportCall[];
  actions: ReportAction[];
  questions: ReportQuestion[];
  /** The model's words outside its reasoning (a reply without a call), notices, retried errors. */
  messages: string[];
  /** The run's time and tokens so far, at the step's plan. */
  elapsedMs?: number;
  tokens?: number;
  cost?: number;
  url?: string;
  /** On a replay: the recording's step (from 1) this model turn repaired. */
  repairs?: number;
  shot?: ReportShot;
}

export interface ReportRun {
  task: string;
  url?: string;
  /** When the run started (ISO 8601). */
  startedAt?: string;
  ok: boolean;
  summary: string;
  reason?: string;
  steps: ReportStep[];
  usage?: { promptTokens: number; completionTokens: number; cost?: number };
  elapsedMs?: number;
  refused?: ReadonlyArray<{ step: number; call: string; target?: string; kind: string; outcome: string }>;
  replay?: { replayed: number; repaired: number; modelCalls: number };
  /** The test kit's checks that failed after the run (each a sentence). */
  failedChecks?: string[];
  /** Where the report comes from ("pagehand run", "pagehand test", "the pagehand panel"). */
  by?: string;
}

/** End reasons that mean a risky step was not allowed. */
const REFUSED_REASONS = new Set(['refused', 'denied']);
/** End reasons the outcome's one word says already. */
const VERDICT_REASONS = new Set(['done', 'failed', ...REFUSED_REASONS]);

/** The outcome as one word: ok, refused (a risky step was not allowed) or failed. */
export function outcomeOf(r: Pick<ReportRun, 'ok' | 'reason' | 'failedChecks' | 'refused'>): 'ok' | 'failed' | 'refused' {
  if (r.failedChecks?.length) return 'failed';
  if (r.ok) return 'ok';
  // Not done because a risky step was not allowed (the model then gave up or claimed done).
  return REFUSED_REASONS.has(r.reason ?? '') || r.refused?.some((x) => x.outcome === 'denied') ? 'refused' : 'failed';
}

/** An event's payload as the run sends it (JSON from the runner's world, or the handle's own): read defensively. */
interface Payload {
  step?: number;
  phase?: string;
  repairs?: number;
  reasoning?: ReportStep['reasoning'];
  calls?: ReportCall[];
  elapsedMs?: number;
  url?: string;
  usage?: { promptTokens?: number; completionTokens?: number; cost?: number };
  call?: ReportCall;
  target?: ReportAction['target'];
  result?: { ok?: boolean; message?: unknown };
  text?: unknown;
  from?: string;
  message?: unknown;
}

interface RequestPayload {
  kind?: unknown;
  reason?: unknown;
  call?: ReportCall;
  target?: { role?: unknown; name?: unknown; rect?: ReportRect };
}

interface ResultPayload {
  ok?: boolean;
  summary?: unknown;
  reason?: unknown;
  usage?: ReportRun['usage'];
  elapsedMs?: number;
  refused?: ReportRun['refused'];
  replay?: ReportRun['replay'];
}

/** Gathers a run's events into its report's steps (pure: the caller passes each event in). */
export function reportCollector(task: string, url?: string, startedAt?: string) {
  const steps: ReportStep[] = [];
  const stepOf = (n: number): ReportStep => {
    let s = steps.find((x) => x.step === n);
    if (!s) {
      s = { step: n, actions: [], questions: [], messages: [] };
      steps.push(s);
      steps.sort((a, b) => a.step - b.step);
    }
    return s;
  };
  const last = (): ReportStep => steps[steps.length - 1] ?? stepOf(1);
  return {
    steps,
    event(name: string, p: Payload | undefined): void {
      if (!p || typeof p !== 'object') return;
      if (name === 'step' && typeof p.step === 'number' && p.phase !== 'thinking') {
        const s = stepOf(p.step);
        if (p.repairs) s.repairs = p.repairs;
        if (p.phase === 'planned') {
          s.reasoning = p.reasoning;
          s.calls = p.calls;
          s.elapsedMs = p.elapsedMs;
          s.url = p.url;
          if (p.usage) {
            s.tokens = (p.usage.promptTokens ?? 0) + (p.usage.completionTokens ?? 0);
            s.cost = p.usage.cost;
          }
        }
      } else if (name === 'action' && typeof p.step === 'number' && p.call) {
        const s = stepOf(p.step);
        const call = p.call;
        const open = p.phase === 'end' ? s.actions.find((a) => !a.result && a.call.name === call.name) : undefined;
        const a: ReportAction = {
          call,
          ...(p.target || open?.target ? { target: p.target ?? open?.target } : {}),
          ...(p.result ? { result: { ok: !!p.result.ok, message: String(p.result.message ?? '') } } : {}),
        };
        if (open) Object.assign(open, a);
        else s.actions.push(a);
      } else if (name === 'message' && typeof p.text === 'string') {
        last().messages.push(p.text);
      } else if (name === 'error' && typeof p.message === 'string') {
        last().messages.push(p.message);
      }
    },
    /** A risky call was asked about and answered (the answer is the runner's or the user's). */
    question(request: RequestPayload | undefined, allowed: boolean, step?: number): void {
      if (!request?.call) return;
      const s = step ? stepOf(step) : last();
      s.questions.push({
        kind: String(request.kind ?? ''),
        reason: String(request.reason ?? ''),
        call: request.call,
        ...(request.target
          ? { target: { role: String(request.target.role), name: String(request.target.name), ...(request.target.rect ? { rect: request.target.rect } : {}) } }
          : {}),
        allowed,
      });
    },
    shot(step: number, shot: ReportShot): void {
      stepOf(step).shot = shot;
    },
    /** The report of the run that ended with `result`. */
    run(result: ResultPayload | undefined, extra: Partial<ReportRun> = {}): ReportRun {
      return {
        task,
        ...(url ? { url } : {}),
        ...(startedAt ? { startedAt } : {}),
        ok: !!result?.ok,
        summary: String(result?.summary ?? ''),
        ...(result?.reason ? { reason: String(result.reason) } : {}),
        steps,
        ...(result?.usage ? { usage: result.usage } : {}),
        ...(typeof result?.elapsedMs === 'number' ? { elapsedMs: result.elapsedMs } : {}),
        ...(result?.refused?.length ? { refused: result.refused } : {}),
        ...(result?.replay ? { replay: result.replay } : {}),
        ...extra,
      };
    },
  };
}

export type ReportCollector = ReturnType<typeof reportCollector>;

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Every string from a page, the model or the user goes through this (text and attributes). */
export const esc = (v: unknown): string => String(v ?? '').replace(/[&<>"']/g, (c) => ESC[c]!);

const seconds = (ms: number | undefined): string => (typeof ms === 'number' ? `${(ms / 1000).toFixed(1)} s` : '');
const usd = (n: number | undefined): string => (typeof n === 'number' ? `$${n.toFixed(n < 0.01 ? 4 : 3)}` : '');
const num = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) ? n : NaN);

/** Only an inline image can be shown: anything else would load from elsewhere. */
const IMAGE = /^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+=*$/;

/** `click [12] button "Send"`, `type [3] textbox "Search" "ernesto"`. */
export function callText(call: ReportCall, target?: { ref?: string; role: string; name: string }): string {
  const args = { ...(call.args ?? {}) };
  const parts = [call.name];
  if (target) {
    parts.push(`[${target.ref ?? args.ref ?? ''}] ${target.role}${target.name ? ` ${JSON.stringify(target.name.slice(0, 80))}` : ''}`);
    delete args.ref;
  }
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined) continue;
    const s = typeof v === 'string' ? v : JSON.stringify(v);
    parts.push(`${k}=${s.length > 200 ? `${s.slice(0, 199)}…` : s}`);
  }
  return parts.join(' ');
}

/** The screenshot with the acted-on element's box drawn over it (in % of the picture: it scales). */
function shotHtml(shot: ReportShot, rects: ReportRect[]): string {
  if (!IMAGE.test(shot.src) || !(num(shot.width) > 0) || !(num(shot.height) > 0)) return '';
  const pct = (v: number, of: number) => `${((v / of) * 100).toFixed(3)}%`;
  const boxes = rects
    .filter((r) => [r.x, r.y, r.width, r.height].every((v) => Number.isFinite(num(v))))
    .map(
      (r) =>
        `<span class="box" style="left:${pct(r.x, shot.width)};top:${pct(r.y, shot.height)};width:${pct(r.width, shot.width)};height:${pct(r.height, shot.height)}"></span>`,
    )
    .join('');
  return `<figure class="shot"><img alt="The page at this step" src="${shot.src}" width="${shot.width}" height="${shot.height}">${boxes}</figure>`;
}

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2329;background:#f4f5f7}
main{max-width:1100px;margin:0 auto;padding:20px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:0}
.outcome{border-radius:8px;padding:14px 18px;margin:12px 0 20px;border:2px solid}
.outcome.ok{background:#ebfbee;border-color:#2f9e44}.outcome.failed{background:#fff5f5;border-color:#e03131}.outcome.refused{background:#fff9db;border-color:#f08c00}
.verdict{font-size:22px;font-weight:700;text-transform:uppercase;letter-spacing:.04em}
.meta{color:#5c6670;font-size:13px}
.step{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:12px 16px;margin:0 0 14px}
.step.bad{border:2px solid #e03131}.step.repaired{border:2px solid #7048e8}
.tag{display:inline-block;font-size:12px;font-weight:700;border-radius:4px;padding:1px 6px;margin-left:8px;color:#fff;background:#495057}
.tag.bad{background:#e03131}.tag.repaired{background:#7048e8}.tag.denied{background:#f08c00}.tag.allowed{background:#2f9e44}
.words{margin:6px 0;white-space:pre-wrap}.words b{color:#5c6670;font-weight:600}
ol.acts{margin:6px 0;padding-left:20px}code{font:12px/1.4 ui-monospace,monospace;background:#f1f3f5;padding:1px 4px;border-radius:3px;white-space:pre-wrap;word-break:break-word}
.res.ok{color:#2b8a3e}.res.bad{color:#c92a2a;font-weight:600}
.ask{background:#fff9db;border-left:4px solid #f08c00;padding:6px 10px;margin:6px 0}
.checks{background:#fff5f5;border-left:4px solid #e03131;padding:6px 10px;margin:10px 0}
figure.shot{position:relative;margin:8px 0 0;max-width:min(100%,860px);border:1px solid #ced4da;line-height:0}
figure.shot img{display:block;width:100%;height:auto}
.box{position:absolute;box-sizing:border-box;border:3px solid #e8590c;background:rgba(232,89,12,.14);border-radius:3px}
`;

/**
 * The report as one HTML page: the outcome first, then each step (screenshot with the acted-on
 * element boxed, the calls and their results, the model's words, risk questions and answers,
 * time, tokens, cost); a failed step, the failed checks and a repaired step stand out.
 */
export function reportHtml(run: ReportRun): string {
  const outcome = outcomeOf(run);
  const u = run.usage;
  const tokens = u ? num(u.promptTokens) + num(u.completionTokens) : NaN;
  const facts = [
    `${run.steps.length} step${run.steps.length === 1 ? '' : 's'}`,
    run.elapsedMs !== undefined ? seconds(run.elapsedMs) : '',
    Number.isFinite(tokens) ? `${tokens} tokens` : '',
    usd(u?.cost),
    run.replay ? `replay: ${run.replay.replayed} as recorded, ${run.replay.repaired} repaired, ${run.replay.modelCalls} model calls` : '',
    // A reason the verdict already gives ("failed" under REFUSED would contradict it) is left out.
    run.reason && !VERDICT_REASONS.has(run.reason) ? `reason: ${run.reason}` : '',
  ].filter(Boolean);
  const refused = (run.refused ?? []).map((r) => `<li>step ${esc(r.step)}: ${esc(r.target ?? r.call)} (${esc(r.kind)}) was ${esc(r.outcome)}</li>`).join('');
  const checks = run.failedChecks?.length
    ? `<div class="checks" data-failed-checks><b>Failed check${run.failedChecks.length === 1 ? '' : 's'}</b><ul>${run.failedChecks.map((c) => `<li>${esc(c)}</li>`).join('')}</ul></div>`
    : '';
  const head = `<section class="outcome ${outcome}" data-outcome="${outcome}">
<div class="verdict">${outcome === 'ok' ? 'ok' : outcome === 'refused' ? 'refused' : 'failed'}</div>
<p class="words">${esc(run.summary)}</p>${checks}${refused ? `<p>Steps that did not happen:</p><ul>${refused}</ul>` : ''}
<p class="meta">${facts.map(esc).join(' · ')}</p></section>`;
  const steps = run.steps.map(stepHtml).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>pagehand report: ${esc(run.task.slice(0, 80))}</title>
<style>${STYLE}</style></head>
<body><main>
<h1>${esc(run.task)}</h1>
<p class="meta">${[run.url ? `started on ${esc(run.url)}` : '', run.startedAt ? esc(run.startedAt) : '', run.by ? `by ${esc(run.by)}` : ''].filter(Boolean).join(' · ')}</p>
${head}
<h2>Steps</h2>
${steps || '<p class="meta">No step was taken.</p>'}
</main></body></html>
`;
}

function stepHtml(s: ReportStep): string {
  const failed = s.actions.some((a) => a.result && !a.result.ok);
  const denied = s.questions.some((q) => !q.allowed);
  const cls = ['step', failed || denied ? 'bad' : '', s.repairs ? 'repaired' : ''].filter(Boolean).join(' ');
  const tags = [
    s.repairs ? `<span class="tag repaired">repaired step ${esc(s.repairs)} of the recording</span>` : '',
    failed ? '<span class="tag bad">failed</span>' : '',
    denied ? '<span class="tag denied">denied</span>' : '',
  ].join('');
  const meta = [
    s.elapsedMs !== undefined ? `at ${seconds(s.elapsedMs)}` : '',
    s.tokens !== undefined ? `${s.tokens} tokens so far` : '',
    usd(s.cost),
    s.url ?? '',
  ]
    .filter(Boolean)
    .map(esc)
    .join(' · ');
  const r = s.reasoning ?? {};
  const words = [
    r.evaluation ? `<b>Saw:</b> ${esc(r.evaluation)}` : '',
    r.memory ? `<b>Keeps in mind:</b> ${esc(r.memory)}` : '',
    r.nextGoal ? `<b>Next:</b> ${esc(r.nextGoal)}` : '',
  ].filter(Boolean);
  // Calls that never became actions (done, fail, ask_user, a denied call) show as planned.
  const acted = new Set(s.actions.map((a) => a.call.name));
  const planned = (s.calls ?? []).filter((c) => !acted.has(c.name));
  const acts = [
    ...s.actions.map((a) => {
      const res = a.result ? `<span class="res ${a.result.ok ? 'ok' : 'bad'}">${a.result.ok ? '✓' : '✗ failed:'} ${esc(a.result.message)}</span>` : '';
      return `<li><code>${esc(callText(a.call, a.target))}</code> ${res}</li>`;
    }),
    ...planned.map((c) => `<li><code>${esc(callText(c))}</code></li>`),
  ].join('');
  const questions = s.questions
    .map(
      (q) =>
        `<div class="ask" data-question>Asked: <code>${esc(callText(q.call, q.target))}</code> — ${esc(q.reason)} <span class="tag ${q.allowed ? 'allowed' : 'denied'}">${q.allowed ? 'allowed' : 'denied'}</span></div>`,
    )
    .join('');
  const messages = s.messages.map((m) => `<p class="words">${esc(m)}</p>`).join('');
  // The element acted on, or (a call not allowed) the one it would have acted on.
  const rects = [...s.actions.map((a) => a.target?.rect), ...s.questions.map((q) => q.target?.rect)].filter((x): x is ReportRect => !!x);
  return `<section class="${cls}" data-step="${esc(s.step)}">
<h2>Step ${esc(s.step)}${tags}</h2><p class="meta">${meta}</p>
${words.length ? `<p class="words">${words.join('<br>')}</p>` : ''}${messages}${acts ? `<ol class="acts">${acts}</ol>` : ''}${questions}
${s.shot ? shotHtml(s.shot, rects.slice(0, 1)) : ''}</section>`;
}
