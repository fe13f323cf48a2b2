import { once, type EventEmitter } from 'node:events';
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

/** Waits for `event`, or returns as soon as the client is gone. */
async function eventOrGone(emitter: EventEmitter, event: string, signal: AbortSignal): Promise<void> {
  try {
    await once(emitter, event, { signal });
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
  const pending: Buffer[] = [];
  let failure: Error | undefined;
  encoder.output.on('data', (chunk: Buffer) => pending.push(chunk));
  encoder.output.on('error', (err: Error) => (failure = err));

  const send = async () => {
    if (failure) throw failure;
    if (pending.length === 0 || signal.aborted) return;
    // Set only now, so an error before the first byte leaves a plain JSON error response.
    if (!res.headersSent) res.status(200).set(headers);
    const flowing = res.write(Buffer.concat(pending.splice(0)));
    if (!flowing) await eventOrGone(res, 'drain', signal);
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
      encoder.write(records);
      written += records.length;
      await send();
    }
  } catch (err) {
    encoder.output.destroy();
    throw err;
  } finally {
    await run.close(exhausted && !signal.aborted ? 'commit' : 'rollback');
  }

  if (!signal.aborted) {
    encoder.end();
    await eventOrGone(encoder.output, 'end', signal);
    await send();
  }
  if (signal.aborted) {
    encoder.output.destroy();
    return { written, completed: false };
  }
  res.end();
  return { written, completed: true };
}
