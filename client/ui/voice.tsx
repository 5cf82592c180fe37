/**
 * The task box's microphone, only where the browser has speech recognition (SpeechRecognition,
 * or webkitSpeechRecognition): no button at all elsewhere. It listens only after the user's own
 * press (trusted.ts: a page script's click() does not start it), in the panel's language; the
 * words heard so far show in the task box as they come; it stops when the browser hears the
 * user stop (the recognition's own end), on a second press, when the task is sent or the panel
 * goes away, and on an error, which is said under the box. The words stay in the box: the user
 * reads them and sends them, as typed text.
 *
 * The constructor is taken when this module loads, before the page can swap it later. Where the
 * page ran first (a bookmarklet) it may have replaced it: then its words could fill the box, but
 * never send it.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Strings } from './i18n';
import { onUserInput } from './trusted';

/** The part of the Web Speech API's recognition the microphone uses. */
interface Recognition extends EventTarget {
  lang: string;
  interimResults: boolean;
  continuous: boolean;
  start(): void;
  stop(): void;
  abort(): void;
}
type RecognitionCtor = new () => Recognition;
/** A result event: each result's best alternative, final or still changing. */
interface ResultEvent extends Event {
  results: ArrayLike<ArrayLike<{ transcript: string }> & { isFinal: boolean }>;
}

const found =
  typeof window === 'undefined'
    ? undefined
    : ((window as unknown as Record<string, unknown>).SpeechRecognition ?? (window as unknown as Record<string, unknown>).webkitSpeechRecognition);
const Speech: RecognitionCtor | undefined = typeof found === 'function' ? (found as RecognitionCtor) : undefined;

/** What was heard in one listening, its results joined. */
const heardIn = (e: ResultEvent): string =>
  Array.from(e.results)
    .map((r) => r[0]?.transcript ?? '')
    .join('')
    .replace(/\s+/g, ' ')
    .trim();

export interface Voice {
  /** The browser has speech recognition: the button shows. */
  readonly supported: boolean;
  readonly listening: boolean;
  /** The last error's code (`not-allowed`, `no-speech`, …), until the next press. */
  readonly error: string | undefined;
  /** The user's press: starts listening, or stops it. */
  toggle(): void;
  /** Stops listening at once, and what it would still hear goes nowhere (the task is being sent). */
  cancel(): void;
}

/**
 * Dictation into the task box: `text()` is the box's text when listening starts (what is heard
 * goes after it), `show(text)` puts the box's text back with the words heard so far.
 */
export function useVoice(langOf: () => string, text: () => string, show: (text: string) => void): Voice {
  const rec = useRef<Recognition | undefined>(undefined);
  const [listening, setListening] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  // The panel went away: the microphone goes off with it.
  useEffect(() => () => rec.current?.abort(), []);
  const stop = (): void => {
    rec.current?.stop();
  };
  const cancel = (): void => {
    const r = rec.current;
    rec.current = undefined;
    r?.abort();
    setListening(false);
  };
  const start = (): void => {
    if (!Speech) return;
    let r: Recognition;
    try {
      r = new Speech();
    } catch (e) {
      setError(String((e as Error)?.message ?? e));
      return;
    }
    const before = text().trim();
    r.lang = langOf();
    r.interimResults = true;
    r.continuous = false;
    r.addEventListener('result', (e) => {
      if (rec.current !== r) return; // sent or gone meanwhile: the box is no longer this listening's
      const heard = heardIn(e as ResultEvent);
      if (heard) show(before ? `${before} ${heard}` : heard);
    });
    r.addEventListener('error', (e) => rec.current === r && setError(String((e as Event & { error?: unknown }).error ?? 'error')));
    r.addEventListener('end', () => {
      if (rec.current === r) rec.current = undefined;
      setListening(false);
    });
    rec.current = r;
    setError(undefined);
    setListening(true);
    try {
      r.start();
    } catch (e) {
      rec.current = undefined;
      setListening(false);
      setError(String((e as Error)?.message ?? e));
    }
  };
  return { supported: !!Speech, listening, error, cancel, toggle: () => (rec.current ? stop() : start()) };
}

/** The microphone button: pressed while listening; its name says what a press does now. */
export function MicButton({ t, voice, disabled }: { t: Strings; voice: Voice; disabled?: boolean }) {
  if (!voice.supported) return null;
  const label = voice.listening ? t.voiceStop : t.voiceStart;
  return (
    <button
      type="button"
      class={voice.listening ? 'icon mic on' : 'icon mic'}
      aria-pressed={voice.listening}
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onUserInput(voice.toggle)}
      data-voice
    >
      <svg
        width="16"
        height="16"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        stroke-width="2"
        stroke-linecap="round"
        stroke-linejoin="round"
        aria-hidden="true"
      >
        <rect x="9" y="2" width="6" height="12" rx="3" />
        <path d="M5 11a7 7 0 0 0 14 0M12 18v4M8 22h8" />
      </svg>
    </button>
  );
}
