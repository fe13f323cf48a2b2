import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { afterAll, describe, expect, it } from 'vitest';

const CONFIG = new URL('../../.dependency-cruiser.cjs', import.meta.url).pathname;

/**
 * The project's own rules, run by dependency-cruiser's API on a small tree written under the system's
 * temporary directory: the real src/ is never touched, so nothing is left behind in it and no test
 * running beside this one sees a stray folder.
 */
const trees: string[] = [];
afterAll(() => {
  for (const tree of trees) rmSync(tree, { recursive: true, force: true });
});

async function lint(files: Record<string, string>): Promise<{ rule: string; from: string; to: string }[]> {
  const root = mkdtempSync(join(tmpdir(), 'fbk-depcruise-'));
  trees.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const options = await extractDepcruiseOptions(CONFIG);
  const { output } = await cruise(['src'], { ...options, baseDir: root, validate: true });
  return (output as ICruiseResult).summary.violations
    .filter((violation) => violation.rule.severity === 'error')
    .map((violation) => ({ rule: violation.rule.name, from: violation.from, to: violation.to }));
}

describe('The dependency rules (npm run lint)', () => {
  it.each(['zzz-new', 'feed'])(
    'When a shared layer imports a new folder src/%s/, then it is an error: every folder not listed as core is a feature',
    async (folder) => {
      const violations = await lint({
        [`src/${folder}/thing.ts`]: "import { word } from '../shared/word';\nexport const thing = word;\n",
        'src/shared/word.ts': "export const word = 'word';\n",
        'src/http/edge.ts': `import { thing } from '../${folder}/thing';\nexport const edge = thing;\n`,
      });
      expect(violations).toEqual([
        { rule: 'core-knows-no-feature', from: 'src/http/edge.ts', to: `src/${folder}/thing.ts` },
      ]);
    },
  );

  it('When a feature imports a shared layer, and a shared layer another, then nothing is reported', async () => {
    const violations = await lint({
      'src/zzz-new/thing.ts': "import { edge } from '../http/edge';\nexport const thing = edge;\n",
      'src/http/edge.ts': "import { word } from '../shared/word';\nexport const edge = word;\n",
      'src/shared/word.ts': "export const word = 'word';\n",
    });
    expect(violations).toEqual([]);
  });

  it.each(['outbox', 'counts', 'users'])(
    'When the middle tier src/%s/ imports a feature, then it is an error; a feature importing it is not',
    async (middle) => {
      const violations = await lint({
        'src/shared/word.ts': "export const word = 'word';\n",
        [`src/${middle}/middle.ts`]: "import { thing } from '../zzz-new/thing';\nexport const middle = thing;\n",
        'src/zzz-new/thing.ts': "import { word } from '../shared/word';\nexport const thing = word;\n",
        'src/yyy-other/other.ts': `import { middle } from '../${middle}/middle';\nexport const other = middle;\n`,
      });
      expect(violations).toEqual([
        { rule: 'middle-knows-no-feature', from: `src/${middle}/middle.ts`, to: 'src/zzz-new/thing.ts' },
      ]);
    },
  );

  it('When the middle tier imports a shared layer, then nothing is reported', async () => {
    const violations = await lint({
      'src/outbox/record.ts': "import { word } from '../shared/word';\nexport const record = word;\n",
      'src/shared/word.ts': "export const word = 'word';\n",
    });
    expect(violations).toEqual([]);
  });
});
