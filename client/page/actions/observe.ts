/**
 * What an action changed, measured cheaply: a snapshot before the first event and one after
 * the page settles — URL, title, open dialogs, and the set of visible interactive elements
 * (one selector query + `checkVisibility`, about 4 ms on a 5k-element page). Not the full
 * map: that is rebuilt by the next observation anyway.
 */
import type { Describer } from '../names/describe';
import { isVisible } from './dom';
import { labelOf } from './hit';
import type { ActionChanges } from './contract';
import type { Zones } from '../settings';
import { attrOf, hasAttrOf } from '../dom/proto';

/**
 * Interactive elements: native controls, editable regions and the widget roles. Queried with a
 * short selector and sorted out here: one long selector list (`[role=button],[role=link],…`)
 * is checked against every element for every alternative, about 3× slower on a 5k page.
 */
const CANDIDATES = 'a[href],button,input,select,textarea,summary,[contenteditable],[role]';
const NATIVE = new Set(['button', 'select', 'textarea', 'summary']);
const ROLES = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'combobox',
  'textbox',
  'searchbox',
  'slider',
  'spinbutton',
  'treeitem',
  'gridcell',
]);

export function isInteractive(el: Element): boolean {
  const t = el.localName;
  if (NATIVE.has(t) || (t === 'a' && hasAttrOf(el, 'href'))) return true;
  if (t === 'input' && (attrOf(el, 'type') ?? '').toLowerCase() !== 'hidden') return true;
  const editable = attrOf(el, 'contenteditable');
  if (editable !== null && editable !== 'false') return true;
  return ROLES.has(attrOf(el, 'role') ?? '');
}

const DIALOGS = 'dialog[open],[role=dialog],[role=alertdialog],[aria-modal=true]';

export interface Snapshot {
  url: string;
  title: string;
  interactive: Set<Element>;
  dialogs: Set<Element>;
}

const VISIBILITY = { visibilityProperty: true } as CheckVisibilityOptions;
const shown = (el: Element): boolean => (typeof el.checkVisibility === 'function' ? el.checkVisibility(VISIBILITY) : isVisible(el));

/** Visible matches outside deny zones (and our own UI): what appears or goes in a zone is not
 *  the agent's to hear of — not its elements, not a dialog's title. */
function visibleSet(doc: Document, selector: string, zones: Zones, keep: (el: Element) => boolean = () => true): Set<Element> {
  const out = new Set<Element>();
  const zoned = zones.check();
  // Indexed: a NodeList's iterator costs more than the loop's body for most of its elements.
  const list = doc.querySelectorAll(selector);
  for (let i = 0; i < list.length; i++) {
    const el = list[i]!;
    if (keep(el) && shown(el) && !zoned(el)) out.add(el);
  }
  return out;
}

export function takeSnapshot(doc: Document, zones: Zones): Snapshot {
  return {
    url: doc.location?.href ?? '',
    title: doc.title,
    interactive: visibleSet(doc, CANDIDATES, zones, isInteractive),
    dialogs: visibleSet(doc, DIALOGS, zones),
  };
}

/** A dialog's name: its accessible name, else its first heading. */
export function dialogName(el: Element, describer: Describer): string {
  let name = '';
  try {
    name = describer.name(el);
  } catch {
    /* unnamed */
  }
  // A name computed from the whole content (placeholder describers) is no name for a dialog.
  if (!name || name.length > 80) {
    const heading = [...el.querySelectorAll('h1,h2,h3,h4,h5,h6,[role=heading]')].find((h) => !describer.settings.zones.inside(h));
    name = heading ? describer.settings.zones.textOutside(heading, 200) : '';
  }
  name = name.replace(/\s+/g, ' ').trim();
  return name.length > 60 ? `${name.slice(0, 57)}…` : name;
}

/** The difference between two snapshots as `changes`. */
export function diffSnapshots(before: Snapshot, after: Snapshot, describer: Describer): ActionChanges {
  const c: ActionChanges = {};
  if (after.url !== before.url) c.url = { from: before.url, to: after.url };
  if (after.title !== before.title) c.title = { from: before.title, to: after.title };
  const opened = [...after.dialogs].filter((d) => !before.dialogs.has(d));
  const closed = [...before.dialogs].filter((d) => !after.dialogs.has(d));
  if (opened.length) c.dialogOpened = opened.map((d) => dialogName(d, describer));
  if (closed.length) c.dialogClosed = closed.map((d) => dialogName(d, describer));
  const fresh = [...after.interactive].filter((e) => !before.interactive.has(e));
  let gone = 0;
  for (const e of before.interactive) if (!after.interactive.has(e)) gone++;
  if (fresh.length) {
    c.newElements = fresh.length;
    c.newSample = fresh.slice(0, 5).map((e) => labelOf(e, describer));
  }
  if (gone) c.goneElements = gone;
  return c;
}
