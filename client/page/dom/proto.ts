/**
 * DOM reads a page cannot fake: each goes through the getter or method on the interface's own
 * prototype, captured when this module loads, never through the element itself. A form's
 * named fields shadow its properties (`<input name="elements">` makes `form.elements` that
 * input, in every world, the runner's isolated one too), and a page script can give one element
 * its own `type` or `value`; the prototype's getter reads what the browser really holds.
 *
 * Where an interface is missing (a test without a DOM) the plain property is read instead.
 */
type Read<T> = (o: object) => T;

const proto = (ctor: string): object | undefined => (globalThis as unknown as Record<string, { prototype?: object } | undefined>)[ctor]?.prototype;

function getter<T>(ctor: string, key: string): Read<T> {
  const get = proto(ctor) && Object.getOwnPropertyDescriptor(proto(ctor), key)?.get;
  return get ? (o) => get.call(o) as T : (o) => (o as Record<string, T>)[key]!;
}

/** A method without arguments. */
function method0<T>(ctor: string, key: string): (o: object) => T {
  const fn = (proto(ctor) as Record<string, (() => T) | undefined> | undefined)?.[key];
  return fn ? (o) => fn.call(o) : (o) => (o as Record<string, () => T>)[key]!();
}

/** A one-argument method, called without spreading (the walk calls these on every element). */
function method1<A, T>(ctor: string, key: string): (o: object, a: A) => T {
  const fn = (proto(ctor) as Record<string, ((a: A) => T) | undefined> | undefined)?.[key];
  return fn ? (o, a) => fn.call(o, a) : (o, a) => (o as Record<string, (a: A) => T>)[key]!(a);
}

/** `el.localName`. */
export const localNameOf: Read<string> = /* @__PURE__ */ getter('Element', 'localName');
/** `el.getAttribute(name)`. */
export const attrOf: (el: Element, name: string) => string | null = /* @__PURE__ */ method1('Element', 'getAttribute');
/** `el.hasAttribute(name)`. */
export const hasAttrOf: (el: Element, name: string) => boolean = /* @__PURE__ */ method1('Element', 'hasAttribute');
/** `el.hasAttributes()`. */
export const hasAttrsOf: (el: Element) => boolean = /* @__PURE__ */ method0<boolean>('Element', 'hasAttributes');
/** `node.nodeType`. */
export const nodeTypeOf: Read<number> = /* @__PURE__ */ getter('Node', 'nodeType');
/** `node.parentNode`. */
export const parentNodeOf: Read<ParentNode | null> = /* @__PURE__ */ getter('Node', 'parentNode');
/** `node.parentElement`. */
export const parentElementOf: Read<HTMLElement | null> = /* @__PURE__ */ getter('Node', 'parentElement');
/** `node.firstChild`. */
export const firstChildOf: Read<ChildNode | null> = /* @__PURE__ */ getter('Node', 'firstChild');
/** `node.nextSibling`. */
export const nextSiblingOf: Read<ChildNode | null> = /* @__PURE__ */ getter('Node', 'nextSibling');
/** `el.shadowRoot`: an open shadow root (closed ones: dom/hooks.ts). */
export const openShadowOf: Read<ShadowRoot | null> = /* @__PURE__ */ getter('Element', 'shadowRoot');
const elementSlot: Read<HTMLSlotElement | null> = /* @__PURE__ */ getter('Element', 'assignedSlot');
const textSlot: Read<HTMLSlotElement | null> = /* @__PURE__ */ getter('Text', 'assignedSlot');
/** `node.assignedSlot` (an element's or a text's: each interface has its own getter; null for other nodes). */
export const assignedSlotOf = (n: Node): HTMLSlotElement | null => {
  const type = nodeTypeOf(n);
  return type === 1 ? elementSlot(n) : type === 3 ? textSlot(n) : null;
};
/** `node.getRootNode()`: its document or shadow root. */
export const rootOf: (n: Node) => Node = /* @__PURE__ */ method0('Node', 'getRootNode');
/** `el.matches(selector)`. */
export const matchesOf: (el: Element, selector: string) => boolean = /* @__PURE__ */ method1('Element', 'matches');
const closestM = /* @__PURE__ */ method1<string, Element | null>('Element', 'closest');
/** `el.closest(selector)`. */
export const closestOf = (el: Element, selector: string): Element | null => closestM(el, selector);
const qsa = /* @__PURE__ */ method1<string, NodeListOf<Element>>('Element', 'querySelectorAll');
/** `[...el.querySelectorAll(selector)]`. */
export const allIn = (el: Element, selector: string): Element[] => [...qsa(el, selector)];
/** `el.ownerDocument`. */
export const ownerDocumentOf: Read<Document> = /* @__PURE__ */ getter('Node', 'ownerDocument');
/** `node.ownerDocument` of any node (null for a document). */
export const nodeDocumentOf = (n: Node): Document | null => ownerDocumentOf(n);
/** `node.baseURI`. */
export const baseURIOf: Read<string> = /* @__PURE__ */ getter('Node', 'baseURI');

