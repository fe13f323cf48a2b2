-- The business's brand (issue 43, docs/brand.md): a colour for the page's buttons and links, and a logo.

-- `#rrggbb`, lower case; null is the page's own blue. The contrast rule (4.5:1 against the page and
-- against white button text) is the service's, which names the measured ratio when it refuses.
ALTER TABLE businesses
  ADD COLUMN brand_color text CHECK (brand_color ~ '^#[0-9a-f]{6}$');

-- The logo's bytes, as re-encoded (at most 512x512, no metadata), in a table of their own: the
-- businesses row, read by every page and request, stays narrow, and the bytes go wherever the
-- database goes (both databases, backup and restore) with no file store beside it. `hash` names the
-- bytes in their URL, so they can be cached for a year.
CREATE TABLE business_logos (
  business_id uuid PRIMARY KEY REFERENCES businesses (id) ON DELETE CASCADE,
  hash text NOT NULL CHECK (hash ~ '^[0-9a-f]{16}$'),
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
  width integer NOT NULL CHECK (width BETWEEN 1 AND 512),
  height integer NOT NULL CHECK (height BETWEEN 1 AND 512),
  body bytea NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
