/**
 * A page's modal `<dialog>` (showModal) makes everything outside it inert — our panel too,
 * top layer or not — so a confirmation asked while one is open could not be answered. The
 * overlay's host therefore lives inside the topmost open modal dialog while there is one.
 */
export function topModal(doc: Document = document): Element | undefined {
  const open = doc.querySelectorAll('dialog[open]');
  for (let i = open.length - 1; i >= 0; i--) {
    try {
      if (open[i]!.matches(':modal')) return open[i];
    } catch {
      return undefined; // no :modal support: nothing we can do
    }
  }
  return undefined;
}

/** Calls `fn` whenever a dialog opens or closes anywhere in the document. */
export function watchDialogs(fn: () => void, doc: Document = document): () => void {
  const mo = new MutationObserver((recs) => {
    if (recs.some((r) => (r.target as Element).localName === 'dialog')) fn();
  });
  mo.observe(doc.documentElement, { subtree: true, attributes: true, attributeFilter: ['open'] });
  return () => mo.disconnect();
}
