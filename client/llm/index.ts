/** The model client: talks to the pagehand proxy in OpenAI Chat Completions, streamed. */
export { createModelClient } from './client';
export { assistantMessage } from './reply';
export * from './wire';
