/**
 * `document.modelContext` at document start (the embed's loader, the userscript, every bundle's
 * entry): where the browser offers none, a small one shaped as the WebMCP draft defines it
 * (./types.ts), so a site can register its tools today for pagehand and tomorrow for the
 * browser's own agent; where one is there already (the browser's, or the page's own), its
 * `registerTool` is wrapped so pagehand learns of each tool as it is registered — the draft
 * gives an agent in the page no way to list them. Tools registered before pagehand loaded
 * stay unknown to it.
 *
 * What pagehand learned is kept on the object under `Symbol.for('pagehand.webmcp')`: the
 * embed's agent chunk, a second script, finds there what its loader saw. A page can reach it
 * too; all it could do with it is hide its own tools from pagehand. Small and import-free: it
 * ships in the embed's loader.
 */
import type { ModelContext, ModelContextRegisterToolOptions, ModelContextTool, RegisteredTool, ToolRegistry } from './webmcp-types';

export const REGISTRY = Symbol.for('pagehand.webmcp');
const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

const invalid = (message: string): DOMException => new DOMException(message, 'InvalidStateError');

/** Reads a tool once, as the draft's registerTool does (its checks, its errors). */
export function readTool(tool: ModelContextTool): RegisteredTool {
  if (!tool || typeof tool !== 'object') throw new TypeError('registerTool: not a tool');
  const { name, description, execute, annotations, title } = tool;
  if (typeof name !== 'string' || !NAME.test(name)) throw invalid('registerTool: bad name');
  if (typeof description !== 'string' || !description) throw invalid('registerTool: empty description');
  if (typeof execute !== 'function') throw new TypeError('registerTool: execute is not a function');
  let inputSchema: Record<string, unknown> | undefined;
  if (tool.inputSchema !== undefined) {
    const json = JSON.stringify(tool.inputSchema);
    if (json === undefined) throw new TypeError('registerTool: inputSchema is not JSON');
    inputSchema = JSON.parse(json) as Record<string, unknown>;
  }
  return {
    name,
    ...(typeof title === 'string' ? { title } : {}),
    description,
    inputSchema,
    execute: (input) => execute.call(tool, input),
    readOnlyHint: annotations?.readOnlyHint === true,
    untrustedContentHint: annotations?.untrustedContentHint === true,
  };
}

function createRegistry(native: boolean, own: ToolRegistry['own']): { registry: ToolRegistry; entries: Map<string, RegisteredTool> } {
  const entries = new Map<string, RegisteredTool>();
  const registry: ToolRegistry = Object.freeze({ native, own, tools: () => [...entries.values()].map((t) => ({ ...t })) });
  return { registry, entries };
}

/** Forgets the entry when the tool's signal aborts (the draft's way to unregister). */
function untilAborted(entries: Map<string, RegisteredTool>, read: RegisteredTool, signal: AbortSignal | undefined, after?: () => void): void {
  signal?.addEventListener(
    'abort',
    () => {
      if (entries.get(read.name) !== read) return;
      entries.delete(read.name);
      after?.();
    },
    { once: true },
  );
}

/** Learns of each tool registered with a `document.modelContext` pagehand did not make. */
function wrap(mc: ModelContext): ToolRegistry | undefined {
  const original = mc.registerTool;
  if (typeof original !== 'function') return undefined;
  const mine = new WeakSet<object>();
  const { registry, entries } = createRegistry(true, (tool, options) => {
    mine.add(tool);
    return Promise.resolve(mc.registerTool(tool, options));
  });
  function registerTool(this: unknown, tool: ModelContextTool, options?: ModelContextRegisterToolOptions) {
    // The object's own checks decide (it throws or rejects as it does); pagehand records the
    // tool once the registration went through.
    const result = original.call(this, tool, options);
    if (tool && typeof tool === 'object' && !mine.has(tool)) {
      let read: RegisteredTool | undefined;
      try {
        read = readTool(tool);
      } catch {
        read = undefined;
      }
      if (read) {
        const r = read;
        void Promise.resolve(result).then(
          () => {
            if (options?.signal?.aborted) return;
            entries.set(r.name, r);
            untilAborted(entries, r, options?.signal);
          },
          () => undefined,
        );
      }
    }
    return result;
  }
  try {
    Object.defineProperty(mc, 'registerTool', { value: registerTool, writable: true, configurable: true });
    Object.defineProperty(mc, REGISTRY, { value: registry });
  } catch {
    return undefined; // a frozen object: its tools stay unknown
  }
  return registry;
}

/** The draft's `ModelContext`, for a browser that has none. */
function polyfill(doc: Document): ToolRegistry {
  const { registry, entries } = createRegistry(false, () => Promise.resolve());
  let handler: ((event: Event) => unknown) | null = null;
  class ModelContextPolyfill extends EventTarget {
    registerTool(tool: ModelContextTool, options: ModelContextRegisterToolOptions = {}): Promise<undefined> {
      let read: RegisteredTool;
      try {
        read = readTool(tool);
        if (entries.has(read.name)) throw invalid(`registerTool: "${read.name}" is registered`);
        for (const o of options?.exposedTo ?? []) {
          if (!/^https?:/.test(new URL(String(o)).protocol)) throw new DOMException(`registerTool: bad origin ${String(o)}`, 'SecurityError');
        }
      } catch (e) {
        return Promise.reject(e);
      }
      const signal = options?.signal;
      if (signal?.aborted) return Promise.reject(signal.reason);
      entries.set(read.name, read);
      const changed = (): void => void setTimeout(() => this.dispatchEvent(new Event('toolchange')), 0);
      untilAborted(entries, read, signal, changed);
      changed();
      return new Promise((resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        setTimeout(() => resolve(undefined), 0);
      });
    }

    get ontoolchange(): ((event: Event) => unknown) | null {
      return handler;
    }

    set ontoolchange(fn: ((event: Event) => unknown) | null) {
      handler = typeof fn === 'function' ? fn : null;
    }
  }
  const mc = new ModelContextPolyfill();
  mc.addEventListener('toolchange', (e) => handler?.call(mc, e));
  Object.defineProperty(mc, REGISTRY, { value: registry });
  Object.defineProperty(doc, 'modelContext', { value: mc, configurable: true, enumerable: true });
  return registry;
}

/**
 * What pagehand knows of the page's WebMCP tools: the registry on `document.modelContext`
 * (installing the polyfill, or wrapping the object that is there, the first time). Undefined
 * outside a secure context (the draft's API exists only there) or when the object cannot be
 * wrapped. Never throws.
 */
export function installModelContext(doc: Document = document): ToolRegistry | undefined {
  try {
    if (typeof window === 'undefined' || !window.isSecureContext) return undefined;
    const existing = (doc as Document & { modelContext?: ModelContext }).modelContext;
    if (existing && typeof existing === 'object') {
      const known = (existing as unknown as Record<symbol, ToolRegistry | undefined>)[REGISTRY];
      return known && typeof known.tools === 'function' ? known : wrap(existing);
    }
    return polyfill(doc);
  } catch {
    return undefined;
  }
}
