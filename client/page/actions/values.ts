/**
 * Normalises what a model types into the value format an `<input>` of a given type accepts
 * (pure). Date-like inputs only take ISO forms ("2024-03-05"); models and users write
 * "March 5, 2024" or "05/03/2024". Unambiguous human forms are converted; ambiguous ones
 * (03/05/2024 — March or May?) are refused with the exact format to use.
 */

export type Normalised = { ok: true; value: string; note?: string } | { ok: false; error: string };

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** Input types whose value the browser sanitises to a fixed format. */
export const FORMATTED_TYPES = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'number', 'range', 'color']);

/** The format hint for messages, e.g. "YYYY-MM-DD". */
export const FORMAT_HINT: Record<string, string> = {
  date: 'YYYY-MM-DD (e.g. 2024-03-05)',
  time: 'HH:MM in 24 hours (e.g. 14:30)',
  'datetime-local': 'YYYY-MM-DDTHH:MM (e.g. 2024-03-05T14:30)',
  month: 'YYYY-MM (e.g. 2024-03)',
  week: 'YYYY-Www (e.g. 2024-W10)',
  number: 'a number like 42 or 3.5',
  range: 'a number within the slider range, or a percentage like 50%',
  color: '#rrggbb (e.g. #ff8800)',
};

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

function monthIndex(word: string): number | undefined {
  const w = word.toLowerCase().replace(/\.$/, '');
  if (w.length < 3) return undefined;
  const i = MONTHS.findIndex((m) => m.startsWith(w));
  return i >= 0 ? i + 1 : undefined;
}

function validDate(y: number, m: number, d: number): boolean {
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(2000, m, 0)).getUTCDate(); // days in month m of a leap year
  if (d > days) return false;
  if (m === 2 && d === 29) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return true;
}

/** Parses a calendar date; returns "YYYY-MM-DD" or an error sentence. */
export function parseDate(text: string): Normalised {
  const t = text
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/(\d)(st|nd|rd|th)\b/gi, '$1');
  let y: number | undefined, m: number | undefined, d: number | undefined;
  let r: RegExpExecArray | null;
  if ((r = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(t))) {
    [y, m, d] = [Number(r[1]), Number(r[2]), Number(r[3])];
  } else if ((r = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/.exec(t))) {
    const a = Number(r[1]),
      b = Number(r[2]);
    y = Number(r[3]);
    if (a > 12 && b <= 12) [d, m] = [a, b];
    else if (b > 12 && a <= 12) [m, d] = [a, b];
    else if (a === b) [m, d] = [a, b];
    else return { ok: false, error: `"${text}" is ambiguous (day/month or month/day?). Use ${FORMAT_HINT.date}.` };
  } else if ((r = /^(?:[a-z]+,? )?([a-z]+\.?) (\d{1,2}),? (\d{4})$/i.exec(t))) {
    // "March 5, 2024", "Tue, Mar 5 2024"
    [m, d, y] = [monthIndex(r[1]!), Number(r[2]), Number(r[3])];
  } else if ((r = /^(?:[a-z]+,? )?(\d{1,2}) ([a-z]+\.?),? (\d{4})$/i.exec(t))) {
    // "5 March 2024"
    [d, m, y] = [Number(r[1]), monthIndex(r[2]!), Number(r[3])];
  }
  if (y === undefined || m === undefined || d === undefined || !validDate(y, m, d)) {
    return { ok: false, error: `"${text}" is not a date this field accepts. Use ${FORMAT_HINT.date}.` };
  }
  return { ok: true, value: `${pad(y, 4)}-${pad(m)}-${pad(d)}` };
}

/** Parses a time of day; returns "HH:MM" or "HH:MM:SS". */
export function parseTime(text: string): Normalised {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ');
  const r = /^(\d{1,2})(?:[:.h](\d{2})(?::(\d{2}(?:\.\d{1,3})?))?)? ?([ap])?\.? ?(m\.?)?$/.exec(t);
  const bad: Normalised = { ok: false, error: `"${text}" is not a time this field accepts. Use ${FORMAT_HINT.time}.` };
  if (!r) return bad;
  let h = Number(r[1]);
  const min = r[2] === undefined ? 0 : Number(r[2]);
  const sec = r[3];
  const ampm = r[4];
  if (r[2] === undefined && !ampm) return bad; // a bare "5" is not a time
  if (ampm) {
    if (h < 1 || h > 12) return bad;
    if (ampm === 'a' && h === 12) h = 0;
    if (ampm === 'p' && h !== 12) h += 12;
  }
  if (h > 23 || min > 59 || (sec !== undefined && Number(sec) >= 60)) return bad;
  return { ok: true, value: `${pad(h)}:${pad(min)}${sec !== undefined ? `:${sec.includes('.') ? sec.padStart(6, '0') : pad(Number(sec))}` : ''}` };
}

