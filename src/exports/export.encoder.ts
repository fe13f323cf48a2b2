/**
 * One exported record: the values of the resource's list fields, in their order, as a client sees
 * them (timestamps already ISO text). Exports never build an object per row on the way.
 */
export type ExportRecord = readonly unknown[];

/**
 * Turns batches of records into the text of an export file, piece by piece: the file is
 * `begin() + encode(batch) + ... + end()`. Each call returns its piece, so the writer sends it and
 * decides when to read on; the encoder holds nothing back.
 */
export interface ExportEncoder {
  /** What comes before the first record: a header row, an opening bracket. */
  begin(): string;
  /** One batch of records; an empty batch encodes to nothing. */
  encode(records: readonly ExportRecord[]): string;
  /** What comes after the last record. */
  end(): string;
}
