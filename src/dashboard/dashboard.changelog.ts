import express, { Router, type Request, type Response } from 'express';
import { changelogFeature } from '../changelog/changelog.routes.js';
import { idParam } from '../http/params.js';
import { operation } from '../http/operations.js';
import type { Services } from '../http/route.js';
import { renderMarkdown } from '../shared/markdown.js';
import { t } from '../shared/messages.js';
import { suggestionBusinessRoutes } from '../suggestions/suggestion.routes.js';
import { memberFrame, memberOf, requireMember, type SignedInMember } from './dashboard.access.js';
import { assertMayRun, mayRun, mountForm, replyBody, type FormAction, type PageCall } from './dashboard.actions.js';
import { formFields, formList, runsOperations } from './dashboard.forms.js';
import { assertFormPost, BASE_PATH } from './dashboard.session.js';
import { sendView, when, type FieldErrors } from './dashboard.views.js';

export const CHANGELOG = {
  list: operation(changelogFeature, 'listBusinessChangelog'),
  get: operation(changelogFeature, 'getBusinessChangelogEntry'),
  create: operation(changelogFeature, 'createBusinessChangelogEntry'),
  change: operation(changelogFeature, 'updateChangelogEntry'),
  remove: operation(changelogFeature, 'deleteChangelogEntry'),
  publish: operation(changelogFeature, 'publishChangelogEntry'),
};
const SUGGESTIONS = {
  list: operation(suggestionBusinessRoutes, 'listBusinessSuggestions'),
  get: operation(suggestionBusinessRoutes, 'getBusinessSuggestion'),
};

interface Entry {
  id: string;
  title: string;
  body: string;
  body_html: string;
  suggestion_ids: string[];
  published_at: string | null;
  updated_at: string;
}
interface Suggestion {
  id: string;
  content: string;
  status: string;
  upvote_count: number;
}

const LABELS = {
  title: 'app.changelog.field.title',
  body: 'app.changelog.field.body',
  suggestion_ids: 'app.changelog.field.suggestion_ids',
};
/** What a post's redirect says happened: a catalogue key, never text from the address. */
const SAVED = new Set(['added', 'changed', 'published', 'deleted']);
/** How many suggestions the picker offers beside the ones already linked. */
const OFFERED = 20;

/**
 * An entry's Markdown (20,000 characters, more bytes once encoded) and up to 50 suggestion boxes do not
 * fit the dashboard's small form parser: this one takes them, and no more.
 */
const parser = express.urlencoded({ extended: false, limit: '256kb', parameterLimit: 80 });

const path = '/b/:business_id/changelog';
const base = (who: SignedInMember) => `${BASE_PATH}/b/${who.principal.businessId}/changelog`;

/** The editor's fields as sent: the title, the Markdown, the search for suggestions and the linked ones. */
interface Draft {
  title: string;
  body: string;
  q: string;
  suggestion_ids: string[];
}

const draftOf = (req: Request): Draft => {
  const fields = formFields(req);
  return {
    title: fields.title ?? '',
    body: fields.body ?? '',
    q: (fields.q ?? '').trim(),
    suggestion_ids: [...new Set(formList(req, 'suggestion_ids').map((id) => id.toLowerCase()))],
  };
};

/** The linked suggestions as the business's reads show them (one gone since is left out), then the search's. */
async function pickable(services: Services, who: SignedInMember, linked: string[], q: string) {
  const found = await Promise.all(
    linked.map((id) =>
      SUGGESTIONS.get
        .invoke(services, who.principal, { params: { id } })
        .then((reply) => replyBody<Suggestion>(reply))
        .catch(() => undefined),
    ),
  );
  const query = { limit: String(OFFERED), ...(q ? { q } : {}) };
  const listed = replyBody<{ data: Suggestion[] }>(await SUGGESTIONS.list.invoke(services, who.principal, { query }));
  const chosen = found.filter((s): s is Suggestion => s !== undefined);
  const offered = listed.data.filter((s) => !linked.includes(s.id));
  const shown = (s: Suggestion, checked: boolean) => ({
    id: s.id,
    content: s.content.length > 140 ? `${s.content.slice(0, 139)}…` : s.content,
    status: t(`app.analytics.label.${s.status}`),
    votes: s.upvote_count,
    checked,
  });
  return [...chosen.map((s) => shown(s, true)), ...offered.map((s) => shown(s, false))];
}

interface EditorState {
  status?: number;
  entry?: Entry;
  draft: Draft;
  errors?: FieldErrors;
  /** The Markdown rendered as the page will show it: the stored one, or the preview's. */
  preview?: string;
  saved?: string;
}

async function showEditor(services: Services, res: Response, who: SignedInMember, state: EditorState) {
  const { entry, draft } = state;
  const title = entry ? t('app.changelog.edit.title', { title: entry.title }) : t('app.changelog.new.title');
  const writer = mayRun(who.principal, CHANGELOG.create);
  sendView(res, state.status ?? 200, 'changelog-editor', {
    ...memberFrame(who, title, 'changelog'),
    heading: title,
    entry: entry && {
      id: entry.id,
      published: entry.published_at !== null,
      published_at: when(entry.published_at ? new Date(entry.published_at) : null),
    },
    draft,
    errors: state.errors ?? {},
    preview: state.preview,
    saved: state.saved,
    writer,
    suggestions: writer ? await pickable(services, who, draft.suggestion_ids, draft.q) : [],
  });
}

const entryDraft = (entry: Entry): Draft => ({
  title: entry.title,
  body: entry.body,
  q: '',
  suggestion_ids: entry.suggestion_ids,
});

