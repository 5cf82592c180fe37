/** Actions (placeholder: being built by the actions issue). */
export interface ActionCall {
  name: string;
  args?: Record<string, unknown>;
}
export interface ActionResult {
  ok: boolean;
  message: string;
  changes: Record<string, unknown>;
}
export async function act(call: ActionCall): Promise<ActionResult> {
  return { ok: false, message: `Action "${call?.name}" is not available yet.`, changes: {} };
}
