/**
 * Each language's strings as a module of its own, imported when it is the one shown: the embed's
 * split build makes each a file (pagehand-agent-fr.HASH.js …) that only its readers download;
 * the single-file bundles inline them. English is built in (./i18n.ts), the fallback.
 */
import { en, type Strings, type Translated } from './i18n';
import type { Lang } from './languages';

const MODULES: Record<Exclude<Lang, 'en'>, () => Promise<{ default: Translated }>> = {
  es: () => import('./lang/es'),
  fr: () => import('./lang/fr'),
  de: () => import('./lang/de'),
  it: () => import('./lang/it'),
  pt: () => import('./lang/pt'),
  nl: () => import('./lang/nl'),
  pl: () => import('./lang/pl'),
  ja: () => import('./lang/ja'),
  zh: () => import('./lang/zh'),
  ko: () => import('./lang/ko'),
  ar: () => import('./lang/ar'),
  he: () => import('./lang/he'),
};

/** The strings of `lang` (English at once); rejects when its file could not be loaded. */
export const loadStrings = async (lang: Lang): Promise<Strings> => (lang === 'en' ? en : (await MODULES[lang]()).default);
