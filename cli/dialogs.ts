/**
 * The page's own dialogs (alert, confirm, prompt, "leave this page?") block it until answered,
 * and nobody sees them in a headless browser. Alerts are accepted and logged; the others are
 * answered like a risky action — --yes says OK, else the terminal asks, else Cancel.
 */
import type { Dialog } from 'playwright-core';
import type { Reporter } from './report';

export interface DialogPolicy {
  /** --yes: answer OK. */
  yes: boolean;
  /** Asks on the terminal; undefined when there is none (or --json). */
  ask: ((question: string) => Promise<string>) | undefined;
}

export async function answerDialog(d: Dialog, policy: DialogPolicy, report: Reporter): Promise<void> {
  const type = d.type();
  const message = d.message().trim() || '(no text)';
  const done = (answer: 'ok' | 'cancel', text: string) => report.note(text, { dialog: type, message, answer });
  try {
    if (type === 'alert') {
      await d.accept();
      return done('ok', `the page said: "${message}"`);
    }
    const what = type === 'beforeunload' ? 'asks to confirm leaving the page' : `asks: "${message}"`;
    if (policy.yes) {
      await d.accept();
      return done('ok', `the page ${what} — answered OK (--yes)`);
    }
    if (!policy.ask) {
      await d.dismiss();
      return done('cancel', `the page ${what} — answered Cancel (no terminal to ask; pass --yes to answer OK)`);
    }
    if (type === 'prompt') {
      const text = await policy.ask(`The page ${what}\n  Your answer (empty to cancel): `);
      if (text) await d.accept(text);
      else await d.dismiss();
      return done(text ? 'ok' : 'cancel', text ? `answered the page: "${text}"` : "cancelled the page's question");
    }
    const a = (await policy.ask(`The page ${what}\n  OK? [y]es / [N]o: `)).trim().toLowerCase();
    const ok = a === 'y' || a === 'yes';
    if (ok) await d.accept();
    else await d.dismiss();
    return done(ok ? 'ok' : 'cancel', `answered the page ${ok ? 'OK' : 'Cancel'}`);
  } catch {
    // The dialog went with its page (a navigation, the end of the run).
  }
}
