import type { Request, RequestHandler, Router } from 'express';
import { confirmFollowLink, readUnsubscribeLink, unsubscribeLink } from '../follows/follow.service.js';
import { HttpError } from '../errors/http-error.js';
import type { Services } from '../http/route.js';
import { followLinkQuery } from './page.schemas.js';
import { renderFollowPage } from './page.views.js';

/**
 * The pages a follower's links lead to. Opening a link (a GET, which mail scanners also send) only
 * shows a button; the POST acts. The unsubscribe URL also takes RFC 8058's one-click POST
 * (`List-Unsubscribe=One-Click`), from a mail client with no page and no sign-in: no origin check.
 */
export function addFollowLinkPages(
  router: Router,
  services: Services,
  { budget, policy, formBody }: { budget: RequestHandler; policy: RequestHandler; formBody: RequestHandler },
) {
  const pool = services.db.pool;
  const linkQuery = (req: Request) => {
    const query = followLinkQuery.safeParse(req.query);
    if (!query.success) throw new HttpError(404, 'This link is not valid', 'NOT_FOUND');
    return query.data;
  };
  const url = (path: string, token: string, all = false) =>
    `${path}?token=${encodeURIComponent(token)}${all ? '&all=1' : ''}`;

  router.get('/follow/confirm', policy, budget, (req, res) => {
    const { token } = linkQuery(req);
    res
      .type('html')
      .send(
        renderFollowPage(
          'Follow this suggestion',
          'Press the button to confirm your address and follow the suggestion.',
          [{ url: url('/follow/confirm', token), label: 'Confirm and follow' }],
        ),
      );
  });

  router.post('/follow/confirm', policy, budget, formBody, async (req, res) => {
    const { businessName } = await confirmFollowLink(pool, linkQuery(req).token);
    res
      .type('html')
      .send(
        renderFollowPage(
          'You are following this suggestion',
          `${businessName} will email you when it moves. Every email has a link to stop them.`,
        ),
      );
  });

  router.get('/follow/unsubscribe', policy, budget, async (req, res) => {
    const { token } = linkQuery(req);
    const link = await readUnsubscribeLink(pool, token);
    if (!link) {
      res.type('html').send(renderFollowPage('You are unsubscribed', 'This address gets no more emails about it.'));
      return;
    }
    res.type('html').send(
      renderFollowPage('Unsubscribe', `Stop the emails ${link.businessName} sends you about suggestions you follow.`, [
        { url: url('/follow/unsubscribe', token), label: 'Stop emails about this suggestion' },
        { url: url('/follow/unsubscribe', token, true), label: `Stop all emails from ${link.businessName}` },
      ]),
    );
  });

  router.post('/follow/unsubscribe', policy, budget, formBody, async (req, res) => {
    const { token, all } = linkQuery(req);
    await unsubscribeLink(pool, token, all === '1');
    res
      .type('html')
      .send(
        renderFollowPage(
          'You are unsubscribed',
          all === '1'
            ? 'This address gets no more emails from this business, and is forgotten.'
            : 'This address gets no more emails about this suggestion, and is forgotten for it.',
        ),
      );
  });
}
