import { parse } from 'pg-connection-string';
import type pg from 'pg';

/**
 * Connection strings that name several hosts, as libpq and pg_auto_failover write them
 * (`postgres://app@h1:5432,h2:5432/feedback?target_session_attrs=read-write`, what
 * `pg_autoctl show uri` prints). node-postgres takes one host: this parses the list for the pool over
 * several hosts (hosts.ts), and checks and splits such strings for the configuration.
 */

/** What a host must be to be connected to (libpq's `target_session_attrs`, the values we honour). */
export type SessionAttrs = 'any' | 'read-write' | 'primary' | 'read-only' | 'standby';

const SESSION_ATTRS: readonly SessionAttrs[] = ['any', 'read-write', 'primary', 'read-only', 'standby'];

export interface HostPort {
  host: string;
  port: number;
}

export interface HostList {
  hosts: HostPort[];
  attrs: SessionAttrs;
  /** Everything else the string says (user, password, database, ssl…), with no host or port. */
  config: pg.ClientConfig;
}

/** scheme, user info (with its @), the host list, then path, query and fragment. */
const URL_PARTS = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)(.*)$/i;

/** `h`, `h:5433`, `[::1]:5433`: one entry of the host list. */
function hostPort(entry: string): HostPort {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(entry);
  if (!match) throw new Error(`not a host[:port]: ${entry}`);
  const port = match[2] === undefined ? 5432 : Number(match[2]);
  if (port < 1 || port > 65_535) throw new Error(`not a port: ${match[2]}`);
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

/** Parses a one- or many-host connection string; throws, saying why, on anything else. */
export function parseHostList(url: string): HostList {
  const parts = URL_PARTS.exec(url);
  if (!parts) throw new Error('not a postgres:// connection string');
  const [, scheme, userInfo = '', hostText, rest] = parts as unknown as [
    string,
    string,
    string | undefined,
    string,
    string,
  ];
  const hosts = hostText.split(',').map((entry) => hostPort(entry.trim()));
  const first = hosts[0]!;
  const oneHost = `${scheme}${userInfo}${first.host.includes(':') ? `[${first.host}]` : first.host}:${first.port}${rest}`;
  const {
    host: _host,
    port: _port,
    target_session_attrs: attrsText,
    ...config
  } = parse(oneHost) as Record<string, unknown>;
  const attrs = (attrsText ?? 'any') as SessionAttrs;
  if (!SESSION_ATTRS.includes(attrs))
    throw new Error(`target_session_attrs must be one of ${SESSION_ATTRS.join(', ')}`);
  return { hosts, attrs, config };
}

/** Whether `url` names several hosts or asks for a kind of host: a pool over a host list serves it. */
export function isHostList(url: string): boolean {
  const parts = URL_PARTS.exec(url);
  return parts !== null && (parts[3]!.includes(',') || /[?&]target_session_attrs=/.test(parts[4]!));
}

/** Whether `url` is a connection string this service can use: a URL, or a list of hosts as libpq takes. */
export function isConnectionString(url: string): boolean {
  if (!isHostList(url)) return URL.canParse(url);
  try {
    parseHostList(url);
    return true;
  } catch {
    return false;
  }
}

/**
 * Splits a comma-separated list of connection strings, where each may itself name several hosts
 * with commas: a new string starts only where a scheme does.
 */
export function splitConnectionStrings(value: string): string[] {
  return value
    .split(/,(?=\s*postgres(?:ql)?:\/\/)/i)
    .map((part) => part.trim().replace(/[\s,]+$/, ''))
    .filter(Boolean);
}

/** One single-host connection string per host of `url`: the standbys of a formation, read one by one. */
export function eachHost(url: string): string[] {
  const parts = URL_PARTS.exec(url)!;
  const { hosts } = parseHostList(url);
  return hosts.map(
    ({ host, port }) => `${parts[1]}${parts[2] ?? ''}${host.includes(':') ? `[${host}]` : host}:${port}${parts[4]}`,
  );
}

/** How a host is named in logs, metrics and /health (never with a password). */
export const hostName = ({ host, port }: HostPort): string => `${host}:${port}`;
