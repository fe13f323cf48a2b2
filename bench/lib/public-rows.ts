import sharp from 'sharp';
import { updateBusiness } from '../../src/businesses/business.repository.js';
import { prepareLogo } from '../../src/businesses/logo.image.js';
import { upsertLogo } from '../../src/businesses/logo.repository.js';
import { withClient } from './database.js';
import { alternate, medianOf, medianRatio, type Timing } from './measure.js';
import { timedGetsOf, type LoadResult } from './load.js';
import { round } from './stats.js';
import type { Tenant } from './setup.js';

/**
 * What a visitor types into the page's form, keystroke by keystroke from the third character (the
 * endpoint's minimum): one text near the seed's vocabulary (seed.text.ts), one paraphrase of a seeded
 * request, and one with no near neighbour in the corpus, the finder's slow case (bench/README.md).
 */
const TYPED = [
  'The oat milk latte was cold again this morning',
  'More vegan food please',
  'Could you stock quince jam and elderflower lemonade',
];
export const TYPED_PREFIXES = TYPED.flatMap((text) =>
  Array.from({ length: text.length - 2 }, (_, i) => text.slice(0, i + 3)).filter((q) => !q.endsWith(' ')),
);

/**
 * Turns a seeded business into one with a public face (issues 15, 42 and 43): every suggestion public
 * and shown (the seed makes a quarter public, some awaiting review), none rejected, so that the page,
 * the roadmap's columns and the similar finder read the whole business; its roadmap on (the default),
 * a QR code, and its brand (a colour, so the page links its stylesheet, and a logo, which the page's
 * query joins), set through the repository's own statements: a key may not change the brand.
 */
export async function givePublicFace(baseUrl: string, databaseUrl: string, tenant: Tenant): Promise<{ code: string }> {
  await withClient(databaseUrl, async (client) => {
    await client.query(
      `UPDATE suggestions SET visibility = 'public', review_state = 'not_required',
         status = CASE WHEN status = 'rejected' THEN 'pending' ELSE status END
       WHERE business_id = $1`,
      [tenant.id],
    );
    const logo = await prepareLogo(
      await sharp({ create: { width: 600, height: 200, channels: 3, background: '#1d5e34' } })
        .png()
        .toBuffer(),
    );
    await updateBusiness(client, tenant.id, { brandColor: '#1d5e34', roadmapEnabled: true });
    await upsertLogo(client, tenant.id, logo);
  });
  const res = await fetch(`${baseUrl}/businesses/${tenant.id}/qr-codes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ label: 'Counter' }),
  });
  if (res.status !== 201) throw new Error(`QR code: ${res.status} ${await res.text()}`);
  return (await res.json()) as { code: string };
}

export interface PublicRows {
  /** The service (list cache on). */
  baseUrl: string;
  tenant: Tenant;
  code: string;
  /** The suggestions the business has (all public): the figures' size. */
  suggestions: number;
  connections: number;
  /** The service's pool: the similar finder is loaded with as many connections as it has. */
  poolConnections: number;
  timing: Timing;
}

/** A visitor from Germany: the page and the roadmap in German, with the business's brand. */
const GERMAN = { accept: 'text/html', 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' };

/**
 * The public rows (issues 42 and 43), in turns with the cached `/api/v1` list of the same business:
 * the feedback page and the roadmap page in German with the brand on, `GET /api/v1/roadmap`, and the
 * page's similar-while-typing endpoint, keystroke by keystroke, on as many connections as the pool and
 * on one (a single visitor typing).
 */
export async function measurePublicRows(rows: PublicRows): Promise<Record<string, number>> {
  const { baseUrl, tenant, code, timing } = rows;
  const list = `${baseUrl}/api/v1/suggestions?limit=50`;
  const pageUrl = `${baseUrl}/f/${code}`;
  const roadmapPage = `${pageUrl}/roadmap`;
  const roadmapApi = `${baseUrl}/api/v1/roadmap`;
  const asKey = { 'x-api-key': tenant.key };

  // What each row claims is what it serves: the German, branded page; columns of public suggestions.
  const page = await (await fetch(pageUrl, { headers: GERMAN })).text();
  if (!page.includes('lang="de"') || !page.includes('/brand/1d5e34.') || !page.includes('alt="Public"')) {
    throw new Error('the public page is not the German page with its brand');
  }
  const roadmapHtml = await fetch(roadmapPage, { headers: GERMAN });
  if (roadmapHtml.status !== 200 || !(await roadmapHtml.text()).includes('lang="de"')) {
    throw new Error(`the roadmap page answers ${roadmapHtml.status}, or not in German`);
  }
  const roadmap = (await (await fetch(roadmapApi, { headers: asKey })).json()) as {
    columns: { status: string; total: number; data: unknown[] }[];
  };
  const shown = roadmap.columns.reduce((sum, column) => sum + column.total, 0);
  if (roadmap.columns.length === 0 || roadmap.columns.some((column) => column.data.length === 0)) {
    throw new Error(`the roadmap has an empty column: ${JSON.stringify(roadmap.columns.map((c) => c.total))}`);
  }
  const typing = TYPED_PREFIXES.map(
    (q) => `${baseUrl}/public/suggestions/similar?code=${code}&q=${encodeURIComponent(q)}`,
  );
  const offered = await fetch(typing[0]!);
  if (offered.status !== 200) throw new Error(`the similar endpoint answers ${offered.status}`);

  const get = (url: string, headers: Record<string, string>) => ({
    url,
    connections: rows.connections,
    seconds: 0,
    headers,
  });
  const runs = await alternate(
    {
      list: get(list, asKey),
      page: get(pageUrl, GERMAN),
      roadmap_page: get(roadmapPage, GERMAN),
      roadmap_api: get(roadmapApi, asKey),
      similar: (seconds: number) => timedGetsOf(typing, rows.poolConnections, seconds),
      similar_one: (seconds: number) => timedGetsOf(typing, 1, seconds),
    },
    timing,
  );
  const rps = (r: LoadResult) => r.rps;
  const p50 = (r: LoadResult) => r.p50;
  return {
    public_business_suggestions: rows.suggestions,
    public_roadmap_shown: shown,
    public_page_rps: Math.round(medianOf(runs.page, rps)),
    public_page_p50_ms: medianOf(runs.page, p50),
    public_page_vs_cached_list_throughput_ratio: round(medianRatio(runs.page, runs.list, rps)),
    roadmap_page_rps: Math.round(medianOf(runs.roadmap_page, rps)),
    roadmap_page_vs_cached_list_throughput_ratio: round(medianRatio(runs.roadmap_page, runs.list, rps)),
    roadmap_api_rps: Math.round(medianOf(runs.roadmap_api, rps)),
    roadmap_api_vs_cached_list_throughput_ratio: round(medianRatio(runs.roadmap_api, runs.list, rps)),
    public_list_rps: Math.round(medianOf(runs.list, rps)),
    similar_typing_p50_ms: medianOf(runs.similar, p50),
    similar_typing_p99_ms: medianOf(runs.similar, p99Of),
    similar_typing_one_p50_ms: medianOf(runs.similar_one, p50),
  };
}

const p99Of = (r: LoadResult) => r.p99;
