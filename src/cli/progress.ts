/** How often the bar is redrawn at most: enough to look alive, rare enough to cost nothing. */
const REDRAW_MS = 100;

/**
 * A one-line progress bar redrawn in place (`\r`) on a terminal stream:
 * `seeding [#########---------] 48%  480,000/1,000,000 rows  61,234 rows/s`.
 */
export function progressBar(stream: NodeJS.WriteStream, label: string) {
  const started = performance.now();
  let drawnAt = 0;
  const format = (n: number) => n.toLocaleString('en-US');
  return {
    update(done: number, total: number) {
      const now = performance.now();
      if (done < total && now - drawnAt < REDRAW_MS) return;
      drawnAt = now;
      const ratio = total === 0 ? 1 : done / total;
      const rate = done / Math.max((now - started) / 1000, 1e-3);
      // Fixed widths, so the bar keeps its length while the numbers grow.
      const counts =
        `${String(Math.floor(ratio * 100)).padStart(3)}%  ${format(done).padStart(format(total).length)}/` +
        `${format(total)} rows  ${format(Math.round(rate)).padStart(7)} rows/s`;
      const width = Math.max(10, Math.min(40, (stream.columns || 80) - label.length - counts.length - 5));
      const filled = Math.round(ratio * width);
      stream.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${counts}`);
    },
    /** Ends the line, so whatever is written next starts on a fresh one. */
    finish() {
      stream.write('\n');
    },
  };
}
