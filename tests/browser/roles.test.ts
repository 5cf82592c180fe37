/**
 * Roles in real Chromium, through the bundle's `pagehand.describe(el)`: html-aam's implicit
 * roles, the explicit role's first valid token, and ARIA's presentational-role conflicts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, open, type Session } from './harness';
import { casesPage, type Case } from './describe-harness';

const cases: (Case & { expect: string })[] = [
  // ── links and buttons ──
  { title: 'a with href → link', html: `<a data-t href="/x">x</a>`, expect: 'link' },
  { title: 'a without href → generic', html: `<a data-t name="anchor">x</a>`, expect: 'generic' },
  { title: 'area with href → link', html: `<map name="rm"><area data-t href="#" alt="a"></map>`, expect: 'link' },
  { title: 'area without href → generic', html: `<map name="rm2"><area data-t alt="a"></map>`, expect: 'generic' },
  { title: 'button → button', html: `<button data-t>x</button>`, expect: 'button' },
  { title: 'summary of details → button (documented choice)', html: `<details><summary data-t>More</summary>x</details>`, expect: 'button' },
  { title: 'details → group', html: `<details data-t><summary>More</summary>x</details>`, expect: 'group' },

  // ── inputs ──
  { title: 'input without type → textbox', html: `<input data-t>`, expect: 'textbox' },
  { title: 'input type=text → textbox', html: `<input data-t type="text">`, expect: 'textbox' },
  { title: 'input type=email → textbox', html: `<input data-t type="email">`, expect: 'textbox' },
  { title: 'input type=tel → textbox', html: `<input data-t type="tel">`, expect: 'textbox' },
  { title: 'input type=url → textbox', html: `<input data-t type="url">`, expect: 'textbox' },
  { title: 'input of unknown type → textbox', html: `<input data-t type="bogus">`, expect: 'textbox' },
  { title: 'input type=password → textbox', html: `<input data-t type="password">`, expect: 'textbox' },
  { title: 'input type=text with list → combobox', html: `<input data-t list="rl"><datalist id="rl"><option value="a"></datalist>`, expect: 'combobox' },
  { title: 'input type=email with list → combobox', html: `<input data-t type="email" list="rl2"><datalist id="rl2"></datalist>`, expect: 'combobox' },
  { title: 'input type=search → searchbox', html: `<input data-t type="search">`, expect: 'searchbox' },
  { title: 'input type=search with list → combobox', html: `<input data-t type="search" list="rl3"><datalist id="rl3"></datalist>`, expect: 'combobox' },
  { title: 'input type=checkbox → checkbox', html: `<input data-t type="checkbox">`, expect: 'checkbox' },
  { title: 'input type=checkbox switch → switch', html: `<input data-t type="checkbox" switch>`, expect: 'switch' },
  { title: 'input type=radio → radio', html: `<input data-t type="radio">`, expect: 'radio' },
  { title: 'input type=range → slider', html: `<input data-t type="range">`, expect: 'slider' },
  { title: 'input type=number → spinbutton', html: `<input data-t type="number">`, expect: 'spinbutton' },
  { title: 'input type=button → button', html: `<input data-t type="button" value="b">`, expect: 'button' },
  { title: 'input type=submit → button', html: `<input data-t type="submit">`, expect: 'button' },
  { title: 'input type=reset → button', html: `<input data-t type="reset">`, expect: 'button' },
  { title: 'input type=image → button', html: `<input data-t type="image" alt="go" src="data:,">`, expect: 'button' },
  { title: 'input type=hidden → none', html: `<input data-t type="hidden">`, expect: 'none' },
  { title: 'input type=date → textbox (choice)', html: `<input data-t type="date">`, expect: 'textbox' },
  { title: 'input type=time → textbox (choice)', html: `<input data-t type="time">`, expect: 'textbox' },
  { title: 'input type=color → button (choice)', html: `<input data-t type="color">`, expect: 'button' },
  { title: 'input type=file → button (choice)', html: `<input data-t type="file">`, expect: 'button' },
  { title: 'textarea → textbox', html: `<textarea data-t></textarea>`, expect: 'textbox' },
  { title: 'select → combobox', html: `<select data-t><option>a</option></select>`, expect: 'combobox' },
  { title: 'select size=1 → combobox', html: `<select data-t size="1"><option>a</option></select>`, expect: 'combobox' },
  { title: 'select multiple → listbox', html: `<select data-t multiple><option>a</option></select>`, expect: 'listbox' },
  { title: 'select size=4 → listbox', html: `<select data-t size="4"><option>a</option></select>`, expect: 'listbox' },
  { title: 'option → option', html: `<select><option data-t>a</option></select>`, expect: 'option' },
  { title: 'optgroup → group', html: `<select><optgroup data-t label="g"><option>a</option></optgroup></select>`, expect: 'group' },
  { title: 'datalist → listbox', html: `<datalist data-t></datalist>`, expect: 'listbox' },
  { title: 'fieldset → group', html: `<fieldset data-t></fieldset>`, expect: 'group' },
  { title: 'output → status', html: `<output data-t>1</output>`, expect: 'status' },
  { title: 'progress → progressbar', html: `<progress data-t></progress>`, expect: 'progressbar' },
  { title: 'meter → meter', html: `<meter data-t value="1"></meter>`, expect: 'meter' },
  { title: 'contenteditable root → textbox', html: `<div data-t contenteditable="true"><p>x</p></div>`, expect: 'textbox' },
  { title: 'inside a contenteditable root → not a textbox', html: `<div contenteditable="true"><p data-t>x</p></div>`, expect: 'paragraph' },
  { title: 'contenteditable=false → generic', html: `<div data-t contenteditable="false">x</div>`, expect: 'generic' },

  // ── structure ──
  { title: 'h1 → heading', html: `<h1 data-t>x</h1>`, expect: 'heading' },
  { title: 'h6 → heading', html: `<h6 data-t>x</h6>`, expect: 'heading' },
  { title: 'ul → list', html: `<ul data-t><li>x</li></ul>`, expect: 'list' },
  { title: 'ol → list', html: `<ol data-t><li>x</li></ol>`, expect: 'list' },
  { title: 'menu → list', html: `<menu data-t><li>x</li></menu>`, expect: 'list' },
  { title: 'li → listitem', html: `<ul><li data-t>x</li></ul>`, expect: 'listitem' },
  { title: 'li of a role=none list → none (inherited presentation)', html: `<ul role="none"><li data-t>x</li></ul>`, expect: 'none' },
  { title: 'nav → navigation', html: `<nav data-t></nav>`, expect: 'navigation' },
  { title: 'main → main', html: `<main data-t></main>`, expect: 'main' },
  { title: 'aside → complementary', html: `<aside data-t></aside>`, expect: 'complementary' },
  { title: 'article → article', html: `<article data-t></article>`, expect: 'article' },
  { title: 'header at top level → banner', html: `<header data-t>x</header>`, expect: 'banner' },
  { title: 'footer at top level → contentinfo', html: `<footer data-t>x</footer>`, expect: 'contentinfo' },
  { title: 'header inside article → generic', html: `<article><header data-t>x</header></article>`, expect: 'generic' },
  { title: 'footer inside section → generic', html: `<section><footer data-t>x</footer></section>`, expect: 'generic' },
  { title: 'header inside main → generic', html: `<main><div><header data-t>x</header></div></main>`, expect: 'generic' },
  { title: 'footer inside role=navigation → generic', html: `<div role="navigation"><footer data-t>x</footer></div>`, expect: 'generic' },
  { title: 'section with aria-label → region', html: `<section data-t aria-label="News"></section>`, expect: 'region' },
  { title: 'section with aria-labelledby → region', html: `<section data-t aria-labelledby="rh"><h2 id="rh">News</h2></section>`, expect: 'region' },
  { title: 'section without a name → generic', html: `<section data-t></section>`, expect: 'generic' },
  { title: 'form with a name → form', html: `<form data-t aria-label="Login"></form>`, expect: 'form' },
  { title: 'form without a name → generic', html: `<form data-t></form>`, expect: 'generic' },
  { title: 'search → search', html: `<search data-t></search>`, expect: 'search' },
  { title: 'dialog → dialog', html: `<dialog data-t open>x</dialog>`, expect: 'dialog' },
  { title: 'figure → figure', html: `<figure data-t></figure>`, expect: 'figure' },
  { title: 'img with alt → img', html: `<img data-t alt="x" src="data:,">`, expect: 'img' },
  { title: 'img without alt → img', html: `<img data-t src="data:,">`, expect: 'img' },
  { title: 'img alt="" → presentation', html: `<img data-t alt="" src="data:,">`, expect: 'presentation' },
  { title: 'img alt="" with aria-label → img (conflict resolution)', html: `<img data-t alt="" aria-label="x" src="data:,">`, expect: 'img' },
  { title: 'img alt="" focusable → img (conflict resolution)', html: `<img data-t alt="" tabindex="0" src="data:,">`, expect: 'img' },
  { title: 'svg → img', html: `<svg data-t></svg>`, expect: 'img' },
  { title: 'hr → separator', html: `<hr data-t>`, expect: 'separator' },
  { title: 'p → paragraph', html: `<p data-t>x</p>`, expect: 'paragraph' },
  { title: 'blockquote → blockquote', html: `<blockquote data-t>x</blockquote>`, expect: 'blockquote' },
  { title: 'div → generic', html: `<div data-t>x</div>`, expect: 'generic' },
  { title: 'span → generic', html: `<span data-t>x</span>`, expect: 'generic' },
  { title: 'custom element → generic', html: `<my-widget data-t>x</my-widget>`, expect: 'generic' },
  { title: 'label → generic', html: `<label data-t>x</label>`, expect: 'generic' },
  { title: 'strong → strong, em → emphasis, code → code', html: `<strong data-t>x</strong>`, expect: 'strong' },
  { title: 'del → deletion', html: `<del data-t>x</del>`, expect: 'deletion' },
  { title: 'dd → definition, dt → term', html: `<dl><dt>t</dt><dd data-t>d</dd></dl>`, expect: 'definition' },

  // ── tables ──
  { title: 'table → table', html: `<table data-t><tr><td>x</td></tr></table>`, expect: 'table' },
  { title: 'tr → row', html: `<table><tr data-t><td>x</td></tr></table>`, expect: 'row' },
  { title: 'tbody → rowgroup', html: `<table><tbody data-t><tr><td>x</td></tr></tbody></table>`, expect: 'rowgroup' },
  { title: 'td → cell', html: `<table><tr><td data-t>x</td></tr></table>`, expect: 'cell' },
  { title: 'td in a grid → gridcell', html: `<table role="grid"><tr><td data-t>x</td></tr></table>`, expect: 'gridcell' },
  { title: 'th in thead → columnheader', html: `<table><thead><tr><th data-t>h</th></tr></thead></table>`, expect: 'columnheader' },
  { title: 'th scope=row → rowheader', html: `<table><tr><th data-t scope="row">h</th><th>x</th></tr></table>`, expect: 'rowheader' },
  { title: 'th sharing a row with data cells → rowheader', html: `<table><tr><th data-t>h</th><td>x</td></tr></table>`, expect: 'rowheader' },
  {
    title: 'th in a row of headers → columnheader',
    html: `<table><tr><th data-t>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>`,
    expect: 'columnheader',
  },
  { title: 'cells of a role=presentation table → none', html: `<table role="presentation"><tr><td data-t>x</td></tr></table>`, expect: 'none' },

  // ── explicit roles ──
  { title: 'explicit role wins', html: `<div data-t role="button">x</div>`, expect: 'button' },
  { title: 'first valid token: unknown tokens are skipped', html: `<div data-t role="fancy-thing switch button">x</div>`, expect: 'switch' },
  { title: 'abstract roles are not valid tokens', html: `<div data-t role="widget landmark link">x</div>`, expect: 'link' },
  { title: 'role tokens are case-insensitive', html: `<div data-t role="TAB">x</div>`, expect: 'tab' },
  { title: 'no valid token → implicit role', html: `<a data-t href="#" role="bogus">x</a>`, expect: 'link' },
  { title: 'extra whitespace in role', html: `<div data-t role="  \n menuitem  ">x</div>`, expect: 'menuitem' },
  { title: 'role=image is reported as img', html: `<div data-t role="image"></div>`, expect: 'img' },
  { title: 'DPUB roles are valid', html: `<a data-t href="#" role="doc-noteref">1</a>`, expect: 'doc-noteref' },
  { title: 'role=presentation is kept as written', html: `<div data-t role="presentation">x</div>`, expect: 'presentation' },
  { title: 'role=none is kept as written', html: `<ul data-t role="none"><li>x</li></ul>`, expect: 'none' },
  { title: 'role=none on a focusable button is ignored (ARIA §9.2)', html: `<button data-t role="none">x</button>`, expect: 'button' },
  {
    title: 'role=presentation with a global aria-* attribute is ignored',
    html: `<h2 data-t role="presentation" aria-describedby="x">x</h2>`,
    expect: 'heading',
  },
  { title: 'role=none on tabindex=-1 element is ignored', html: `<div data-t role="none" tabindex="-1">x</div>`, expect: 'generic' },
  { title: 'explicit role=generic', html: `<nav data-t role="generic"></nav>`, expect: 'generic' },
  { title: 'role on an input overrides its implicit role', html: `<input data-t type="checkbox" role="switch">`, expect: 'switch' },
  { title: 'role=combobox on an input', html: `<input data-t role="combobox">`, expect: 'combobox' },
];

let session: Session;
let roles: string[] = [];
let everyRole: string[] = [];

beforeAll(async () => {
  session = await connect();
  const page = await open(session, casesPage(cases));
  roles = await page.evaluate((n) => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const el = (window as any).__caseTarget(i) as Element | null;
      out.push(el ? (window as any).pagehand.describe(el).role : '<no target>');
    }
    return out;
  }, cases.length);
  everyRole = await page.evaluate(() => [...document.querySelectorAll('*')].map((el) => (window as any).pagehand.describe(el).role));
});

afterAll(async () => {
  await session?.close();
});

describe('roles (pagehand.describe, real Chromium)', () => {
  cases.forEach((c, i) => {
    it(c.title, () => expect(roles[i]).toBe(c.expect));
  });

  it('never returns an empty role, for any element of the page', () => {
    expect(everyRole.length).toBeGreaterThan(cases.length * 2);
    expect(everyRole.filter((r) => typeof r !== 'string' || r === '')).toEqual([]);
  });
});
