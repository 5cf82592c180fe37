// @vitest-environment happy-dom
/** The risk check on the new hands: said as what they do, judged as a press of what they reach. */
import { describe, expect, it } from 'vitest';
import { classifyRisks } from '../../client/safety/risk';
import type { TargetFacts } from '../../client/page/facts-types';

const here = 'https://shop.example/cart';
const button = (name: string): TargetFacts => ({ role: 'button', name, tag: 'button', via: 'click' });

describe('risks of double_click, drag and click {hold_ms}', () => {
  it('a double click on "Delete" is a deletion, said as a double click', () => {
    const [r] = classifyRisks({ name: 'double_click', args: { ref: '3' } }, button('Delete file'), here);
    expect(r).toMatchObject({ kind: 'deletion' });
    expect(r!.reason).toMatch(/^Double-clicking button "Delete file"/);
  });

  it('a drop onto "Trash" is a deletion, said as a drop', () => {
    const [r] = classifyRisks({ name: 'drag', args: { ref: '3', to_ref: '9' } }, { role: 'region', name: 'Trash', tag: 'section', via: 'click' }, here);
    expect(r).toMatchObject({ kind: 'deletion' });
    expect(r!.reason).toMatch(/^Dropping onto region "Trash"/);
  });

  it('a hold on "Hold to pay" is a payment, said as a hold; a plain click is said as a click', () => {
    expect(classifyRisks({ name: 'click', args: { ref: '3', hold_ms: 1500 } }, button('Hold to pay'), here)[0]!.reason).toMatch(
      /^Pressing and holding button "Hold to pay" may pay/,
    );
    expect(classifyRisks({ name: 'click', args: { ref: '3' } }, button('Hold to pay'), here)[0]!.reason).toMatch(/^Clicking button "Hold to pay"/);
  });

  it('a right click is judged as a click on the same control; with nothing read of it, it asks', () => {
    expect(classifyRisks({ name: 'right_click', args: { ref: '3' } }, button('Delete file'), here)[0]).toMatchObject({
      kind: 'deletion',
      reason: expect.stringMatching(/^Right-clicking button "Delete file"/),
    });
    expect(classifyRisks({ name: 'right_click', args: { ref: '3' } }, undefined, here)).toEqual([expect.objectContaining({ kind: 'unjudged' })]);
  });
});
