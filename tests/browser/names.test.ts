/**
 * Accessible names in real Chromium, through the bundle's `pagehand.describe(el)`.
 * Cases are written from the text of accname 1.2 (§4.3.2, steps 2A–2I and its examples) and
 * html-aam's "Accessible Name Computations By HTML Element"; each title names the rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { connect, open, type Session } from './harness';
import { casesPage, describeModules, type Case } from './describe-harness';

const css = `
.star::before { content: "★ "; }
.ext::after { content: " (external)"; }
.icon::before { content: "\\f007"; }
.from-attr::before { content: attr(data-label) ": "; }
.alt-text::before { content: "→" / "Next"; }
.block-before::before { content: "Step"; display: block; }
.none-before::before { content: "gone"; display: none; }
.vh { visibility: hidden; }
.vv { visibility: visible; }
.dn { display: none; }
.cv { content-visibility: hidden; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
.tot-eur::before { content: "Total"; }
.tot-eur::after { content: "EUR"; }
.tot::before { content: "Total"; }
.eur-block::after { content: "EUR"; display: block; }
.eur-ib::after { content: "EUR"; display: inline-block; }
.pvh::before { content: "gone"; visibility: hidden; }
.upper { text-transform: uppercase; }
.ct { display: contents; }
.offscreen { position: absolute; left: -10000px; }
`;

const long = Array.from({ length: 3000 }, (_, i) => `word${i}`).join(' ');
const long300 = 'x'.repeat(150) + ' ' + 'y'.repeat(150);

const cases: (Case & { expect: string })[] = [
  // ── step 1: roles that prohibit naming ──
  {
    title: "choice (Chromium): a generic <div> keeps its author's aria-label",
    html: `<div data-t aria-label="Rating: 4 of 5">★★★★</div>`,
    expect: 'Rating: 4 of 5',
  },
  {
    title: 'choice (Chromium): a paragraph keeps its aria-labelledby',
    html: `<p data-t aria-labelledby="nm-p">Text</p><span id="nm-p">Summary</span>`,
    expect: 'Summary',
  },
  { title: '1: a generic <div> is not named by its title or content', html: `<div data-t title="Tip">Text</div>`, expect: '' },
  { title: '1: a <span role=none> has no name', html: `<span data-t role="none" title="x">Text</span>`, expect: '' },
  { title: '1: <img alt=""> is decorative: no name', html: `<img data-t alt="" title="Ignored" src="data:,">`, expect: '' },
  { title: '1: a paragraph has no name', html: `<p data-t>Some text</p>`, expect: '' },

  // ── step 2B: aria-labelledby ──
  {
    title: '2B: several IDREFs, in order, joined by spaces',
    html: `<button data-t aria-labelledby="lb-a lb-b">x</button><span id="lb-b">world</span><span id="lb-a">Hello</span>`,
    expect: 'Hello world',
  },
  {
    title: '2B: aria-labelledby wins over aria-label and content',
    html: `<button data-t aria-labelledby="lb-c" aria-label="Label">Content</button><span id="lb-c">By</span>`,
    expect: 'By',
  },
  {
    title: '2B: a hidden referenced node still names (hidden attribute)',
    html: `<button data-t aria-labelledby="lb-h"></button><span id="lb-h" hidden>Secret name</span>`,
    expect: 'Secret name',
  },
  {
    title: '2A example 1: hidden referenced node → its hidden descendants count',
    html: `<div data-t role="button" aria-labelledby="lb-e1"></div><div id="lb-e1" class="dn"><span class="dn">hello</span></div>`,
    expect: 'hello',
  },
  {
    title: '2A example 2: visible referenced node → its hidden descendants do not',
    html: `<div data-t role="button" aria-labelledby="lb-e2"></div><div id="lb-e2"><span class="dn">hello</span></div>`,
    expect: '',
  },
  {
    title: '2A: a referenced node under visibility:hidden names, with all its text',
    html: `<button data-t aria-labelledby="lb-vh"></button><div class="vh"><span id="lb-vh">Quiet <b>name</b></span></div>`,
    expect: 'Quiet name',
  },
  {
    title: '2B example 3: the first traversal follows labelledby',
    html: `<div data-t role="button" id="lb-el1" aria-labelledby="lb-el3"></div><div role="button" id="lb-el2" aria-labelledby="lb-el1"></div><span id="lb-el3"> hello </span>`,
    expect: 'hello',
  },
  {
    title: "2B example 3: a referenced node's own labelledby is not followed",
    html: `<div role="button" id="lb-f1" aria-labelledby="lb-f3"></div><div data-t role="button" aria-labelledby="lb-f1"></div><span id="lb-f3">hello</span>`,
    expect: '',
  },
  {
    title: "2D example 5: self reference uses the node's aria-label",
    html: `<a id="lb-row1" href="#">Documentation.pdf</a><span data-t role="button" tabindex="0" id="lb-del1" aria-label="Delete" aria-labelledby="lb-del1 lb-row1"></span>`,
    expect: 'Delete Documentation.pdf',
  },
  {
    title: '2B: mutual references do not loop',
    html: `<span data-t role="button" id="lb-m1" aria-labelledby="lb-m2">A</span><span role="button" id="lb-m2" aria-labelledby="lb-m1">B</span>`,
    expect: 'B',
  },
  {
    title: '2B: a node referencing itself only → its aria-label / content',
    html: `<button data-t id="lb-self" aria-labelledby="lb-self">Own text</button>`,
    expect: 'Own text',
  },
  {
    title: '2B: unknown IDREFs fall through to aria-label',
    html: `<button data-t aria-labelledby="nope-1 nope-2" aria-label="Fallback">x</button>`,
    expect: 'Fallback',
  },
  {
    title: '2B: an empty referenced node falls through to content',
    html: `<button data-t aria-labelledby="lb-empty">Content</button><span id="lb-empty"></span>`,
    expect: 'Content',
  },
  {
    title: '2B+2C: a directly referenced text input gives its value',
    html: `<div data-t role="button" aria-labelledby="lb-in"></div><input id="lb-in" value="typed value" aria-label="Not this">`,
    expect: 'typed value',
  },
  {
    title: '2B: self reference on an input plus another node',
    html: `<input data-t id="lb-q" aria-labelledby="lb-q lb-ql" aria-label="Search" value="abc"><span id="lb-ql">products</span>`,
    expect: 'Search products',
  },
  {
    title: '2B: ariaLabelledByElements set from script crosses a shadow boundary',
    html: `<span id="lb-outer">Outer label</span><div class="host"></div>`,
    setup: `const sr = sec.querySelector('.host').attachShadow({ mode: 'open' }); sr.innerHTML = '<button>inner</button>'; sr.querySelector('button').ariaLabelledByElements = [document.getElementById('lb-outer')];`,
    target: `sec.querySelector('.host').shadowRoot.querySelector('button')`,
    expect: 'Outer label',
  },
  {
    title: "2B: IDREFs resolve in the element's own tree (shadow root)",
    html: `<span id="lb-sh">Document span</span><div class="host"></div>`,
    setup: `const sr = sec.querySelector('.host').attachShadow({ mode: 'open' }); sr.innerHTML = '<span id="lb-sh">Shadow span</span><button aria-labelledby="lb-sh">x</button>';`,
    target: `sec.querySelector('.host').shadowRoot.querySelector('button')`,
    expect: 'Shadow span',
  },

  // ── step 2D: aria-label ──
  { title: '2D: aria-label wins over content', html: `<button data-t aria-label="Close dialog">×</button>`, expect: 'Close dialog' },
  { title: '2D: a blank aria-label is ignored', html: `<a data-t href="#" aria-label="   ">Home</a>`, expect: 'Home' },
  {
    title: '2D: aria-label of a descendant is used in content',
    html: `<a data-t href="#">Rated <span aria-label="four stars">★★★★</span></a>`,
    expect: 'Rated four stars',
  },

  // ── step 2E: labels (html-aam) ──
  { title: '2E: <label for>', html: `<label for="lab-email">Email</label><input data-t id="lab-email">`, expect: 'Email' },
  { title: '2E: wrapping <label>', html: `<label>Full name <input data-t></label>`, expect: 'Full name' },
  { title: "2E: the labelled control's own value is not part of its name", html: `<label>Search <input data-t value="shoes"></label>`, expect: 'Search' },
  {
    title: '2E: several labels joined in tree order',
    html: `<label for="lab-m">First</label><input data-t id="lab-m"><label for="lab-m">Second</label>`,
    expect: 'First Second',
  },
  {
    title: '2E: a wrapping label and a for-label together',
    html: `<label>Outer <input data-t id="lab-w2"></label><label for="lab-w2">Extra</label>`,
    expect: 'Outer Extra',
  },
  { title: 'html-aam: a display:none label names nothing', html: `<label for="lab-hl" class="dn">Hidden label</label><input data-t id="lab-hl">`, expect: '' },
  {
    title: 'html-aam: a hidden label names nothing, so the title does',
    html: `<label for="lab-ht" hidden>foo</label><input data-t id="lab-ht" title="bar">`,
    expect: 'bar',
  },
  {
    title: 'html-aam: a label inside a hidden wrapper names nothing',
    html: `<div class="dn"><label for="lab-hw">Wrapped</label></div><input data-t id="lab-hw">`,
    expect: '',
  },
  {
    title: 'choice: a hidden control keeps its hidden label (its name when shown)',
    html: `<div class="dn"><label for="lab-hr">Quantity</label><input data-t id="lab-hr"></div>`,
    expect: 'Quantity',
  },
  {
    title: '2E: hidden parts of a visible label are left out',
    html: `<label for="lab-hd">Visible <span class="dn">secret</span><span aria-hidden="true">icon</span> text</label><input data-t id="lab-hd">`,
    expect: 'Visible text',
  },
  {
    title: '2E: a visually hidden (sr-only) label counts',
    html: `<label for="lab-sr" class="sr-only">Quantity</label><input data-t id="lab-sr" type="number">`,
    expect: 'Quantity',
  },
  { title: '2E: aria-label beats a <label>', html: `<label for="lab-al">Label</label><input data-t id="lab-al" aria-label="Aria">`, expect: 'Aria' },
  {
    title: '2E: a label beats title and placeholder',
    html: `<label for="lab-tp">Label</label><input data-t id="lab-tp" title="Title" placeholder="Placeholder">`,
    expect: 'Label',
  },
  {
    title: '2E: a label names a button before its content',
    html: `<label for="lab-b">Label wins</label><button data-t id="lab-b">Content</button>`,
    expect: 'Label wins',
  },
  { title: '2E: a label names a checkbox', html: `<input data-t type="checkbox" id="lab-cb"> <label for="lab-cb">Remember me</label>`, expect: 'Remember me' },
  {
    title: '2E: a label names a select (not its option)',
    html: `<label for="lab-sel">Country</label><select data-t id="lab-sel"><option>Spain</option></select>`,
    expect: 'Country',
  },
  { title: '2E: a label names a textarea', html: `<label>Message <textarea data-t>Hello there</textarea></label>`, expect: 'Message' },
  {
    title: '2E: labels name output, meter and progress',
    html: `<label for="lab-pr">Upload</label><progress data-t id="lab-pr" value="3" max="10"></progress>`,
    expect: 'Upload',
  },
  {
    title: '2E: a label for a control in a shadow root does not reach it',
    html: `<label for="lab-s2">Outside</label><div class="host"></div>`,
    setup: `sec.querySelector('.host').attachShadow({ mode: 'open' }).innerHTML = '<input id="lab-s2">';`,
    target: `sec.querySelector('.host').shadowRoot.querySelector('input')`,
    expect: '',
  },
  {
    title: '2E: a label inside the same shadow root does',
    html: `<div class="host"></div>`,
    setup: `sec.querySelector('.host').attachShadow({ mode: 'open' }).innerHTML = '<label for="lab-s3">Inside</label><input id="lab-s3">';`,
    target: `sec.querySelector('.host').shadowRoot.querySelector('input')`,
    expect: 'Inside',
  },
  {
    title: '2E: a label names a form-associated custom element',
    html: `<label for="lab-fa">Rating</label><x-rating id="lab-fa" role="slider"></x-rating>`,
    setup: `customElements.define('x-rating', class extends HTMLElement { static formAssociated = true; constructor() { super(); this.attachInternals(); } });`,
    target: `sec.querySelector('x-rating')`,
    expect: 'Rating',
  },

  // ── step 2C: embedded controls in a label ──
  {
    title: '2C example 4: contenteditable textbox in a checkbox label gives its text, not its aria-label',
    html: `<label for="emb-flash"><input type="checkbox" id="emb-flash" data-t> Flash the screen <span tabindex="0" role="textbox" aria-label="number of times" contenteditable>5</span> times.</label>`,
    expect: 'Flash the screen 5 times.',
  },
  {
    title: '2C: text input in a label → its value',
    html: `<label><input data-t type="checkbox"> Flash the screen <input value="3" aria-label="count"> times</label>`,
    expect: 'Flash the screen 3 times',
  },
  {
    title: '2C: select in a label → the chosen option',
    html: `<label><input data-t type="checkbox"> Remind me <select><option>daily</option><option selected>weekly</option></select></label>`,
    expect: 'Remind me weekly',
  },
  {
    title: '2C: listbox in a label → the aria-selected option',
    html: `<label><input data-t type="checkbox"> Colour <div role="listbox"><div role="option">red</div><div role="option" aria-selected="true">green</div></div></label>`,
    expect: 'Colour green',
  },
  {
    title: '2C: range in a label → its value',
    html: `<label><input data-t type="checkbox"> Volume <input type="range" value="30"> percent</label>`,
    expect: 'Volume 30 percent',
  },
  {
    title: '2C: spinbutton → aria-valuetext first',
    html: `<label><input data-t type="checkbox"> Wait <span role="spinbutton" aria-valuenow="5" aria-valuetext="five"></span> minutes</label>`,
    expect: 'Wait five minutes',
  },
  {
    title: '2C: slider → aria-valuenow without valuetext',
    html: `<label><input data-t type="checkbox"> Level <span role="slider" aria-valuenow="7"></span></label>`,
    expect: 'Level 7',
  },
  {
    title: '2C: an embedded password field adds nothing',
    html: `<label><input data-t type="checkbox"> Keep <input type="password" value="hunter2"> safe</label>`,
    expect: 'Keep safe',
  },
  {
    title: "2C: an embedded input in a button's content gives its value",
    html: `<div data-t role="button">Qty <input value="3" aria-label="quantity"></div>`,
    expect: 'Qty 3',
  },

  // ── step 2E: other html-aam host-language labels ──
  {
    title: 'html-aam: fieldset ← first legend',
    html: `<fieldset data-t><legend>Shipping address</legend><legend>Second</legend><input></fieldset>`,
    expect: 'Shipping address',
  },
  { title: 'html-aam: fieldset without legend ← title', html: `<fieldset data-t title="Options"><input></fieldset>`, expect: 'Options' },
  {
    title: 'html-aam 4.1.9: a figcaption does not name its figure',
    html: `<figure data-t><img alt="Chart" src="data:,"><figcaption>Sales by month</figcaption></figure>`,
    expect: '',
  },
  { title: 'html-aam 4.1.9: a figure ← title', html: `<figure data-t title="Sales"><figcaption>Sales by month</figcaption></figure>`, expect: 'Sales' },
  { title: 'html-aam: a hidden legend names nothing', html: `<fieldset data-t><legend class="dn">Shipping</legend><input></fieldset>`, expect: '' },
  { title: 'html-aam: a hidden caption names nothing', html: `<table data-t><caption hidden>Prices</caption><tr><td>1</td></tr></table>`, expect: '' },
  { title: 'html-aam: table ← caption', html: `<table data-t><caption>Prices</caption><tr><td>1</td></tr></table>`, expect: 'Prices' },
  {
    title: 'html-aam: table aria-label beats caption',
    html: `<table data-t aria-label="Price list"><caption>Prices</caption><tr><td>1</td></tr></table>`,
    expect: 'Price list',
  },
  { title: 'html-aam: img ← alt', html: `<img data-t alt="Company logo" title="Title" src="data:,">`, expect: 'Company logo' },
  { title: 'html-aam: img without alt ← title', html: `<img data-t title="Portrait" src="data:,">`, expect: 'Portrait' },
  {
    title: 'html-aam: area ← alt',
    html: `<map name="nm-map"><area data-t href="#" alt="North region" shape="rect" coords="0,0,10,10"></map>`,
    expect: 'North region',
  },
  { title: 'html-aam: input type=image ← alt', html: `<input data-t type="image" alt="Search" src="data:,">`, expect: 'Search' },
  { title: 'html-aam: input type=image without alt ← title', html: `<input data-t type="image" title="Go" src="data:,">`, expect: 'Go' },
  { title: 'html-aam: input type=image with nothing ← "Submit"', html: `<input data-t type="image" src="data:,">`, expect: 'Submit' },
  { title: 'html-aam: submit without value ← "Submit"', html: `<input data-t type="submit">`, expect: 'Submit' },
  { title: 'html-aam: reset without value ← "Reset"', html: `<input data-t type="reset">`, expect: 'Reset' },
  { title: 'html-aam: submit ← value', html: `<input data-t type="submit" value="Place order">`, expect: 'Place order' },
  { title: 'html-aam: input type=button ← value', html: `<input data-t type="button" value="Preview">`, expect: 'Preview' },
  { title: 'html-aam: input type=button without value has no name', html: `<input data-t type="button">`, expect: '' },
  { title: 'html-aam: submit with empty value ← title, not the default', html: `<input data-t type="submit" value="" title="Send">`, expect: 'Send' },
  { title: 'html-aam: text input ← title before placeholder', html: `<input data-t title="Title" placeholder="Placeholder">`, expect: 'Title' },
  { title: 'html-aam: text input ← placeholder', html: `<input data-t type="search" placeholder="Search products…">`, expect: 'Search products…' },
  { title: 'html-aam: textarea ← placeholder', html: `<textarea data-t placeholder="Your message"></textarea>`, expect: 'Your message' },
  {
    title: 'aria-placeholder names a contenteditable textbox',
    html: `<div data-t contenteditable="true" aria-placeholder="Write a comment"></div>`,
    expect: 'Write a comment',
  },
  {
    title: "a contenteditable textbox's text is not its name",
    html: `<div data-t contenteditable="true" aria-label="Editor">Draft text</div>`,
    expect: 'Editor',
  },
  { title: 'svg ← <title> child', html: `<svg data-t viewBox="0 0 10 10"><title>Warning</title><circle r="4"></circle></svg>`, expect: 'Warning' },
  {
    title: 'button with an svg <title> icon',
    html: `<button data-t><svg viewBox="0 0 10 10"><title>Close</title><path d="M0 0L10 10"></path></svg></button>`,
    expect: 'Close',
  },
  { title: 'option ← label attribute', html: `<select><option data-t label="Short">A much longer text</option></select>`, expect: 'Short' },
  { title: 'option ← content', html: `<select><option data-t> Madrid </option></select>`, expect: 'Madrid' },

  // ── step 2F: name from content ──
  { title: '2F: link text', html: `<a data-t href="#">Read more</a>`, expect: 'Read more' },
  { title: '2F: inline children join without spaces', html: `<a data-t href="#"><span>Buy</span><span>now</span></a>`, expect: 'Buynow' },
  { title: '2F: block children are set apart', html: `<a data-t href="#"><div>Buy</div><div>now</div></a>`, expect: 'Buy now' },
  {
    title: '2F: flex items are blockified and set apart',
    html: `<button data-t style="display:flex"><span>Save</span><span>changes</span></button>`,
    expect: 'Save changes',
  },
  { title: '2F: <br> becomes a space', html: `<button data-t>Line<br>two</button>`, expect: 'Line two' },
  { title: "2F: an image's alt is set apart from the text", html: `<a data-t href="#"><img alt="Logo" src="data:,">Home</a>`, expect: 'Logo Home' },
  {
    title: '2F: nested elements, deep',
    html: `<a data-t href="#"><span><b>Ernesto</b> <i>Ruiz</i></span> — <span>Budget <em>for</em> Q3</span></a>`,
    expect: 'Ernesto Ruiz — Budget for Q3',
  },
  { title: '2F: heading content', html: `<h2 data-t>Title <small>subtitle</small></h2>`, expect: 'Title subtitle' },
  { title: '2F: cell content', html: `<table><tr><td data-t>Row <b>one</b></td></tr></table>`, expect: 'Row one' },
  {
    title: '2F: tab, menuitem, option, treeitem, switch, checkbox roles take content',
    html: `<div role="tablist"><div data-t role="tab">Settings</div></div>`,
    expect: 'Settings',
  },
  { title: '2F: role=checkbox takes content', html: `<div data-t role="checkbox" aria-checked="false">Accept terms</div>`, expect: 'Accept terms' },
  { title: '2F: summary takes content', html: `<details><summary data-t>More options</summary><p>Body</p></details>`, expect: 'More options' },
  { title: '2F: dialog does not take content', html: `<div data-t role="dialog">Some dialog text</div>`, expect: '' },
  { title: '2F: nav does not take content (title only)', html: `<nav data-t title="Main menu"><a href="#">Home</a></nav>`, expect: 'Main menu' },
  { title: '2F: textbox role does not take content', html: `<div data-t role="textbox">typed</div>`, expect: '' },
  {
    title: '2F: ASCII whitespace is collapsed and trimmed (flat string); a no-break space is kept',
    html: `<button data-t>\n   Save\t\u00a0 and\n\n  close   </button>`,
    expect: 'Save \u00a0 and close',
  },
  { title: '2F: names are not truncated', html: `<button data-t>${long300}</button>`, expect: long300 },
  {
    title: '2F: a presentational descendant still gives its text',
    html: `<a data-t href="#"><span role="presentation">Inside</span> link</a>`,
    expect: 'Inside link',
  },
  {
    title: '2F: title of an empty descendant is used (2I on the child)',
    html: `<a data-t href="#"><span class="icon-home" title="Home"></span></a>`,
    expect: 'Home',
  },
  {
    title: '2F: a figure inside a link gives its whole content',
    html: `<a data-t href="#"><figure><img alt="Red shoe" src="data:,"><figcaption>€49</figcaption></figure></a>`,
    expect: 'Red shoe €49',
  },

  // ── step 2F.ii: generated content ──
  { title: '2F.ii: ::before text is prepended', html: `<button data-t class="star">Favourite</button>`, expect: '★ Favourite' },
  { title: '2F.ii: ::after text is appended', html: `<a data-t class="ext" href="#">Docs</a>`, expect: 'Docs (external)' },
  { title: '2F.ii: ::before of a descendant counts', html: `<button data-t><span class="star"></span>Star</button>`, expect: '★ Star' },
  { title: '2F.ii: attr() in content', html: `<button data-t class="from-attr" data-label="Step 2">Pay</button>`, expect: 'Step 2: Pay' },
  { title: '2F.ii: CSS alt text for generated content is a word of its own', html: `<button data-t class="alt-text">page</button>`, expect: 'Next page' },
  { title: '2F.ii: a block ::before is set apart', html: `<button data-t class="block-before">One</button>`, expect: 'Step One' },
  { title: '2F.ii: display:none ::before adds nothing', html: `<button data-t class="none-before">Shown</button>`, expect: 'Shown' },
  { title: 'choice: icon-font glyphs (private use area) are dropped', html: `<button data-t><i class="icon"></i> Profile</button>`, expect: 'Profile' },

  // ── issue 10: word breaks a reader sees (2F.iii/2G text joins as written; boxes are words) ──
  {
    title: '2G: a space inside a nested inline element is kept (button)',
    html: `<button data-t>Save<span><span> </span></span>draft</button>`,
    expect: 'Save draft',
  },
  {
    title: '2G: a space inside a nested inline element is kept (link)',
    html: `<a data-t href="#">Save<span><span> </span></span>draft</a>`,
    expect: 'Save draft',
  },
  { title: '2G: a space inside a nested inline element is kept (heading)', html: `<h2 data-t>Save<span><span> </span></span>draft</h2>`, expect: 'Save draft' },
  {
    title: '2G: a space inside a nested inline element is kept (role=button)',
    html: `<div data-t role="button" tabindex="0">Save<span><span> </span></span>draft</div>`,
    expect: 'Save draft',
  },
  { title: '2G: a newline inside an inline element is a space', html: `<button data-t>Save<b>\n</b>draft</button>`, expect: 'Save draft' },
  {
    title: '2G: a space inside a nested inline element of a label is kept',
    html: `<label for="ws-l">Post<span><span> </span></span>code</label><input data-t id="ws-l">`,
    expect: 'Post code',
  },
  { title: '2G: a space in a hidden element is not a break', html: `<button data-t>Save<span class="vh"> </span>draft</button>`, expect: 'Savedraft' },
  {
    title: '2F.iii (Chromium): a display:contents element is a word break',
    html: `<button data-t><span class="ct">Save</span>draft</button>`,
    expect: 'Save draft',
  },
  { title: '2F.iii (Chromium): <wbr> is a word break', html: `<button data-t>Save<wbr>draft</button>`, expect: 'Save draft' },
  {
    title: '2F.iii (Chromium): an empty picture between words in a <label> is a word break',
    html: `<label for="ws-img">Save<img alt="" src="data:,">draft</label><input data-t id="ws-img">`,
    expect: 'Save draft',
  },
  { title: '2F.iii: a decorative image between words adds no break', html: `<button data-t>Save<img alt="" src="data:,">draft</button>`, expect: 'Savedraft' },
  { title: '2F.iii: a control is a word of its own even without a value', html: `<label>Amount<input data-t>due</label>`, expect: 'Amount due' },
  { title: '2G: text is read as rendered (text-transform)', html: `<button data-t><span class="upper">Save</span> draft</button>`, expect: 'SAVE draft' },

  // ── issue 10: generated content keeps the breaks its layout gives ──
  {
    title: "2F.ii: inline ::before/::after around a label's input read as two words",
    html: `<label class="tot-eur"><input data-t></label>`,
    expect: 'Total EUR',
  },
  {
    title: '2F.ii: inline ::before/::after join their neighbours without a space',
    html: `<label class="tot-eur">Amount<input data-t>due</label>`,
    expect: 'TotalAmount dueEUR',
  },
  { title: '2F.ii: an inline ::before is prepended without a space', html: `<button data-t class="tot">Amount</button>`, expect: 'TotalAmount' },
  { title: '2F.ii: a block ::after is a word of its own', html: `<button data-t class="eur-block">Amount</button>`, expect: 'Amount EUR' },
  { title: '2F.ii: an inline-block ::after is a word of its own', html: `<button data-t class="eur-ib">Amount</button>`, expect: 'Amount EUR' },
  { title: '2F.ii: a visibility:hidden ::before adds nothing', html: `<button data-t class="pvh">Shown</button>`, expect: 'Shown' },
  {
    title: '2F.ii (Chromium): a block ::before inside an inline element is apart from its content and ends it with a break',
    html: `<a data-t href="#">Pay<span class="block-before">due</span>now</a>`,
    expect: 'PayStep due now',
  },
  {
    title: '2F.ii (Chromium): an inline-block ::after inside an inline element is apart from its content only',
    html: `<a data-t href="#">Pay<span class="eur-ib">due</span>now</a>`,
    expect: 'Paydue EURnow',
  },

  // ── issue 10: describe() keeps what accname keeps (the flat string only folds ASCII whitespace) ──
  {
    title: '2D: aria-label keeps its no-break spaces at the ends',
    html: `<button data-t aria-label="\u00a0Close\u00a0">x</button>`,
    expect: '\u00a0Close\u00a0',
  },
  {
    title: '2D: aria-label keeps a run of no-break spaces',
    html: `<button data-t aria-label="Close\u00a0\u00a0dialog">x</button>`,
    expect: 'Close\u00a0\u00a0dialog',
  },
  {
    title: '2D: aria-label keeps a leading zero-width space and a soft hyphen',
    html: `<button data-t aria-label="\u200bClo\u00adse">x</button>`,
    expect: '\u200bClo\u00adse',
  },
  { title: '2D: aria-label keeps its leading symbol', html: `<a data-t href="#" aria-label="→ Next">x</a>`, expect: '→ Next' },
  {
    title: '2D: an aria-label of a no-break space is not blank (and names a section, so it is a region)',
    html: `<section data-t aria-label="\u00a0">x</section>`,
    expect: '\u00a0',
  },
  {
    title: '2D: aria-label: ASCII whitespace is collapsed and trimmed',
    html: `<button data-t aria-label="  Close\n  dialog  ">x</button>`,
    expect: 'Close dialog',
  },
  { title: '2G: content keeps a no-break space between words', html: `<button data-t>Save&nbsp;draft</button>`, expect: 'Save\u00a0draft' },
  { title: '2I: a title keeps its no-break spaces', html: `<button data-t title="\u00a0Tip\u00a0"></button>`, expect: '\u00a0Tip\u00a0' },

  // ── issue 10: embedded controls in a label (2C) ──
  {
    title: '2C: a menu button in a label is a button: its text',
    html: `<label><input data-t type="checkbox"> Remind me <button aria-haspopup="menu">weekly</button></label>`,
    expect: 'Remind me weekly',
  },
  {
    title: '2C: a combobox input in a label gives its value',
    html: `<label><input data-t type="checkbox"> Ship to <input role="combobox" value="Paris" aria-label="City"></label>`,
    expect: 'Ship to Paris',
  },
  {
    title: '2C: a select-only combobox gives the text it shows',
    html: `<label><input data-t type="checkbox"> Sort by <span role="combobox" tabindex="0">Newest</span></label>`,
    expect: 'Sort by Newest',
  },
  {
    title: '2C: a listbox with nothing chosen adds nothing',
    html: `<label><input data-t type="checkbox"> Colour <span role="listbox"><span role="option">red</span><span role="option">blue</span></span></label>`,
    expect: 'Colour',
  },
  {
    title: '2C: a multiple select gives every chosen option',
    html: `<label><input data-t type="checkbox"> Colours <select multiple><option selected>red</option><option>green</option><option selected>blue</option></select></label>`,
    expect: 'Colours red blue',
  },
  {
    title: '2C: an empty text field is read by its own label',
    html: `<label><input data-t type="checkbox"> Flash <input aria-label="number of"> times</label>`,
    expect: 'Flash number of times',
  },
  {
    title: '2C: a progress bar is a range: its value',
    html: `<label><input data-t type="checkbox"> Step <progress value="3" max="10">30%</progress> of ten</label>`,
    expect: 'Step 3 of ten',
  },
  {
    title: '2F (Chromium): a menu inside a label is not read',
    html: `<label><input data-t type="checkbox"> Edit <span role="menu"><span role="menuitem">Cut</span> <span role="menuitem">Copy</span></span></label>`,
    expect: 'Edit',
  },
  {
    title: '2F (Chromium): a menu item keeps its name while its submenu is open',
    html: `<div role="menubar"><div data-t role="menuitem" tabindex="0">File<div role="menu"><div role="menuitem">New</div><div role="menuitem">Open</div></div></div></div>`,
    expect: 'File',
  },
  {
    title: '2F (Chromium): a tree item is not named by its nested group',
    html: `<ul role="tree"><li data-t role="treeitem">Fruits<ul role="group"><li role="treeitem">Apple</li></ul></li></ul>`,
    expect: 'Fruits',
  },
  {
    title: '2F (Chromium): a fieldset inside a button gives its legend, not its content',
    html: `<div data-t role="button" tabindex="0">Pay <fieldset><legend>by card</legend><input aria-label="x"></fieldset></div>`,
    expect: 'Pay by card',
  },
  {
    title: "2B: a labelledby target reads a menu's items",
    html: `<div data-t role="button" tabindex="0" aria-labelledby="lb-menu"></div><span id="lb-menu">Edit <span role="menu"><span role="menuitem">Cut</span></span></span>`,
    expect: 'Edit Cut',
  },
  {
    title: 'choice: an article inside a link is read (a card link keeps its name)',
    html: `<a data-t href="#"><article><h3>Shoes</h3><p>€49</p></article></a>`,
    expect: 'Shoes €49',
  },

  // ── issue 10: aria-labelledby chains and references back into them (2B) ──
  {
    title: '2B: a repeated IDREF is read each time',
    html: `<button data-t aria-labelledby="rep-a rep-a">x</button><span id="rep-a"><b>Bold</b> text</span>`,
    expect: 'Bold text Bold text',
  },
  {
    title: '2B: the root inside its own labelledby target is read by its content',
    html: `<div id="back-t">Name <span data-t role="button" tabindex="0" aria-labelledby="back-t">own</span></div>`,
    expect: 'Name own',
  },
  {
    title: '2B: a text field inside its own labelledby target adds nothing',
    html: `<div id="back-i">Name <input data-t aria-labelledby="back-i" value="typed"></div>`,
    expect: 'Name',
  },
  {
    title: '2B: a labelledby inside a target points back into the chain and is not followed',
    html: `<button data-t aria-labelledby="ch-a ch-b">x</button><span id="ch-a">First <span aria-labelledby="ch-b">Inner</span></span><span id="ch-b">Second</span>`,
    expect: 'First Inner Second',
  },
  {
    title: '2B: a target labelled by aria-label gives its aria-label',
    html: `<button data-t aria-labelledby="ch-l">x</button><span id="ch-l" aria-label="Aria name">Text</span>`,
    expect: 'Aria name',
  },
  {
    title: '2B: an empty text field referenced directly is read by its aria-label',
    html: `<button data-t aria-labelledby="ch-e">x</button><input id="ch-e" aria-label="Quantity">`,
    expect: 'Quantity',
  },

  // ── issue 10: title names what has no other name (2I, html-aam) ──
  { title: 'html-aam: an iframe is named by its title', html: `<iframe data-t title="Payment form" width="10" height="10"></iframe>`, expect: 'Payment form' },
  {
    title: '2I: a visibility:hidden image adds no alt to a link',
    html: `<a data-t href="#"><img class="vh" alt="Logo" src="data:,"> Home</a>`,
    expect: 'Home',
  },

  // ── step 2A: hidden content ──
  { title: '2A: display:none descendants are left out', html: `<button data-t>Save <span class="dn">draft</span></button>`, expect: 'Save' },
  { title: '2A: the hidden attribute leaves content out', html: `<button data-t>Open <span hidden>menu</span></button>`, expect: 'Open' },
  { title: '2A: aria-hidden descendants are left out', html: `<button data-t><span aria-hidden="true">✕</span> Close</button>`, expect: 'Close' },
  { title: '2A: visibility:hidden descendants are left out', html: `<button data-t>Next <span class="vh">step</span></button>`, expect: 'Next' },
  {
    title: '2A: a visible child of a visibility:hidden parent counts',
    html: `<button data-t>A <span class="vh">hidden <span class="vv">shown</span></span></button>`,
    expect: 'A shown',
  },
  {
    title: '2A: content-visibility:hidden content is left out',
    html: `<button data-t>Go<span class="cv" style="display:inline-block"><span>nowhere</span></span></button>`,
    expect: 'Go',
  },
  { title: '2A: opacity:0 is not hidden', html: `<button data-t>Buy <span style="opacity:0">now</span></button>`, expect: 'Buy now' },
  {
    title: '2A: off-screen and sr-only text is not hidden',
    html: `<a data-t href="#"><span class="offscreen">Skip to</span> <span class="sr-only">main</span> content</a>`,
    expect: 'Skip to main content',
  },
  { title: '2A: script and style content never counts', html: `<button data-t>Run<script>var x = 1;</script><style>.x{}</style></button>`, expect: 'Run' },
  {
    title: 'choice: a hidden element keeps its name (so its ref keeps its fingerprint)',
    html: `<button data-t class="dn">Hidden button</button>`,
    expect: 'Hidden button',
  },
  {
    title: "choice: a hidden element's hidden content counts too",
    html: `<div class="dn"><button data-t>Menu <span class="dn">item</span></button></div>`,
    expect: 'Menu item',
  },

  // ── step 2I: tooltip ──
  { title: '2I: title when nothing else names a button', html: `<button data-t title="Settings"><span class="icon"></span></button>`, expect: 'Settings' },
  { title: '2I: content beats title', html: `<button data-t title="Tooltip">Label</button>`, expect: 'Label' },
  { title: '2I: title names a checkbox without label', html: `<input data-t type="checkbox" title="Select row">`, expect: 'Select row' },

  // ── shadow DOM: rendered child nodes ──
  {
    title: 'shadow: content comes from the shadow root',
    html: `<div data-t role="button" class="host"></div>`,
    setup: `sec.querySelector('.host').attachShadow({ mode: 'open' }).innerHTML = '<span>From shadow</span>';`,
    expect: 'From shadow',
  },
  {
    title: 'shadow: slots give their assigned nodes',
    html: `<div data-t role="button" class="host"><b>Slotted</b> text</div>`,
    setup: `sec.querySelector('.host').attachShadow({ mode: 'open' }).innerHTML = '<span>Pre </span><slot></slot>';`,
    expect: 'Pre Slotted text',
  },
  {
    title: 'shadow: an empty slot gives its fallback content',
    html: `<div data-t role="button" class="host"></div>`,
    setup: `sec.querySelector('.host').attachShadow({ mode: 'open' }).innerHTML = '<slot>Fallback</slot>';`,
    expect: 'Fallback',
  },
  {
    title: 'shadow: a button inside a shadow root',
    html: `<div class="host"></div>`,
    setup: `sec.querySelector('.host').attachShadow({ mode: 'open' }).innerHTML = '<button>Shadow button</button>';`,
    target: `sec.querySelector('.host').shadowRoot.querySelector('button')`,
    expect: 'Shadow button',
  },

  // ── same-origin iframes: labels and styles come from the frame's own document ──
  {
    title: 'iframe: a <label for> inside a same-origin frame',
    html: `<iframe title="f"></iframe>`,
    setup: `const doc = sec.querySelector('iframe').contentDocument; doc.body.innerHTML = '<style>.dn{display:none}</style><label for="if-x">Inner <span class="dn">hidden</span>label</label><input id="if-x">';`,
    target: `sec.querySelector('iframe').contentDocument.getElementById('if-x')`,
    expect: 'Inner label',
  },

  // ── bounded content walk ──
  { title: 'cap: a link wrapping a huge text is bounded and starts with its first words', html: `<a data-t href="#"><p>${long}</p></a>`, expect: '__CAPPED__' },
];

let session: Session;
let page: Page;
const results: string[] = [];

beforeAll(async () => {
  session = await connect();
  page = await open(session, casesPage(cases, css));
  const names = await page.evaluate((n) => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const el = (window as any).__caseTarget(i) as Element | null;
      out.push(el ? (window as any).pagehand.describe(el).name : '<no target>');
    }
    return out;
  }, cases.length);
  results.push(...names);
});

afterAll(async () => {
  await session?.close();
});

describe('accessible names (pagehand.describe, real Chromium)', () => {
  cases.forEach((c, i) => {
    it(c.title, () => {
      const got = results[i];
      if (c.expect === '__CAPPED__') {
        expect(got!.startsWith('word0 word1 word2')).toBe(true);
        expect(got!.length).toBeGreaterThan(400);
        expect(got!.length).toBeLessThan(long.length / 10);
      } else {
        expect(got).toBe(c.expect);
      }
    });
  });
});

describe('nameAs and caching (describer API)', () => {
  it('nameAs gives a clickable generic element its content as a name', async () => {
    await page.addScriptTag({ content: await describeModules() });
    const r = await page.evaluate(() => {
      const d = (window as any).__phDescribe.createDescriber();
      const div = document.createElement('div');
      div.innerHTML = '<span>Add</span> <b>to cart</b>';
      document.body.append(div);
      const out = { role: d.role(div), name: d.name(div), asButton: d.nameAs(div, 'button'), asGeneric: d.nameAs(div, 'generic') };
      div.remove();
      return out;
    });
    expect(r).toEqual({ role: 'generic', name: '', asButton: 'Add to cart', asGeneric: '' });
  });

  it('one describer builds the label index once and still names controls added to another root', async () => {
    const r = await page.evaluate(() => {
      const d = (window as any).__phDescribe.createDescriber();
      const first = d.name(document.getElementById('lab-email'));
      const host = document.createElement('div');
      document.body.append(host);
      const sr = host.attachShadow({ mode: 'open' });
      sr.innerHTML = '<label for="z">Zip</label><input id="z">';
      const second = d.name(sr.getElementById('z'));
      host.remove();
      return [first, second];
    });
    expect(r).toEqual(['Email', 'Zip']);
  });

  it('never calls .labels and never reads layout (the map names thousands of elements)', async () => {
    const r = await page.evaluate((n) => {
      const calls: string[] = [];
      const spy = (proto: object, prop: string) => {
        const desc = Object.getOwnPropertyDescriptor(proto, prop)!;
        const patched: PropertyDescriptor = desc.get
          ? {
              ...desc,
              get() {
                calls.push(prop);
                return desc.get!.call(this);
              },
            }
          : {
              ...desc,
              value(this: unknown, ...args: unknown[]) {
                calls.push(prop);
                return (desc.value as (...a: unknown[]) => unknown).apply(this, args);
              },
            };
        Object.defineProperty(proto, prop, patched);
        return () => Object.defineProperty(proto, prop, desc);
      };
      const restore = [
        ...[HTMLInputElement, HTMLSelectElement, HTMLTextAreaElement, HTMLButtonElement, HTMLOutputElement, HTMLMeterElement, HTMLProgressElement].map((c) =>
          spy(c.prototype, 'labels'),
        ),
        spy(HTMLElement.prototype, 'innerText'),
        spy(HTMLElement.prototype, 'offsetWidth'),
        spy(HTMLElement.prototype, 'offsetHeight'),
        spy(Element.prototype, 'getBoundingClientRect'),
        spy(Element.prototype, 'getClientRects'),
      ];
      const d = (window as any).__phDescribe.createDescriber();
      let named = 0;
      try {
        for (let i = 0; i < n; i++) if (d.name((window as any).__caseTarget(i))) named++;
      } finally {
        restore.forEach((f) => f());
      }
      return { calls, named };
    }, cases.length);
    expect(r.named).toBeGreaterThan(100);
    expect(r.calls).toEqual([]);
  });

  it('a closed shadow root is read through the shadowRoot option', async () => {
    const r = await page.evaluate(() => {
      const host = document.createElement('div');
      host.setAttribute('role', 'button');
      document.body.append(host);
      const closed = host.attachShadow({ mode: 'closed' });
      closed.innerHTML = '<span>Closed content</span>';
      const api = (window as any).__phDescribe;
      const plain = api.createDescriber().name(host);
      const hooked = api.createDescriber({ shadowRoot: (h: Element) => (h === host ? closed : h.shadowRoot) }).name(host);
      host.remove();
      return [plain, hooked];
    });
    expect(r).toEqual(['', 'Closed content']);
  });
});
