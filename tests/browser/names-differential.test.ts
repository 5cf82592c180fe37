/**
 * Differential test of accessible names: `pagehand.describe(el).name` against Chromium's own
 * computed name (CDP `Accessibility.getPartialAXTree`) for the same element in the same page.
 *
 * The cases are generated, not hand-listed: the accname 1.2 steps (2B labelledby, 2C embedded
 * controls, 2D aria-label, 2E host-language labels, 2F/2G name from content and generated
 * content, 2I tooltip) crossed with roles, hidden states, CSS display and whitespace.
 *
 * Comparison: both names go through the normalisation Chromium applies to names — runs of
 * ASCII whitespace become one space, and the ends are trimmed (Chromium leaves at most one
 * space at an end, from an aria-label that has them). Nothing else is folded: a no-break
 * space, a zero-width space or a soft hyphen must match exactly.
 *
 * Where Chromium contradicts accname 1.2 / html-aam, the case is listed in KNOWN_DEVIATIONS
 * with the spec text, and our own deliberate departures in OUR_CHOICES; the test asserts that
 * every other case agrees and that every listed case still disagrees (so the lists cannot
 * rot). It also checks the names the map gives the elements it lists. The agreement rate
 * (cases agreeing / all cases) is printed; rerun with
 * `npx vitest run --project browser tests/browser/names-differential.test.ts`
 * (with NAMES_DIFF_DUMP=/some/file.json it also writes every case and both names there).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CDPSession, Page } from 'playwright-core';
import { open, useSession } from './harness';
import { casesPage, type Case } from './describe-harness';

interface NameCase extends Case {
  /** Stable id: group/container/variant (what the deviation lists match). */
  title: string;
}

/** Chromium's normalisation of a name: ASCII whitespace runs → one space, ends trimmed. */
const normalise = (s: string): string => s.replace(/[ \t\n\r\f]+/g, ' ').replace(/^ | $/g, '');

// ─── the generator ────────────────────────────────────────────────────────────────────────

const css = `
.pb::before { content: "Total"; }
.pa::after { content: "EUR"; }
.pbb::before { content: "Total"; display: block; }
.pab::after { content: "EUR"; display: block; }
.pbi::before { content: "Total"; display: inline-block; }
.pai::after { content: "EUR"; display: inline-block; }
.pbs::before { content: "Total "; }
.pas::after { content: " EUR"; }
.pbf::before { content: "Total"; float: left; }
.pbp::before { content: "Total"; position: absolute; }
.pbattr::before { content: attr(data-x); }
.pbalt::before { content: "→" / "Next"; }
.pbnone::before { content: "gone"; display: none; }
.pbvh::before { content: "gone"; visibility: hidden; }
.pbicon::before { content: "\\e001"; }
.pbempty::before { content: ""; }
.vh { visibility: hidden; }
.vv { visibility: visible; }
.dn { display: none; }
.cv { content-visibility: hidden; display: inline-block; }
.o0 { opacity: 0; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.off { position: absolute; left: -10000px; }
.ib { display: inline-block; }
.bl { display: block; }
.fx { display: flex; }
.ifx { display: inline-flex; }
.gr { display: grid; }
.tc { display: table-cell; }
.ct { display: contents; }
.li { display: list-item; }
.pre { white-space: pre; }
.upper { text-transform: uppercase; }
.cap { text-transform: capitalize; }
`;

