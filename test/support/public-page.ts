import type supertest from 'supertest';
import { expect } from 'vitest';

/** The service's own origin as the test apps are configured (PUBLIC_BASE_URL's default): where its pages post from. */
const ORIGIN = 'http://localhost:3000';

/**
 * Sends feedback through the page's form as a browser does, on a business that reviews feedback
 * first: opens the page for its form token, lets `pastFillTime` move the page's clock past the minimum
 * fill time, posts, and reads the thank-you address: the suggestion's id and the posted proof that
 * lets its author follow it.
 */
export async function postForReview(
  browser: supertest.Agent,
  code: string,
  content: string,
  pastFillTime: () => void,
): Promise<{ location: string; id: string; proof: string }> {
  const opened = await browser.get(`/f/${code}`);
  const formToken = /name="form_token" value="([^"]+)"/.exec(opened.text)?.[1];
  expect(formToken, opened.text.slice(0, 500)).toBeDefined();
  pastFillTime();
  const posted = await browser
    .post(`/f/${code}`)
    .set('Origin', ORIGIN)
    .type('form')
    .send({ content, form_token: formToken, website: '' });
  expect(posted.status, posted.text).toBe(303);
  const location = posted.headers.location as string;
  const match = /^\/f\/[^?]+\?thanks=review&s=([0-9a-f-]{36})&posted=([A-Za-z0-9_-]{43})$/.exec(location);
  expect(match, location).not.toBeNull();
  return { location, id: match![1]!, proof: match![2]! };
}
