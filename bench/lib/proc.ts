// What the bench reads of processes and of the machine from /proc (Linux): memory and CPU.
import { readFileSync } from 'node:fs';

/** Resident set size of a process in bytes, from /proc (Linux). */
export function rssBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}

/** Samples a process's RSS every `everyMs` until stopped; returns the peak seen. */
export function sampleRss(pid: number, everyMs = 5) {
  let peak = rssBytes(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssBytes(pid));
  }, everyMs);
  return {
    stop(): number {
      clearInterval(timer);
      return Math.max(peak, rssBytes(pid));
    },
  };
}

/** The machine's CPU time so far, all cores, from /proc/stat (Linux): idle (idle + iowait) and total. */
function machineCpu(): { idle: number; total: number } {
  // user nice system idle iowait irq softirq steal (guest time is already counted in user and nice)
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const [, , , idle = 0, iowait = 0] = fields;
  return { idle: idle + iowait, total: fields.reduce((sum, n) => sum + n, 0) };
}

/** The share of the machine's CPU left idle while `work` runs: near 0, the machine was saturated. */
export async function idleShareDuring<T>(work: () => Promise<T>): Promise<{ result: T; idleShare: number }> {
  const before = machineCpu();
  const result = await work();
  const after = machineCpu();
  return { result, idleShare: (after.idle - before.idle) / Math.max(1, after.total - before.total) };
}
