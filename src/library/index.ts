// The package's public surface (`import { startMock } from 'folder-mock'`): named exports only, nothing else of
// the source tree is reachable from outside. Everything here is documented in docs/library.md.
export { startMock, CLOSE_GRACE_MS } from './start-mock.js';
export type {
  MockHandle,
  MockOptions,
  OverrideHandle,
  OverrideInfo,
  OverrideRule,
  ReloadOutcome,
  ResetOptions,
  SessionHandle,
  SessionState,
  UseOptions,
  WaitForRequestOptions,
} from './start-mock.js';
export type { RuleShape } from './rule-shape.generated.js';
export type { WebSocketRoute } from './websockets.js';
export type { WsConnectionInfo, WsFrame } from '../model/websocket.js';
export type {
  CallbackAttempt,
  CallbackFilter,
  CallbackRecord,
  CallbackState,
} from '../callbacks/record.js';
export { MockError } from '../model/errors.js';
export type { ErrorKind } from '../model/errors.js';
export type { Diagnostic } from '../model/diagnostic.js';
export { JournalOverflowError, JournalTimeoutError, JournalClosedError } from '../journal/errors.js';
export type { RequestFilter, RuleFilter } from '../journal/filter.js';
export type { AnsweredBy, CapturedBody, Entry, JournalStage, StageFilterValue } from '../journal/entry.js';
export type { JournalLimits } from '../journal/limits.js';
export { JOURNAL_LIMIT_RANGES } from '../journal/limits.js';
