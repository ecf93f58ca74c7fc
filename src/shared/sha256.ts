// SHA-256 as lower-case hex, for fingerprints a user may check by hand (`sha256sum`): the OpenAPI import's
// markers on what it generated (docs/openapi.md, "Updating an import").
import { createHash } from 'node:crypto';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
