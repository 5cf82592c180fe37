/** Turns `changes` into the short sentences appended to an action's message (pure). */
import type { ActionChanges } from './contract';

const quote = (s: string): string => `"${s}"`;

export function listSample(items: string[], total: number): string {
  const more = total - items.length;
  return items.join(', ') + (more > 0 ? `, and ${more} more` : '');
}

/** Sentences for what changed, in the order a model cares about. Empty when nothing did. */
export function describeChanges(c: ActionChanges): string {
  const out: string[] = [];
  if (c.navigation) out.push(c.navigation.url ? `Navigation to ${c.navigation.url} started.` : 'A navigation started.');
  else if (c.url) out.push(`The URL changed to ${c.url.to}.`);
  if (c.download) out.push(`A download of ${c.download.filename ? quote(c.download.filename) : c.download.url} started; the page stays.`);
  if (c.title) out.push(`The title is now ${quote(c.title.to)}.`);
  for (const d of c.dialogOpened ?? []) out.push(d ? `A dialog ${quote(d)} opened.` : 'A dialog opened.');
  for (const d of c.dialogClosed ?? []) out.push(d ? `The dialog ${quote(d)} closed.` : 'A dialog closed.');
  if (c.newElements) {
    const sample = c.newSample?.length ? `: ${listSample(c.newSample, c.newElements)}` : '';
    out.push(`${c.newElements} new element${c.newElements === 1 ? '' : 's'} appeared${sample}.`);
  }
  if (c.goneElements && !c.newElements && !c.dialogClosed?.length) {
    out.push(`${c.goneElements} element${c.goneElements === 1 ? '' : 's'} disappeared.`);
  }
  if (c.stillLoading) {
    const what = c.stillLoading.pendingRequests
      ? `${c.stillLoading.pendingRequests} request${c.stillLoading.pendingRequests === 1 ? '' : 's'} pending`
      : 'the page kept changing';
    out.push(`The page is still loading (${what}); observe again or wait.`);
  }
  return out.join(' ');
}

/** Describes a scroll position for messages: "45% down", "at the bottom". */
export function describeScroll(s: { percentY: number; atTop: boolean; atBottom: boolean }, vertical = true): string {
  if (!vertical) return `${s.percentY}% across`;
  if (s.atTop && s.atBottom) return 'nothing to scroll';
  if (s.atBottom) return 'at the bottom';
  if (s.atTop) return 'at the top';
  return `${s.percentY}% down`;
}
