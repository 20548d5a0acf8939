// What a remote approver may be offered for a card, as pure data: never "Always allow", "Approve for
// session" or "Approve all" (each widens what runs unasked and deserves the desk's second step); no
// approve button above [remote] max_class, on a floor, or when the card's content is not sent (nobody
// approves what was not shown). Refusing (skip, deny) is always possible.
import type { HumanOutcome, PendingApproval } from '../../common/approvals';
import { classRank } from '../../common/domain';
import type { RemoteConfig } from '../config/remote-settings';

/** The only outcomes any remote surface may choose, in the order buttons show them. */
export const REMOTE_OUTCOMES = ['approve_once', 'skip', 'deny'] as const satisfies readonly HumanOutcome[];

export interface RemoteOffer {
  outcomes: HumanOutcome[];
  /** Why there is no approve button (a sentence), or null when there is one. */
  deskOnly: string | null;
}

export function remoteOffer(card: Pick<PendingApproval, 'outcomes' | 'class' | 'floor'>, cfg: Pick<RemoteConfig, 'maxClass' | 'content'>, surface: 'chat' | 'phone'): RemoteOffer {
  const offered = REMOTE_OUTCOMES.filter((o) => card.outcomes.includes(o));
  const deskOnly = card.floor
    ? `Decide at your desk: this call is under the "${card.floor}" floor, which is never approved from afar.`
    : classRank(card.class) > classRank(cfg.maxClass)
      ? `Decide at your desk: ${card.class}-class calls are above what you allowed from afar ([remote] max_class = "${cfg.maxClass}").`
      : surface === 'chat' && cfg.content === 'none'
        ? 'Decide at your desk: this message does not show the call ([remote] content = "none"), and nothing is approved unseen.'
        : null;
  return { outcomes: deskOnly ? offered.filter((o) => o !== 'approve_once') : offered, deskOnly };
}

/** Whether a remote surface may choose `outcome` for this card now (checked again at the press). */
export function remoteMayChoose(outcome: string, card: Pick<PendingApproval, 'outcomes' | 'class' | 'floor'>, cfg: Pick<RemoteConfig, 'maxClass' | 'content'>, surface: 'chat' | 'phone'): boolean {
  return (remoteOffer(card, cfg, surface).outcomes as string[]).includes(outcome);
}
