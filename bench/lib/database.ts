import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

/**
 * The benchmark works in a database of its own on the server of BENCH_DATABASE_URL, created at the
 * start and dropped at the end, so nothing it seeds outlives it or touches the test database.
 */
export async function createBenchDatabase(serverUrl: string): Promise<string> {
  const name = `fbk_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropBenchDatabase(serverUrl: string, benchUrl: string): Promise<void> {
  const name = new URL(benchUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Wall time in ms of `COPY (query) TO STDOUT`, every byte read, on an already open connection. */
export async function copyTime(client: pg.Client, copySql: string): Promise<{ ms: number; bytes: number }> {
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback();
    },
  });
  const started = performance.now();
  await pipeline(client.query(copyTo(copySql)), sink);
  return { ms: performance.now() - started, bytes };
}