/** Content fragments: what sits inside an element named from its content. */
const CONTENTS: Record<string, string> = {
  plain: 'Save draft',
  'two text nodes': 'Save<!-- c --> draft',
  'nested inline space': 'Save<span><span> </span></span>draft',
  'inline space': 'Save<span> </span>draft',
  'inline newline': 'Save<b>\n</b>draft',
  'inline tab and newline': 'Save<span>\t \n</span>draft',
  'inline elements with a space': '<span>Save</span> <span>draft</span>',
  'inline elements glued': '<span>Save</span><span>draft</span>',
  'inline space at the end of a span': '<span>Save </span>draft',
  'inline space at the start of a span': 'Save<i> draft</i>',
  'deep inline': '<span><b><i>Save</i></b></span> <em>draft</em>',
  'block children': '<div>Save</div><div>draft</div>',
  'block then text': '<p>Save</p>draft',
  'inline-block glued': '<span class="ib">Save</span>draft',
  'block span glued': '<span class="bl">Save</span>draft',
  'flex child glued': '<span class="fx">Save</span>draft',
  'inline-flex glued': '<span class="ifx">Save</span>draft',
  'grid child glued': '<span class="gr">Save</span>draft',
  'table-cell glued': '<span class="tc">Save</span><span class="tc">draft</span>',
  'display contents glued': '<span class="ct">Save</span>draft',
  'list-item glued': '<span class="li">Save</span>draft',
  br: 'Save<br>draft',
  wbr: 'Save<wbr>draft',
  nbsp: 'Save&nbsp;draft',
  'two nbsp': 'Save&nbsp;&nbsp;draft',
  'nbsp at the ends': '&nbsp;Save draft&nbsp;',
  'nbsp in a nested span': 'Save<span>&nbsp;</span>draft',
  'zero-width space': 'Save&#8203;draft',
  'soft hyphen': 'Save&shy;draft',
  'em space': 'Save&#8195;draft',
  'pre whitespace': '<span class="pre">Save   draft</span>',
  'leading and trailing whitespace': '\n   Save draft   \n',
  'text-transform uppercase': '<span class="upper">Save</span> draft',
  'text-transform capitalize': '<span class="cap">save my-draft now_please</span>',
  'inline ::before and ::after': '<span class="pb pa">x</span>',
  'inline ::before next to text': 'Save<span class="pb"></span>draft',
  'block ::before': '<span class="pbb">x</span>',
  'block ::after': '<span class="pab">x</span>',
  'inline-block ::before and ::after': '<span class="pbi pai">x</span>',
  'pseudo content with spaces': '<span class="pbs pas">x</span>',
  'float ::before': '<span class="pbf">x</span>',
  'absolute ::before': '<span class="pbp">x</span>',
  'attr() ::before': '<span class="pbattr" data-x="Step 2: ">Pay</span>',
  'alt text ::before': '<span class="pbalt">page</span>',
  'display:none ::before': '<span class="pbnone">Shown</span>',
  'visibility:hidden ::before': '<span class="pbvh">Shown</span>',
  'empty ::before': '<span class="pbempty">Shown</span>',
  'private-use ::before': '<span class="pbicon"></span> Profile',
  'display:none child': 'Save <span class="dn">secret</span>draft',
  'hidden attribute child': 'Save <span hidden>secret</span>draft',
  'aria-hidden child': 'Save <span aria-hidden="true">secret</span>draft',
  'aria-hidden=false child': 'Save <span aria-hidden="false">draft</span>',
  'visibility:hidden child': 'Save <span class="vh">secret</span>draft',
  'visible inside visibility:hidden': 'Save <span class="vh">secret <span class="vv">draft</span></span>',
  'content-visibility:hidden child': 'Save <span class="cv">secret</span>draft',
  'opacity:0 child': 'Save <span class="o0">draft</span>',
  'sr-only child': 'Save <span class="sr">draft</span>',
  'off-screen child': 'Save <span class="off">draft</span>',
  'script and style': 'Save<script>var x = 1;</script><style>.q{}</style> draft',
  'img alt': '<img alt="Logo" src="data:,">Home',
  'img empty alt': '<img alt="" src="data:,">Home',
  'img title only': '<img title="Logo" src="data:,">Home',
  'svg title': '<svg viewBox="0 0 4 4" width="4" height="4"><title>Close</title><rect width="4" height="4"></rect></svg>',
  'svg without title': '<svg viewBox="0 0 4 4" width="4" height="4"><rect width="4" height="4"></rect></svg>Close',
  'aria-label child': 'Rated <span aria-label="four stars">★★★★</span>',
  'role=img aria-label child': '<span role="img" aria-label="Star"></span>Favourite',
  'title-only empty child': '<span title="Home"></span>',
  'title-only whitespace child': '<span title="Home"> </span>',
  'title-only child next to text': '<span title="Tip">i</span> info',
  'presentational child': '<span role="presentation">Inside</span> link',
  'generic with aria-label child': '<span aria-label="Named">Text</span> after',
  'text input child': 'Qty <input value="3" aria-label="quantity"> items',
  'empty text input child': 'Qty<input aria-label="quantity">items',
  'select child': 'Every <select><option>day</option><option selected>week</option></select>',
  'checkbox child': '<input type="checkbox" aria-label="Remember"> me',
  'textarea child': 'Note <textarea>hello</textarea>',
  'slider child': 'Level <span role="slider" aria-valuenow="7" tabindex="0"></span>',
  'combobox child': 'Sort <span role="combobox" tabindex="0">Newest</span>',
  'listbox child': 'Colour <span role="listbox"><span role="option" aria-selected="true">green</span></span>',
  'menu button child': 'Actions <span role="button" aria-haspopup="menu" tabindex="0">More</span>',
  'nested button child': 'Go <span role="button" tabindex="0">now</span>',
  'nested link child': 'Read <a href="#">more</a>',
  'list child': '<ul><li>One</li><li>Two</li></ul>',
  'heading child': '<h3>Title</h3> text',
  'table child': '<table><tr><td>A</td><td>B</td></tr></table>',
  'inline-block inside an inline span': 'Pay<span><span class="ib">due</span></span>now',
  'block inside an inline span': 'Pay<span><span class="bl">due</span></span>now',
  'decorative img between words': 'Save<img alt="" src="data:,">draft',
  'empty svg between words': 'Save<svg width="2" height="2"></svg>draft',
  'hidden input between words': 'Save<input type="hidden">draft',
  'empty checkbox between words': 'Save<input type="checkbox">draft',
  'hidden whitespace span': 'Save<span class="vh"> </span>draft',
  'toolbar child': 'Go <div role="toolbar"><span>Cut</span></div> now',
  'navigation child': 'Go <nav>Home</nav> now',
  'group child': '<span>Fruits</span><div role="group"><span>Apple</span></div>',
  'article child': 'Go <article>Card</article> now',
};

/** The three traversals that read content — the root's own content (a native and an ARIA
 *  role), a native label (apart from and around its control), an aria-labelledby target. Other
 *  roles get fewer contents in roleCases. `§` becomes a per-case number so ids stay unique. */
const CONTAINERS: Record<string, (c: string) => string> = {
  button: (c) => `<button data-t>${c}</button>`,
  link: (c) => `<a data-t href="#">${c}</a>`,
  'label for': (c) => `<label for="in§">${c}</label><input data-t id="in§">`,
  'label wrapping a checkbox': (c) => `<label><input data-t type="checkbox">${c}</label>`,
  'labelledby target': (c) => `<div data-t role="button" tabindex="0" aria-labelledby="lb§"></div><div id="lb§">${c}</div>`,
};

function contentCases(): NameCase[] {
  const out: NameCase[] = [];
  for (const [cname, wrap] of Object.entries(CONTAINERS))
    for (const [kname, content] of Object.entries(CONTENTS)) out.push({ title: `content/${cname}/${kname}`, html: wrap(content) });
  return out;
}

