import type { Request } from 'express';
import type { Queryable } from '../db/database.js';
import { noteSessionUse } from './credential.repository.js';

/** Notes that a request used a session: its client address and User-Agent (the profile lists them). */
export const sessionUsed = (db: Queryable, sessionId: string, req: Request): Promise<void> =>
  noteSessionUse(db, sessionId, { ip: req.ip ?? null, userAgent: req.get('user-agent') ?? null });
