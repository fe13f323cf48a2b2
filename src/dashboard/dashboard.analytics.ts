import { Router } from 'express';
import { analyticsOverview, createdPerWeek } from '../analytics/analytics.service.js';
import { authorize } from '../auth/authorize.js';
import type { Services } from '../http/route.js';
import { messagesFor } from '../shared/messages.js';
import { SENTIMENTS, SUGGESTION_STATUSES } from '../shared/schemas.js';
import { memberFrame, memberOf, requireMember } from './dashboard.access.js';
import { sendView } from './dashboard.views.js';

const WEEKS = 12;
/** The per-location chart's period: the overview's (analytics.service.ts). */
const PAGE_DAYS = 30;
/** The series' fills: dark enough against white to tell apart (3:1 at least) without the table. */
const FILLS = ['#1f5fa8', '#b3541e'];

/** A chart's drawing: a label per group, one value per series, everything sized here. */
export interface BarChart {
  id: string;
  title: string;
  /** What the table's first column holds. */
  groupLabel: string;
  series: { name: string; fill: string }[];
  groups: { label: string; values: number[] }[];
}

const WIDTH = 640;
const HEIGHT = 240;
const PLOT = { left: 40, right: 10, top: 10, bottom: 40 };

/**
 * A grouped bar chart as SVG geometry: bars, the scale's ticks and the group labels, in a 640x240
 * viewBox that scales to the page's width. Its numbers are also in the table beside it.
 */
export function drawBars(chart: BarChart) {
  const max = Math.max(1, ...chart.groups.flatMap((g) => g.values));
  const step = Math.max(1, Math.ceil(max / 4));
  const top = step * Math.ceil(max / step);
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const groupWidth = plotWidth / Math.max(1, chart.groups.length);
  const barWidth = (groupWidth * 0.8) / chart.series.length;
  const y = (value: number) => PLOT.top + plotHeight - (value / top) * plotHeight;
  return {
    ...chart,
    width: WIDTH,
    height: HEIGHT,
    baseline: y(0),
    left: PLOT.left,
    right: WIDTH - PLOT.right,
    ticks: Array.from({ length: top / step + 1 }, (_, i) => ({ value: i * step, y: y(i * step) })),
    labels: chart.groups.map((g, i) => ({
      text: g.label,
      x: PLOT.left + groupWidth * (i + 0.5),
      y: HEIGHT - PLOT.bottom + 16,
    })),
    bars: chart.groups.flatMap((g, i) =>
      g.values.map((value, s) => ({
        x: PLOT.left + groupWidth * i + groupWidth * 0.1 + barWidth * s,
        y: y(value),
        width: barWidth,
        height: y(0) - y(value),
        fill: chart.series[s]!.fill,
      })),
    ),
  };
}

/**
 * Analytics: the overview of GET /businesses/:id/analytics/overview (the same service, `read`), plus
 * the weekly counts from the same counters, as server-drawn SVG charts each with its numbers in a table.
 * Nothing is loaded from another host; no script draws anything.
 */
export function analyticsPages(services: Services): Router {
  const router = Router();

  router.get('/b/:business_id/analytics', requireMember(services), async (_req, res) => {
    const who = memberOf(res);
    authorize(who.principal, 'read');
    const { businessId } = who.principal;
    const [overview, weeks] = await services.reads.read(who.principal, 'analytics', (reader) =>
      Promise.all([analyticsOverview(reader, businessId), createdPerWeek(reader, businessId, WEEKS)]),
    );
    const statusCount = (status: string) => overview.suggestions.find((row) => row.key === status)?.count ?? 0;
    const { t, date, locale } = messagesFor();
    const label = (value: string) => t(`app.analytics.label.${value}`);
    const suggestions = t('app.analytics.suggestions');
    const charts: BarChart[] = [
      {
        id: 'over-time',
        title: t('app.analytics.over_time', { weeks: WEEKS }),
        groupLabel: t('app.analytics.week_from'),
        series: [
          { name: suggestions, fill: FILLS[0]! },
          { name: t('app.analytics.issues'), fill: FILLS[1]! },
        ],
        groups: weeks.map((w) => ({
          label: date(w.start, { month: 'short', day: 'numeric' }),
          values: [w.suggestions, w.issues],
        })),
      },
      {
        id: 'sentiment',
        title: t('app.analytics.sentiment'),
        groupLabel: t('app.analytics.sentiment_column'),
        series: [{ name: suggestions, fill: FILLS[0]! }],
        // those no lexicon scored (stored neutral) are a group of their own, not part of neutral
        groups: [
          ...SENTIMENTS.map((s) => ({
            label: label(s),
            values: [
              (overview.sentiments.find((row) => row.sentiment === s)?.count ?? 0) -
                (s === 'neutral' ? overview.unscored : 0),
            ],
          })),
          { label: label('unscored'), values: [overview.unscored] },
        ],
      },
      {
        id: 'locations',
        title: t('app.analytics.locations', { days: PAGE_DAYS }),
        groupLabel: t('app.analytics.location_column'),
        series: [
          { name: t('app.analytics.scans'), fill: FILLS[0]! },
          { name: t('app.analytics.submissions'), fill: FILLS[1]! },
        ],
        groups: overview.page.map((row) => ({
          label: row.name ?? t('app.analytics.no_location'),
          values: [row.scans, row.submissions],
        })),
      },
      {
        id: 'funnel',
        title: t('app.analytics.funnel'),
        groupLabel: t('app.analytics.status_column'),
        series: [{ name: suggestions, fill: FILLS[0]! }],
        groups: SUGGESTION_STATUSES.map((s) => ({ label: label(s), values: [statusCount(s)] })),
      },
    ];
    const frame = memberFrame(who, t('app.analytics.title'), 'analytics');
    sendView(res, 200, 'analytics', { ...frame, locale, charts: charts.map(drawBars) });
  });

  return router;
}
