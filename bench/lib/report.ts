/**
 * The issues' targets: figure key, bound, and which side of it passes. Issue 20 restated three of
 * issue 8's against floors that include what the design requires: the ratio to bare Express, to COPY
 * and the absolute seed rate are still reported, without a target.
 */
export const TARGETS = {
  import_vs_seed_throughput_ratio: { at_least: 0.5 },
  list_vs_cached_floor_throughput_ratio: { at_least: 0.8 },
  public_page_vs_cached_list_throughput_ratio: { at_least: 1 },
  roadmap_page_vs_cached_list_throughput_ratio: { at_least: 0.8 },
  roadmap_api_vs_cached_list_throughput_ratio: { at_least: 0.8 },
  similar_typing_p50_ms: { at_most: 20 },
  vote_vs_create_throughput_ratio: { at_least: 1 },
  create_vs_write_floor_throughput_ratio: { at_least: 0.8 },
  webhook_lag_p50_ms: { at_most: 100 },
  webhook_lag_slow_neighbour_vs_alone_p50_ratio: { at_most: 2 },
  page_flood_list_beside_vs_alone_p50_ratio: { at_most: 2 },
  export_csv_10k_vs_stack_floor_time_ratio: { at_most: 1.3 },
  embedded_list_vs_pglite_floor_throughput_ratio: { at_least: 0.8 },
  scale_p50_ratio_large_vs_small: { at_most: 2 },
  list_q_common_vs_list_large_p50_ratio: { at_most: 2 },
  list_q_rare_vs_list_large_p50_ratio: { at_most: 2 },
  list_q_two_words_vs_list_large_p50_ratio: { at_most: 2 },
  list_q_prefix_vs_list_large_p50_ratio: { at_most: 2 },
  list_q_relevance_vs_list_large_p50_ratio: { at_most: 2 },
  list_tag_large_vs_list_large_p50_ratio: { at_most: 2 },
  analytics_p50_ratio_large_vs_small: { at_most: 2 },
  similar_large_p50_ms: { at_most: 50 },
  export_csv_10k_rss_growth_mb: { at_most: 40 },
  seed_vs_postgres_ingest_ratio: { at_least: 0.9 },
  business_list_vs_v1_list_throughput_ratio: { at_least: 0.9 },
  business_list_session_vs_v1_list_throughput_ratio: { at_least: 0.9 },
  inbox_vs_business_list_throughput_ratio: { at_least: 0.8 },
  metrics_overhead_ratio: { at_least: 0.95 },
  create_with_idempotency_key_vs_without_throughput_ratio: { at_least: 0.8 },
  create_wal_bytes: { at_most: 2800 },
  vote_wal_bytes: { at_most: 2000 },
  suggestions_indexes: { at_most: 10 },
  create_pg_cpu_vs_before_ratio: { at_most: 0.6 },
  create_one_business_vs_spread_throughput_ratio: { at_least: 0.9 },
} as const;

type Target = { at_least: number } | { at_most: number };

export function targetMet(target: Target, value: number): boolean {
  return 'at_least' in target ? value >= target.at_least : value <= target.at_most;
}

const describe = (target: Target) => ('at_least' in target ? `>= ${target.at_least}` : `<= ${target.at_most}`);

