/**
 * What an action causes beyond its target: while one runs, the requests that change something
 * (fetch and XHR other than GET/HEAD, beacons), the navigations and the new windows the page
 * starts are held until the gate an action set (`gateEffects`) has judged them. Outside an
 * action no gate is set and nothing is touched: the user's own clicks and the page's timers
 * between actions go as they always do.
 *
 * The page layer only holds and re-starts; what is risky and who is asked is the safety
 * layer's (safety/effects.ts), lent down through the action's settings (`PageSettings.effects`).
 * fetch is held in the wrapper settle detection already puts on it (./network.ts: `hold`);
 * this file wraps XHR's `open` and `send` (what `send` goes to is known only from `open`), and hooks beacons, `window.open` and, through Chromium's Navigation API, every
 * navigation of this window a page script or a form starts (link, `location`, `form.submit()`,
 * `requestSubmit()`). The hooks see only what runs after them: installed when the bundle loads
 * (document start for the userscript and an embed in `<head>`, later for the bookmarklet).
 */
import { absolute, changes, held, type PageEffect } from './effect-gate';
import { hold, mimic } from './network';

interface NavigateEvent extends Event {
  destination?: { url: string; sameDocument: boolean };
  formData?: FormData | null;
}

let installed = false;

/** A fetch that changes something, held (refused: it rejects as a network failure does). */
function heldFetch([input, init]: unknown[]): Promise<unknown> | undefined {
  const req = input instanceof Request ? input : undefined;
  const method = String((init as RequestInit | undefined)?.method ?? req?.method ?? 'GET').toUpperCase();
  const wait = changes(method) && held({ kind: 'request', url: absolute(req ? req.url : input), method });
  return wait ? wait.then((ok) => ok || Promise.reject(new TypeError('Failed to fetch'))) : undefined;
}

