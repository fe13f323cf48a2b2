import MarkdownIt from 'markdown-it';

/** The link schemes an entry's Markdown may use: every other (javascript:, data:, vbscript:...) is left as text. */
const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/**
 * Markdown as the changelog shows it: headings, lists, emphasis, code, quotes and links. Raw HTML is
 * never passed through (`html: false` escapes it as text), and a link whose scheme is not http, https
 * or mailto is not made a link at all (`validateLink`: markdown-it then shows the source as text).
 * Relative links are refused too: an entry is read on the page, in a feed reader and in an email,
 * where a relative address would lead somewhere else each time.
 */
const markdown = new MarkdownIt('commonmark', { html: false, linkify: false, typographer: false });
markdown.validateLink = (url: string): boolean => {
  try {
    return LINK_SCHEMES.has(new URL(url.trim()).protocol);
  } catch {
    return false;
  }
};
// Images would load from anywhere (a tracking pixel in every reader's feed): the page's CSP refuses them anyway.
markdown.disable(['image']);

// Links leave the page: no referrer, no opener, no search-engine credit for whatever a body links to.
const renderLinkOpen = markdown.renderer.rules.link_open;
markdown.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]!.attrSet('rel', 'nofollow noopener noreferrer');
  return renderLinkOpen ? renderLinkOpen(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
};

/** An entry's body as HTML safe to put in a page, a feed's content and an email. */
export const renderMarkdown = (body: string): string => markdown.render(body);

/** The body as one line of plain text (an email's excerpt, a feed's summary): the rendered text, tags dropped. */
export function plainText(body: string, max: number): string {
  const text = markdown
    .render(body)
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
