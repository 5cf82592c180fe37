/**
 * What an action causes beyond its target: while one runs, the requests that change something
 * (fetch and XHR other than GET/HEAD, beacons), the navigations and the new windows the page
 * starts are held until the gate an action set (`gateEffects`) has judged them. Outside an
 * action no gate is set and nothing is touched: the user's own clicks and the page's timers
 * between actions go as they always do.
 *
 * The page layer only holds and re-starts; what is risky and who is asked is the safety
 * layer's (safety/effects.ts), lent down through the action's settings (`PageSettings.effects`).
 * fetch and XHR are held in the wrappers settle detection already puts on them (./network.ts);
 * this file hooks beacons, `window.open` and, through Chromium's Navigation API, every
 * navigation of this window a page script or a form starts (link, `location`, `form.submit()`,
 * `requestSubmit()`). The hooks see only what runs after them: installed when the bundle loads
 * (document start for the userscript and an embed in `<head>`, later for the bookmarklet).
 */
import { absolute, held } from './effect-gate';
import { mimic } from './network';

interface NavigateEvent extends Event {
  destination?: { url: string; sameDocument: boolean };
  formData?: FormData | null;
}

let installed = false;

/** Hooks beacons, `window.open`, form submissions and navigations of `win` once. */
export function installEffectHooks(win: Window & typeof globalThis = window): void {
  if (installed) return;
  installed = true;
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
  let last: { form: HTMLFormElement; by?: HTMLElement | null } | undefined;
  const submitSeen = function (this: HTMLFormElement): void {
    last = { form: this };
    submit.call(this);
  };
  mimic(submitSeen, submit);
  proto.submit = submitSeen;
  win.addEventListener('submit', (e) => (last = { form: e.target as HTMLFormElement, by: (e as SubmitEvent).submitter }), true);

  const navigation = (win as unknown as { navigation?: EventTarget }).navigation;
  /** A navigation let go after a yes: passes the gate once. */
  let pass: string | undefined;
  navigation?.addEventListener('navigate', (event) => {
    const e = event as NavigateEvent;
    const to = e.destination;
    if (!to || to.sameDocument || !e.cancelable) return;
    if (pass === to.url) return void (pass = undefined);
    const post = !!e.formData;
    const form = post ? last : undefined;
    const wait = held({ kind: 'navigation', url: to.url, method: post ? 'POST' : 'GET' });
    if (!wait) return;
    e.preventDefault();
    void wait.then((ok) => {
      if (!ok) return;
      pass = to.url;
      if (!form) return win.location.assign(to.url);
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