/** Step 1 and 2F by role: which roles take their name from content, which prohibit a name. */
function roleCases(): NameCase[] {
  const roles: Record<string, (c: string) => string> = {
    heading: (c) => `<h2 data-t>${c}</h2>`,
    'role=button': (c) => `<div data-t role="button" tabindex="0">${c}</div>`,
    cell: (c) => `<table><tr><td data-t>${c}</td></tr></table>`,
    tab: (c) => `<div role="tablist"><div data-t role="tab">${c}</div></div>`,
    menuitem: (c) => `<div role="menu"><div data-t role="menuitem">${c}</div></div>`,
    menuitemcheckbox: (c) => `<div role="menu"><div data-t role="menuitemcheckbox" aria-checked="false">${c}</div></div>`,
    option: (c) => `<div role="listbox"><div data-t role="option">${c}</div></div>`,
    treeitem: (c) => `<div role="tree"><div data-t role="treeitem">${c}</div></div>`,
    'role=link span': (c) => `<span data-t role="link" tabindex="0">${c}</span>`,
    'role=checkbox': (c) => `<div data-t role="checkbox" aria-checked="false" tabindex="0">${c}</div>`,
    'role=radio': (c) => `<div role="radiogroup"><div data-t role="radio" aria-checked="false" tabindex="0">${c}</div></div>`,
    'role=switch': (c) => `<div data-t role="switch" aria-checked="false" tabindex="0">${c}</div>`,
    'role=heading': (c) => `<div data-t role="heading" aria-level="3">${c}</div>`,
    columnheader: (c) => `<table><thead><tr><th data-t>${c}</th></tr></thead><tr><td>1</td></tr></table>`,
    rowheader: (c) => `<table><tr><th data-t scope="row">${c}</th><td>1</td></tr></table>`,
    summary: (c) => `<details><summary data-t>${c}</summary>body</details>`,
    'role=tooltip': (c) => `<div data-t role="tooltip">${c}</div>`,
    'option in a select': (c) => `<select><option data-t>${c}</option></select>`,
    'dialog (no name from content)': (c) => `<div data-t role="dialog">${c}</div>`,
    'region (no name from content)': (c) => `<section data-t aria-roledescription="x" role="region">${c}</section>`,
    'nav (no name from content)': (c) => `<nav data-t>${c}</nav>`,
    'list (no name from content)': (c) => `<ul data-t><li>${c}</li></ul>`,
    'listitem (no name from content)': (c) => `<ul><li data-t>${c}</li></ul>`,
    'role=textbox (no name from content)': (c) => `<div data-t role="textbox">${c}</div>`,
    'role=img (no name from content)': (c) => `<div data-t role="img">${c}</div>`,
    'group (no name from content)': (c) => `<div data-t role="group">${c}</div>`,
    'generic (name prohibited)': (c) => `<div data-t aria-label="Prohibited">${c}</div>`,
    'paragraph (name prohibited)': (c) => `<p data-t aria-label="Prohibited">${c}</p>`,
  };
  const contents: Record<string, string> = {
    plain: CONTENTS['plain']!,
    'nested inline space': CONTENTS['nested inline space']!,
    nbsp: CONTENTS['nbsp']!,
    'block children': CONTENTS['block children']!,
  };
  const out: NameCase[] = [];
  for (const [rname, wrap] of Object.entries(roles))
    for (const [kname, content] of Object.entries(contents)) out.push({ title: `role/${rname}/${kname}`, html: wrap(content) });
  return out;
}

/** Step 2D: aria-label values (whitespace, no-break and invisible characters) across roles. */
function ariaLabelCases(): NameCase[] {
  const values: Record<string, string> = {
    word: 'Close',
    padded: '  Close  ',
    newlines: '\nClose\n dialog\n',
    'nbsp ends': '&nbsp;Close&nbsp;',
    'two nbsp': 'Close&nbsp;&nbsp;dialog',
    'zero-width space': '&#8203;Close',
    'soft hyphen': 'Clo&shy;se',
    arrow: '→ Next',
    'only a no-break space': '&nbsp;',
    blank: '   ',
    empty: '',
  };
  const roles: Record<string, (a: string) => string> = {
    button: (a) => `<button data-t ${a}>Content</button>`,
    link: (a) => `<a data-t href="#" ${a}>Content</a>`,
    'text input': (a) => `<input data-t ${a} title="Title">`,
    checkbox: (a) => `<label><input data-t type="checkbox" ${a}>Label</label>`,
    img: (a) => `<img data-t ${a} alt="Alt" src="data:,">`,
    region: (a) => `<section data-t ${a}>Content</section>`,
    nav: (a) => `<nav data-t ${a} title="Title">Content</nav>`,
    'role=dialog': (a) => `<div data-t role="dialog" ${a}>Content</div>`,
    heading: (a) => `<h3 data-t ${a}>Content</h3>`,
    select: (a) => `<select data-t ${a}><option>One</option></select>`,
    'role=slider': (a) => `<div data-t role="slider" tabindex="0" aria-valuenow="3" ${a}></div>`,
  };
  const out: NameCase[] = [];
  for (const [rname, make] of Object.entries(roles))
    for (const [vname, v] of Object.entries(values)) out.push({ title: `aria-label/${rname}/${vname}`, html: make(`aria-label="${v}"`) });
  return out;
}

