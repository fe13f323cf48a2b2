import { z } from 'zod';

/** The overview takes no parameters: any given is a 400, not silently ignored. */
export const overviewQuery = z.strictObject({});
