/**
 * Every string the overlay shows, in English: the list of keys every language has (one place to
 * add a key: here, then in each ./lang/*.ts, which `Strings` makes tsc ask for, and
 * tests/unit/ui-i18n.test.ts checks). English is built into the panel as the fallback; the other
 * languages load only when shown (./lang-load.ts). Functions where a number or a name goes
 * inside the sentence; numbers, money and times go through `Intl` (./format.ts).
 */
import type { RiskKind, Said } from '../agent/public-types';
import type { SaidStrings } from '../../common/said';
import { money, num } from './format';

export const en = {
  /** The language's code, for `Intl` and the lang attribute (not shown). */
  locale: 'en',
  title: 'pagehand',
  taskLabel: 'What should I do on this page?',
  taskHint: 'Enter sends, Shift+Enter adds a line.',
  intro:
    'Tell me what to do on this page. I work step by step and show each step here; you can stop or take over at any time, and I ask before anything risky.',
  send: 'Send',
  sendWaiting: 'Sending…',
  voiceStart: 'Dictate the task',
  voiceStop: 'Stop dictating',
  listening: 'Listening… It stops when you pause, or press the microphone again.',
  voiceError: (code: string) =>
    code === 'not-allowed' || code === 'service-not-allowed'
      ? 'The microphone is not allowed on this page. Allow it in the browser, or type the task.'
      : code === 'no-speech'
        ? 'Nothing was heard. Press the microphone and speak, or type the task.'
        : code === 'audio-capture'
          ? 'No microphone was found. Type the task instead.'
          : `Dictation stopped (${code}). Try again, or type the task.`,
  waitingAgent: 'The agent is still loading: your task goes as soon as it is here.',
  agentFailed: (why: string) => `The agent could not be loaded, so your task was not sent (it is back in the box). Reload the page to try again. (${why})`,
  stop: 'Stop',
  takeOver: 'Take over',
  resume: 'Resume',
  collapse: 'Minimise',
  expand: 'Open pagehand',
  close: 'Close',
  move: 'Move the panel (arrow keys)',
  log: 'Agent steps',
  step: (k: number, max: number) => `Step ${k} of ${max}`,
  tokens: (n: number) => `${num(n, 'en')} tokens`,
  cost: (usd: number) => money(usd, 'en'),
  secrets: 'Values the agent may type but not see',
  secretsHint: 'The agent reads <secret:name> and types the value; the value never leaves the page.',
  secretName: 'Name',
  secretValue: 'Value',
  addSecret: 'Add a value',
  removeSecret: 'Remove',
  attach: 'Attach files the agent may upload',
  attachShort: 'Attach files',
  attached: 'Attached files',
  removeFile: (name: string) => `Remove ${name}`,
  thinking: 'Thinking…',
  details: 'Details',
  evaluation: 'Evaluation',
  memory: 'Memory',
  nextGoal: 'Next goal',
  result: 'Result',
  askTitle: 'The agent asks you',
  answer: 'Your answer',
  confirmTitle: 'Allow this action?',
  action: 'Action',
  element: 'Element',
  why: 'Why it needs you',
  goal: 'Goal',
  /** The card's Allow names what it allows (the kind is pagehand's word, never the page's). */
  allowIt: (kind: string) => `Allow: ${kind.toLowerCase()}`,
  deny: "Don't allow",
  arming: 'Allow works once this card has been in full view for a moment, with nothing over it.',
  allowKind: (kind: string) => `Allow every ${kind.toLowerCase()} action this run`,
  kinds: {
    payment: 'Payment',
    deletion: 'Deletion',
    sending: 'Sending',
    personal_data: 'Personal data',
    leaving_site: 'Leaving the site',
    download: 'Download',
    site_tool: 'Site tool',
    unjudged: 'Not checked',
  } satisfies Record<RiskKind, string>,
  done: 'Done',
  notDone: 'Not finished',
  /** A risky step that did not happen, named at the end (`what`: the element's name, or the call). */
  refusedStep: (kind: string, what: string, denied: boolean) => `${denied ? 'You did not allow' : 'Failed'}: ${kind.toLowerCase()} — ${what}`,
  /** The model's summary follows, as its claim. */
  agentSaid: 'The agent said:',
  /** The answer speaks of an effect no step had. */
  unbacked: (kind: string) => `The answer speaks of ${kind.toLowerCase()}; no such step was done.`,
  budgetStop: (cost: boolean) => `Stopped at the run's ${cost ? 'cost' : 'token'} limit, before the task was done.`,
  copy: 'Copy',
  copied: 'Copied',
  error: 'Something went wrong',
  retry: 'Retry',
  runAgain: 'Run again',
  saveRecording: 'Save as recording',
  saveReport: 'Save report',
  siteTasks: 'Tasks for this site',
  stopped: 'Stopped.',
  resumed: 'The page changed; the task goes on here.',
  dismiss: 'Dismiss',
  history: 'Earlier tasks on this site',
  paused: 'You have control. The agent waits until you resume.',
  working: 'The agent is working; the page is locked.',
  retrying: (s: number) => `Trying again in ${num(s, 'en')} s`,
  you: 'You',
  agent: 'Agent',
  // The conversation (a thread of tasks).
  conversation: 'Earlier in this conversation',
  newConversation: 'New conversation',
  /** The language menu's name. */
  language: 'Language',
  replayUnavailable: 'Replay is not available here.',
  // Answers: "Show me" on a ref, its element gone, the rating, the site's starter tasks.
  showMe: 'Show me',
  goneFromPage: 'No longer on the page',
  rateAnswer: 'Rate this answer',
  helpful: 'Helpful',
  notHelpful: 'Not helpful',
  thanks: 'Thanks for your feedback.',
  starters: 'Try asking',
  // The browser's own model (Chrome's Prompt API), offered under the task box where it exists.
  browserModel: "Use the browser's own model",
  browserModelState: {
    available: 'On this device, no key. A small model: check what it asks.',
    downloadable: 'The model downloads first (once, several GB).',
    unavailable: 'Not in this browser: it needs desktop Chrome with its model on.',
  },
  browserModelProgress: (loaded: number) => `Downloading the browser's model: ${num(Math.round(loaded * 100), 'en')} %`,
};

/**
 * A language's strings; the others also word pagehand's own messages, by code (`said`: risk
 * reasons, action failures, how a run ended). English has no such table: the engine's own
 * sentences are its words.
 */
export type Strings = typeof en & { said?: SaidStrings };
/** What each language other than English has: every key, and every code worded. */
export type Translated = Strings & { said: SaidStrings };

/** pagehand's own words in the panel's language: the code as the language words it, else the engine's English. */
export const say = (t: Strings, english: string, said?: Said): string => (said && t.said?.[said.code](said as never)) || english;