/** Step 2I (and html-aam's title rules): a title names only what has no other name. */
function tooltipCases(): NameCase[] {
  const elements: Record<string, (t: string) => string> = {
    'img without alt': (t) => `<img data-t ${t} src="data:,">`,
    'img with empty alt': (t) => `<img data-t alt="" ${t} src="data:,">`,
    'img with alt': (t) => `<img data-t alt="Alt" ${t} src="data:,">`,
    'empty button': (t) => `<button data-t ${t}></button>`,
    'button with an icon font': (t) => `<button data-t ${t}><span class="pbicon"></span></button>`,
    'button with content': (t) => `<button data-t ${t}>Content</button>`,
    'button with whitespace only': (t) => `<button data-t ${t}>   </button>`,
    'empty link': (t) => `<a data-t href="#" ${t}></a>`,
    'link with empty-alt image': (t) => `<a data-t href="#" ${t}><img alt="" src="data:,"></a>`,
    'text input': (t) => `<input data-t ${t}>`,
    'text input with placeholder': (t) => `<input data-t placeholder="Placeholder" ${t}>`,
    checkbox: (t) => `<input data-t type="checkbox" ${t}>`,
    select: (t) => `<select data-t ${t}><option>One</option></select>`,
    textarea: (t) => `<textarea data-t ${t}></textarea>`,
    'role=img': (t) => `<div data-t role="img" ${t}></div>`,
    'role=button empty': (t) => `<div data-t role="button" tabindex="0" ${t}></div>`,
    svg: (t) => `<svg data-t ${t} viewBox="0 0 4 4" width="4" height="4"><rect width="4" height="4"></rect></svg>`,
    nav: (t) => `<nav data-t ${t}><a href="#">Home</a></nav>`,
    fieldset: (t) => `<fieldset data-t ${t}><input aria-label="x"></fieldset>`,
    table: (t) => `<table data-t ${t}><tr><td>1</td></tr></table>`,
    iframe: (t) => `<iframe data-t ${t} src="about:blank" width="10" height="10"></iframe>`,
    summary: (t) => `<details><summary data-t ${t}></summary>x</details>`,
    'td empty': (t) => `<table><tr><td data-t ${t}></td></tr></table>`,
    'input type=image': (t) => `<input data-t type="image" ${t} src="data:,">`,
    'submit with empty value': (t) => `<input data-t type="submit" value="" ${t}>`,
    'input type=button without value': (t) => `<input data-t type="button" ${t}>`,
    'role=link with an empty child': (t) => `<span data-t role="link" tabindex="0" ${t}><span></span></span>`,
  };
  const titles: Record<string, string> = {
    title: 'title="Tip"',
    'blank title': 'title="  "',
    'title with nbsp': 'title="&nbsp;Tip&nbsp;"',
    'no title': '',
  };
  const out: NameCase[] = [];
  for (const [ename, make] of Object.entries(elements))
    for (const [tname, t] of Object.entries(titles)) out.push({ title: `tooltip/${ename}/${tname}`, html: make(t) });
  return out;
}

/** Step 2B: aria-labelledby targets of every kind, from several kinds of root. */
function labelledByCases(): NameCase[] {
  // Each target is markup with id="t§" (and sometimes more); `ROOT` is replaced by the root's id.
  const targets: Record<string, string> = {
    'text span': '<span id="t§">Billing</span>',
    'span with aria-label': '<span id="t§" aria-label="Aria">Text</span>',
    'text input value': '<input id="t§" value="typed" aria-label="Not this">',
    'empty text input': '<input id="t§" aria-label="Not this">',
    'input with a label': '<label for="t§">Label of input</label><input id="t§" value="v">',
    select: '<select id="t§"><option>One</option><option selected>Two</option></select>',
    listbox: '<div id="t§" role="listbox"><div role="option">A</div><div role="option" aria-selected="true">B</div></div>',
    'combobox input': '<input id="t§" role="combobox" value="Paris">',
    slider: '<div id="t§" role="slider" aria-valuenow="5" aria-valuetext="five" tabindex="0"></div>',
    'checkbox with label': '<input id="t§" type="checkbox" aria-label="Check">',
    'button with content': '<button id="t§">Press</button>',
    'img alt': '<img id="t§" alt="Picture" src="data:,">',
    'title only': '<span id="t§" title="Tip"></span>',
    'chain (target has labelledby)': '<span id="t§" aria-labelledby="u§">Own text</span><span id="u§">Other</span>',
    'chain with aria-label': '<span id="t§" aria-labelledby="u§" aria-label="Own label">Own text</span><span id="u§">Other</span>',
    'hidden attribute': '<span id="t§" hidden>Secret</span>',
    'display:none': '<span id="t§" class="dn">Secret <b>words</b></span>',
    'visibility:hidden': '<span id="t§" class="vh">Quiet</span>',
    'aria-hidden': '<span id="t§" aria-hidden="true">Muted</span>',
    'inside a hidden parent': '<div class="dn"><span id="t§">Deep</span></div>',
    'visible with hidden child': '<span id="t§">Shown <span class="dn">hidden</span></span>',
    'hidden with hidden child': '<span id="t§" class="dn">Shown <span class="dn">too</span></span>',
    'with ::before': '<span id="t§" class="pb">Amount</span>',
    'with block children': '<div id="t§"><div>First</div><div>Second</div></div>',
    'with nested whitespace': '<span id="t§">Save<span><span> </span></span>draft</span>',
    'containing the root': '<div id="t§">Name ROOTEL</div>',
    empty: '<span id="t§"></span>',
    'whitespace only': '<span id="t§">  </span>',
    'missing id': '<span id="other§">x</span>',
  };
  const roots: Record<string, (ids: string, inner: string) => string> = {
    'role=button': (ids, inner) => `<div data-t role="button" tabindex="0" aria-labelledby="${ids}">${inner}</div>`,
    'text input': (ids, inner) => `<input data-t aria-labelledby="${ids}" value="${inner}">`,
    button: (ids, inner) => `<button data-t aria-labelledby="${ids}">${inner}</button>`,
    link: (ids, inner) => `<a data-t href="#" aria-labelledby="${ids}">${inner}</a>`,
  };
  const out: NameCase[] = [];
  for (const [rname, root] of Object.entries(roots)) {
    for (const [tname, target] of Object.entries(targets)) {
      const el = root('t§', 'own');
      const html = target.includes('ROOTEL') ? target.replace('ROOTEL', el) : `${el}${target}`;
      out.push({ title: `labelledby/${rname}/${tname}`, html });
    }
    // Order, repetition and self reference.
    out.push({ title: `labelledby/${rname}/two ids in order`, html: `${root('b§ a§', 'own')}<span id="a§">world</span><span id="b§">Hello</span>` });
    out.push({ title: `labelledby/${rname}/same id twice`, html: `${root('a§ a§', 'own')}<span id="a§">Twice</span>` });
    out.push({
      title: `labelledby/${rname}/self and another`,
      html: root('me§ a§', 'own').replace('data-t', 'data-t id="me§" aria-label="Delete"') + '<span id="a§">file.pdf</span>',
    });
    out.push({ title: `labelledby/${rname}/self only`, html: root('me§', 'own').replace('data-t', 'data-t id="me§"') });
    out.push({
      title: `labelledby/${rname}/mutual reference`,
      html: root('m§', 'own').replace('data-t', 'data-t id="r§"') + '<span role="button" id="m§" aria-labelledby="r§">Mutual</span>',
    });
    out.push({
      title: `labelledby/${rname}/target refers back into the chain`,
      html: root('a§ b§', 'own') + '<span id="a§">First <span aria-labelledby="b§">Inner</span></span><span id="b§">Second</span>',
    });
  }
  return out;
}

