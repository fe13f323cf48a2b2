import { randomFillSync } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

/** A uniform number in [0, 1). */
export type Random = () => number;

/** mulberry32: a tiny, fast, seedable generator; plenty for made-up data (never for secrets or ids). */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

export const chance = (random: Random, probability: number): boolean => random() < probability;

/**
 * A picker returning one of `weights`' keys with probability proportional to its weight. Built once,
 * used per row: the cumulative table is not rebuilt for every pick.
 */
export function weighted<K extends string>(weights: Readonly<Record<K, number>>): (random: Random) => K {
  const keys = Object.keys(weights) as K[];
  const bounds: number[] = [];
  let sum = 0;
  for (const key of keys) bounds.push((sum += weights[key]));
  return (random) => {
    const roll = random() * sum;
    for (let i = 0; i < bounds.length; i++) if (roll < bounds[i]!) return keys[i]!;
    return keys[keys.length - 1]!;
  };
}

const ID_POOL_SIZE = 16 * 1024;
const idPool = new Uint8Array(ID_POOL_SIZE);
let idOffset = ID_POOL_SIZE;

/**
 * Time-ordered UUIDs (v7) like newId(), with their random bits taken from a pool filled 1,024 ids at
 * a time: asking the system for 16 bytes per id costs more than everything else a seeded row needs.
 */
export function seedId(): string {
  if (idOffset === ID_POOL_SIZE) {
    randomFillSync(idPool);
    idOffset = 0;
  }
  const random = idPool.subarray(idOffset, (idOffset += 16));
  return uuidv7({ random });
}
