/**
 * A form's named fields shadow the form's own properties and methods (`<input
 * name="getAttribute">` makes `form.getAttribute` that input), in every world. A hostile page
 * used that to blind the agent: the map failed, or left out the form's controls, or listed them
 * twice, or hung the tab. The page layer reads the DOM's structure through the prototypes'
 * getters (client/page/dom/proto.ts), so none of these names changes what the map lists or
 * what an action does. Last, a button drawn from a shadow host's slotted text: the pointer
 * reaches the button, not "its host covering it".
 */
import { describe, expect, it } from 'vitest';
import { mapText, open, useSession } from './harness';

const session = useSession();

/** Names that broke the map (the six the fresh attack found first, then the rest of the walk's structural reads). */
const NAMES = [
  'getAttribute',
  'hasAttribute',
  'hasAttributes',
  'ownerDocument',
  'nodeType',
  'shadowRoot',
  'parentNode',
  'parentElement',
  'nextSibling',
  'firstChild',
  'assignedSlot',
];

const page = (name: string): string => `<!doctype html><html lang="en"><body>
<h1>Profile</h1>
<form action="/fixtures/sink/profile" method="post">
  <label>Email <input name="email" type="email" value="ada@example.org"></label>
  <input name="${name}" value="x" aria-label="Nickname">
  <button type="button" onclick="window.__saved = (window.__saved || 0) + 1">Save profile</button>
</form>
<p>Text after the form</p>
<button>Other</button>
</body></html>`;

describe("a form whose fields are named after the DOM's own properties", () => {
  it.each(NAMES)('<input name="%s">: the map lists each control once, and click and type act on them', async (name) => {
    const p = await open(session, page(name));
    try {
      // A name that turns a parent link into a cycle hung the walk: bounded here, so a hang fails instead of stalling.
      const text = await Promise.race([mapText(p), new Promise<string>((r) => setTimeout(() => r('(the map did not return)'), 5000))]);
      const count = (re: RegExp): number => (text.match(re) ?? []).length;
      expect(
        {
          email: count(/textbox "Email"/g),
          nickname: count(/textbox "Nickname"/g),
          save: count(/button "Save profile"/g),
          after: count(/Text after the form/g),
          other: count(/button "Other"/g),
        },
        text,
      ).toEqual({ email: 1, nickname: 1, save: 1, after: 1, other: 1 });
      const out = await p.evaluate(async () => {
        const w = window as any;
        const els = w.pagehand.map().elements as Array<{ ref: string; name: string }>;
        const ref = (n: string): string => els.find((e) => e.name === n)!.ref;
        const typed = await w.pagehand.act({ name: 'type', args: { ref: ref('Email'), text: 'grace@example.org' } });
        const clicked = await w.pagehand.act({ name: 'click', args: { ref: ref('Save profile') } });
        return { typed: typed.ok, clicked: clicked.ok, saved: w.__saved, value: (document.querySelector('input[name=email]') as HTMLInputElement).value };
      });
      expect(out).toEqual({ typed: true, clicked: true, saved: 1, value: 'grace@example.org' });
    } finally {
      await p.close();
    }
  });
});

describe('a shadow host whose text is slotted into a button of its shadow root', () => {
  it('the click reaches the button (the pointer lands on the slot), not "covered by" the host', async () => {
    const p = await open(
      session,
      `<!doctype html><html lang="en"><body><x-slotted id="slotted">Archive draft</x-slotted>
      <script>
        const host = document.getElementById('slotted');
        host.attachShadow({ mode: 'open' }).innerHTML = '<button><slot></slot></button>';
        host.shadowRoot.querySelector('button').addEventListener('click', () => (window.__clicked = (window.__clicked || 0) + 1));
      </script></body></html>`,
    );
    try {
      const out = await p.evaluate(async () => {
        const w = window as any;
        const el = (w.pagehand.map().elements as Array<{ ref: string; name: string }>).find((e) => e.name === 'Archive draft')!;
        const r = await w.pagehand.act({ name: 'click', args: { ref: el.ref } });
        return { ok: r.ok, message: r.message, clicked: w.__clicked };
      });
      expect(out, out.message).toMatchObject({ ok: true, clicked: 1 });
    } finally {
      await p.close();
    }
  });
});