/** Step 2C: controls embedded in the label of another widget. */
function embeddedCases(): NameCase[] {
  const controls: Record<string, string> = {
    'text input': '<input value="5">',
    'empty text input': '<input>',
    'text input with aria-label': '<input value="5" aria-label="count">',
    'search input': '<input type="search" value="shoes">',
    'number input': '<input type="number" value="4">',
    'range input': '<input type="range" value="30">',
    password: '<input type="password" value="hunter2">',
    textarea: '<textarea>notes</textarea>',
    'contenteditable textbox': '<span role="textbox" contenteditable tabindex="0" aria-label="n">5</span>',
    select: '<select><option>daily</option><option selected>weekly</option></select>',
    'select with label attribute': '<select><option label="Short">A long option</option></select>',
    'select multiple': '<select multiple><option selected>red</option><option>green</option><option selected>blue</option></select>',
    'select with aria-label': '<select aria-label="Frequency"><option>daily</option></select>',
    'listbox with a selected option': '<div role="listbox"><div role="option">red</div><div role="option" aria-selected="true">green</div></div>',
    'listbox with none selected': '<div role="listbox"><div role="option">red</div><div role="option">green</div></div>',
    'combobox input': '<input role="combobox" value="Paris">',
    'combobox div with text': '<div role="combobox" tabindex="0">Newest</div>',
    'combobox with aria-label': '<input role="combobox" value="Paris" aria-label="City">',
    'slider valuetext': '<span role="slider" tabindex="0" aria-valuenow="5" aria-valuetext="five"></span>',
    'slider valuenow': '<span role="slider" tabindex="0" aria-valuenow="7"></span>',
    spinbutton: '<span role="spinbutton" tabindex="0" aria-valuenow="2">two</span>',
    'menu button': '<button aria-haspopup="menu">Options</button>',
    'menu button with aria-label': '<button aria-haspopup="menu" aria-label="More options">⋯</button>',
    'role=menu': '<div role="menu"><div role="menuitem">Cut</div><div role="menuitem">Copy</div></div>',
    checkbox: '<input type="checkbox" aria-label="Nested">',
    button: '<button>Press</button>',
    meter: '<meter value="0.5">half</meter>',
    progress: '<progress value="3" max="10">30%</progress>',
  };
  const containers: Record<string, (c: string) => string> = {
    'label wrapping a checkbox': (c) => `<label><input data-t type="checkbox"> Flash ${c} times</label>`,
    'label for a checkbox': (c) => `<input data-t type="checkbox" id="cb§"><label for="cb§">Flash ${c} times</label>`,
    'labelledby target': (c) =>
      `<div data-t role="checkbox" aria-checked="false" tabindex="0" aria-labelledby="l§"></div><span id="l§">Flash ${c} times</span>`,
    'labelledby the control itself': (c) => `<div data-t role="button" tabindex="0" aria-labelledby="x§"></div>${c.replace(/^<(\w+)/, '<$1 id="x§"')}`,
    'button content': (c) => `<div data-t role="button" tabindex="0">Flash ${c} times</div>`,
    'link content': (c) => `<a data-t href="#">Flash ${c} times</a>`,
  };
  const out: NameCase[] = [];
  for (const [kname, wrap] of Object.entries(containers))
    for (const [cname, control] of Object.entries(controls)) out.push({ title: `embedded/${kname}/${cname}`, html: wrap(control) });
  return out;
}

/** Step 2A across name sources: hidden labels, hidden parts of labels, hidden label targets. */
function hiddenCases(): NameCase[] {
  const hides: Record<string, string> = {
    'display:none': 'class="dn"',
    'hidden attribute': 'hidden',
    'visibility:hidden': 'class="vh"',
    'aria-hidden': 'aria-hidden="true"',
    'content-visibility:hidden': 'class="cv"',
    'opacity:0': 'class="o0"',
    'sr-only': 'class="sr"',
    'aria-hidden=false': 'aria-hidden="false"',
  };
  const shapes: Record<string, (h: string) => string> = {
    'whole label for': (h) => `<label for="i§" ${h}>Quantity</label><input data-t id="i§">`,
    'part of a label': (h) => `<label for="i§">Visible <span ${h}>secret</span> text</label><input data-t id="i§">`,
    'visible part inside a hidden label': (h) => `<label for="i§" ${h}>Hidden <span class="vv">shown</span></label><input data-t id="i§">`,
    'hidden wrapper around a label': (h) => `<div ${h}><label for="i§">Wrapped</label></div><input data-t id="i§">`,
    'label and a title': (h) => `<label for="i§" ${h}>Quantity</label><input data-t id="i§" title="Tip">`,
    'labelledby target': (h) => `<button data-t aria-labelledby="l§">own</button><span id="l§" ${h}>Referenced</span>`,
    'part of a visible labelledby target': (h) => `<button data-t aria-labelledby="l§">own</button><span id="l§">Shown <span ${h}>part</span></span>`,
    'part of a hidden labelledby target': (h) => `<button data-t aria-labelledby="l§">own</button><span id="l§" ${h}>Shown <span ${h}>part</span></span>`,
    'descendant with a title': (h) => `<a data-t href="#"><span ${h} title="Tip"></span></a>`,
    'descendant img': (h) => `<a data-t href="#"><img ${h} alt="Logo" src="data:,"> Home</a>`,
    legend: (h) => `<fieldset data-t><legend ${h}>Shipping</legend><input aria-label="x"></fieldset>`,
    figcaption: (h) => `<figure data-t><figcaption ${h}>Chart</figcaption></figure>`,
    caption: (h) => `<table data-t><caption ${h}>Prices</caption><tr><td>1</td></tr></table>`,
    'svg title': (h) => `<button data-t><svg ${h} viewBox="0 0 4 4" width="4" height="4"><title>Close</title><rect width="4" height="4"></rect></svg></button>`,
  };
  const out: NameCase[] = [];
  for (const [sname, make] of Object.entries(shapes))
    for (const [hname, h] of Object.entries(hides)) out.push({ title: `hidden/${sname}/${hname}`, html: make(h) });
  return out;
}