/** The figures of the summary table, in the order, with the unit each is read in. */
const ROWS: [key: string, label: string][] = [
  ['list_vs_bare_express_throughput_ratio', 'list / bare Express throughput'],
  ['list_vs_floor_throughput_ratio', 'list / floor (node:http + pg) throughput'],
  ['list_vs_cached_floor_throughput_ratio', 'list / cached floor (node:http + auth statement) throughput'],
  ['cached_floor_rps', 'cached floor throughput (req/s)'],
  ['list_vs_express_stack_throughput_ratio', 'list / Express stack (same middleware + auth statement) throughput'],
  [
    'express_stack_vs_cached_floor_throughput_ratio',
    'Express stack / cached floor throughput (the ceiling of the cached floor target)',
  ],
  ['list_uncached_vs_bare_express_throughput_ratio', 'list, cache off / bare Express throughput'],
  ['list_uncached_vs_floor_throughput_ratio', 'list, cache off / floor throughput'],
  ['list_rps', 'list throughput (req/s)'],
  ['list_uncached_rps', 'list throughput, cache off (req/s)'],
  ['bare_express_rps', 'bare Express throughput (req/s)'],
  ['floor_rps', 'floor throughput (req/s)'],
  ['list_p50_ms', 'list p50 (ms)'],
  ['business_list_vs_v1_list_throughput_ratio', 'dashboard list by key / /api/v1 list throughput'],
  ['business_list_session_vs_v1_list_throughput_ratio', 'dashboard list by session / /api/v1 list throughput'],
  ['inbox_rps', 'dashboard inbox page, 50 suggestions, by session cookie (req/s)'],
  ['inbox_vs_business_list_throughput_ratio', 'dashboard inbox page / the business list it renders throughput'],
  ['metrics_overhead_ratio', 'list with metrics on / off throughput'],
  [
    'metrics_off_twins_throughput_ratio',
    'two instances without metrics, one / the other throughput (the resolution of the metrics target)',
  ],
  ['list_p99_ms', 'list p99 (ms)'],
  ['list_filtered_p50_ms', 'list status+priority p50 (ms)'],
  ['list_filtered_p99_ms', 'list status+priority p99 (ms)'],
  ['list_sort_priority_p50_ms', 'list sort=priority p50 (ms)'],
  ['list_sort_priority_p99_ms', 'list sort=priority p99 (ms)'],
  ['list_deep_page_p50_ms', 'list page 100 p50 (ms)'],
  ['list_deep_page_p99_ms', 'list page 100 p99 (ms)'],
  ['list_q_p50_ms', 'list q search p50 (ms)'],
  ['list_q_p99_ms', 'list q search p99 (ms)'],
  ['list_q_common_large_p50_ms', 'search "coffee" at the large business p50 (ms)'],
  ['list_q_common_vs_list_large_p50_ratio', 'search "coffee" / plain list p50, large business'],
  ['list_q_rare_large_p50_ms', 'search "quince" (no match) at the large business p50 (ms)'],
  ['list_q_rare_vs_list_large_p50_ratio', 'search "quince" / plain list p50, large business'],
  ['list_q_two_words_large_p50_ms', 'search "coffee friendly" at the large business p50 (ms)'],
  ['list_q_two_words_vs_list_large_p50_ratio', 'search "coffee friendly" / plain list p50, large business'],
  ['list_q_prefix_large_p50_ms', 'search "cof" at the large business p50 (ms)'],
  ['list_q_prefix_vs_list_large_p50_ratio', 'search "cof" / plain list p50, large business'],
  ['list_q_common_floor_p50_ms', 'search "coffee", the statements alone with no HTTP, p50 (ms)'],
  ['list_q_common_vs_floor_p50_ratio', 'search "coffee" / the statements alone p50'],
  [
    'list_q_common_floor_vs_list_large_floor_p50_ratio',
    'the statements alone: search "coffee" / plain list p50 (the ceiling of the 2x targets)',
  ],
  ['list_q_relevance_large_p50_ms', 'search "coffee", sort=relevance, large business p50 (ms)'],
  ['list_q_relevance_vs_list_large_p50_ratio', 'search "coffee" by relevance / plain list p50, large business'],
  ['similar_large_p50_ms', 'likely duplicates (GET .../suggestions/{id}/similar), large business p50 (ms)'],
  ['list_tag_large_p50_ms', 'list filtered by one tag (1 in 20) at the large business p50 (ms)'],
  ['list_tag_large_vs_list_large_p50_ratio', 'list filtered by one tag / plain list p50, large business'],
  ['scale_p50_ratio_large_vs_small', 'list p50, large / small business'],
  ['inbox_large_p50_ms', 'dashboard inbox, caches off, large business p50 (ms)'],
  ['inbox_large_vs_list_large_p50_ratio', 'dashboard inbox / list p50, caches off, large business'],
  ['analytics_p50_ratio_large_vs_small', 'analytics p50, large / small business'],
  ['create_throughput_rps', 'create throughput (req/s)'],
  ['write_floor_rps', 'write floor: the same create statements on node:http + pg (req/s)'],
  ['create_vs_write_floor_throughput_ratio', 'create / write floor throughput'],
  ['write_stack_rps', 'Express stack: the same create under the service middleware (req/s)'],
  [
    'write_stack_vs_write_floor_throughput_ratio',
    'Express stack / write floor throughput (the ceiling of the create target)',
  ],
  ['create_vs_write_stack_throughput_ratio', 'create / Express stack throughput'],
  ['public_business_suggestions', 'the public business: suggestions, all public (issues 42, 43)'],
  ['public_roadmap_shown', 'of which in its roadmap columns (totals)'],
  ['public_list_rps', 'its cached /api/v1 list (req/s)'],
  ['public_page_rps', 'public page, German, brand on (req/s)'],
  ['public_page_p50_ms', 'public page p50 (ms)'],
  ['public_page_vs_cached_list_throughput_ratio', 'public page, German, brand on / cached /api/v1 list throughput'],
  ['roadmap_page_rps', 'roadmap page, German, brand on (req/s)'],
  ['roadmap_page_vs_cached_list_throughput_ratio', 'roadmap page / cached /api/v1 list throughput'],
  ['roadmap_api_rps', 'GET /api/v1/roadmap (req/s)'],
  ['roadmap_api_vs_cached_list_throughput_ratio', 'GET /api/v1/roadmap / cached /api/v1 list throughput'],
  [
    'similar_typing_p50_ms',
    'similar while typing (GET /public/suggestions/similar, each keystroke), pool connections, p50 (ms)',
  ],
  ['similar_typing_p99_ms', 'similar while typing, pool connections, p99 (ms)'],
  ['similar_typing_one_p50_ms', 'similar while typing, one visitor alone, p50 (ms)'],
  ['vote_rps', "votes from distinct voters on a page's 20 suggestions (req/s)"],
  ['vote_vs_create_throughput_ratio', 'votes / creates throughput (the same client)'],
  [
    'vote_vs_create_statements_throughput_ratio',
    'votes / creates as statements alone, no HTTP (the ceiling of the votes target)',
  ],
  ['vote_hot_rps', 'votes from distinct voters all on one suggestion (req/s)'],
  ['vote_hot_vs_create_throughput_ratio', 'votes on one suggestion / creates throughput'],
  ['create_with_webhook_rps', 'create throughput with a webhook endpoint subscribed (req/s)'],
  ['webhook_lag_p50_ms', 'webhook: event written to receipt p50 (ms), creates at 80% of that'],
  ['webhook_lag_p99_ms', 'webhook: event written to receipt p99 (ms)'],
  ['webhook_lag_slow_neighbour_p50_ms', 'webhook: the same p50 (ms) beside a business whose 50 endpoints time out'],
  ['webhook_lag_slow_neighbour_vs_alone_p50_ratio', 'webhook: p50 beside the slow neighbour / alone'],
  ['webhook_backlog_growth', 'webhook deliveries still due at the end / creates'],
  ['page_flood_list_alone_p50_ms', "page flood: another business's /api/v1 list p50 (ms), 4 connections, alone"],
  ['page_flood_list_beside_p50_ms', 'page flood: the same p50 (ms) while one business floods its suggestion pages'],
  ['page_flood_list_beside_vs_alone_p50_ratio', 'page flood: list p50 beside the flood / alone (business share on)'],
  ['page_flood_pages_rps', "page flood: the flooder's pages served (req/s, 50 connections)"],
  ['page_flood_unshared_list_beside_p50_ms', 'page flood, business share raised: list p50 (ms) beside the flood'],
  ['page_flood_unshared_list_beside_vs_alone_p50_ratio', 'page flood, business share raised: list p50 beside / alone'],
  ['page_flood_unshared_pages_rps', "page flood, business share raised: the flooder's pages (req/s)"],
  ['webhook_load_cpu_idle_share', "webhook: the machine's CPU left idle during that load (all cores)"],
  ['create_wal_bytes', 'WAL bytes per create, the median of a sequential pass (lib/write-work.ts)'],
  ['before_create_wal_bytes', 'the same on the schema before issue 41 (migrations up to 0031)'],
  ['create_wal_mean_bytes', 'WAL bytes per create, the mean of the pass (full-page images and page splits in)'],
  ['vote_wal_bytes', 'WAL bytes per vote, the median of a sequential pass'],
  ['before_vote_wal_bytes', 'the same on the schema before issue 41'],
  ['vote_wal_mean_bytes', 'WAL bytes per vote, the mean of the pass'],
  ['create_pg_cpu_ms', 'PostgreSQL CPU ms per create (its backend, from /proc)'],
  ['before_create_pg_cpu_ms', 'the same on the schema before issue 41'],
  ['create_pg_cpu_vs_before_ratio', 'PostgreSQL CPU per create, now / before issue 41 (alternating rounds)'],
  ['vote_pg_cpu_ms', 'PostgreSQL CPU ms per vote (its backend, from /proc)'],
  ['before_vote_pg_cpu_ms', 'the same on the schema before issue 41'],
  ['create_node_cpu_ms', 'Node CPU ms per create (the service code and pg, no HTTP)'],
  ['vote_node_cpu_ms', 'Node CPU ms per vote (the service code and pg, no HTTP)'],
  ['create_statements', 'statements executed per create, nested ones in (auto_explain)'],
  ['before_create_statements', 'the same on the schema before issue 41'],
  ['vote_statements', 'statements executed per vote, nested ones in'],
  ['before_vote_statements', 'the same on the schema before issue 41'],
  ['suggestions_indexes', 'indexes on suggestions'],
  [
    'create_one_business_vs_spread_throughput_ratio',
    'creates from 50 connections in one business / spread over 50 businesses throughput',
  ],
  ['before_create_one_business_vs_spread_throughput_ratio', 'the same on the schema before issue 41'],
  ['import_vs_seed_throughput_ratio', 'CSV import of 100,000 suggestions / the seed of as many, rows per second'],
  ['import_rows_per_second', 'CSV import (rows/s)'],
  ['seed_rows_per_second', 'seed (rows/s)'],
  ['create_with_idempotency_key_throughput_rps', 'create with an Idempotency-Key (req/s)'],
  ['create_with_idempotency_key_vs_without_throughput_ratio', 'create with / without an Idempotency-Key'],
  [
    'write_floor_keyed_vs_plain_throughput_ratio',
    'write floor with / without an Idempotency-Key (the ceiling of the keyed target)',
  ],
  [
    'replica_reads_create_vs_primary_reads_create_throughput_ratio',
    'creates while 10 clients export and read analytics: reads on a replica / on the primary (one machine)',
  ],
  ['create_with_replica_reads_rps', 'creates beside those reads, on a replica (req/s)'],
  ['create_with_primary_reads_rps', 'creates beside those reads, on the primary (req/s)'],
  ['replica_reads_export_rps', '10k-row CSV exports meanwhile, on the replica (req/s)'],
  ['primary_reads_export_rps', '10k-row CSV exports meanwhile, on the primary (req/s)'],
  ['replica_reads_analytics_rps', 'analytics overviews meanwhile, on the replica (req/s)'],
  ['primary_reads_analytics_rps', 'analytics overviews meanwhile, on the primary (req/s)'],
  ['replica_reads_share', 'share of those reads the replica answered (the rest fell back)'],
  ['export_csv_10k_vs_copy_time_ratio', '10k-row CSV export / COPY time'],
  ['export_csv_10k_vs_stack_floor_time_ratio', '10k-row CSV export / same stack without HTTP time'],
  ['export_csv_10k_ms', '10k-row CSV export (ms)'],
  ['export_stack_floor_10k_ms', 'same SQL, pg cursor and csv-stringify, no HTTP (ms)'],
  ['copy_csv_10k_ms', 'COPY of the same rows (ms)'],
  ['export_csv_10k_rss_growth_mb', 'export peak RSS growth (MB)'],
  ['export_encode_10k_ms', 'CSV encoding alone of the same rows (ms)'],
  ['export_encode_10k_vs_copy_time_ratio', 'CSV encoding alone / COPY time'],
  ['embedded_vs_postgres_list_throughput_ratio', 'list on embedded / on PostgreSQL, cache off'],
  ['embedded_list_rps', 'list on embedded, cache off (req/s)'],
  ['embedded_vs_postgres_cached_list_throughput_ratio', 'list on embedded / on PostgreSQL, cache on'],
  ['embedded_cached_list_rps', 'list on embedded, cache on (req/s)'],
  ['embedded_event_loop_max_stall_ms', 'embedded, cache off: longest event-loop stall under load (ms)'],
  ['embedded_event_loop_p99_ms', 'embedded, cache off: event-loop delay p99 under load (ms)'],
  ['pglite_list_floor_rps', 'PGlite running the list statements in a loop (lists/s)'],
  ['embedded_list_vs_pglite_floor_throughput_ratio', 'list on embedded / PGlite floor throughput'],
  ['embedded_http_floor_rps', 'raw node:http floor on PGlite, same statements (req/s)'],
  ['embedded_http_floor_vs_pglite_floor_throughput_ratio', 'raw node:http floor on PGlite / PGlite floor throughput'],
  ['embedded_list_vs_http_floor_throughput_ratio', 'list on embedded / raw node:http floor on PGlite throughput'],
  [
    'embedded_list_vs_pglite_floor_ceiling_ratio',
    'PGlite floor / (node:http floor on PGlite + what the stack adds on PostgreSQL), per list (the ceiling of the embedded target)',
  ],
  ['stack_adds_to_uncached_list_ms', 'what the stack adds to the list statements, per list on PostgreSQL (ms)'],
  ['seed_rows_per_second', 'seed command (rows/s, PostgreSQL)'],
  ['postgres_ingest_rows_per_second', 'PostgreSQL alone, rows made in the server (rows/s)'],
  ['seed_vs_postgres_ingest_ratio', 'seed command / PostgreSQL alone'],
];

