import { Readable } from 'node:stream';
import type { ExportEncoder } from './export.encoder.js';

export interface ExportEnvelope {
  total: number;
  truncated: boolean;
  exportedAt: Date;
}

/**
 * `{"data":[...],"total":N,"truncated":bool,"exported_at":"ISO"}`, written piece by piece: the
 * opening, each item through JSON.stringify, then the closing fields. They follow `data`, as in the
 * list envelope, though their values are known before the first item.
 */
export function jsonEncoder(envelope: ExportEnvelope): ExportEncoder<unknown> {
  // Pushed to by write() and drained by the writer as it goes, never pulled.
  const output = new Readable({ read() {} });
  output.push('{"data":[');
  let separator = '';
  return {
    output,
    write(item) {
      output.push(separator + JSON.stringify(item));
      separator = ',';
    },
    end() {
      const fields = {
        total: envelope.total,
        truncated: envelope.truncated,
        exported_at: envelope.exportedAt.toISOString(),
      };
      // the fields object without its opening brace, after the closing bracket of data
      output.push(`],${JSON.stringify(fields).slice(1)}`);
      output.push(null);
    },
  };
}
