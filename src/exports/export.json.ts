import type { ExportEncoder, ExportRecord } from './export.encoder.js';

export interface ExportEnvelope {
  total: number;
  truncated: boolean;
  exportedAt: Date;
}

/**
 * `{"data":[...],"total":N,"truncated":bool,"exported_at":"ISO"}`, piece by piece: the opening, each
 * record as an object of `fields` through JSON.stringify, then the closing fields. They follow `data`,
 * as in the list envelope, though their values are known before the first item.
 */
export function jsonEncoder(fields: readonly string[], envelope: ExportEnvelope): ExportEncoder {
  // Items are comma-separated across batches too: every batch after the first starts with one.
  let separator = '';
  const item = (record: ExportRecord) => {
    const object: Record<string, unknown> = {};
    for (let i = 0; i < fields.length; i++) object[fields[i]!] = record[i];
    return object;
  };
  return {
    begin: () => '{"data":[',
    encode(records) {
      if (records.length === 0) return '';
      const items = separator + records.map((record) => JSON.stringify(item(record))).join(',');
      separator = ',';
      return items;
    },
    end() {
      const closing = {
        total: envelope.total,
        truncated: envelope.truncated,
        exported_at: envelope.exportedAt.toISOString(),
      };
      // the closing object without its opening brace, after the closing bracket of data
      return `],${JSON.stringify(closing).slice(1)}`;
    },
  };
}
