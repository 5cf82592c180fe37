/**
 * One step's model request within the prompt budget, planned once per step: what every request
 * carries whatever the map (system prompt, tools, the task, memory, the last results, the
 * user's answers, notes, the conversation's earlier turns within their share) is counted first; the map gets what is left (within its own bounds),
 * then the history lines fill the rest. Pure but for the token estimate.
 */
import type { ChatRequest, ToolSpec } from '../llm/wire';
import type { PageMap } from '../page/page-types';
import { estimateTokens } from '../page/map/tokens';
import { fitHistory, FULL_RESULT_MAX, fullResults, userAnswers } from './history';
import type { SavedRun } from './persist';
import { stepMessage, type StepMessageInput } from './prompt';
import type { PageText } from '../page/settings';
import { IMAGE_TOKENS } from '../../common/image-tokens';
import { fitThread, THREAD_SHARE, threadTokens } from './thread';

export const DEFAULT_MAX_STEPS = 50;
export const DEFAULT_PROMPT_BUDGET = 12_000;
const MAP_MAX_TOKENS = 3000;
const MAP_MIN_TOKENS = 800;
/** The least map a step is sent with when the budget is short (the page text goes first). */
const MAP_FLOOR_TOKENS = 200;

/** A step's prompt before the map: its fixed parts, counted once. */
export interface StepPrompt {
  step: number;
  system: string;
  tools: ToolSpec[];
  /** The whole request's budget, and what the system prompt and the tools take of it. */
  budget: number;
  fixed: number;
  base: Omit<StepMessageInput, 'map' | 'history' | 'omitted'>;
  /** Tokens the map may take. */
  mapTokens: number;
}

/**
 * Plans step `step`: `fixed` is the system prompt's and the tools' cost (the same every step,
 * computed by the caller once).
 */
export function planPrompt(
  state: SavedRun,
  step: number,
  system: string,
  tools: ToolSpec[],
  fixed: number,
  recording?: string[],
  resultsMax = FULL_RESULT_MAX,
): StepPrompt {
  const o = state.options;
  const budget = o.maxPromptTokens ?? DEFAULT_PROMPT_BUDGET;
  const last = state.history[state.history.length - 1];
  // The conversation's earlier turns: within their share of the budget, oldest compressed first.
  const thread = fitThread(state.thread, Math.floor(budget * THREAD_SHARE));
  const threaded = threadTokens(thread);
  const base = {
    task: state.task,
    step,
    maxSteps: o.maxSteps ?? DEFAULT_MAX_STEPS,
    memory: state.memory,
    lastResults: fullResults(last, state.fence, resultsMax),
    answers: userAnswers(state.history),
    notes: state.notes,
    ...(recording?.length ? { recording } : {}),
    ...(state.files?.length ? { files: state.files } : {}),
    ...(threaded ? { thread } : {}),
  };
  // The data blocks' markers (memory, steps, results, map) count too.
  const essentials =
    estimateTokens(
      `${base.task}\n${base.memory}\n${base.notes.join('\n')}\n${base.lastResults.join('\n')}\n${base.answers.join('\n')}\n${(base.files ?? []).map((f) => f.name).join('\n')}`,
    ) + 140;
  // A replay's recording, shown while the model repairs a step.
  const replayed = recording?.length ? estimateTokens(recording.join('\n')) + 20 : 0;
  const room = budget - fixed - essentials - replayed - threaded;
  // What would not fit is cut before it is sent (a request over the model's window or the
  // proxy's cap fails the run): the page text first, down to a small map; then the last results.
  if (room < MAP_FLOOR_TOKENS && resultsMax > 200 && base.lastResults.length)
    return planPrompt(state, step, system, tools, fixed, recording, Math.max(200, Math.floor(resultsMax / 2)));
  // Keep room for about ten history lines.
  const mapTokens = room < MAP_MIN_TOKENS ? Math.max(MAP_FLOOR_TOKENS, room) : Math.min(MAP_MAX_TOKENS, Math.max(MAP_MIN_TOKENS, room - 600));
  return { step, system, tools, budget, fixed, base, mapTokens };
}

/** The request for the planned step, with this map (and screenshot). */
export function buildRequest(p: StepPrompt, state: SavedRun, model: string, map: PageMap, t: PageText, image?: string): ChatRequest {
  const base = { ...p.base, map: map.text };
  // A screenshot counts as the proxy counts it (common/image-tokens.ts): the history makes room.
  const used = p.fixed + estimateTokens(stepMessage({ ...base, history: [], omitted: 0 }, t)) + (image ? IMAGE_TOKENS : 0);
  const { lines, omitted } = fitHistory(state.history, Math.max(0, p.budget - used), t.fence);
  const text = stepMessage({ ...base, history: lines, omitted }, t);
  return {
    model,
    messages: [
      { role: 'system', content: p.system },
      {
        role: 'user',
        content: image
          ? [
              { type: 'text', text: `${text}\n\nA screenshot of the viewport is attached; the numbers drawn on it are the refs of the map.` },
              { type: 'image_url', image_url: { url: image } },
            ]
          : text,
      },
    ],
    tools: p.tools,
    tool_choice: state.options.toolChoice ?? 'auto',
  };
}
