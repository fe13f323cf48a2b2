import { v7 as uuidv7 } from 'uuid';

/** Time-ordered UUIDs (v7): new rows land at the right edge of the primary-key index. */
export const newId = (): string => uuidv7();
