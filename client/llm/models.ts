/** Reading the proxy's model lists (`GET /v1/config`), and the browser's model's name. Pure. */

/** A model name from the proxy's lists: exact, or a prefix ending in `*` (for any-model tokens). */
export const matchesModel = (pattern: string, model: string): boolean =>
  pattern === model || pattern === '*' || (pattern.endsWith('*') && model.startsWith(pattern.slice(0, -1)));

/** Whether `model` reads images, by `features.images` of the proxy's configuration. */
export const readsImages = (images: boolean | string[] | undefined, model: string): boolean =>
  images === true || (Array.isArray(images) && images.some((m) => matchesModel(m, model)));

/** The model name that chooses the browser's own model (the Prompt API, no proxy): `run(task, { model: 'browser' })`. */
export const BROWSER_MODEL = 'browser';
