/**
 * The one deny-zone gate for actions: what a call will touch — its element, and what the
 * gesture reaches beyond it (the control a label activates, the form's default button Enter
 * presses, the radio or option an arrow moves to, where Tab puts focus, the elements a drag
 * passes over and lets go on) — declared in one place and checked against the zones before
 * anything is dispatched. `act` asks it, and so does the risk check (a refusal, not a question).
 * Each touch is named by what it is to the call, never by what the page says in it.
 */
import type { Describer } from '../names/describe';
import { RefError, resolveRef } from '../map/refs';
import type { Ref } from '../page-types';
import type { PageSettings } from '../settings';
import type { ParsedCall } from './args';
import { clickAtTarget, viewportPoint } from './click-at';
import { deepActiveElement, inputType, tag, viewportSize, visibleBox, type Point } from './dom';
import { dragPath, dropPoint } from './drag-path';
import { fileInputFor } from './file-input';
import { activatedBy, deepHit } from './hit';
import { parseKeyCombo, type KeyCombo } from './keys';
import { keyEffect, nextTabStop, radioStep, selectStep } from './press';
import { ZoneRefusal } from './zones';

/** What the model reads when a call would reach into a zone: it names nothing in it. */
export const ZONE_GATE = 'would act inside an area the site keeps from the agent';

/** An element the call will touch, and what it is to the call (for the refusal). */
export interface Touch {
  el: Element | null | undefined;
  what: string;
}

const ARROWS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

/** The refusal's sentence for a touch in a zone. */
export const zoneGateMessage = (tool: string, what: string): string =>
  `This ${tool} ${ZONE_GATE} (${what}), so nothing was done. Act on an element of the map instead.`;

/** What a key on `target` reaches besides it: where Tab moves focus, what Enter or Space presses, where an arrow moves. */
export function keyTouches(target: Element, combo: KeyCombo): Touch[] {
  const { key } = combo.def;
  const m = combo.modifiers;
  if (m.ctrl || m.meta || m.alt) return [];
  if (key === 'Tab') return [{ el: nextTabStop(target, m.shift), what: 'where Tab moves focus' }];
  if (key === 'Enter' || key === ' ') {
    const effect = keyEffect(target, key);
    if (effect.does === 'submit') return [{ el: effect.button, what: "the form's default button" }];
    if (effect.does === 'activate') return [{ el: effect.el, what: 'the element the key presses' }];
    return [];
  }
  if (ARROWS.has(key)) {
    if (tag(target) === 'input' && inputType(target) === 'radio')
      return [{ el: radioStep(target as HTMLInputElement, key), what: 'the radio the key moves to' }];
    if (tag(target) === 'select') return [{ el: selectStep(target as HTMLSelectElement, key), what: 'the option the key selects' }];
  }
  return [];
}

/** The centre of the part of `el` in view (undefined: none is). */
function centre(el: Element): Point | undefined {
  const { box } = visibleBox(el);
  return box ? { x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2 } : undefined;
}

/** The elements a drag from `from` to `to` passes over, the last one where it lets go. */
export function dragTouches(from: Point, to: Point): Touch[] {
  const points = dragPath(from, to);
  return points.map((p, i) => ({ el: deepHit(p.x, p.y)?.el, what: i === points.length - 1 ? 'the place to drop on' : 'an element the drag passes over' }));
}

/**
 * Everything `call` will touch, as far as it can be known before it runs (`resolve` gives a
 * ref's element). A drag from or to an element out of view is checked again by the drag itself,
 * on the points it really uses.
 */
export function touches(call: ParsedCall, resolve: (ref: Ref) => Element): Touch[] {
  const out: Touch[] = [];
  const args = call.args as { ref?: Ref };
  const target = args.ref !== undefined ? resolve(args.ref) : undefined;
  if (target) out.push({ el: target, what: 'its element' });
  switch (call.name) {
    case 'click':
    case 'double_click':
    case 'right_click':
    case 'hover':
      // A label's control, the button around an icon: what the gesture really activates.
      out.push({ el: activatedBy(target!), what: 'the control it activates' });
      break;
    case 'click_at': {
      const { hit, activates } = clickAtTarget(call.args.x, call.args.y);
      out.push({ el: hit?.el, what: 'the element at that point' }, { el: activates, what: 'the control it activates' });
      break;
    }
    case 'press_key': {
      let combo: KeyCombo;
      try {
        combo = parseKeyCombo(call.args.key);
      } catch {
        break; // the handler reports the bad key
      }
      const to = target ?? deepActiveElement(document) ?? document.body;
      if (!target) out.push({ el: to, what: 'the focused element' });
      out.push(...keyTouches(to, combo));
      break;
    }
    case 'type':
      if (call.args.submit || /[\r\n]/.test(call.args.text)) out.push(...keyTouches(target!, parseKeyCombo('Enter')));
      break;
    case 'upload':
      out.push({ el: fileInputFor(target!), what: 'the file input it stands for' });
      break;
    case 'drag': {
      const a = call.args;
      let from: Point | undefined;
      if (target) from = centre(target);
      else {
        const start = clickAtTarget(a.x!, a.y!);
        out.push({ el: start.hit?.el, what: 'the element at the point it presses' });
        from = start.root;
      }
      const dest = a.to_ref !== undefined ? resolve(a.to_ref) : undefined;
      if (dest) out.push({ el: dest, what: 'the place to drop on' });
      const to = dest ? centre(dest) : a.to_x !== undefined ? viewportPoint(a.to_x, a.to_y!) : from && dropPoint(from, a.dx!, a.dy!, viewportSize()).to;
      if (from && to) out.push(...dragTouches(from, to));
      break;
    }
  }
  return out;
}

/**
 * The gate: the refusal when anything `call` will touch is in a deny zone (or our own UI), else
 * undefined. A ref that does not resolve is left to the action, which says so itself.
 */
export function zoneGate(call: ParsedCall, settings: PageSettings, describer: Describer): string | undefined {
  const inZone = settings.zones.check();
  const resolve = (ref: Ref): Element =>
    resolveRef(ref, (e) => {
      // Compared before its name is read: a zone element's name is empty, which reads as "changed".
      if (inZone(e)) throw new ZoneRefusal(zoneGateMessage(call.name, 'its element'));
      return describer.describe(e);
    });
  try {
    for (const t of touches(call, resolve)) if (t.el && inZone(t.el)) return zoneGateMessage(call.name, t.what);
  } catch (e) {
    if (e instanceof ZoneRefusal) return e.message;
    if (e instanceof RefError) return undefined;
    throw e;
  }
  return undefined;
}