const readEntry = async (services: Services, who: SignedInMember, id: string) =>
  replyBody<Entry>(await CHANGELOG.get.invoke(services, who.principal, { params: { id } }));

const savedOf = (req: Request) =>
  typeof req.query.saved === 'string' && SAVED.has(req.query.saved)
    ? t(`app.changelog.saved.${req.query.saved}`)
    : undefined;

/** The editor's body as the operations read it. */
const entryBody = (_fields: Record<string, string>, { req }: PageCall) => {
  const { title, body, suggestion_ids } = draftOf(req);
  return { title, body, suggestion_ids };
};

/** A refused entry: the editor again, with what was sent, its preview and the fields marked. */
const again =
  (editing: boolean) =>
  async ({ req, res, who, services }: PageCall, { status, errors }: { status: number; errors: FieldErrors }) => {
    const draft = draftOf(req);
    const entry = editing ? await readEntry(services, who, idParam(req.params.id, 'Changelog entry')) : undefined;
    await showEditor(services, res, who, { status, entry, draft, errors, preview: renderMarkdown(draft.body) });
  };

const to = (who: SignedInMember, where: string, saved: string) => `${base(who)}${where}?saved=${saved}`;

/**
 * The dashboard's Changelog (docs/roadmap.md): every form runs the entries' declared operations, so who
 * may write, publish and delete (`write`: owners and admins) and what an entry may hold are decided there.
 */
export const CHANGELOG_FORMS: FormAction[] = [
  {
    path,
    runs: CHANGELOG.create,
    parser,
    labels: LABELS,
    body: entryBody,
    done: ({ who }, reply) => to(who, `/${replyBody<Entry>(reply).id}`, 'added'),
    again: again(false),
  },
  {
    path: `${path}/:id`,
    runs: CHANGELOG.change,
    parser,
    labels: LABELS,
    body: entryBody,
    done: ({ who, req }) => to(who, `/${String(req.params.id).toLowerCase()}`, 'changed'),
    again: again(true),
  },
  {
    path: `${path}/:id/publish`,
    runs: CHANGELOG.publish,
    body: (fields) => ({
      complete_suggestions: fields.complete_suggestions === 'true',
      notify_followers: fields.notify_followers === 'true',
    }),
    done: ({ who, req }) => to(who, `/${String(req.params.id).toLowerCase()}`, 'published'),
  },
  { path: `${path}/:id/delete`, runs: CHANGELOG.remove, done: ({ who }) => to(who, '', 'deleted') },
];

export function changelogPages(services: Services): Router {
  const router = Router();
  router.get(path, requireMember(services), async (req, res) => {
    const who = memberOf(res);
    const listed = replyBody<{ data: Entry[] }>(
      await CHANGELOG.list.invoke(services, who.principal, { query: { limit: '100' } }),
    );
    sendView(res, 200, 'changelog-list', {
      ...memberFrame(who, t('app.changelog.title'), 'changelog'),
      entries: listed.data.map((entry) => ({
        id: entry.id,
        title: entry.title,
        published_at: when(entry.published_at ? new Date(entry.published_at) : null),
        linked: entry.suggestion_ids.length,
      })),
      writer: mayRun(who.principal, CHANGELOG.create),
      saved: savedOf(req),
    });
  });
  router.get(`${path}/new`, requireMember(services), async (_req, res) => {
    const who = memberOf(res);
    assertMayRun(who.principal, CHANGELOG.create);
    await showEditor(services, res, who, { draft: { title: '', body: '', q: '', suggestion_ids: [] } });
  });
  // The preview (and the suggestions' search) re-renders the editor with what was typed and saves nothing:
  // a button of the same form, so it works without JavaScript.
  const preview = (editing: boolean) =>
    async function (req: Request, res: Response) {
      const who = memberOf(res);
      assertFormPost(req, services, who.token);
      assertMayRun(who.principal, editing ? CHANGELOG.change : CHANGELOG.create);
      const entry = editing ? await readEntry(services, who, idParam(req.params.id, 'Changelog entry')) : undefined;
      const draft = draftOf(req);
      await showEditor(services, res, who, { entry, draft, preview: renderMarkdown(draft.body) });
    };
  // It saves nothing: it names the operation whose access it checks and whose form it shows.
  router.post(`${path}/preview`, requireMember(services), parser, runsOperations(preview(false), CHANGELOG.create));
  router.post(`${path}/:id/preview`, requireMember(services), parser, runsOperations(preview(true), CHANGELOG.change));
  router.get(`${path}/:id`, requireMember(services), async (req, res) => {
    const who = memberOf(res);
    const entry = await readEntry(services, who, idParam(req.params.id, 'Changelog entry'));
    await showEditor(services, res, who, {
      entry,
      draft: entryDraft(entry),
      preview: entry.body_html,
      saved: savedOf(req),
    });
  });
  // Deleting an entry takes it off the page and the feed: the page asks first, as for a tag.
  router.get(`${path}/:id/delete`, requireMember(services), async (req, res) => {
    const who = memberOf(res);
    assertMayRun(who.principal, CHANGELOG.remove);
    const entry = await readEntry(services, who, idParam(req.params.id, 'Changelog entry'));
    sendView(res, 200, 'changelog-delete', {
      ...memberFrame(who, t('app.changelog.delete.title'), 'changelog'),
      entry: { id: entry.id, title: entry.title, published: entry.published_at !== null },
    });
  });
  for (const action of CHANGELOG_FORMS) mountForm(router, services, action);
  return router;
}
