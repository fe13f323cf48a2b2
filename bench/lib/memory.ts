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
