/**
 * A second process on an embedded database's socket, as the admin CLI is while the server runs.
 * ROUNDS=n: n rounds of a statement with a large value and a transaction that inserts a row; prints
 * what went wrong as JSON. HOLD=1: opens a transaction, inserts a row, prints "holding" and waits to
 * be killed.
 */
import { openEmbedded } from '../../src/db/embedded.js';

const db = await openEmbedded({ dataDir: process.env.DATA_DIR!, allowClient: true, onPoolError: () => undefined });

if (process.env.HOLD) {
  const tx = await db.pool.connect();
  await tx.query('BEGIN');
  await tx.query('INSERT INTO interleave_probe (who, n) VALUES ($1, $2)', ['killed', 0]);
  process.stdout.write('holding');
  setInterval(() => undefined, 60_000);
} else {
  const wrong: string[] = [];
  for (let i = 0; i < Number(process.env.ROUNDS); i++) {
    try {
      // A Bind larger than the socket's buffers: it reaches the server in pieces, well after the Parse.
      const { rows } = await db.pool.query<{ n: number }>('SELECT length($1::text) AS length, $2::int AS n', [
        'x'.repeat(5_000_000),
        i,
      ]);
      if (rows[0]?.n !== i) wrong.push(JSON.stringify(rows));
    } catch (err) {
      wrong.push(String(err).slice(0, 200));
    }
    const tx = await db.pool.connect();
    try {
      await tx.query('BEGIN');
      await tx.query('INSERT INTO interleave_probe (who, n) VALUES ($1, $2)', ['client', i]);
      await tx.query('COMMIT');
    } catch (err) {
      wrong.push(String(err).slice(0, 200));
      await tx.query('ROLLBACK').catch(() => undefined);
    } finally {
      tx.release();
    }
  }
  await db.close();
  process.stdout.write(JSON.stringify({ wrong }));
}
