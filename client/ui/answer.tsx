/**
 * An answer as the panel shows it: the tree of markdown.ts made into elements one by one — its
 * text always a text node, its elements only the subset's tags (no HTML is ever parsed) — with
 * links to http(s) addresses showing the address, and a "Show me" button for each ref the answer
 * names, which scrolls the page to that element and outlines it, or says it is no longer there.
 */
import type { ComponentChildren } from 'preact';
import { h } from 'preact';
import { useState } from 'preact/hooks';
import type { Strings } from './i18n';
import type { Node } from './markdown';

interface Props {
  /** The answer, parsed (markdown.ts, loaded on first use). */
  tree: Node[];
  t: Strings;
  /** Shows the element a ref names; false when it is gone (or in a deny zone). */
  show(ref: string): boolean;
}

/** The tags the renderer makes: whatever else a tree held would stay out. */
const TAGS = /^(p|strong|em|code|pre|br|ul|ol|li|table|thead|tbody|tr|th|td)$/;

export function Answer({ tree, t, show }: Props) {
  // Refs found gone: each says so beside its button.
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  const make = (nodes: Node[]): ComponentChildren =>
    nodes.map((n) => {
      if (typeof n === 'string') return n;
      if (n.t === 'ref')
        return (
          <span class="ref">
            <button type="button" class="show" data-ref={n.ref} onClick={() => show(n.ref) || setGone((g) => new Set(g).add(n.ref))}>
              {t.showMe}
            </button>
            {gone.has(n.ref) && (
              <span class="gone" role="status" data-gone>
                {t.goneFromPage}
              </span>
            )}
          </span>
        );
      if (n.t === 'a') {
        // The address is always in view: a link's words cannot hide where it goes.
        const words = n.c.join('');
        return (
          <a href={n.href} target="_blank" rel="noopener noreferrer">
            {words === n.href || `${words}/` === n.href ? n.href : [make(n.c), <span class="addr"> ({n.href})</span>]}
          </a>
        );
      }
      if (!TAGS.test(n.t)) return make(n.c);
      return h(n.t, { start: n.start, class: n.align, scope: n.t === 'th' ? 'col' : undefined }, make(n.c));
    });
  // Focusable: a long answer scrolls, and the keyboard must reach it.
  return (
    <div class="md" tabIndex={0}>
      {make(tree)}
    </div>
  );
}
