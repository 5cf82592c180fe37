/**
 * Page text, gathered during the walk: inline content joins into one line per block, blocks
 * break lines, table cells join with a bar, items of a flex row read as one line. Reads no
 * layout: where a line sits is decided later, from its block's box (createTextPlacer in place.ts).
 */
import { NO_CLIP } from './clip';
import type { Rect } from '../../page-types';
import type { Ctx, FrameInfo, Group, Item, TextItem } from './items';
import { attrOf } from '../../dom/proto';

const HEADING = /^h([1-6])$/;

/** The heading level an element starts (h1–h6, role=heading), or 0. */
export function headingLevel(el: Element, tag: string): number {
  const h = HEADING.exec(tag);
  if (h) return Number(h[1]);
  return attrOf(el, 'role') === 'heading' ? Number(attrOf(el, 'aria-level')) || 2 : 0;
}

/**
 * A line of text. Its whitespace is collapsed only when read: most lines of a long article lie
 * far from the viewport and are never printed.
 */
class TextLine implements TextItem {
  readonly kind = 'text';
  readonly frame: FrameInfo | null;
  groups: readonly Group[];
  readonly heading?: number;
  readonly clip?: Rect;
  private raw: string | null;
  private normal = '';

  constructor(
    raw: string,
    public order: number,
    public el: Element,
    ctx: Ctx,
    public block: Element | null,
    heading: number,
    clip: Rect | undefined,
  ) {
    this.raw = raw;
    this.frame = ctx.frame;
    this.groups = ctx.groups;
    if (heading) this.heading = heading;
    if (clip) this.clip = clip;
  }

  get text(): string {
    if (this.raw !== null) {
      this.normal = this.raw.replace(/\s+/g, ' ').trim();
      this.raw = null;
    }
    return this.normal;
  }
}

export interface BlockState {
  block: Element | null;
  heading: number;
}

export class TextBuffer {
  private buf = '';
  private holder: Element | null = null;
  private ctx: Ctx | null = null;
  /** The innermost block being walked: lines sharing it may join their element's line. */
  block: Element | null = null;
  private heading = 0;
  /** The latest heading's first words: context for element fingerprints. */
  lastHeading = '';

  constructor(
    private readonly items: Item[],
    private readonly nextOrder: () => number,
  ) {}

  /** Appends a text node's data; `holder` is the element whose box stands for it. */
  add(data: string, holder: Element | null, ctx: Ctx): void {
    if (!this.holder) {
      if (!/\S/.test(data)) return;
      this.holder = holder;
      this.ctx = ctx;
    }
    this.buf += data;
  }

  /** A separator between inline pieces, only once some text is buffered. */
  separate(s: string): void {
    if (this.buf) this.buf += s;
  }

  /** Ends the current line (an element line or a block boundary follows). */
  flush(): void {
    if (this.holder && this.ctx) {
      // The buffer starts with a non-space character, so the line is never empty.
      const ctx = this.ctx;
      const clip = ctx.clip === NO_CLIP ? undefined : ctx.clip;
      const line = new TextLine(this.buf, this.nextOrder(), this.holder, ctx, this.block, this.heading, clip);
      this.items.push(line);
      if (this.heading) this.lastHeading = line.text.slice(0, 40);
    }
    this.buf = '';
    this.holder = null;
    this.ctx = null;
  }

  /** Enters a block element: breaks the line and returns what to restore on leaving. */
  enterBlock(el: Element, tag: string): BlockState {
    this.flush();
    const saved = { block: this.block, heading: this.heading };
    this.block = el;
    this.heading = headingLevel(el, tag);
    return saved;
  }

  leaveBlock(saved: BlockState): void {
    this.flush();
    this.block = saved.block;
    this.heading = saved.heading;
  }
}
