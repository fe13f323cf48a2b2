import { z } from 'zod';
import { findBusiness } from '../businesses/business.repository.js';
import type { Database } from '../db/database.js';
import { findLocationBusiness } from '../locations/location.repository.js';
import { CliError } from './errors.js';
import type { Config } from '../config/config.js';
import { oneLine } from '../shared/schemas.js';

/** How an admin command is declared (commands.ts lists them), and what several of them share. */

type OptionSpec = Record<string, { type: 'string' | 'boolean'; description: string; required?: boolean }>;

export interface Command {
  usage: string;
  summary: string;
  options: OptionSpec;
  /** Names of positional arguments, in order. */
  positionals?: string[];
  schema: z.ZodType;
  /** False for a command that handles the schema itself (backup, restore): the CLI does not migrate first. */
  migrates?: false;
  /** `config`: the environment the service runs with, for the limits a command shares with the API. */
  run(db: Database, input: never, config: Config): Promise<unknown>;
}

export async function requireBusiness(db: Database, id: string) {
  const business = await findBusiness(db.pool, id);
  if (!business) throw new CliError(`business ${id} not found`);
  return business;
}

export async function requireLocationBusiness(db: Database, locationId: string) {
  const businessId = await findLocationBusiness(db.pool, locationId);
  if (!businessId) throw new CliError(`location ${locationId} not found`);
  return businessId;
}

/** A display name: the API's rule for one-line text (no line breaks, controls or bidi overrides; NFC). */
export const name = oneLine(200);
export const flag = z.enum(['true', 'false']).transform((value) => value === 'true');

export function command<S extends z.ZodType>(
  spec: Omit<Command, 'schema' | 'run'> & {
    schema: S;
    run(db: Database, input: z.output<S>, config: Config): Promise<unknown>;
  },
): Command {
  return spec;
}

export const resetPassword = {
  type: 'boolean',
  description: "with a password for an email that already has an account: replace that account's password",
} as const;
