// Verbs of the operations table that an older main process may lack; a missing verb answers with a
// value saying so, never a crash.
import type { GrantDuration, GrantRecord } from '../../../common/approvals';
import type { AppApi, Result } from '../../../common/contract';
import type { GrantPattern } from '../../../common/domain';
import type { ConsentOfferView } from '../bridge/events';

export interface OptionalVerbs {
  listConsentOffers(): Promise<Result<ConsentOfferView[]>>;
  decideConsent(req: { id: string; choice: 'session' | 'always' | 'deny' }): Promise<Result<unknown>>;
  updateGrant(req: { id: string; pattern?: GrantPattern; duration?: GrantDuration; note?: string | null }): Promise<Result<GrantRecord>>;
}

export function optionalVerb<K extends keyof OptionalVerbs>(api: AppApi, verb: K): OptionalVerbs[K] {
  const fn = (api as unknown as Partial<OptionalVerbs>)[verb];
  if (typeof fn === 'function') return fn.bind(api) as OptionalVerbs[K];
  return (async () => ({ ok: false, error: { code: 'unsupported', message: `This version of Threshold cannot ${verb} from here; use threshold ctl.` } })) as unknown as OptionalVerbs[K];
}
