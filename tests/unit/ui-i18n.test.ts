/**
 * The panel's languages: every language has exactly English's keys, of the same kinds, with the
 * numbers and names put inside its sentences kept (through Intl, in its own digits); each loads
 * through its own module; and which language a page gets (the user's choice, the site's word,
 * the page's, the browser's — and on a stranger's page only the user's and the browser's).
 */
import { describe, expect, it } from 'vitest';
import { en, say, type Strings } from '../../client/ui/i18n';
import type { Said, SaidCode, SaidParams } from '../../common/said';
import { money, num } from '../../client/ui/format';
import { chooseLang, isRtl, LANGUAGES, matchLang, type Lang } from '../../client/ui/languages';
import { loadStrings } from '../../client/ui/lang-load';

const CODES = Object.keys(LANGUAGES) as Lang[];
const tables = new Map<Lang, Strings>();
for (const code of CODES) tables.set(code, await loadStrings(code));

/** A language's table without its wording of pagehand's codes (English has none: the engine's sentences are its words). */
const base = ({ said: _said, ...rest }: Strings): object => rest;

/**
 * One of each code, with its parameters as stand-ins that must reach the sentence (`kind`,
 * `site`, `password`: each value, for the variants). Typed so tsc asks for every code there is.
 */
const SAMPLES: { [K in SaidCode]: Array<SaidParams[K]> } = {
  does: [{ kind: 'payment' }, { kind: 'deletion' }, { kind: 'sending' }],
  doesSeen: [
    { kind: 'deletion', text: '"⟦Delete⟧"', label: '"⟦Archive⟧"' },
    { kind: 'payment', text: '"⟦Pay⟧"' },
  ],
  doesIcon: [{ kind: 'deletion', icon: '⟦trash⟧' }],
  doesForm: [{ kind: 'payment', path: '⟦/pay⟧' }],
  doesLink: [{ kind: 'deletion', path: '⟦/account/delete⟧' }],
  doesPing: [{ kind: 'sending', path: '⟦/ping⟧' }],
  doesAnswer: [{ kind: 'deletion', question: '"⟦Delete your account?⟧"' }],
  editorSends: [{}],
  deleteRequest: [{}],
  cardFields: [{}],
  formElsewhere: [{ to: '⟦https://pay.example⟧' }],
  pingElsewhere: [{ to: '⟦https://track.example⟧' }],
  personal: [
    { fields: '⟦email, phone⟧', password: false },
    { fields: '⟦password⟧', password: true },
  ],
  download: [{}],
  leaves: [{ to: '⟦https://elsewhere.example⟧' }],
  marked: [
    { kind: 'payment', site: true },
    { kind: 'deletion', site: false },
  ],
  unjudged: [{}],
  siteTool: [{ name: '⟦cancelOrder⟧', about: '⟦Cancels an order⟧' }],
  pageTool: [{ name: '⟦helper⟧' }],
  notVisible: [{}],
  // A cover the engine names by the page's own words; a layer by its role, with and without a label.
  covered: [{ cover: '⟦div.banner ("Cookies")⟧' }, { cover: 'dialog "Cookies"', role: 'dialog', name: '⟦Cookies⟧' }, { cover: 'menu (ul.nav)', role: 'menu' }],
  disabled: [{}],
  readOnly: [{}],
  moving: [{}],
  unreachable: [{}],
  gone: [{}],
  zone: [{}],
  model: [{ why: 'network' }, { why: 'upstream_rate_limited' }, { why: 'invalid_token' }, { why: '⟦odd_code⟧' }],
  maxSteps: [{ max: 40 }],
  loop: [{}],
  errors: [{ count: 5 }],
  noToolCall: [{}],
  gaveUp: [{}],
  noSummary: [{}],
  invalidData: [{}],
  replayMaxSteps: [{ max: 40 }],
  replayStartDenied: [{ url: '⟦https://shop.example/start⟧' }],
  replayDenied: [{ step: 4 }],
  replayNeedsRepair: [{ step: 4 }],
  replayUnrepaired: [{ step: 4, tries: 3 }],
  replayed: [
    { replayed: 6, repaired: 0 },
    { replayed: 6, repaired: 2 },
  ],
};
const CODE_LIST = Object.keys(SAMPLES).sort();

/** Every key path (kinds.payment …) with what it holds: 'string' or the function's arity. */
function shape(o: object, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v && typeof v === 'object') Object.assign(out, shape(v, `${prefix}${k}.`));
    else out[`${prefix}${k}`] = typeof v === 'function' ? `fn/${v.length}` : typeof v;
  }
  return out;
}

/** The functions that take numbers; the others take a name, a reason or a kind. */
const NUMERIC = new Set(['step', 'tokens', 'cost', 'retrying', 'browserModelProgress']);

/** Every string a table shows, its functions called with stand-ins. */
function texts(t: Strings): string[] {
  const out: string[] = [];
  const walk = (o: object): void => {
    for (const [k, v] of Object.entries(o)) {
      if (typeof v === 'string') out.push(v);
      else if (typeof v === 'function') out.push(String(v(...Array(v.length).fill(NUMERIC.has(k) ? 3 : 'Name'))));
      else if (v && typeof v === 'object') walk(v);
    }
  };
  walk(t);
  return out;
}

