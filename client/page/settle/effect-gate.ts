/**
 * The gate an action sets on what the page causes while it runs (./effects.ts hooks beacons,
 * windows and navigations; ./network.ts holds fetch and XHR through it). No gate, no hold.
 */
/** One effect the page started during an action. */
export interface PageEffect {
  kind: 'request' | 'beacon' | 'navigation' | 'window';
  /** Absolute. */
  url: string;
  /** Upper case: GET for navigations and windows, POST for a form's navigation and beacons. */
  method: string;
  /** It cannot wait for an answer (a synchronous XHR): a risky one is refused, not asked about. */
  now?: boolean;
}

/** undefined: let it go now; a promise: hold it until the answer (true: let it go). */
export type EffectGate = (e: PageEffect) => Promise<boolean> | undefined;

/** What an action's settings give it to hold what it causes. */
export interface EffectWatch {
  gate: EffectGate;
  /** Waits for every held effect's answer; what was blocked, in a sentence for the model ('' if nothing). */
  done(): Promise<string>;
}

let gate: EffectGate | undefined;

/** Sets the gate while an action runs; the function returned removes it. */
export function gateEffects(g: EffectGate): () => void {
  gate = g;
  return () => {
    if (gate === g) gate = undefined;
  };
}

/** The gate's word on an effect (no gate: undefined, let it go). A gate that throws holds it, refused. */
export function held(e: PageEffect): Promise<boolean> | undefined {
  if (!gate) return undefined;
  try {
    return gate(e);
  } catch {
    return Promise.resolve(false);
  }
}

/** Requests that only read are never held. */
export const changes = (method: string): boolean => !/^(get|head)$/i.test(method);

export const absolute = (url: unknown): string => {
  try {
    return new URL(String(url), document.baseURI).href;
  } catch {
    return String(url);
  }
};
