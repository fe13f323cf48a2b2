import { Transform, type Readable } from 'node:stream';
import { parse, type Parser } from 'csv-parse';
import { badRequest, HttpError } from '../errors/http-error.js';

/** The one refusal of a body past the limit, in the general error body (PAYLOAD_TOO_LARGE). */
export const tooLarge = (max: number) =>
  new HttpError(413, `The CSV file exceeds ${max} bytes`, 'PAYLOAD_TOO_LARGE', { Connection: 'close' });

/**
 * The records of a CSV body, parsed as they arrive (csv-parse's stream API): the file is never whole
 * in memory, only the records of the batch being written. The bytes are counted before parsing; past
 * `max` the parser fails with a 413 and the rest of the body is read and dropped (never the socket
 * destroyed, so the client still gets its answer). `onHeader` sees the header row before any record.
 * A body that is not CSV (a quote left open) fails with a 400.
 */
export function csvRecords(source: Readable, max: number, onHeader: (headers: string[]) => void): Parser {
  let bytes = 0;
  const parser = parse({
    bom: true,
    columns: (header: string[]) => {
      const headers = header.map((name) => name.trim());
      onHeader(headers);
      return headers;
    },
    relax_column_count: true,
    skip_empty_lines: true,
  });
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (bytes <= max) return callback(null, chunk);
      source.unpipe(counter);
      source.resume();
      callback(tooLarge(max));
    },
  });
  source.on('error', (err) => counter.destroy(err));
  counter.on('error', (err) => parser.destroy(err));
  // The reader learns of a failure from its iteration; an error emitted once it has stopped reading
  // (the rest of a refused file) is not another failure of the process.
  parser.on('error', () => undefined);
  source.pipe(counter).pipe(parser);
  return parser;
}

/** csv-parse's own errors (a quote left open) as the 400 a malformed body is; anything else as it is. */
export function csvFailure(err: unknown): unknown {
  if (err instanceof HttpError) return err;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('CSV_')) {
    return badRequest(`The body is not CSV: ${(err as Error).message}`, 'MALFORMED_BODY');
  }
  return err;
}