const formElements: Read<HTMLFormControlsCollection> = /* @__PURE__ */ getter('HTMLFormElement', 'elements');
/** A form's controls, as the browser lists them (whatever fields the form names `elements`). */
export const controlsOf = (form: HTMLFormElement): Element[] => [...formElements(form)];

/** Per control tag: the interface whose getters read it (`type`, `value`, `name`, `form`). */
const CONTROL_CTORS: Record<string, string> = {
  input: 'HTMLInputElement',
  button: 'HTMLButtonElement',
  select: 'HTMLSelectElement',
  textarea: 'HTMLTextAreaElement',
  output: 'HTMLOutputElement',
  fieldset: 'HTMLFieldSetElement',
  object: 'HTMLObjectElement',
};
const controlGetters = /* @__PURE__ */ new Map<string, Read<unknown>>();
/** `control[key]` through its own interface's getter; undefined for an element that is no form control. */
function controlProp<T>(el: Element, key: 'type' | 'value' | 'name' | 'form'): T | undefined {
  const ctor = CONTROL_CTORS[localNameOf(el)];
  if (!ctor) return undefined;
  const id = `${ctor}.${key}`;
  let read = controlGetters.get(id);
  if (!read) controlGetters.set(id, (read = getter(ctor, key)));
  return read(el) as T;
}
/** A control's `type` (lower case, as the browser normalises it): `submit`, `email`, `select-one`, … or ''. */
export const typeOf = (el: Element): string => controlProp<string>(el, 'type') ?? '';
/** A control's current `value`, or ''. */
export const valueOf = (el: Element): string => controlProp<string>(el, 'value') ?? '';
/** A control's `name` property, or ''. */
export const nameOf = (el: Element): string => controlProp<string>(el, 'name') ?? '';
/** The form a control belongs to (its `form` attribute or its ancestor), or null. */
export const formOf = (el: Element): HTMLFormElement | null => controlProp<HTMLFormElement | null>(el, 'form') ?? null;

const inputFiles: Read<FileList | null> = /* @__PURE__ */ getter('HTMLInputElement', 'files');
/** How many files a file input holds. */
export const fileCount = (el: Element): number => (localNameOf(el) === 'input' ? (inputFiles(el)?.length ?? 0) : 0);

const labelControl: Read<HTMLElement | null> = /* @__PURE__ */ getter('HTMLLabelElement', 'control');
/** The control a `<label>` labels, or null. */
export const labelledControl = (label: Element): HTMLElement | null => labelControl(label);

/** `node.textContent`. */
export const textOf: Read<string | null> = /* @__PURE__ */ getter('Node', 'textContent');
/** `document.activeElement` (a document's named images and forms shadow its own properties). */
export const activeElementOf: Read<Element | null> = /* @__PURE__ */ getter('Document', 'activeElement');
const byId = /* @__PURE__ */ method1<string, Element | null>('Document', 'getElementById');
/** `doc.getElementById(id)`. */
export const elementById = (doc: Document, id: string): Element | null => byId(doc, id);
