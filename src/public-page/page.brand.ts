import type { RequestHandler, Router } from 'express';
import { HttpError } from '../errors/http-error.js';
import { idParam } from '../http/params.js';
import type { Services } from '../http/route.js';
import { brandCssFor, brandCssPath } from '../businesses/brand.stylesheet.js';
import { logoPath } from '../businesses/logo.image.js';
import { logoBytes } from '../businesses/logo.service.js';
import type { CodeTarget } from './page.repository.js';

/** What a page shows of the business's brand: its stylesheet and its logo, each when it has one. */
export interface PageBrand {
  css: string | null;
  logo: { src: string; width: number; height: number } | null;
}

export function brandOf(target: Pick<CodeTarget, 'business_id' | 'brand_color' | 'logo'>): PageBrand {
  return {
    css: target.brand_color ? brandCssPath(target.brand_color) : null,
    logo: target.logo
      ? { src: logoPath(target.business_id, target.logo), width: target.logo.width, height: target.logo.height }
      : null,
  };
}

/** What the kept page is named by besides its window: a new colour or logo is a new page. */
export const brandKey = (brand: PageBrand) => `${brand.css ?? '-'} ${brand.logo?.src ?? '-'}`;

const IMMUTABLE = 'public, max-age=31536000, immutable';
const LOGO_FILE = /^logo\.([0-9a-f]{16})\.(png|jpg)$/;
const notFound = () => new HttpError(404, 'Not found', 'NOT_FOUND');

/**
 * The brand's files, from this service (the page's Content-Security-Policy allows only its own
 * origin): a colour's stylesheet, made from the colour alone, and a business's logo, read from the
 * database while its hash is the logo's. Both are named by their content: cached for a year.
 */
export function addBrandFiles(router: Router, services: Services, budget: RequestHandler): void {
  router.get('/brand/:file', (req, res) => {
    const css = brandCssFor(String(req.params.file));
    if (!css) throw notFound();
    res.set('Cache-Control', IMMUTABLE).type('text/css').send(css);
  });
  router.get('/brand/:business_id/:file', budget, async (req, res) => {
    const match = LOGO_FILE.exec(String(req.params.file));
    if (!match) throw notFound();
    const businessId = idParam(req.params.business_id, 'Logo');
    const logo = await logoBytes(services.db.pool, businessId, match[1]!);
    if (!logo || (logo.content_type === 'image/png') !== (match[2] === 'png')) throw notFound();
    res.set('Cache-Control', IMMUTABLE).type(logo.content_type).send(logo.body);
  });
}
