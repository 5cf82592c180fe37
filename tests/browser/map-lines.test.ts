/**
 * Names, roles and live states as the model reads them in the map's lines (the accname, role
 * and state modules have their own, finer tests; these pin the printed form).
 */
import { describe, expect, it } from 'vitest';
import { mapBody, open, useSession } from './harness';

const s = useSession();

describe('lines: names, roles, states', () => {
  // A control's own value is not part of its name when its label wraps it (accname 2C applies
  // to controls embedded in the label of *another* widget).
  it('names from labelledby, label, legend, alt, title, placeholder and button values', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><body>
      <span id="a">Billing</span><span id="b" hidden>address</span>
      <input aria-labelledby="a b">
      <fieldset><legend>Shipping</legend><label>Street <input></label></fieldset>
      <a href="#h"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="Home" width="20" height="20"></a>
      <button title="Close dialog">×</button>
      <input placeholder="Search the shop">
      <input type="submit">
      <label>Quantity <input type="number" value="2" min="1" max="9"> items</label>
    </body>`,
    );
    expect(await mapBody(page)).toEqual([
      'Billing',
      '*[1]textbox "Billing address"',
      'Shipping',
      '*[2]textbox "Street"',
      '*[3]link "Home"',
      '*[4]button "×"',
      '*[5]textbox "Search the shop"',
      '*[6]button "Submit"',
      '*[7]spinbutton "Quantity items" value="2" min=1 max=9',
    ]);
  });

  it('states from properties: checked/mixed, disabled fieldsets, expanded, pressed, required, invalid, masked passwords', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><body>
      <input type="checkbox" id="c" aria-label="All"><script>document.getElementById('c').indeterminate = true</script>
      <fieldset disabled><button>Inside disabled fieldset</button></fieldset>
      <button aria-expanded="true">Menu</button>
      <button aria-pressed="true">Bold</button>
      <input aria-label="Email" type="email" required value="not-an-email">
      <input aria-label="Password" type="password" value="hunter2">
      <input type="range" aria-label="Volume" min="0" max="10" value="3">
      <input type="date" aria-label="Arrival" value="2026-03-05">
    </body>`,
    );
    const body = await mapBody(page);
    expect(body[0]).toBe('*[1]checkbox "All" checked=mixed');
    expect(body[1]).toBe('*[2]button "Inside disabled fieldset" disabled');
    expect(body[2]).toBe('*[3]button "Menu" expanded');
    expect(body[3]).toBe('*[4]button "Bold" pressed');
    expect(body[4]).toMatch(/^\*\[5\]textbox "Email" type=email value="not-an-email" required invalid$/);
    expect(body[5]).toMatch(/^\*\[6\]textbox "Password" type=password value="•+"$/);
    expect(body[5]).not.toContain('hunter2');
    expect(body[6]).toBe('*[7]slider "Volume" value="3" min=0 max=10');
    expect(body[7]).toBe('*[8]textbox "Arrival" type=date value="2026-03-05" format=YYYY-MM-DD');
  });
});