describe('every language has every key', () => {
  it('at least twelve languages, English and the issue’s eleven among them, Hebrew too', () => {
    expect(CODES.length).toBeGreaterThanOrEqual(12);
    for (const code of ['en', 'es', 'fr', 'de', 'it', 'pt', 'nl', 'pl', 'ja', 'zh', 'ko', 'ar', 'he']) expect(CODES).toContain(code);
  });

  it.each(CODES.filter((c) => c !== 'en'))('%s: exactly English’s keys (no extra, none missing), each a string or a function of as many arguments', (code) => {
    expect(shape(base(tables.get(code)!))).toEqual(shape(en));
  });

  it.each(CODES.filter((c) => c !== 'en'))('%s: words every code pagehand says (risk reasons, action failures, how a run ended), and no other', (code) => {
    const said = tables.get(code)!.said!;
    expect(Object.keys(said).sort()).toEqual(CODE_LIST);
    for (const [c, samples] of Object.entries(SAMPLES) as Array<[SaidCode, object[]]>) {
      const out = samples.map((p) => (said[c] as (p: object) => string)(p));
      for (const [i, s] of out.entries()) {
        expect(s.trim().length, `${code}.${c}`).toBeGreaterThan(0);
        expect(s, `${code}.${c}`).not.toMatch(/undefined|NaN|\$\{|\[object /);
        // Names, paths, origins and the page's own words go in whole.
        for (const v of Object.values(samples[i]!)) if (typeof v === 'string' && v.includes('⟦')) expect(s, `${code}.${c}`).toContain(v);
      }
      // Variants read differently (each kind, site or page, a new password or not, each kind of trouble).
      expect(new Set(out).size, `${code}.${c}`).toBe(out.length);
    }
    // Numbers in the language's own digits; a kind by the language's own name for it.
    expect(said.maxSteps({ max: 40 })).toContain(num(40, code));
    expect(said.errors({ count: 5 })).toContain(num(5, code));
    expect(said.replayMaxSteps({ max: 40 })).toContain(num(40, code));
    for (const k of ['replayDenied', 'replayNeedsRepair'] as const) expect(said[k]({ step: 4 }), `${code}.${k}`).toContain(num(4, code));
    expect(said.replayUnrepaired({ step: 4, tries: 3 })).toContain(num(4, code));
    expect(said.replayUnrepaired({ step: 4, tries: 3 })).toContain(num(3, code));
    expect(said.replayed({ replayed: 6, repaired: 2 })).toContain(num(6, code));
    expect(said.replayed({ replayed: 6, repaired: 2 })).toContain(num(2, code));
    // A replay's ending is the language's, not the engine's English (`step`, `recording`, `replay`).
    for (const s of [said.replayDenied({ step: 4 }), said.replayed({ replayed: 6, repaired: 2 })]) expect(s).not.toMatch(/\b(step|recording|replay)/i);
    // A covering layer's role is said in the language: the English role word is not the sentence's.
    expect(said.covered({ cover: 'dialog "Cookies"', role: 'dialog', name: '⟦Cookies⟧' })).not.toMatch(/dialog\b/);
    const t = tables.get(code)!;
    expect(said.marked({ kind: 'payment', site: true }).toLowerCase()).toContain(t.kinds.payment.toLowerCase());
    // Not English left over.
    expect(said.does({ kind: 'deletion' })).not.toMatch(/may delete/i);
    expect(said.notVisible({})).not.toMatch(/not visible/i);
  });

  it('the panel words a code in its language, and shows the engine’s English where it has no table or no code', () => {
    const es = tables.get('es')!;
    const reason: Said = { code: 'does', kind: 'deletion' };
    expect(say(es, 'Clicking button "Delete" may delete something.', reason)).toBe(es.said!.does({ kind: 'deletion' }));
    expect(say(en, 'Clicking button "Delete" may delete something.', reason)).toBe('Clicking button "Delete" may delete something.');
    expect(say(es, 'The agent said this.', undefined)).toBe('The agent said this.');
  });

  it.each(CODES)('%s: its own module, its code, nothing empty or left unfilled', (code) => {
    const t = base(tables.get(code)!) as Strings;
    expect(t.locale).toBe(code);
    expect(t.title).toBe('pagehand');
    for (const s of texts(t)) {
      expect(s.trim().length, `${code}: ${JSON.stringify(s)}`).toBeGreaterThan(0);
      expect(s).not.toMatch(/undefined|NaN|\$\{|\[object /);
    }
    if (code !== 'en') {
      // Written in the language, not English left over.
      for (const k of ['intro', 'taskLabel', 'send', 'stop', 'confirmTitle', 'deny', 'arming', 'working', 'language'] as const)
        expect(t[k], `${code}.${k}`).not.toBe(en[k]);
    }
  });
});

describe('placeholders are kept', () => {
  it.each(CODES)('%s: names, reasons and kinds go into the sentence; numbers in the language’s own digits', (code) => {
    const t = tables.get(code)!;
    expect(t.agentFailed('⟦why⟧')).toContain('⟦why⟧');
    expect(t.removeFile('⟦cv.pdf⟧')).toContain('⟦cv.pdf⟧');
    expect(t.browserModelProgress(0.42)).toContain(num(42, code));
    for (const kind of Object.values(t.kinds)) {
      expect(t.allowIt(kind).toLowerCase()).toContain(kind.toLowerCase());
      expect(t.allowKind(kind).toLowerCase()).toContain(kind.toLowerCase());
      // A step that did not happen names its kind and its element; a claim no step backs, its kind.
      for (const denied of [true, false]) expect(t.refusedStep(kind, '⟦Save⟧', denied).toLowerCase()).toContain(kind.toLowerCase());
      expect(t.refusedStep(kind, '⟦Save⟧', true)).toContain('⟦Save⟧');
      expect(t.refusedStep(kind, '⟦Save⟧', true)).not.toBe(t.refusedStep(kind, '⟦Save⟧', false));
      expect(t.unbacked(kind).toLowerCase()).toContain(kind.toLowerCase());
    }
    expect(t.budgetStop(true)).not.toBe(t.budgetStop(false));
    const step = t.step(7, 40);
    expect(step).toContain(num(7, code));
    expect(step).toContain(num(40, code));
    expect(t.tokens(12345)).toContain(num(12345, code));
    expect(t.retrying(2.5)).toContain(num(2.5, code));
    expect(t.cost(0.0123)).toBe(money(0.0123, code));
    expect(t.cost(12)).toBe(money(12, code));
    // The syntax the agent reads is shown as it is written.
    expect(t.secretsHint).toContain('<secret:');
    expect(t.expand).toContain('pagehand');
  });

  it('Intl writes each language’s numbers and money its own way', () => {
    expect(num(12345, 'en')).toBe('12,345');
    expect(num(12345, 'de')).toBe('12.345');
    expect(tables.get('fr')!.tokens(12345)).toBe('12\u202f345 jetons');
    expect(tables.get('en')!.cost(0.0123)).toBe('$0.0123');
    expect(tables.get('de')!.cost(0.0123)).toMatch(/^0,0123\s\$$/);
    expect(tables.get('pl')!.tokens(1)).toBe('1 token');
    expect(tables.get('pl')!.tokens(3)).toBe('3 tokeny');
    expect(tables.get('pl')!.tokens(5)).toBe('5 tokenów');
  });
});

describe('which language a page gets', () => {
  const browser = ['de-CH', 'en'];

  it('matches tags to the languages we have: region and script dropped, old codes known, others none', () => {
    expect(matchLang('pt-BR')).toBe('pt');
    expect(matchLang('zh-Hant-TW')).toBe('zh');
    expect(matchLang('ES_mx')).toBe('es');
    expect(matchLang('iw')).toBe('he');
    expect(matchLang('sv-SE')).toBeUndefined();
    expect(matchLang('constructor')).toBeUndefined();
    expect(matchLang('')).toBeUndefined();
    expect(matchLang(undefined)).toBeUndefined();
  });

  it("a site's page: the site's word (open, init, data-lang, in that order) > <html lang> > the browser's languages > English", () => {
    expect(chooseLang({ site: ['ja', 'fr', 'es'], page: 'it', browser })).toBe('ja');
    expect(chooseLang({ site: [undefined, 'fr', 'es'], page: 'it', browser })).toBe('fr');
    expect(chooseLang({ site: [undefined, undefined, 'es'], page: 'it', browser })).toBe('es');
    expect(chooseLang({ site: [], page: 'it-IT', browser })).toBe('it');
    expect(chooseLang({ site: [], page: '', browser })).toBe('de');
    // A language we lack goes on to the next source, not to English.
    expect(chooseLang({ site: ['sv'], page: 'fi', browser: ['nb', 'ko-KR'] })).toBe('ko');
    expect(chooseLang({ site: ['sv'], page: 'fi', browser: ['nb'] })).toBe('en');
  });

  it('the user’s own choice beats every other', () => {
    expect(chooseLang({ chosen: 'ar', site: ['ja'], page: 'it', browser })).toBe('ar');
    expect(chooseLang({ chosen: 'ar', site: ['ja'], page: 'it', browser, stranger: true })).toBe('ar');
  });

  it("a stranger's page (bookmarklet, userscript): the browser's languages; the page's words do not count", () => {
    expect(chooseLang({ site: ['ja', 'fr', 'es'], page: 'it', browser, stranger: true })).toBe('de');
    expect(chooseLang({ site: ['ja'], page: 'it', browser: [], stranger: true })).toBe('en');
  });

  it('Arabic and Hebrew are written right to left, the rest left to right', () => {
    expect(CODES.filter(isRtl)).toEqual(['ar', 'he']);
  });
});