function parseDateTime(text: string): Normalised {
  const t = text.trim();
  const iso = /^(\d{4}-\d{1,2}-\d{1,2})[T ](.+)$/.exec(t);
  // Human forms: "March 5, 2024 2:30 pm", "05/03/2024, 14:30", "March 5, 2024 at 14:30".
  const human = /^(.*\d{4}),?(?: at)? (\d{1,2}(?:[:.]\d{2})?(?::\d{2})? ?(?:[ap]\.?m\.?)?)$/i.exec(t);
  const m = iso ?? human;
  if (!m) return { ok: false, error: `"${text}" is not a date and time this field accepts. Use ${FORMAT_HINT['datetime-local']}.` };
  const d = parseDate(m[1]!);
  if (!d.ok) return d;
  const tm = parseTime(m[2]!);
  if (!tm.ok) return { ok: false, error: `"${text}": the time part is not valid. Use ${FORMAT_HINT['datetime-local']}.` };
  return { ok: true, value: `${d.value}T${tm.value}` };
}

function parseMonth(text: string): Normalised {
  const t = text.trim();
  let r: RegExpExecArray | null;
  let y: number | undefined, m: number | undefined;
  if ((r = /^(\d{4})[-/.](\d{1,2})$/.exec(t))) [y, m] = [Number(r[1]), Number(r[2])];
  else if ((r = /^(\d{1,2})[-/.](\d{4})$/.exec(t))) [m, y] = [Number(r[1]), Number(r[2])];
  else if ((r = /^([a-z]+\.?),? (\d{4})$/i.exec(t))) [m, y] = [monthIndex(r[1]!), Number(r[2])];
  if (y === undefined || m === undefined || m < 1 || m > 12)
    return { ok: false, error: `"${text}" is not a month this field accepts. Use ${FORMAT_HINT.month}.` };
  return { ok: true, value: `${pad(y, 4)}-${pad(m)}` };
}

function parseWeek(text: string): Normalised {
  const r = /^(\d{4})[- ]?w(?:eek)? ?(\d{1,2})$/i.exec(text.trim());
  const w = r ? Number(r[2]) : 0;
  if (!r || w < 1 || w > 53) return { ok: false, error: `"${text}" is not a week this field accepts. Use ${FORMAT_HINT.week}.` };
  return { ok: true, value: `${r[1]}-W${pad(w)}` };
}

/** Accepts "1,234.5", "1 234", "3,5" (decimal comma), "+5", "42". Returns a valid floating-point string. */
export function parseNumber(text: string): Normalised {
  let t = text
    .trim()
    .replace(/[\s\u00a0\u202f_']/g, '')
    .replace(/^\+/, '');
  if (/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(t))
    t = t.replace(/,/g, ''); // 1,234.5
  else if (/^-?\d{1,3}(\.\d{3})+,\d+$/.test(t))
    t = t.replace(/\./g, '').replace(',', '.'); // 1.234,5
  else if (/^-?\d*,\d+$/.test(t)) t = t.replace(',', '.'); // 3,5
  if (/^-?\.\d/.test(t)) t = t.replace('.', '0.');
  if (!/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(t) || !Number.isFinite(Number(t))) {
    return { ok: false, error: `"${text}" is not a number. Use ${FORMAT_HINT.number}.` };
  }
  return { ok: true, value: t };
}

function parseColor(text: string): Normalised {
  const t = text.trim().toLowerCase();
  const short = /^#?([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(t);
  if (short) return { ok: true, value: `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}` };
  const long = /^#?([0-9a-f]{6})$/.exec(t);
  if (long) return { ok: true, value: `#${long[1]}` };
  return { ok: false, error: `"${text}" is not a colour this field accepts. Use ${FORMAT_HINT.color}.` };
}

export interface RangeBounds {
  min?: string;
  max?: string;
}

/**
 * The value to set on an `<input type=…>` for `text`, or an error sentence.
 * For range inputs, "50%" means halfway between min and max (default 0–100).
 */
export function normaliseInputValue(type: string, text: string, bounds: RangeBounds = {}): Normalised {
  switch (type) {
    case 'date':
      return parseDate(text);
    case 'time':
      return parseTime(text);
    case 'datetime-local':
      return parseDateTime(text);
    case 'month':
      return parseMonth(text);
    case 'week':
      return parseWeek(text);
    case 'color':
      return parseColor(text);
    case 'number':
      return parseNumber(text);
    case 'range': {
      const pct = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(text);
      if (pct) {
        const min = Number(bounds.min || 0),
          max = Number(bounds.max || 100);
        const lo = Number.isFinite(min) ? min : 0,
          hi = Number.isFinite(max) ? max : 100;
        return { ok: true, value: String(lo + ((hi - lo) * Math.min(100, Number(pct[1]))) / 100) };
      }
      const n = parseNumber(text);
      return n.ok ? n : { ok: false, error: `"${text}" is not a slider value. Use ${FORMAT_HINT.range}.` };
    }
    default:
      return { ok: true, value: text };
  }
}