/** Hooks beacons, `window.open`, form submissions and navigations of `win` once. */
export function installEffectHooks(win: Window & typeof globalThis = window): void {
  if (installed) return;
  installed = true;
  // XHR: what open() was given, judged at send().
  const xhr = win.XMLHttpRequest?.prototype;
  const opened = new WeakMap<XMLHttpRequest, PageEffect>();
  const nativeOpen = xhr?.open;
  if (nativeOpen) {
    const open = function (this: XMLHttpRequest, method: string, url: string | URL, async?: boolean): void {
      opened.set(this, { kind: 'request', method: String(method).toUpperCase(), url: absolute(url), now: arguments.length > 2 && !async });
      // eslint-disable-next-line prefer-rest-params
      return (nativeOpen as (...a: unknown[]) => void).apply(this, arguments as unknown as unknown[]);
    };
    mimic(open, nativeOpen);
    xhr.open = open;
  }
  hold((args, go) => heldFetch(args)?.then(go) ?? go());
  const nativeSend = xhr?.send;
  if (nativeSend) {
    const send = function (this: XMLHttpRequest): void {
      // eslint-disable-next-line prefer-rest-params
      const args = arguments as unknown as unknown[];
      const sent = (): void => (nativeSend as (...a: unknown[]) => void).apply(this, args);
      const what = opened.get(this);
      const wait = what && changes(what.method) ? held(what) : undefined;
      if (!wait) return sent();
      // A synchronous request cannot wait: the gate refused it (now), and the page sees a network error.
      if (what!.now) throw new DOMException('Failed to execute send', 'NetworkError');
      void wait.then((ok) => {
        if (ok) return sent();
        // Refused: the page sees the request fail, as a network error.
        for (const type of ['error', 'loadend']) this.dispatchEvent(new ProgressEvent(type));
      });
    };
    mimic(send, nativeSend);
    xhr.send = send;
  }
  const nav = win.Navigator?.prototype;
  const beacon = nav?.sendBeacon;
  if (beacon) {
    const sendBeacon = function (this: Navigator, url: string | URL, data?: BodyInit | null): boolean {
      const wait = held({ kind: 'beacon', url: absolute(url), method: 'POST' });
      if (!wait) return beacon.call(this, url, data);
      // Cannot wait: queued as the browser queues it, sent after a yes.
      void wait.then((ok) => ok && beacon.call(this, url, data));
      return true;
    };
    mimic(sendBeacon, beacon);
    nav.sendBeacon = sendBeacon;
  }
  const open = win.open;
  const openHeld = function (this: Window, ...args: unknown[]): Window | null {
    const wait = held({ kind: 'window', url: absolute(args[0] || 'about:blank'), method: 'GET' });
    if (!wait) return (open as (...a: unknown[]) => Window | null).apply(this, args);
    // The page gets no window now; after a yes it opens (the click on Allow lets it past the popup blocker).
    void wait.then((ok) => ok && (open as (...a: unknown[]) => Window | null).apply(this, args));
    return null;
  };
  mimic(openHeld, open);
  win.open = openHeld as typeof open;

  // The form a navigation posts: re-submitted as it was after a yes.
  const proto = win.HTMLFormElement.prototype;
  const submit = proto.submit;
  const action = Object.getOwnPropertyDescriptor(proto, 'action')!.get!;
  let last: { form: HTMLFormElement; by?: HTMLElement | null } | undefined;
  const submitSeen = function (this: HTMLFormElement): void {
    last = { form: this };
    submit.call(this);
  };
  mimic(submitSeen, submit);
  proto.submit = submitSeen;
  const requestSubmit = proto.requestSubmit;
  const method = Object.getOwnPropertyDescriptor(proto, 'method')!.get!;
  /** A submission let go after a yes: its submit event and the navigation after it pass once. */
  let passSubmit: HTMLFormElement | undefined;
  let passNavigation = false;
  // Held at the window, in the capture phase: before any handler of the page's sees the submission.
  win.addEventListener(
    'submit',
    (e) => {
      const form = e.target as HTMLFormElement;
      const by = (e as SubmitEvent).submitter;
      last = { form, by };
      if (passSubmit === form) return void (passSubmit = undefined);
      const how = (by?.getAttribute('formmethod') || method.call(form)).toLowerCase();
      if (how === 'dialog') return;
      const to = by?.getAttribute('formaction') ? (by as HTMLButtonElement).formAction : action.call(form);
      const wait = held({ kind: 'navigation', url: to, method: how === 'post' ? 'POST' : 'GET' });
      if (!wait) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      void wait.then((ok) => {
        if (!ok) return;
        passSubmit = form;
        // The navigation it starts, if the page lets it, begins within the call (its navigate event fires there).
        passNavigation = true;
        try {
          requestSubmit.call(form, by ?? undefined);
        } finally {
          passNavigation = false;
        }
      });
    },
    true,
  );

  const navigation = (win as unknown as { navigation?: EventTarget }).navigation;
  /** A navigation let go after a yes: passes the gate once. */
  let pass: string | undefined;
  navigation?.addEventListener('navigate', (event) => {
    const e = event as NavigateEvent;
    const to = e.destination;
    if (!to || to.sameDocument || !e.cancelable) return;
    if (pass === to.url) return void (pass = undefined);
    if (passNavigation) return void (passNavigation = false);
    const post = !!e.formData;
    // The form last submitted, if it is the one going there (read through the prototype: a field named `action` cannot lie).
    const form =
      post && last && (last.by?.getAttribute('formaction') ? (last.by as HTMLButtonElement).formAction : action.call(last.form)) === to.url ? last : undefined;
    const wait = held({ kind: 'navigation', url: to.url, method: post ? 'POST' : 'GET' });
    if (!wait) return;
    e.preventDefault();
    void wait.then((ok) => {
      if (!ok) return;
      pass = to.url;
      // A POST whose form is unknown (submitted from a world these hooks do not see) is not re-sent as a GET.
      if (!form) return post || win.location.assign(to.url);
      // The submitter's name and value travel as the browser would have sent them.
      const by = form.by;
      const extra =
        by && by.getAttribute('name')
          ? Object.assign(win.document.createElement('input'), { type: 'hidden', name: by.getAttribute('name'), value: (by as HTMLButtonElement).value })
          : undefined;
      if (extra) form.form.append(extra);
      submit.call(form.form);
      extra?.remove();
    });
  });
}
