import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_HEADERS } from '../../dispatch/finalize.js';
import { snapshotFrom } from '../../dispatch/snapshot.js';
import type { Workspace } from '../../model/workspace.js';
import type { HeaderList } from '../../shared/headers.js';
import { withMockHeaders } from './mode.js';

const ws = { cors: { allowedOrigins: ['https://app.example'] } } as unknown as Workspace;
/** mock's own access-control-allow-headers / -methods / max-age, as finalize gives every answer */
const CORS_DEFAULTS: HeaderList = DEFAULT_HEADERS.filter(([k]) => k.startsWith('access-control-'));

describe('withMockHeaders: the upstream headers with mock CORS in place of its own', () => {
  const cases: readonly { name: string; upstream: HeaderList; request: HeaderList; want: HeaderList }[] = [
    {
      name: 'no CORS upstream: mock defaults and the * origin added',
      upstream: [['content-type', 'application/json']],
      request: [],
      want: [
        ['content-type', 'application/json'],
        ['cache-control', 'no-store'],
        ['x-content-type-options', 'nosniff'],
        ...CORS_DEFAULTS,
        ['access-control-allow-origin', '*'],
        ['vary', '*'],
      ],
    },
    {
      name: "the upstream's access-control-* and vary replaced; its cache-control kept",
      upstream: [
        ['access-control-allow-origin', 'https://other'],
        ['vary', 'Accept'],
        ['cache-control', 'max-age=60'],
        ['link', '</p2>; rel="next"'],
      ],
      request: [],
      want: [
        ['cache-control', 'max-age=60'],
        ['link', '</p2>; rel="next"'],
        ['x-content-type-options', 'nosniff'],
        ...CORS_DEFAULTS,
        ['access-control-allow-origin', '*'],
        ['vary', '*'],
      ],
    },
    {
      name: 'a credentialed request from an allowed origin is reflected, as finalize does',
      upstream: [],
      request: [
        ['origin', 'https://app.example'],
        ['cookie', 'a=1'],
      ],
      want: [
        ['cache-control', 'no-store'],
        ['x-content-type-options', 'nosniff'],
        ...CORS_DEFAULTS,
        ['access-control-allow-credentials', 'true'],
        ['access-control-allow-origin', 'https://app.example'],
        ['vary', 'Origin'],
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const req = snapshotFrom({ method: 'GET', target: '/x', headers: c.request.flat() });
      assert.deepEqual(withMockHeaders(c.upstream, req, ws), c.want);
    });
  }
});