/** Step 2F.ii: generated content around a label's input and on named elements. */
function generatedContentCases(): NameCase[] {
  const befores: Record<string, string> = { none: '', inline: 'pb', block: 'pbb', 'inline-block': 'pbi', 'with space': 'pbs' };
  const afters: Record<string, string> = { none: '', inline: 'pa', block: 'pab', 'inline-block': 'pai', 'with space': 'pas' };
  const shapes: Record<string, (cls: string) => string> = {
    'label around an input': (cls) => `<label class="${cls}"><input data-t></label>`,
    'label around an input and text': (cls) => `<label class="${cls}">Amount<input data-t>due</label>`,
    'label for': (cls) => `<label class="${cls}" for="g§">Amount</label><input data-t id="g§">`,
    button: (cls) => `<button data-t class="${cls}">Amount</button>`,
    'link around a span': (cls) => `<a data-t href="#">Pay<span class="${cls}">due</span>now</a>`,
  };
  const out: NameCase[] = [];
  for (const [sname, make] of Object.entries(shapes))
    for (const [bname, b] of Object.entries(befores))
      for (const [aname, a] of Object.entries(afters)) {
        if (!b && !a) continue;
        out.push({ title: `generated/${sname}/before ${bname}, after ${aname}`, html: make(`${b} ${a}`.trim()) });
      }
  return out;
}

/** Step 2E: host-language labels across labelable elements and label shapes. */
function hostLabelCases(): NameCase[] {
  const controls: Record<string, string> = {
    'text input': '<input data-t id="h§">',
    checkbox: '<input data-t type="checkbox" id="h§">',
    radio: '<input data-t type="radio" id="h§">',
    range: '<input data-t type="range" id="h§">',
    number: '<input data-t type="number" id="h§">',
    select: '<select data-t id="h§"><option>One</option></select>',
    textarea: '<textarea data-t id="h§"></textarea>',
    button: '<button data-t id="h§">Content</button>',
    submit: '<input data-t type="submit" id="h§" value="Send">',
    progress: '<progress data-t id="h§" value="1" max="2"></progress>',
    meter: '<meter data-t id="h§" value="0.5"></meter>',
    output: '<output data-t id="h§">42</output>',
  };
  const labels: Record<string, (control: string) => string> = {
    'label for': (c) => `<label for="h§">Label</label>${c}`,
    'two labels': (c) => `<label for="h§">First</label>${c}<label for="h§">Second</label>`,
    'wrapping label': (c) => `<label>Wrapped ${c} after</label>`,
    'wrapping and for': (c) => `<label>Outer ${c}</label><label for="h§">Extra</label>`,
    'label with nested whitespace': (c) => `<label for="h§">Save<span><span> </span></span>draft</label>${c}`,
    'label with block parts': (c) => `<label for="h§"><span class="bl">Street</span><span class="bl">address</span></label>${c}`,
    'label with an nbsp': (c) => `<label for="h§">Post&nbsp;code</label>${c}`,
  };
  const out: NameCase[] = [];
  for (const [cname, control] of Object.entries(controls))
    for (const [lname, make] of Object.entries(labels)) out.push({ title: `label/${cname}/${lname}`, html: make(control) });
  return out;
}

/** Rendered child nodes (2F.iii): a shadow root's children and a slot's assigned nodes. */
function shadowCases(): NameCase[] {
  const shapes: Record<string, { light: string; shadow: string }> = {
    'shadow text': { light: '', shadow: 'Save draft' },
    'shadow nested inline space': { light: '', shadow: 'Save<span><span> </span></span>draft' },
    'slot with a text': { light: 'Save draft', shadow: '<slot></slot>' },
    'slot between shadow words': { light: '<b>my</b>', shadow: 'Save <slot></slot> draft' },
    'slotted space between shadow words': { light: ' ', shadow: 'Save<slot></slot>draft' },
    'slot glued to shadow text': { light: 'my', shadow: 'Save<slot></slot>draft' },
    'slot fallback': { light: '', shadow: '<slot>Fallback text</slot>' },
    'block in the shadow root': { light: '', shadow: '<div>Save</div><div>draft</div>' },
    'hidden part of the shadow root': { light: '', shadow: 'Save <span hidden>secret</span>draft' },
    'slot with a hidden light child': { light: 'Save <span class="dn">secret</span>draft', shadow: '<slot></slot>' },
  };
  const hosts: Record<string, (light: string) => string> = {
    'role=button host': (light) => `<div data-t role="button" tabindex="0" class="host">${light}</div>`,
    'host inside a link': (light) => `<a data-t href="#"><span class="host">${light}</span></a>`,
    'host inside a label': (light) => `<label for="sh§"><span class="host">${light}</span></label><input data-t id="sh§">`,
  };
  const out: NameCase[] = [];
  for (const [hname, host] of Object.entries(hosts))
    for (const [sname, { light, shadow }] of Object.entries(shapes))
      out.push({
        title: `shadow/${hname}/${sname}`,
        html: host(light),
        setup: `sec.querySelector('.host').attachShadow({ mode: 'open' }).innerHTML = ${JSON.stringify(shadow)};`,
      });
  return out;
}

