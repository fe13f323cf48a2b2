import { describe, expect, it } from 'vitest';
import {
  eachHost,
  isConnectionString,
  isHostList,
  parseHostList,
  splitConnectionStrings,
} from './connection-string.js';

describe('Connection strings naming several hosts', () => {
  const formation =
    'postgres://app:s3cret@db1:5432,db2:6543,[::1]/feedback?target_session_attrs=read-write&sslmode=disable';

  it('When a string names several hosts, then each host and port is read, the default port 5432, IPv6 unbracketed', () => {
    const list = parseHostList(formation);
    expect(list.hosts).toEqual([
      { host: 'db1', port: 5432 },
      { host: 'db2', port: 6543 },
      { host: '::1', port: 5432 },
    ]);
    expect(list.attrs).toBe('read-write');
    expect(list.config).toMatchObject({ user: 'app', password: 's3cret', database: 'feedback' });
    expect(list.config).not.toHaveProperty('host');
    expect(list.config).not.toHaveProperty('target_session_attrs');
  });

  it('When target_session_attrs is absent, then any host will do; an unknown value is refused', () => {
    expect(parseHostList('postgres://app@a,b/db').attrs).toBe('any');
    expect(() => parseHostList('postgres://app@a,b/db?target_session_attrs=prefer-nothing')).toThrow(
      /target_session_attrs must be one of/,
    );
  });

  it('When a port is not one, then the string is refused', () => {
    expect(isConnectionString('postgres://app@a:5432,b:99999/db')).toBe(false);
    expect(isConnectionString('postgres://app@a:5432,:5432/db')).toBe(false);
    expect(isConnectionString('postgres://app@a:5432,b:5433/db')).toBe(true);
  });

  it('When a string names one host and asks for no kind, then it is no host list and any URL passes as before', () => {
    expect(isHostList('postgres://app@db:5432/feedback')).toBe(false);
    expect(isHostList('postgres:///feedback?host=/var/run/postgresql')).toBe(false);
    expect(isConnectionString('postgres:///feedback?host=/var/run/postgresql')).toBe(true);
    expect(isHostList('postgres://app@db:5432/feedback?target_session_attrs=read-write')).toBe(true);
    expect(isConnectionString('not a url')).toBe(false);
  });

  it('When a formation is split host by host, then each string keeps the rest of the original', () => {
    expect(eachHost('postgres://app@db1:5432,db2:5433/feedback?sslmode=disable')).toEqual([
      'postgres://app@db1:5432/feedback?sslmode=disable',
      'postgres://app@db2:5433/feedback?sslmode=disable',
    ]);
  });

  it('When a list of strings holds host lists, then it is split only where a scheme starts', () => {
    expect(splitConnectionStrings('postgres://a@h1:1,h2:2/db, postgresql://b@h3/db ,')).toEqual([
      'postgres://a@h1:1,h2:2/db',
      'postgresql://b@h3/db',
    ]);
  });
});
