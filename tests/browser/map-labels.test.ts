/**
 * Fields whose label is not linked, and controls only a label shows. Text a field sits by
 * (before it, in the cell to its left, on the line above, after a checkbox, under a transparent
 * file input) is a hint `~after "Name"`, never a name and never over a real one; a custom
 * checkbox, radio or file picker whose input shows nothing is listed at its label, read as the
 * control (role, name, checked). Deny zones give no hint and get no stand-in.
 */
import { describe, expect, it } from 'vitest';
import { act, refOf } from './actions-helpers';
import { mapBody, open, useSession } from './harness';

const s = useSession();

describe('labels that are not linked', () => {
  it('hints each unnamed field with the text it sits by, whatever the layout', async () => {
    const page = await open(s, 'map/labels-near.html');
    expect(await mapBody(page)).toEqual([
      '# Sign up',
      'Name',
      '*[1]textbox ~after "Name"',
      'Email',
      '*[2]textbox ~after "Email" type=email',
      'Phone number',
      '*[3]textbox ~after "Phone number" type=tel',
      'City |',
      '*[4]textbox ~after "City"',
      'Country',
      '*[5]combobox ~after "Country" value="France" options=France|Spain',
      '*[6]checkbox ~before "Remember me"  Remember me',
      // A transparent file input laid over its text is a target of its own.
      'Choose a file',
      '*[7]button ~over "Choose a file" type=file',
      // A label whose file input is hidden is the way to it.
      '*[8]button "Upload a photo" type=file',
      // A real name wins; a deny zone's words are no hint.
      'Wrong text',
      '*[9]textbox "Nickname"',
      '*[10]textbox',
    ]);
    const r = await page.evaluate(() => {
      const ph = (window as any).pagehand;
      const map = ph.map();
      return { first: map.elements[0], described: ph.describe(document.querySelector('#inline input')) };
    });
    expect(r.described).toEqual({ role: 'textbox', name: '' });
    expect(r.first).toMatchObject({ role: 'textbox', name: '', hint: 'after "Name"' });
    await page.close();
  });

  it('types into a field found by its hint and uploads through a transparent input', async () => {
    const page = await open(s, 'map/labels-near.html');
    const body = await mapBody(page);
    const ref = /\[(\d+)\]textbox ~after "Phone number"/.exec(body.join('\n'))![1]!;
    expect((await act(page, 'type', { ref, text: '555 0100' })).ok).toBe(true);
    expect(await page.inputValue('input[type=tel]')).toBe('555 0100');
    const file = /\[(\d+)\]button ~over "Choose a file"/.exec(body.join('\n'))![1]!;
    const up = await page.evaluate(
      (r) =>
        (window as any).pagehand.act({ name: 'upload', args: { ref: r, files: ['cv.txt'] } }, { files: [new File(['hi'], 'cv.txt', { type: 'text/plain' })] }),
      file,
    );
    expect(up.ok, up.message).toBe(true);
    expect(await page.evaluate(() => (document.getElementById('cv') as HTMLInputElement).files![0]!.name)).toBe('cv.txt');
    await page.close();
  });
});

describe('controls only a label shows', () => {
  it('lists custom checkboxes, radios and file pickers at their labels, read as the control', async () => {
    const page = await open(s, 'map/labels-hidden-controls.html');
    expect(await mapBody(page)).toEqual([
      'form "Preferences"',
      '  *[1]checkbox "Accept terms"',
      '  *[2]checkbox "Send newsletter" checked',
      '  *[3]radio "Basic plan"',
      '  *[4]radio "Pro plan" checked',
      '  *[5]button "Upload a photo" type=file',
    ]);
    expect((await act(page, 'click', { ref: await refOf(page, 'checkbox', 'Accept terms') })).ok).toBe(true);
    expect(await page.evaluate(() => (document.getElementById('terms') as HTMLInputElement).checked)).toBe(true);
    expect((await mapBody(page)).slice(0, 3)).toEqual([
      'form "Preferences"',
      '  [1]checkbox "Accept terms" checked focused',
      '  [2]checkbox "Send newsletter" checked',
    ]);
    expect((await act(page, 'click', { ref: await refOf(page, 'radio', 'Basic plan') })).ok).toBe(true);
    expect(await page.evaluate(() => (document.getElementById('basic') as HTMLInputElement).checked)).toBe(true);
    const up = await page.evaluate(
      (r) =>
        (window as any).pagehand.act({ name: 'upload', args: { ref: r, files: ['me.png'] } }, { files: [new File(['x'], 'me.png', { type: 'image/png' })] }),
      await refOf(page, 'button', 'Upload a photo'),
    );
    expect(up.ok, up.message).toBe(true);
    expect(await page.textContent('#log')).toBe('photo me.png');
    // The label of a control inside a deny zone is no way to it.
    expect((await mapBody(page)).join('\n')).not.toContain('Zone control label');
    await page.close();
  });
});
