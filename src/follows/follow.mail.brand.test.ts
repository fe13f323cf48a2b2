import { describe, expect, it } from 'vitest';
import { changelogMail } from './changelog.mail.js';
import { confirmationMail, mailBrand, notificationMail } from './follow.mail.js';

const follow = { id: '0190a0a0-0000-7000-8000-000000000001', email: 'ana@example.test', link_key: Buffer.alloc(32, 1) };
const BASE = 'https://feedback.example';
const BUSINESS_ID = '0190a0a0-0000-7000-8000-0000000000b1';
const row = {
  business_id: BUSINESS_ID,
  brand_color: '#1d5e34',
  logo: { hash: '0123456789abcdef', content_type: 'image/png' as const, width: 512, height: 256 },
};
const LOGO_URL = `${BASE}/brand/${BUSINESS_ID}/logo.0123456789abcdef.png`;

describe("the business's brand in a follower's emails", () => {
  it("When the business has a logo and a colour, then every customer email shows the logo by its absolute URL with the business's name as alt, and colours its links", () => {
    const brand = mailBrand(BASE, 'Café <Ana>', row);
    const mails = [
      confirmationMail(BASE, follow, { business: 'Café <Ana>', code: 'abc123', suggestionId: 's1', brand }),
      notificationMail(BASE, follow, {
        business: 'Café <Ana>',
        suggestion: 'Oat milk',
        status: { from: 'pending', to: 'reviewing' },
        pageUrl: `${BASE}/f/abc123#s-s1`,
        brand,
      }),
      changelogMail(BASE, follow, {
        business: 'Café <Ana>',
        title: 'Oat milk is here',
        excerpt: '',
        suggestions: [],
        entryUrl: `${BASE}/f/abc123/changelog/e1`,
        brand,
      }),
    ];
    for (const mail of mails) {
      expect(mail.html).toContain(`<img src="${LOGO_URL}" alt="Café &lt;Ana&gt;" width="128" height="64"`);
      expect(mail.html).toMatch(/<a href="[^"]+" style="color: #1d5e34">/);
    }
  });

  it('When there is no public base URL, then the email has no image (a mail client could not fetch it), only the name', () => {
    const brand = mailBrand(null, 'Café Ana', row);
    expect(brand.logo).toBeNull();
    const mail = confirmationMail(BASE, follow, { business: 'Café Ana', code: 'abc123', suggestionId: 's1', brand });
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('style="color: #1d5e34"');
  });

  it('When the business has no brand, then the email has neither image nor coloured links', () => {
    const brand = mailBrand(BASE, 'Café Ana', { business_id: BUSINESS_ID, brand_color: null, logo: null });
    const mail = confirmationMail(BASE, follow, { business: 'Café Ana', code: 'abc123', suggestionId: 's1', brand });
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('style="color');
  });
});
