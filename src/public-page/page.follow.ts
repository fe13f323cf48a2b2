import type { Request, RequestHandler, Router } from 'express';
import { confirmFollowLink, readConfirmLink, readUnsubscribeLink, unsubscribeLink } from '../follows/follow.service.js';
import { HttpError } from '../errors/http-error.js';
import type { Services } from '../http/route.js';
import { messagesFor } from '../shared/messages.js';
import { followLinkQuery } from './page.schemas.js';
import { renderFollowPage } from './page.views.js';

/**
 * The pages a follower's links lead to. Opening a link (a GET, which mail scanners also send) only
 * shows a button; the POST acts. The unsubscribe URL also takes RFC 8058's one-click POST
 * (`List-Unsubscribe=One-Click`), from a mail client with no page and no sign-in: no origin check.
 * The confirm pages name the business and the suggestion, as the page shows it (a suggestion still
 * awaiting review is not quoted: whoever typed the address may not be its reader).
 */
export function addFollowLinkPages(
  router: Router,
  services: Services,
  {
    budget,
    policy,
    formBody,
    localeOf,
  }: { budget: RequestHandler; policy: RequestHandler; formBody: RequestHandler; localeOf: (req: Request) => string },
) {
  const pool = services.db.pool;
  const linkQuery = (req: Request) => {
    const query = followLinkQuery.safeParse(req.query);
    if (!query.success) throw new HttpError(404, 'This link is not valid', 'LINK_INVALID');
    return query.data;
  };
  const url = (path: string, token: string, all = false) =>
    `${path}?token=${encodeURIComponent(token)}${all ? '&all=1' : ''}`;

  router.get('/follow/confirm', policy, budget, async (req, res) => {
    const { token } = linkQuery(req);
    const subject = await readConfirmLink(pool, token);
    const { t, locale } = messagesFor(localeOf(req));
    const words = {
      heading: t('page.confirm.heading', { business: subject.business }),
      message: t('page.confirm.message', { business: subject.business }),
      subject,
    };
    const actions = [{ url: url('/follow/confirm', token), label: t('page.confirm.button') }];
    res.type('html').send(renderFollowPage(words, actions, locale));
  });

  router.post('/follow/confirm', policy, budget, formBody, async (req, res) => {
    const subject = await confirmFollowLink(pool, linkQuery(req).token);
    const { t, locale } = messagesFor(localeOf(req));
    const words = {
      heading: t('page.confirmed.heading'),
      message: t('page.confirmed.message', { business: subject.business }),
      subject,
    };
    res.type('html').send(renderFollowPage(words, [], locale));
  });

  router.get('/follow/unsubscribe', policy, budget, async (req, res) => {
    const { token } = linkQuery(req);
    const link = await readUnsubscribeLink(pool, token);
    const { t, locale } = messagesFor(localeOf(req));
    if (!link) {
      const words = { heading: t('page.unsubscribed.heading'), message: t('page.unsubscribed.gone') };
      res.type('html').send(renderFollowPage(words, [], locale));
      return;
    }
    const business = link.businessName;
    const words = { heading: t('page.unsubscribe.heading'), message: t('page.unsubscribe.message', { business }) };
    const actions = [
      { url: url('/follow/unsubscribe', token), label: t('page.unsubscribe.one') },
      { url: url('/follow/unsubscribe', token, true), label: t('page.unsubscribe.all', { business }) },
    ];
    res.type('html').send(renderFollowPage(words, actions, locale));
  });

  router.post('/follow/unsubscribe', policy, budget, formBody, async (req, res) => {
    const { token, all } = linkQuery(req);
    await unsubscribeLink(pool, token, all === '1');
    const { t, locale } = messagesFor(localeOf(req));
    const words = {
      heading: t('page.unsubscribed.heading'),
      message: t(all === '1' ? 'page.unsubscribed.all' : 'page.unsubscribed.one'),
    };
    res.type('html').send(renderFollowPage(words, [], locale));
  });
}
