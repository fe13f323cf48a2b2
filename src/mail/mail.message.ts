export interface MessageContent {
  subject: string;
  /** Plain-text paragraphs before the token; they are escaped for the HTML body. */
  intro: string[];
  /** The dashboard page that takes the token, when DASHBOARD_URL is set. */
  link?: { url: string; label: string };
  /** How to use the token without the dashboard, e.g. "Or send this token to POST /invites/accept:". */
  tokenLabel: string;
  token: string;
  /** Paragraphs after the token: expiry, and what to do if the message was not expected. */
  outro: string[];
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/** A subject is one line: names chosen by users (a business's) cannot add headers or lines. */
const oneLine = (text: string) =>
  text
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .trim()
    .slice(0, 200);

/** The plain-text and the simple HTML body of a message carrying a one-time token. */
export function composeMessage(content: MessageContent): { subject: string; text: string; html: string } {
  const text = [
    ...content.intro,
    ...(content.link ? [`${content.link.label}:\n${content.link.url}`] : []),
    `${content.tokenLabel}\n${content.token}`,
    ...content.outro,
  ].join('\n\n');
  const paragraph = (p: string) => `<p>${escapeHtml(p)}</p>`;
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">',
    ...content.intro.map(paragraph),
    ...(content.link ? [`<p><a href="${escapeHtml(content.link.url)}">${escapeHtml(content.link.label)}</a></p>`] : []),
    paragraph(content.tokenLabel),
    `<p><code style="font-size: 1.1em">${escapeHtml(content.token)}</code></p>`,
    ...content.outro.map(paragraph),
    '</body></html>',
  ].join('\n');
  return { subject: oneLine(content.subject), text: `${text}\n`, html };
}
