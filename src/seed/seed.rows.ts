import type { IssueStatus, Priority, Sentiment, SuggestionStatus, Visibility } from '../shared/schemas.js';
import type { ReviewState } from '../suggestions/suggestion.repository.js';
import { chance, pick, seedId, weighted, type Random } from './seed.random.js';
import {
  COMMENTS,
  EMAIL_DOMAINS,
  FIRST_NAMES,
  ISSUE_DETAILS,
  ISSUE_TITLES,
  LAST_NAMES,
  suggestionTexts,
} from './seed.text.js';

/** What generated rows may refer to, and the clock they are generated against. */
export interface SeedContext {
  random: Random;
  /** Epoch ms: every timestamp is at or before it. */
  now: number;
  /** Creation times spread over this many ms before `now`. */
  spanMs: number;
  memberIds: readonly string[];
  locationIds: readonly string[];
  approvalRequired: boolean;
}

/** A batch as one array per column, ready for INSERT ... SELECT FROM unnest(...). Times are epoch ms. */
export interface SuggestionBatch {
  id: string[];
  content: string[];
  status: SuggestionStatus[];
  priority: Priority[];
  sentiment: Sentiment[];
  sentimentScore: number[];
  customerName: (string | null)[];
  customerEmail: (string | null)[];
  isAnonymous: boolean[];
  upvoteCount: number[];
  visibility: Visibility[];
  reviewState: ReviewState[];
  locationId: (string | null)[];
  createdAt: number[];
  updatedAt: number[];
}

export interface IssueBatch {
  id: string[];
  title: string[];
  description: string[];
  status: IssueStatus[];
  priority: Priority[];
  assigneeId: (string | null)[];
  customerName: (string | null)[];
  customerEmail: (string | null)[];
  isAnonymous: boolean[];
  locationId: (string | null)[];
  resolvedAt: (number | null)[];
  createdAt: number[];
  updatedAt: number[];
}

export interface CommentParent {
  entityType: 'suggestion' | 'issue';
  entityId: string;
  createdAt: number;
}

export interface CommentBatch {
  id: string[];
  entityType: ('suggestion' | 'issue')[];
  entityId: string[];
  content: string[];
  authorId: string[];
  createdAt: number[];
}

const DAY_MS = 86_400_000;
const ascii = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
/** Names with their e-mail spelling (no accents, lower case), worked out once. */
const FIRST = FIRST_NAMES.map((name) => [name, ascii(name)] as const);
const LAST = LAST_NAMES.map((name) => [name, ascii(name)] as const);

const customerKind = weighted({ anonymous: 35, both: 40, name: 15, email: 10 });

function customer(random: Random): { name: string | null; email: string | null } {
  const [first, firstAscii] = pick(random, FIRST);
  const [last, lastAscii] = pick(random, LAST);
  const name = `${first} ${last}`;
  const email = `${firstAscii}.${lastAscii}${Math.floor(random() * 1000)}@${pick(random, EMAIL_DOMAINS)}`;
  switch (customerKind(random)) {
    case 'anonymous':
      return { name: null, email: null };
    case 'both':
      return { name, email };
    case 'name':
      return { name, email: null };
    case 'email':
      return { name: null, email };
  }
}

/**
 * Row `index` of `total`: creations spread evenly over the span, oldest first, with jitter. Ascending
 * times also keep the (business_id, created_at) indexes appending at their right edge.
 */
const createdAt = (ctx: SeedContext, index: number, total: number) =>
  Math.floor(ctx.now - ctx.spanMs + ((index + ctx.random()) * ctx.spanMs) / total);

/** A later time, at most `maxMs` after `from` and never after now. */
const laterThan = (ctx: SeedContext, from: number, maxMs: number) =>
  from + Math.floor(ctx.random() * Math.min(maxMs, ctx.now - from));

/** Pickers whose weights follow the age of a row, `age` from 0 (now) to 1 (the span ago), in 24 steps. */
function byAge<K extends string>(weightsAt: (age: number) => Record<K, number>) {
  const steps = Array.from({ length: 24 }, (_, i) => weighted(weightsAt((i + 0.5) / 24)));
  return (random: Random, age: number): K => steps[Math.min(23, Math.max(0, Math.floor(age * 24)))]!(random);
}

/** Old feedback has mostly been dealt with; recent feedback mostly waits. */
const suggestionStatus = byAge<SuggestionStatus>((age) => ({
  pending: 5 + 60 * (1 - age),
  reviewing: 15,
  in_progress: 12,
  completed: 8 + 45 * age,
  rejected: 4 + 15 * age,
}));

const priority = weighted<Priority>({ low: 30, medium: 45, high: 18, critical: 7 });
const urgentPriority = weighted<Priority>({ low: 10, medium: 35, high: 35, critical: 20 });
const mood = weighted({ praise: 35, complaint: 25, mixed: 10, request: 30 });
const review = weighted<Exclude<ReviewState, 'not_required'>>({ approved: 70, pending: 20, rejected: 10 });

