import { detectLanguage } from '../suggestions/language.js';

/**
 * An issue's language (ISO 639-1): detected from its title and description together, as one text (a
 * title alone is often too short to tell), or null when the detector is not sure.
 */
export function issueLanguage(title: string, description: string): string | null {
  return detectLanguage(description === '' ? title : `${title}\n${description}`);
}
