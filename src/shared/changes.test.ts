import { describe, expect, it } from 'vitest';
import { fieldChanges } from './changes.js';

describe('fieldChanges', () => {
  it('When fields are given that differ, then each is listed with its old and new value', () => {
    expect(fieldChanges({ name: 'A', open: true }, { name: 'B', open: false })).toEqual({
      name: { from: 'A', to: 'B' },
      open: { from: true, to: false },
    });
  });

  it('When a field is left out or given unchanged, then it is not listed', () => {
    expect(fieldChanges({ name: 'A', open: true }, { name: 'A' })).toEqual({});
    expect(fieldChanges({ name: 'A', open: true }, { open: undefined })).toEqual({});
  });

  it('When a value becomes null, then that is a change', () => {
    expect(fieldChanges<{ id: string | null }>({ id: 'x' }, { id: null })).toEqual({ id: { from: 'x', to: null } });
  });
});
