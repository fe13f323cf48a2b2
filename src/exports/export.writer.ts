import { once } from 'node:events';
import type { Response } from 'express';
import type { ExportEncoder } from './export.encoder.js';
import type { ExportRun } from './export.service.js';

export interface StreamResult {
  /** Items handed to the encoder. */
  written: number;
  /** False when the client went away before the end. */
  completed: boolean;
}

/**
 * Aborts when the client goes away: the response closes before it finished (or had already closed
 * while the export was being opened).
 */
function clientGone(res: Response): AbortSignal {
  const gone = new AbortController();
  if (res.destroyed) gone.abort();
  else
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
  return gone.signal;
}

/** Waits until the socket takes writes again, or returns as soon as the client is gone. */
async function drainOrGone(res: Response, signal: AbortSignal): Promise<void> {
  try {
    await once(res, 'drain', { signal });
  } catch (err) {
    if (!signal.aborted) throw err;
  }
}

/**
 * Streams an export with `headers`: each batch the cursor delivers is encoded and sent as one
 * write; when the socket is full the loop waits for 'drain' before reading on, so memory holds a
 * batch or two whatever the export's size. A client that disconnects ends the wait and the loop at
 * once, and the run is rolled back and its connection released before this returns. A database
 * error mid-stream is rethrown: the error handler can only cut the response by then.
 */
export async function streamExport(
  res: Response,
  run: ExportRun,
  encoder: ExportEncoder,
  headers: Record<string, string>,
): Promise<StreamResult> {
  const signal = clientGone(res);
  // Sent with the first batch (or the end), not alone: the first write commits the 200, so it waits
  // until there is a record or the end to send.
  let opening = encoder.begin();

  const send = async (piece: string) => {
    const chunk = opening + piece;
    opening = '';
    if (chunk === '' || signal.aborted) return;
    // Set only now, so an error before the first byte leaves a plain JSON error response.
    if (!res.headersSent) res.status(200).set(headers);
    if (!res.write(chunk)) await drainOrGone(res, signal);
  };

  let written = 0;
  let exhausted = false;
  try {
    while (!signal.aborted) {
      const records = await run.read();
      if (records.length === 0) {
        exhausted = true;
        break;
      }
      written += records.length;
      await send(encoder.encode(records));
    }
  } finally {
    await run.close(exhausted && !signal.aborted ? 'commit' : 'rollback');
  }

  if (!signal.aborted) await send(encoder.end());
  if (signal.aborted) return { written, completed: false };
  res.end();
  return { written, completed: true };
}
