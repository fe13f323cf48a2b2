import type pg from 'pg';
import type { PageRequest } from '../db/paging.js';
import { notFound } from '../http/errors.js';
import { countIssues, findIssue, findIssues, type IssueFilter, type IssueRow } from './issue.repository.js';
import type { IssueSort } from './issue.schemas.js';

export async function listIssues(
  pool: pg.Pool,
  businessId: string,
  filter: IssueFilter,
  page: PageRequest<IssueSort>,
): Promise<{ rows: IssueRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    findIssues(pool, businessId, filter, page),
    countIssues(pool, businessId, filter),
  ]);
  return { rows, total };
}

export async function getIssue(pool: pg.Pool, businessId: string, id: string): Promise<IssueRow> {
  const row = await findIssue(pool, businessId, id);
  if (!row) throw notFound('Issue');
  return row;
}
