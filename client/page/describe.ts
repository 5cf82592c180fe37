/**
 * Role and accessible name of any element (placeholder: being replaced by the accname module).
 */
export interface Describer {
  role(el: Element): string;
  name(el: Element): string;
  describe(el: Element): { role: string; name: string };
}

export function createDescriber(): Describer {
  const role = (el: Element): string => el.getAttribute('role')?.trim().split(/\s+/)[0] || el.localName;
  const name = (el: Element): string => (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ');
  return { role, name, describe: (el) => ({ role: role(el), name: name(el) }) };
}
