import { describe, expect, it } from 'vitest';
import { t } from '../shared/messages.js';
import { confirmationMail, notificationMail } from './follow.mail.js';

const follow = { id: '0190a0a0-0000-7000-8000-000000000001', email: 'ana@example.test', link_key: Buffer.alloc(32, 1) };
const BASE = 'https://feedback.example';

describe('the emails a follower gets', () => {
  it('When a confirmation is written, then its subject, text and HTML are the catalogue’s words, names escaped in the HTML', () => {
    const mail = confirmationMail(BASE, follow, { business: 'Café <Ana>', code: 'abc123', suggestionId: 's1' });
    expect(mail.subject).toBe('Confirm: follow a suggestion to Café <Ana>');
    expect(mail.text).toContain('Someone (hopefully you) asked to be emailed when a suggestion to Café <Ana> moves.');
    expect(mail.text).toContain('The link works for 7 days;');
    expect(mail.text).toContain(`To stop these emails, open ${BASE}/follow/unsubscribe?token=`);
    expect(mail.html).toContain('a suggestion to Café &lt;Ana&gt; moves.');
    expect(mail.html).not.toContain('<Ana>');
    expect(mail.html).toContain('>Confirm and follow</a>');
    expect(mail.html).toContain('>Unsubscribe</a>');
  });

  it('When a notice is written, then the statuses, the quote and the answer are worded by the catalogue', () => {
    const mail = notificationMail(BASE, follow, {
      business: 'Café Ana',
      suggestion: 'Oat milk, please',
      status: { from: 'reviewing', to: 'rejected' },
      reply: { content: 'Not this year.', changed: true },
    });
    expect(mail.subject).toBe('Not planned: your suggestion to Café Ana');
    expect(mail.text.split('\n\n')).toEqual([
      'News from Café Ana about the suggestion you follow:',
      '“Oat milk, please”',
      'Status: Under review → Not planned',
      'Café Ana answered: “Not this year.”',
      '--',
      expect.stringMatching(/^To stop these emails, open https:\/\/feedback\.example\/follow\/unsubscribe\?token=/),
    ]);
  });

  it('When the follower’s language has no catalogue, then the email falls back to English', () => {
    const mail = notificationMail(
      BASE,
      { ...follow, locale: 'xx' },
      { business: 'Café Ana', suggestion: 'Oat milk', reply: { content: 'Yes!', changed: false } },
    );
    expect(mail.subject).toBe(t('mail.follow.notice.subject_reply', { business: 'Café Ana' }));
    expect(mail.text).toContain('Café Ana’s answer: “Yes!”');
  });
});
