import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { BusinessShare } from '../http/business-share.js';

/**
 * What a page view spends, as an API call does: the per-credential budget (`RATE_LIMIT_PER_MINUTE`),
 * charged to the session's user under the key the API charges a Bearer session to (`user:<id>`), so a
 * session's pages and API calls spend one budget, in memory or in Redis alike; and on a business's
 * page, a place in that business's share of the instance.
 */
export interface PageBudget {
  perCredential: RequestHandler;
  businessShare: BusinessShare;
}

const budgets = new WeakMap<Response, PageBudget>();

/**
 * Mounted before the pages: every refusal they meet is rendered as a page (a spent budget's 429
 * included, with its Retry-After), and a page spends `budget` once its session is known
 * (`requireSession`, `requireMember`).
 */
export function pageBudget(budget: PageBudget): RequestHandler {
  return (_req, res, next) => {
    res.locals.answersWithPage = true;
    budgets.set(res, budget);
    next();
  };
}

function budgetOf(res: Response): PageBudget {
  const budget = budgets.get(res);
  // A page outside the mount that installs it would be unlimited: refuse to serve it instead.
  if (!budget) throw new Error('a dashboard page was mounted without its budget');
  return budget;
}

/** Charges the page to `userId`'s budget; rejects with the 429 once it is spent. */
export function chargePage(req: Request, res: Response, userId: string): Promise<void> {
  const { perCredential } = budgetOf(res);
  req.credentialId = `user:${userId}`;
  return new Promise((resolve, reject) => {
    // express-rate-limit passes on only the page's 429 (an Error), or nothing.
    void perCredential(req, res, (err?: unknown) => (err instanceof Error ? reject(err) : resolve()));
  });
}

/** Serves the rest of the page once `businessId` has a place free in its share (business-share.ts). */
export function enterBusinessShare(res: Response, businessId: string, next: NextFunction): void {
  budgetOf(res).businessShare.enter(businessId, res, next);
}
