import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The languages with a lexicon: AFINN-165 and its translations (lexicons/LICENSE.md). */
export const LEXICON_LANGUAGES = ['en', 'de', 'fr', 'es'] as const;
export type LexiconLanguage = (typeof LEXICON_LANGUAGES)[number];

const require = createRequire(import.meta.url);
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, number>;
const DATA = new URL('../../lexicons/', import.meta.url);

/**
 * Words of feedback about a place that AFINN lacks or rates for other uses ("cold" coffee, a "slow"
 * service, "working" that a negation turns into a complaint): this service's own, written for it.
 */
const ADDED: Record<LexiconLanguage, Record<string, number>> = {
  en: {
    cold: -1,
    slow: -2,
    dirty: -2,
    rude: -2,
    tasty: 3,
    delicious: 3,
    working: 2,
    works: 2,
    work: 2,
    cosy: 2,
    cozy: 2,
  },
  de: {
    kalt: -1,
    langsam: -2,
    dreckig: -2,
    schmutzig: -2,
    unfreundlich: -2,
    lecker: 3,
    freundlich: 2,
    super: 3,
    toll: 3,
    danke: 2,
    funktioniert: 2,
    geht: 1,
    gemütlich: 2,
    laut: -1,
  },
  fr: {
    bon: 2,
    bonne: 2,
    mauvais: -2,
    mauvaise: -2,
    froid: -1,
    froide: -1,
    lent: -2,
    lente: -2,
    sale: -2,
    merci: 2,
    délicieux: 3,
    délicieuse: 3,
    fonctionne: 2,
    marche: 1,
    bruyant: -2,
    impoli: -2,
    génial: 3,
    top: 2,
  },
  es: {
    frío: -1,
    fría: -1,
    lento: -2,
    lenta: -2,
    sucio: -2,
    sucia: -2,
    gracias: 2,
    delicioso: 3,
    deliciosa: 3,
    funciona: 2,
    rico: 2,
    rica: 2,
    genial: 3,
    ruidoso: -2,
  },
};

export const LEXICONS: Record<LexiconLanguage, Record<string, number>> = {
  en: { ...(require('sentiment/languages/en/labels.json') as Record<string, number>), ...ADDED.en },
  de: { ...readJson(new URL('afinn-de.json', DATA).pathname), ...ADDED.de },
  fr: { ...readJson(new URL('afinn-fr.json', DATA).pathname), ...ADDED.fr },
  es: { ...readJson(new URL('afinn-es.json', DATA).pathname), ...ADDED.es },
};

/** Words that turn the rating of the next three words around ("not good", "kein guter", "pas bon"). */
export const NEGATORS: Record<LexiconLanguage, Set<string>> = {
  en: new Set(['not', 'no', 'never', 'nothing', 'without', 'cannot', 'nor', 'hardly']),
  de: new Set(['nicht', 'kein', 'keine', 'keinen', 'keinem', 'keiner', 'keines', 'nie', 'niemals', 'nichts', 'ohne']),
  fr: new Set(['ne', 'n', 'pas', 'jamais', 'rien', 'sans', 'ni', 'aucun', 'aucune', 'plus']),
  es: new Set(['no', 'nunca', 'nada', 'sin', 'ni', 'tampoco', 'jamás', 'ningún', 'ninguna']),
};

/**
 * "Too" before a word is a complaint whatever the word ("too hot", "zu heiß", "trop chaud",
 * "demasiado caro"). German "zu" is also a preposition ("zu Hause"), so it counts only before a word
 * of EXCESSIVE_DE, or after "viel"/"etwas"/"viel" ("viel zu voll").
 */
export const TOO: Record<LexiconLanguage, Set<string>> = {
  en: new Set(['too']),
  de: new Set(['zu']),
  fr: new Set(['trop']),
  es: new Set(['demasiado', 'demasiada', 'demasiados', 'demasiadas']),
};
export const EXCESSIVE_DE = new Set([
  'heiß',
  'heiss',
  'kalt',
  'laut',
  'teuer',
  'langsam',
  'voll',
  'eng',
  'salzig',
  'süß',
  'klein',
  'wenig',
  'spät',
  'lange',
  'dunkel',
  'warm',
  'scharf',
  'trocken',
  'fettig',
  'viel',
  'hell',
  'leise',
  'stressig',
  'klebrig',
]);
export const DE_TOO_LEADS = new Set(['viel', 'etwas', 'deutlich', 'einfach', 'echt', 'viel']);

/** "Again" makes a complaint a repeated one: it weighs one more point where the text is negative. */
export const AGAIN: Record<LexiconLanguage, Set<string>> = {
  en: new Set(['again', 'still']),
  de: new Set(['wieder', 'schon', 'immer']),
  fr: new Set(['encore', 'toujours']),
  es: new Set(['otra', 'nuevo', 'sigue', 'siempre']),
};