interface Machine {
  cores: number;
  memory_gb: number;
  node: string;
  postgres: string;
  load_average_at_start: number[];
}

/** A Markdown table of every figure, its target and whether it is met: the table in bench/README.md. */
/** The table of every figure `results` has, in the issues' order, with its target and verdict. */
export function figureTable(results: Record<string, unknown>): string[] {
  const lines = ['| Figure | Key | Value | Target |', '| --- | --- | ---: | --- |'];
  for (const [key, label] of ROWS) {
    const value = results[key];
    if (typeof value !== 'number') continue;
    const target = (TARGETS as Record<string, Target | undefined>)[key];
    const verdict = target ? `${describe(target)} ${targetMet(target, value) ? 'met' : '**missed**'}` : '';
    lines.push(`| ${label} | \`${key}\` | ${value} | ${verdict} |`);
  }
  return lines;
}

export function summaryTable(results: Record<string, unknown>): string {
  const machine = results.machine as Machine;
  const lines = [
    `${results.mode as string} run of ${results.generated_at as string} (commit ${results.commit as string}): ` +
      `${machine.cores} cores, ${machine.memory_gb} GB, Node ${machine.node}, PostgreSQL ${machine.postgres}, ` +
      `load average ${machine.load_average_at_start.join(' / ')} at the start.`,
    '',
    ...figureTable(results),
  ];
  const runtimes = results.runtimes as Record<string, string | number> | undefined;
  if (runtimes) {
    lines.push(
      '',
      `| The service on | list (req/s) | list, cache off | creates/s | public page |`,
      '| --- | ---: | ---: | ---: | ---: |',
    );
    for (const [name, prefix] of [
      ['this', ''],
      ['node24', 'node24_'],
    ] as const) {
      const figures = ['list', 'list_uncached', 'create', 'page'].map((figure) => runtimes[`${prefix}${figure}_rps`]);
      lines.push(`| Node ${runtimes[name]} | ${figures.join(' | ')} |`);
    }
  }
  return lines.join('\n');
}

export function targetsSummary(results: Record<string, unknown>) {
  return Object.fromEntries(
    Object.entries(TARGETS).map(([key, target]) => {
      const value = results[key] as number;
      return [key, { ...target, value, met: targetMet(target, value) }];
    }),
  );
}
