import pg from 'pg';
import { hostName, type HostList, type HostPort, type SessionAttrs } from '../config/connection-string.js';

/**
 * Which of a connection string's hosts to connect to (a pg_auto_failover formation's primary): found
 * by asking each whether it has what `target_session_attrs` asks for.
 */

/** The statement that tells whether a connected host is what `attrs` asks for. */
const CHECKS: Record<Exclude<SessionAttrs, 'any'>, { sql: string; wants: boolean }> = {
  'read-write': { sql: 'SELECT current_setting($1) = $2 AS ok', wants: true },
  'read-only': { sql: 'SELECT current_setting($1) = $2 AS ok', wants: false },
  primary: { sql: 'SELECT NOT pg_is_in_recovery() AS ok', wants: true },
  standby: { sql: 'SELECT NOT pg_is_in_recovery() AS ok', wants: false },
};

/** Whether the host `client` is connected to is what `attrs` asks for. */
export async function hasAttrs(client: Pick<pg.Client, 'query'>, attrs: SessionAttrs): Promise<boolean> {
  if (attrs === 'any') return true;
  const { sql, wants } = CHECKS[attrs];
  const values = sql.includes('$1') ? ['transaction_read_only', 'off'] : [];
  const { rows } = await client.query<{ ok: boolean }>(sql, values);
  return rows[0]!.ok === wants;
}

/** A connection to a host that is not what target_session_attrs asks for: the client may retry (a 503). */
export class WrongHostError extends Error {
  readonly code = '57P03'; // cannot_connect_now: a database that will be back, as the error handler reads it
  constructor(host: HostPort, attrs: SessionAttrs) {
    super(`${hostName(host)} is not ${attrs} now (the primary is moving)`);
  }
}

export interface HostFinderOptions {
  /** How long one host may take to answer the probe. */
  connectTimeoutMs: number;
  /** Told each time the host changes, and when none has what is asked. */
  onChange?: (found: HostPort | undefined) => void;
}

/**
 * Which host of a list to connect to: the last one found to have the attributes asked for. Told that
 * something went wrong with it (`suspect`), it probes the hosts, the current one first, and keeps the
 * first that answers as asked; one probe at a time, however many connections failed at once.
 */
export class HostFinder {
  readonly #list: HostList;
  readonly #options: HostFinderOptions;
  #current: HostPort;
  #found = true;
  #search: Promise<boolean> | undefined;

  constructor(list: HostList, options: HostFinderOptions) {
    this.#list = list;
    this.#options = options;
    this.#current = list.hosts[0]!;
  }

  /** The host new connections go to. */
  get current(): HostPort {
    return this.#current;
  }

  /** Whether the last search found a host (false while the primary is moving). */
  get found(): boolean {
    return this.#found;
  }

  get attrs(): SessionAttrs {
    return this.#list.attrs;
  }

  /** The search under way, if any: checkouts wait for it rather than connect to a host being replaced. */
  get searching(): Promise<boolean> | undefined {
    return this.#search;
  }

  /** Starts a search unless one is running; answers whether a host was found. */
  suspect(): Promise<boolean> {
    this.#search ??= this.#probeAll().finally(() => {
      this.#search = undefined;
    });
    return this.#search;
  }

  async #probeAll(): Promise<boolean> {
    const { hosts } = this.#list;
    const start = hosts.indexOf(this.#current);
    const order = [...hosts.slice(start), ...hosts.slice(0, start)];
    for (const host of order) {
      if (await this.#probe(host)) {
        const changed = host !== this.#current || !this.#found;
        this.#current = host;
        this.#found = true;
        if (changed) this.#options.onChange?.(host);
        return true;
      }
    }
    if (this.#found) this.#options.onChange?.(undefined);
    this.#found = false;
    return false;
  }

  async #probe(host: HostPort): Promise<boolean> {
    const client = new pg.Client({
      ...this.#list.config,
      ...host,
      connectionTimeoutMillis: this.#options.connectTimeoutMs,
    });
    client.on('error', () => {});
    try {
      await client.connect();
      return await hasAttrs(client, this.#list.attrs);
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  }
}