function allCases(): NameCase[] {
  const cases = [
    ...contentCases(),
    ...roleCases(),
    ...ariaLabelCases(),
    ...tooltipCases(),
    ...labelledByCases(),
    ...embeddedCases(),
    ...hiddenCases(),
    ...generatedContentCases(),
    ...hostLabelCases(),
    ...shadowCases(),
  ];
  // `§` → the case number, so every case has its own ids.
  return cases.map((c, i) => ({ ...c, html: c.html.replace(/§/g, String(i)), setup: c.setup?.replace(/§/g, String(i)) }));
}

// ─── known deviations of Chromium from accname 1.2 ────────────────────────────────────────

interface Deviation {
  /** The cases it covers: a pattern over case titles. */
  cases: RegExp;
  why: string;
}

/**
 * Where Chromium's name contradicts a line of accname 1.2 / html-aam, quoted in `why`. Each
 * pattern must match at least one case, and every case it matches must still disagree with
 * Chromium.
 *
 * Not listed, because we follow Chromium there: spacing that is a question of layout, which
 * accname leaves open (its #225 note) — display:contents and <slot>, <wbr>, ::before/::after
 * boxes inside inline elements, empty pictures inside a <label>; hidden <label>, <legend> and
 * <caption> (html-aam: a hidden one provides no name); <figure> (html-aam 4.1.9: a figcaption
 * does not name it); a menu, toolbar, tree group… inside a name from content (accname 1.2
 * leaves "roles that should not be traversed" to be drafted); and aria-label on generic and
 * paragraph (kept, as the name.ts file comment says: the author's only label for them).
 */
const KNOWN_DEVIATIONS: Deviation[] = [
  {
    cases:
      /^content\/(button|link|label for|label wrapping a checkbox)\/title-only empty child$|^hidden\/descendant with a title\/(content-visibility:hidden|opacity:0|sr-only|aria-hidden=false)$/,
    why: 'accname 2H recurses only into a descendant that "contains descendants"; an empty one goes on to 2I ("Otherwise, if the current node has a Tooltip attribute, return its value"), so its title counts; Chromium reads a descendant\'s title inside an aria-labelledby target only.',
  },
  {
    cases: /^content\/labelledby target\/title-only whitespace child$/,
    why: 'accname 2G returns a text node\'s "textual contents" (here a space) and 2F.iv returns the accumulated text "if it is not the empty string", so the span\'s title is not reached; Chromium treats the blank as empty and reads the title.',
  },
  {
    cases: /^content\/(label for|label wrapping a checkbox|labelledby target)\/visible inside visibility:hidden$/,
    why: "accname 2A skips only hidden nodes, and a visibility:visible child of a visibility:hidden parent is shown (accname's note on hidden lists visibility:hidden as hidden for the node that has it); Chromium counts it in a button's content but drops it inside labels and labelledby targets.",
  },
  {
    cases: /^hidden\/hidden wrapper around a label\/aria-hidden$/,
    why: 'html-aam: "If a label element is hidden from the accessibility tree, then it will not provide an accessible name", and WAI-ARIA\'s hidden counts an ancestor with aria-hidden="true"; Chromium drops a label with its own aria-hidden (as we do) but not one under an aria-hidden wrapper.',
  },
  {
    cases: /^hidden\/label and a title\/(display:none|hidden attribute|visibility:hidden|aria-hidden|content-visibility:hidden)$/,
    why: 'html-aam 4.1.1: a hidden label gives no name, so "If the accessible name is still empty: use the value of the control\'s title attribute"; Chromium stops at the hidden label (html-aam#533 notes Firefox reads the title). content-visibility:hidden counts as hidden (accname\'s note on hidden).',
  },
  {
    cases: /^embedded\/(labelledby target|labelledby the control itself)\/listbox with none selected$/,
    why: 'accname 2C: "If the embedded control has role combobox or listbox, return the text alternative of the chosen option" — here none; Chromium does so inside a <label> but reads every option inside an aria-labelledby target.',
  },
  {
    cases: /^tooltip\/submit with empty value\/(title|title with nbsp)$/,
    why: 'html-aam 4.1.2: the value names the button if the name "is still empty" (3), the default label only when "the value attribute is unspecified" (4), "Otherwise: use the value of the control\'s title attribute" (5); Chromium stops at the empty value.',
  },
  {
    cases: /^labelledby\/text input\/self only$/,
    why: 'accname 2C reads a control "embedded within the label … for another widget"; a field labelled only by itself is not, and has no title or placeholder here; Chromium names it by its own value (which would also change its name as the user types).',
  },
];

/** Our own deliberate departures from accname or from Chromium, for the agent (see client/page/names/name.ts). */
const OUR_CHOICES: Deviation[] = [
  {
    cases: /^embedded\/[^/]+\/password$/,
    why: 'A password field in a label adds nothing: Chromium gives one bullet per character, which tells its length (the map never does, and page text goes to the model).',
  },
  {
    cases: /^content\/[^/]+\/private-use ::before$|^tooltip\/button with an icon font\//,
    why: "Private-use characters from icon fonts are glyph codes, not text: they are dropped, so an icon button is named by its title (or left unnamed for the map's hint) instead of by a code point (accname 2F.ii would keep it, as Chromium does).",
  },
  {
    cases: /^content\/(button|link|label for|label wrapping a checkbox)\/article child$/,
    why: 'Name from content reads sectioning content (article, figure, header…) as accname 2F.iii/2H do; Chromium leaves it out, so a link wrapping a whole card has no name there. We leave out only containers of widgets, live regions and navigation, as Chromium does (toolbar, navigation and group children agree).',
  },
];

const listed = (title: string, list: Deviation[]): Deviation | undefined => list.find((d) => d.cases.test(title));

// ─── the test ─────────────────────────────────────────────────────────────────────────────

interface Outcome {
  title: string;
  ours: string;
  chromium: string;
  mapped: boolean;
  mappedName?: string;
}

