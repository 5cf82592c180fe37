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

function method<A extends unknown[], T>(ctor: string, key: string): (o: object, ...args: A) => T {
  const fn = (proto(ctor) as Record<string, ((...a: A) => T) | undefined> | undefined)?.[key];
  return fn ? (o, ...args) => fn.apply(o, args) : (o, ...args) => (o as Record<string, (...a: A) => T>)[key]!(...args);
}

/** `el.localName`. */
export const localNameOf: Read<string> = /* @__PURE__ */ getter('Element', 'localName');
const getAttr = /* @__PURE__ */ method<[string], string | null>('Element', 'getAttribute');
/** `el.getAttribute(name)`. */
export const attrOf = (el: Element, name: string): string | null => getAttr(el, name);
const hasAttr = /* @__PURE__ */ method<[string], boolean>('Element', 'hasAttribute');
export const hasAttrOf = (el: Element, name: string): boolean => hasAttr(el, name);
const closestM = /* @__PURE__ */ method<[string], Element | null>('Element', 'closest');
/** `el.closest(selector)`. */
export const closestOf = (el: Element, selector: string): Element | null => closestM(el, selector);
const qsa = /* @__PURE__ */ method<[string], NodeListOf<Element>>('Element', 'querySelectorAll');
/** `[...el.querySelectorAll(selector)]`. */
export const allIn = (el: Element, selector: string): Element[] => [...qsa(el, selector)];
/** `node.ownerDocument`. */
export const ownerDocumentOf: Read<Document> = /* @__PURE__ */ getter('Node', 'ownerDocument');
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
const byId = /* @__PURE__ */ method<[string], Element | null>('Document', 'getElementById');
/** `doc.getElementById(id)`. */
export const elementById = (doc: Document, id: string): Element | null => byId(doc, id);