export function suggestionBatch(ctx: SeedContext, from: number, count: number, total: number): SuggestionBatch {
  const { random } = ctx;
  const texts = suggestionTexts();
  const batch: SuggestionBatch = {
    id: [],
    content: [],
    status: [],
    priority: [],
    sentiment: [],
    sentimentScore: [],
    customerName: [],
    customerEmail: [],
    isAnonymous: [],
    upvoteCount: [],
    visibility: [],
    reviewState: [],
    locationId: [],
    createdAt: [],
    updatedAt: [],
  };
  for (let i = from; i < from + count; i++) {
    const created = createdAt(ctx, i, total);
    const age = (ctx.now - created) / ctx.spanMs;
    const text = pick(random, texts[mood(random)]);
    const status = suggestionStatus(random, age);
    const { name, email } = customer(random);
    const visibility: Visibility = chance(random, 0.25) ? 'public' : 'internal';
    const reviewState: ReviewState = visibility === 'public' && ctx.approvalRequired ? review(random) : 'not_required';
    batch.id.push(seedId());
    batch.content.push(text.text);
    batch.status.push(status);
    batch.priority.push(text.sentiment === 'negative' ? urgentPriority(random) : priority(random));
    batch.sentiment.push(text.sentiment);
    batch.sentimentScore.push(text.score);
    batch.customerName.push(name);
    batch.customerEmail.push(email);
    batch.isAnonymous.push(name === null && email === null);
    batch.upvoteCount.push(Math.floor(random() ** 3 * (visibility === 'public' ? 80 : 5)));
    batch.visibility.push(visibility);
    batch.reviewState.push(reviewState);
    batch.locationId.push(ctx.locationIds.length > 0 && chance(random, 0.8) ? pick(random, ctx.locationIds) : null);
    batch.createdAt.push(created);
    batch.updatedAt.push(status === 'pending' ? created : laterThan(ctx, created, 30 * DAY_MS));
  }
  return batch;
}

const issueStatus = byAge<IssueStatus>((age) => ({
  open: 5 + 40 * (1 - age),
  assigned: 5 + 15 * (1 - age),
  in_progress: 5 + 15 * (1 - age),
  resolved: 10 + 40 * age,
  closed: 5 + 30 * age,
}));

export function issueBatch(ctx: SeedContext, from: number, count: number, total: number): IssueBatch {
  const { random } = ctx;
  const batch: IssueBatch = {
    id: [],
    title: [],
    description: [],
    status: [],
    priority: [],
    assigneeId: [],
    customerName: [],
    customerEmail: [],
    isAnonymous: [],
    locationId: [],
    resolvedAt: [],
    createdAt: [],
    updatedAt: [],
  };
  for (let i = from; i < from + count; i++) {
    const created = createdAt(ctx, i, total);
    const status = issueStatus(random, (ctx.now - created) / ctx.spanMs);
    // the rules of issue-state.ts: open means unassigned, assigned and in progress have someone
    const assignee =
      status === 'open' || ctx.memberIds.length === 0 || (status !== 'assigned' && chance(random, 0.15))
        ? null
        : pick(random, ctx.memberIds);
    const resolved = status === 'resolved' || status === 'closed' ? laterThan(ctx, created, 14 * DAY_MS) : null;
    const { name, email } = customer(random);
    const details = [pick(random, ISSUE_DETAILS), pick(random, ISSUE_DETAILS)];
    batch.id.push(seedId());
    batch.title.push(pick(random, ISSUE_TITLES));
    batch.description.push(details.slice(0, Math.floor(random() * 3)).join(' '));
    batch.status.push(status === 'assigned' && assignee === null ? 'open' : status);
    batch.priority.push(urgentPriority(random));
    batch.assigneeId.push(assignee);
    batch.customerName.push(name);
    batch.customerEmail.push(email);
    batch.isAnonymous.push(name === null && email === null);
    batch.locationId.push(ctx.locationIds.length > 0 && chance(random, 0.8) ? pick(random, ctx.locationIds) : null);
    batch.resolvedAt.push(resolved);
    batch.createdAt.push(created);
    batch.updatedAt.push(resolved ?? (status === 'open' ? created : laterThan(ctx, created, 7 * DAY_MS)));
  }
  return batch;
}

/** Comments by members of the business, each written after its parent, within two weeks. */
export function commentBatch(ctx: SeedContext, parents: readonly CommentParent[]): CommentBatch {
  const { random } = ctx;
  const batch: CommentBatch = { id: [], entityType: [], entityId: [], content: [], authorId: [], createdAt: [] };
  for (const parent of parents) {
    batch.id.push(seedId());
    batch.entityType.push(parent.entityType);
    batch.entityId.push(parent.entityId);
    batch.content.push(pick(random, COMMENTS));
    batch.authorId.push(pick(random, ctx.memberIds));
    batch.createdAt.push(laterThan(ctx, parent.createdAt, 14 * DAY_MS));
  }
  return batch;
}
