import type { Request, Response, Router } from 'express';
import type pg from 'pg';
import { authorize } from '../auth/authorize.js';
import { HttpError } from '../errors/http-error.js';
import { idParam } from '../http/params.js';
import type { Services } from '../http/route.js';
import { mergeSuggestions, similarSuggestions, unmergeSuggestion } from '../merges/merge.service.js';
import { getSuggestion } from '../suggestions/suggestion.service.js';
import type { SuggestionRow } from '../suggestions/suggestion.repository.js';
import { memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import { formBody, formFields } from './dashboard.forms.js';
import { assertFormPost, BASE_PATH } from './dashboard.session.js';

/** What the suggestion's page shows of merging: where a merged one went, or its likely duplicates. */
export interface MergeView {
  mergedInto: { id: string; content: string; href: string } | null;
  similar: { id: string; content: string; status: string; upvotes: number; percent: number; href: string }[];
  mergeError?: string;
}

const pageOf = (businessId: string, id: string) => `${BASE_PATH}/b/${businessId}/suggestions/${id}`;

export async function mergeView(pool: pg.Pool, businessId: string, row: SuggestionRow): Promise<MergeView> {
  if (row.merged_into) {
    const target = await getSuggestion(pool, businessId, row.merged_into);
    return {
      mergedInto: { id: target.id, content: target.content, href: pageOf(businessId, target.id) },
      similar: [],
    };
  }
  const similar = await similarSuggestions(pool, businessId, row.id);
  return {
    mergedInto: null,
    similar: similar.map((s) => ({
      id: s.id,
      content: s.content,
      status: s.status.replace('_', ' '),
      upvotes: s.upvote_count,
      percent: Math.round(s.similarity * 100),
      href: pageOf(businessId, s.id),
    })),
  };
}

/**
 * The forms of merging on a suggestion's page, through the services and the authorize() action of
 * POST .../merge and .../unmerge (`change_status`): "Merge into this one" on a likely duplicate, and
 * "Unmerge" on a merged suggestion. A refusal (409) is shown on the page by `show`.
 */
export function addMergeForms(
  router: Router,
  services: Services,
  path: string,
  show: (res: Response, who: SignedInMember, id: string, mergeError: string, status: number) => Promise<void>,
) {
  const pool = services.db.pool;
  const allowedTo = (req: Request, res: Response) => {
    const who = memberOf(res);
    authorize(who.principal, 'change_status');
    assertFormPost(req, services, who.token);
    return who;
  };
  const refusal = async (res: Response, who: SignedInMember, id: string, err: unknown) => {
    if (err instanceof HttpError && (err.statusCode === 409 || err.statusCode === 400)) {
      return show(res, who, id, err.message, err.statusCode);
    }
    throw err;
  };

  router.post(`${path}/merge`, requireMember(services), formBody, async (req, res) => {
    const who = allowedTo(req, res);
    const id = idParam(req.params.id, 'Suggestion');
    const sourceId = idParam(formFields(req).source_id, 'Suggestion');
    try {
      await mergeSuggestions(pool, who.principal, id, [sourceId]);
    } catch (err) {
      return refusal(res, who, id, err);
    }
    res.redirect(303, `${pageOf(who.principal.businessId, id)}?saved=merged#duplicates`);
  });

  router.post(`${path}/unmerge`, requireMember(services), formBody, async (req, res) => {
    const who = allowedTo(req, res);
    const id = idParam(req.params.id, 'Suggestion');
    try {
      await unmergeSuggestion(pool, who.principal, id);
    } catch (err) {
      return refusal(res, who, id, err);
    }
    res.redirect(303, `${pageOf(who.principal.businessId, id)}?saved=unmerged`);
  });
}
