/** The parts of the workerd test modules this suite uses (full types need @cloudflare/workers-types). */
declare module 'cloudflare:test' {
  export const env: Record<string, unknown>;
  export function createExecutionContext(): { waitUntil(p: Promise<unknown>): void; passThroughOnException(): void };
}

declare module 'cloudflare:workers' {
  export const exports: { default: { fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> } };
}
