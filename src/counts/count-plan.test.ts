import { describe, expect, it } from 'vitest';
import { planCount, type FilterKind } from './count-plan.js';

interface Filter {
  status?: string;
  priority?: string;
  since?: Date;
  from?: Date;
  until?: Date;
  q?: string;
  tag?: string[];
}
const KINDS: Record<keyof Filter, FilterKind> = {
  status: 'key',
  priority: 'key',
  since: 'after',
  from: 'from',
  until: 'rows',
  q: 'rows',
  tag: 'tag',
};
const at = new Date('2026-01-02T03:04:05.678Z');

describe('planCount', () => {
  it('When there is no filter, then the counters answer with no key', () => {
    expect(planCount<Filter>({}, KINDS)).toEqual({ by: 'counters', keys: {} });
  });

  it('When only equality filters are given, then the counters answer with exactly those keys', () => {
    expect(planCount<Filter>({ status: 'open', priority: undefined }, KINDS)).toEqual({
      by: 'counters',
      keys: { status: 'open' },
    });
  });

  it('When only a lower bound is given, then the daily counters answer, inclusive or not as the field says', () => {
    expect(planCount<Filter>({ since: at }, KINDS)).toEqual({ by: 'created', bound: at, inclusive: false });
    expect(planCount<Filter>({ from: at }, KINDS)).toEqual({ by: 'created', bound: at, inclusive: true });
  });

  it('When a bound comes with a key, a second bound or a row-only field, then rows are counted', () => {
    expect(planCount<Filter>({ since: at, status: 'open' }, KINDS)).toEqual({ by: 'rows' });
    expect(planCount<Filter>({ since: at, from: at }, KINDS)).toEqual({ by: 'rows' });
    expect(planCount<Filter>({ from: at, until: at }, KINDS)).toEqual({ by: 'rows' });
    expect(planCount<Filter>({ q: 'coffee:*' }, KINDS)).toEqual({ by: 'rows' });
  });

  it('When one tag is the only filter, then its counter answers; with anything more, rows are counted', () => {
    expect(planCount<Filter>({ tag: ['terrace'] }, KINDS)).toEqual({ by: 'tag', tag: 'terrace' });
    expect(planCount<Filter>({ tag: ['terrace', 'coffee'] }, KINDS)).toEqual({ by: 'rows' });
    expect(planCount<Filter>({ tag: ['terrace'], status: 'open' }, KINDS)).toEqual({ by: 'rows' });
    expect(planCount<Filter>({ tag: ['terrace'], since: at }, KINDS)).toEqual({ by: 'rows' });
    expect(planCount<Filter>({ tag: ['terrace'], q: 'shade:*' }, KINDS)).toEqual({ by: 'rows' });
  });
});
