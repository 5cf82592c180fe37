/**
 * Numbers, money and times in the panel's language, through `Intl` (each language's strings
 * call these with their own locale). Formatters are made once per locale and kind; a browser
 * without a locale's data falls back to its default, and one without `Intl` to plain digits.
 */
const cache = new Map<string, Intl.NumberFormat>();

function formatter(locale: string, key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat | undefined {
  const id = `${locale}|${key}`;
  let f = cache.get(id);
  if (!f) {
    try {
      f = new Intl.NumberFormat(locale, options);
    } catch {
      return undefined;
    }
    cache.set(id, f);
  }
  return f;
}

/** 1234.5 → "1,234.5" (en), "1 234,5" (fr), "١٬٢٣٤٫٥" (ar). */
export const num = (n: number, locale: string): string => formatter(locale, 'n', { maximumFractionDigits: 1 })?.format(n) ?? String(n);

/** A run's cost in US dollars: cents and below with four decimals (a step costs fractions of a cent). */
export function money(usd: number, locale: string): string {
  const digits = usd < 1 ? 4 : 2;
  return (
    formatter(locale, `$${digits}`, { style: 'currency', currency: 'USD', minimumFractionDigits: digits, maximumFractionDigits: digits })?.format(usd) ??
    `$${usd.toFixed(digits)}`
  );
}

/** Elapsed time as m:ss, in the locale's digits. */
export function clock(ms: number, locale: string): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const two = formatter(locale, 'ss', { minimumIntegerDigits: 2, useGrouping: false });
  return `${num(Math.floor(s / 60), locale)}:${two?.format(s % 60) ?? String(s % 60).padStart(2, '0')}`;
}

/** A file's size: B, KB or MB (the symbols every language's file dialogs show), the number in the locale's digits. */
export const fileSize = (n: number, locale: string): string =>
  n < 1024 ? `${num(n, locale)} B` : n < 1024 * 1024 ? `${num(Math.round(n / 102.4) / 10, locale)} KB` : `${num(Math.round(n / 104857.6) / 10, locale)} MB`;

/** The plural category of `n` in `locale` ('one', 'few', 'many', 'other'…), for languages whose nouns change with it. */
export function plural(n: number, locale: string): Intl.LDMLPluralRule {
  try {
    return new Intl.PluralRules(locale).select(n);
  } catch {
    return n === 1 ? 'one' : 'other';
  }
}