const s = useSession({ width: 1280, height: 800 });
const cases = allCases();
let outcomes: Outcome[] = [];

async function chromiumName(cdp: CDPSession, i: number): Promise<string> {
  const { result } = await cdp.send('Runtime.evaluate', { expression: `window.__caseTarget(${i})` });
  if (!result.objectId) return '<no target>';
  const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { objectId: result.objectId, fetchRelatives: false });
  await cdp.send('Runtime.releaseObject', { objectId: result.objectId });
  const value = nodes[0]?.name?.value;
  return typeof value === 'string' ? value : '';
}

beforeAll(async () => {
  const page: Page = await open(s, casesPage(cases, css));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Accessibility.enable');
  const ours = await page.evaluate((n) => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const el = (window as any).__caseTarget(i) as Element | null;
      out.push(el ? (window as any).pagehand.describe(el).name : '<no target>');
    }
    return out;
  }, cases.length);
  const chromium: string[] = [];
  for (let i = 0; i < cases.length; i += 50) {
    const batch = Array.from({ length: Math.min(50, cases.length - i) }, (_, k) => chromiumName(cdp, i + k));
    chromium.push(...(await Promise.all(batch)));
  }
  // Names of the elements the map lists: one map over the whole page, matched back by ref.
  const mapped = await page.evaluate((n) => {
    const ph = (window as any).pagehand;
    const targets = new Map<Element, number>();
    for (let i = 0; i < n; i++) {
      const el = (window as any).__caseTarget(i) as Element | null;
      if (el) targets.set(el, i);
    }
    const out: Record<number, string> = {};
    for (const e of ph.map({ maxTokens: 1e7, nearScreens: 1e4 }).elements) {
      const i = targets.get(ph.resolve(e.ref));
      if (i !== undefined) out[i] = e.name;
    }
    return out;
  }, cases.length);
  outcomes = cases.map((c, i) => ({
    title: c.title,
    ours: ours[i]!,
    chromium: chromium[i]!,
    mapped: mapped[i] !== undefined,
    mappedName: mapped[i],
  }));
  await page.close();
  if (process.env.NAMES_DIFF_DUMP)
    (await import('node:fs')).writeFileSync(
      process.env.NAMES_DIFF_DUMP,
      JSON.stringify(
        outcomes.map((o, i) => ({ ...o, html: cases[i]!.html })),
        null,
        1,
      ),
    );
});

const agrees = (o: Outcome): boolean => normalise(o.ours) === normalise(o.chromium);
const pct = (a: number, b: number): string => `${((100 * a) / b).toFixed(1)} %`;

const isDeviation = (o: Outcome): boolean => !!(listed(o.title, KNOWN_DEVIATIONS) ?? listed(o.title, OUR_CHOICES));
const mappedAgrees = (o: Outcome): boolean => normalise(o.mappedName!) === normalise(o.chromium);

describe('accessible names: pagehand.describe() against Chromium (generated cases)', () => {
  it('generates several hundred distinct cases; every listed deviation matches some', () => {
    expect(cases.length).toBeGreaterThan(500);
    expect(new Set(cases.map((c) => c.title)).size).toBe(cases.length);
    for (const d of [...KNOWN_DEVIATIONS, ...OUR_CHOICES])
      expect(
        cases.some((c) => d.cases.test(c.title)),
        String(d.cases),
      ).toBe(true);
  });

  it('agrees with Chromium on every case but the listed deviations, which still deviate', () => {
    const agreeing = outcomes.filter(agrees).length;
    const mapped = outcomes.filter((o) => o.mapped);
    const mappedAgreeing = mapped.filter(mappedAgrees).length;
    const mappedPlain = mapped.filter((o) => !isDeviation(o));
    console.log(
      `[names-differential] ${outcomes.length} cases, ${outcomes.filter(isDeviation).length} listed as deviations. ` +
        `Agreement with Chromium: ${agreeing}/${outcomes.length} = ${pct(agreeing, outcomes.length)} overall; ` +
        `mapped elements ${mappedAgreeing}/${mapped.length} = ${pct(mappedAgreeing, mapped.length)}, ` +
        `outside the listed deviations ${mappedPlain.filter(mappedAgrees).length}/${mappedPlain.length} = ${pct(mappedPlain.filter(mappedAgrees).length, mappedPlain.length)}`,
    );
    const unexpected = outcomes
      .filter((o) => !agrees(o) && !isDeviation(o))
      .map((o) => `${o.title}\n    ours:     ${JSON.stringify(o.ours)}\n    chromium: ${JSON.stringify(o.chromium)}`);
    const rotten = outcomes.filter((o) => agrees(o) && isDeviation(o)).map((o) => `${o.title}: both ${JSON.stringify(o.ours)}`);
    expect(unexpected, unexpected.join('\n')).toEqual([]);
    expect(rotten, rotten.join('\n')).toEqual([]);
  });

  it('the map lists the same names as describe() for the elements it maps', () => {
    const mapped = outcomes.filter((o) => o.mapped);
    expect(mapped.length).toBeGreaterThan(300);
    const differ = mapped.filter((o) => o.mappedName !== o.ours).map((o) => o.title);
    expect(differ).toEqual([]);
  });

  it('agrees with Chromium on every mapped element outside the listed deviations, and on ≥ 97 % of all cases', () => {
    const wrong = outcomes.filter((o) => o.mapped && !isDeviation(o) && !mappedAgrees(o)).map((o) => o.title);
    expect(wrong).toEqual([]);
    // Issue 10 set 97 % as the goal. The rest of the gap is the listed deviations alone (each
    // one rule, repeated across the generated shapes): where Chromium contradicts a cited line
    // of accname/html-aam, or our own choice for the agent; this floor keeps the rate there
    // (measured 1433/1475 = 97.2 %).
    expect(outcomes.filter(agrees).length / outcomes.length).toBeGreaterThanOrEqual(0.971);
  });
});
