import type { Readable } from 'node:stream';

/**
 * One exported record: the values of the resource's list fields, in their order, as a client sees
 * them (timestamps already ISO text). Exports never build an object per row on the way.
 */
export type ExportRecord = readonly unknown[];

/**
 * Turns batches of records into the bytes of an export file. `output` emits what each batch makes as
 * soon as it is written, and ends after `end()`; the writer sends what one batch produced as one write.
 */
export interface ExportEncoder {
  readonly output: Readable;
  write(records: readonly ExportRecord[]): void;
  end(): void;
}
