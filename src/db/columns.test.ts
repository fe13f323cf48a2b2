import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { columnList, fieldSqlOf, fieldsOf, isoText, presenterOf, type ColumnMap } from './columns.js';

interface NoteRow {
  id: string;
  secret: string;
  body: string;
  pinned: boolean;
  done_at: Date | null;
  created_at: Date;
}

const NOTE_COLUMNS = {
  id: { shownIn: 'list', schema: z.string() },
  secret: { shownIn: null },
  body: { shownIn: 'list', schema: z.string() },
  pinned: { shownIn: 'read', schema: z.boolean() },
  done_at: { shownIn: 'list', schema: z.string().nullable(), instant: true },
  created_at: { shownIn: 'list', schema: z.string(), instant: true },
} satisfies ColumnMap<NoteRow, 'list' | 'read'>;

const row: NoteRow = {
  id: 'n1',
  secret: 'never shown',
  body: 'Oat milk',
  pinned: true,
  done_at: null,
  created_at: new Date('2026-03-01T08:09:10.123Z'),
};

describe('column maps', () => {
  it('When a row is presented, then exactly the columns of the views come out, in the map order, instants as ISO text', () => {
    expect(JSON.stringify(presenterOf(NOTE_COLUMNS, ['list'])(row))).toBe(
      '{"id":"n1","body":"Oat milk","done_at":null,"created_at":"2026-03-01T08:09:10.123Z"}',
    );
    expect(Object.keys(presenterOf(NOTE_COLUMNS, ['list', 'read'])(row))).toEqual([
      'id',
      'body',
      'pinned',
      'done_at',
      'created_at',
    ]);
    expect(presenterOf(NOTE_COLUMNS, ['list'])({ ...row, done_at: new Date('2026-03-02T00:00:00Z') }).done_at).toBe(
      '2026-03-02T00:00:00.000Z',
    );
  });

  it('When a column is hidden, then no view shows it, and the select list still reads it', () => {
    expect(presenterOf(NOTE_COLUMNS, ['list', 'read'])(row)).not.toHaveProperty('secret');
    expect(Object.keys(fieldsOf(NOTE_COLUMNS, ['list', 'read']))).not.toContain('secret');
    expect(columnList(NOTE_COLUMNS)).toBe('id, secret, body, pinned, done_at, created_at');
    expect(columnList(NOTE_COLUMNS, 'n')).toBe('n.id, n.secret, n.body, n.pinned, n.done_at, n.created_at');
  });

  it('When a view is given, then its schema fields are the map schemas of exactly the columns it adds', () => {
    const fields = fieldsOf(NOTE_COLUMNS, ['read']);
    expect(Object.keys(fields)).toEqual(['pinned']);
    expect(fields.pinned).toBe(NOTE_COLUMNS.pinned.schema);
    expect(Object.keys(fieldsOf(NOTE_COLUMNS, ['list']))).toEqual(['id', 'body', 'done_at', 'created_at']);
  });

  it('When a view is read in SQL, then each field is its column, an instant through isoText, in the map order', () => {
    expect(fieldSqlOf(NOTE_COLUMNS, ['list'])).toEqual({
      id: 'id',
      body: 'body',
      done_at: isoText('done_at'),
      created_at: isoText('created_at'),
    });
    expect(Object.keys(fieldSqlOf(NOTE_COLUMNS, ['list']))).toEqual(['id', 'body', 'done_at', 'created_at']);
  });
});
