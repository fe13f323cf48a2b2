import { describe, expect, it } from 'vitest';
import { composeMessage } from './mail.message.js';

const content = {
  subject: 'Join <Bar>\r\nBcc: victim@example.com',
  intro: ['Hello <script>alert(1)</script> & welcome'],
  link: { url: 'https://dash.example/accept-invite#token=fbi_a"b', label: 'Accept' },
  tokenLabel: 'Token:',
  token: 'fbi_abc',
  outro: ['Bye'],
};

describe('composeMessage', () => {
  it('When a name carries line breaks, then the subject stays one line and can add no header', () => {
    expect(composeMessage(content).subject).toBe('Join <Bar> Bcc: victim@example.com');
  });

  it('When text carries markup, then the HTML body escapes it and the text body keeps it as written', () => {
    const { text, html } = composeMessage(content);
    expect(html).toContain('Hello &lt;script&gt;alert(1)&lt;/script&gt; &amp; welcome');
    expect(html).toContain('<a href="https://dash.example/accept-invite#token=fbi_a&quot;b">Accept</a>');
    expect(html).not.toContain('<script>');
    expect(text).toBe(
      'Hello <script>alert(1)</script> & welcome\n\nAccept:\nhttps://dash.example/accept-invite#token=fbi_a"b\n\n' +
        'Token:\nfbi_abc\n\nBye\n',
    );
  });
});
