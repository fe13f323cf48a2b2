import type { Readable } from 'node:stream';

/**
 * Turns items into the bytes of an export file. `output` emits them as soon as items are written,
 * and ends after `end()`; the writer gathers what one batch produced into a single response write.
 */
export interface ExportEncoder<Item> {
  readonly output: Readable;
  write(item: Item): void;
  end(): void;
}
