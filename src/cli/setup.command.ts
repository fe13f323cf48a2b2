import { z } from 'zod';
import { dashboardUrl } from '../config/config.js';
import { issueSetupLink, SETUP_LINK_LIFETIME_MS } from '../setup/setup.service.js';
import { command, type Command } from './command.js';
import { CliError } from './errors.js';

/**
 * `admin setup-link`: the first run's link again (start-up logs one), for whoever lost the log.
 * A new token each time; the older ones stay valid until used or expired.
 */
export const SETUP_COMMANDS: Record<string, Command> = {
  'setup-link': command({
    usage: 'setup-link',
    summary: 'Print a new one-time link to /app/setup, where the first business and its owner are created',
    options: {},
    schema: z.object({}),
    async run(db, _input, config) {
      const url = await issueSetupLink(db.pool, dashboardUrl(config));
      if (!url) throw new CliError('a business exists already: the first run is over (sign in at /app)');
      return { url, expires_in_hours: SETUP_LINK_LIFETIME_MS / 3_600_000 };
    },
  }),
};
