// Remote approvers: the one place that turns a parked card into chat messages and a chat answer into a
// decision. It listens to the gate's events (approval.requested, approval.decided), sends each card to
// every running bridge with a decision token per button, edits the message in place once the card is
// decided anywhere, and checks every answer before it calls the gate's one decide with the hash that was
// shown. It never decides itself and never blocks the gate: sending is fire-and-forget per card, in order
// per card, and a bridge that is down or slow leaves the card answerable at the desk.
//
// Every refusal (replayed, altered, expired or foreign token; another chat or sender; a card decided
// elsewhere; an outcome not offered remotely) is told to the sender and audited as remote.refused.
import type { DecisionRecord, HumanOutcome, PendingApproval } from '../../common/approvals';
import type { Disposable } from '../../common/disposable';
import type { Class } from '../../common/domain';
import type { RemoteCore } from './core-parts';
import type { BridgeName, BridgeStatus, Press, RemoteBridge } from './bridge';
import { acceptedText, BUTTON_LABELS, BUTTON_ORDER, callSummary, finalText, pendingText, type CardFacts } from './card-text';
import type { RemoteConfig } from '../config/remote-settings';
import type { DecisionTokens, TokenRefusal } from './decision-token';
import { remoteMayChoose, remoteOffer } from './policy';
import { deciderOf } from '../store/calls-repo';

/** A card with no TTL still gets buttons that end: a day. */
const UNTIMED_TOKEN_MS = 24 * 3600 * 1000;
/** Ended tokens and final messages are kept this long (a late press is still told why), then forgotten. */
const KEEP_ENDED_MS = 7 * 24 * 3600 * 1000;
/** Refusals audited per bridge per minute; past that they are counted and audited once per minute. */
const REFUSALS_AUDITED_PER_MINUTE = 30;

export type RefusalReason = TokenRefusal | 'foreign_chat' | 'foreign_sender' | 'no_card' | 'already_decided' | 'altered' | 'not_offered' | 'gate_refused';

const REFUSAL_WORDS: Record<RefusalReason, string> = {
  malformed: 'Refused: that is not an answer Threshold understands (a button of its card, a reaction ✅ ⏭️ ❌, or a reply approve, skip or deny).',
  unknown: 'Refused: Threshold did not send that button (it is unknown here).',
  forged: 'Refused: that button was altered or forged; it does not verify.',
  foreign: 'Refused: that button belongs to another chat or bridge.',
  expired: 'Refused: that button expired with its card; decide at your desk if the card still waits.',
  used: 'Refused: that button was already used once.',
  foreign_chat: 'Refused: answers count only in the chat Threshold is paired with.',
  foreign_sender: 'Refused: answers count only from the person Threshold is paired with.',
  no_card: 'Refused: there is no such card.',
  already_decided: 'Refused: this card was already decided.',
  altered: 'Refused: the call changed since this message was sent, so this answer does not name it.',
  not_offered: 'Refused: that choice is not offered away from the desk for this card.',
  gate_refused: 'Refused: Threshold could not record the decision.',
};

export interface RemoteApproversOptions {
  core: RemoteCore;
  config: RemoteConfig;
  tokens: DecisionTokens;
  bridges: RemoteBridge[];
  now?: () => number;
  log?: (line: string) => void;
}

export interface RemoteStatus {
  bridges: { name: BridgeName; audience: string; status: BridgeStatus }[];
}

export class RemoteApprovers implements Disposable {
  private readonly now: () => number;
  /** Per card and bridge, the work in order (send, then edit): an edit never overtakes its send. */
  private readonly chains = new Map<string, Promise<void>>();
  private readonly offs: (() => void)[] = [];
  private readonly refusals = new Map<string, { minute: number; count: number; dropped: number }>();
  private disposed = false;
  private pruneTimer: NodeJS.Timeout | null = null;

  constructor(private readonly o: RemoteApproversOptions) {
    this.now = o.now ?? Date.now;
  }

  get bridges(): readonly RemoteBridge[] {
    return this.o.bridges;
  }

  /** Subscribes to the gate's events, counts each bridge as an approver, starts polling, and catches up with cards already waiting. */
  start(): void {
    const { core } = this.o;
    this.offs.push(core.events.on('approval.requested', (p) => this.onRequested(p)));
    this.offs.push(core.events.on('approval.decided', (d) => this.onDecided(d)));
    for (const b of this.o.bridges) {
      this.offs.push(core.approvers.add(b.name));
      b.start((press) => void this.answer(press));
    }
    const prune = () => {
      try {
        core.store.remote.prune(this.now() - KEEP_ENDED_MS);
      } catch (err) {
        this.o.log?.(`remote: could not forget ended buttons (${(err as Error).message})`);
      }
    };
    prune();
    this.pruneTimer = setInterval(prune, 3_600_000);
    this.pruneTimer.unref();
    // Cards from before a restart: a message for each that has none, and an edit for each decided since.
    for (const p of core.gate.listPending()) this.onRequested(p);
    for (const b of this.o.bridges) {
      for (const m of core.store.remote.openMessages(b.name)) {
        const row = core.store.approvals.get(m.approval_id);
        if (row?.status === 'decided') this.queue(b, m.approval_id, () => this.finish(b, m.approval_id));
      }
    }
  }

  status(): RemoteStatus {
    return { bridges: this.o.bridges.map((b) => ({ name: b.name, audience: b.audience, status: b.status() })) };
  }

  /** Waits for every queued send and edit (tests, benchmarks, shutdown). */
  async settled(): Promise<void> {
    while (this.chains.size) await Promise.allSettled([...this.chains.values()]);
  }

  private queue(b: RemoteBridge, approvalId: string, work: () => Promise<void>): void {
    const key = `${b.name}:${approvalId}`;
    const next = (this.chains.get(key) ?? Promise.resolve())
      .then(() => (this.disposed ? undefined : work()))
      .catch((err: unknown) => this.o.log?.(`${b.name}: ${this.o.core.redactor.redactTextSync((err as Error)?.message ?? String(err))} (the card stays answerable at the desk)`));
    this.chains.set(key, next);
    void next.then(() => {
      if (this.chains.get(key) === next) this.chains.delete(key);
    });
  }

  private facts(p: Pick<PendingApproval, 'tool' | 'class' | 'session_id' | 'args' | 'expires_at'>): CardFacts {
    const r = this.o.core.redactor;
    const session = this.o.core.store.sessions.get(p.session_id);
    return { tool: p.tool, class: p.class, session: r.redactTextSync(session?.title ?? p.session_id), summary: r.redactTextSync(callSummary(p.tool, p.args)), expiresAt: p.expires_at };
  }

  private onRequested(p: PendingApproval): void {
    for (const b of this.o.bridges) {
      // Already in this chat; a card first sent to another chat (the page moved the bridge) is sent again here.
      if (this.o.core.store.remote.message(p.id, b.name)?.audience === b.audience) continue;
      this.queue(b, p.id, () => this.sendCard(b, p));
    }
  }

  private async sendCard(b: RemoteBridge, p: PendingApproval): Promise<void> {
    const { core, config } = this.o;
    const at = this.now();
    // Decided while it queued: nothing to send.
    if (core.store.approvals.get(p.id)?.status !== 'pending') return;
    const offer = remoteOffer(p, config, 'chat');
    const expiresAt = p.expires_at ?? at + UNTIMED_TOKEN_MS;
    const buttons = BUTTON_ORDER.filter((o) => offer.outcomes.includes(o)).map((outcome) => ({
      outcome,
      label: BUTTON_LABELS[outcome],
      token: core.store.transaction(() => this.o.tokens.mint({ approvalId: p.id, hash: p.hash, outcome, bridge: b.name, audience: b.audience, expiresAt }, at)),
    }));
    const text = core.redactor.redactTextSync(pendingText(this.facts(p), config.content, offer.deskOnly, at));
    const sent = await b.send({ approvalId: p.id, text, buttons });
    core.store.remote.insertMessage({ approval_id: p.id, bridge: b.name, audience: b.audience, message_id: sent.messageId, sent_at: this.now() });
    // Decided while the message was on its way: edit it now.
    if (core.store.approvals.get(p.id)?.status === 'decided') await this.finish(b, p.id);
  }

  private onDecided(d: DecisionRecord): void {
    for (const b of this.o.bridges) this.queue(b, d.id, () => this.finish(b, d.id));
  }

  /** Edits a decided card's message to its final state (no buttons). */
  private async finish(b: RemoteBridge, approvalId: string): Promise<void> {
    const { core, config } = this.o;
    const m = core.store.remote.message(approvalId, b.name);
    const row = core.store.approvals.get(approvalId);
    if (!m || m.final_at !== null || !row || row.status !== 'decided' || !row.outcome) return;
    const facts = this.facts({ tool: row.tool, class: row.class as Class, session_id: row.session_id, args: safeJson(row.args_redacted), expires_at: row.expires_at });
    await b.edit(m.message_id, core.redactor.redactTextSync(finalText(facts, config.content, row.outcome, deciderOf(row))));
    core.store.remote.markFinal(approvalId, b.name, this.now());
  }

  /** Checks one answer from a chat and, when it holds, decides through the gate. Never throws. */
  async answer(press: Press): Promise<{ ok: true; outcome: HumanOutcome } | { ok: false; reason: RefusalReason }> {
    const { core, config } = this.o;
    const bridge = this.o.bridges.find((b) => b.name === press.bridge);
    const refuse = async (reason: RefusalReason, approvalId: string | null, detail?: string, silent = false) => {
      this.auditRefusal(press, reason, approvalId, detail);
      if (!silent) await press.reply(detail ? `${REFUSAL_WORDS[reason]} ${detail}` : REFUSAL_WORDS[reason], true).catch(() => undefined);
      return { ok: false as const, reason };
    };
    try {
      if (!bridge || press.audience !== bridge.audience) return await refuse('foreign_chat', null);
      if (press.bridge === 'matrix' && config.matrix && press.sender !== config.matrix.userId) return await refuse('foreign_sender', null);
      // A private chat's id is its person's: nobody else can press there (a group's members all count, docs/remote.md).
      if (press.bridge === 'telegram' && config.telegram && config.telegram.chatId > 0 && press.sender !== String(config.telegram.chatId)) return await refuse('foreign_sender', null);
      const at = this.now();
      const where = { bridge: press.bridge, audience: press.audience };
      let check;
      if (press.token !== null) check = this.o.tokens.check(press.token, where, at);
      else if (press.card) {
        // An answer can overtake the reply to the send that made its card: wait for sends in flight, then look again.
        let m = core.store.remote.messageByRef(press.bridge, press.card.messageId);
        if (!m && this.chains.size) {
          await this.settled();
          m = core.store.remote.messageByRef(press.bridge, press.card.messageId);
        }
        // A reaction or reply to some other message of the room is conversation, not an answer: audited, not answered.
        if (!m) return await refuse('no_card', null, undefined, true);
        if (press.card.outcome.startsWith('unknown:')) return await refuse('malformed', m.approval_id);
        check = this.o.tokens.checkStored(m.approval_id, press.card.outcome, where, at);
      } else return await refuse('malformed', null);
      // No token for that outcome on a card Threshold sent: the choice was not offered there.
      if (!check.ok) return await refuse(press.card && check.reason === 'unknown' ? 'not_offered' : check.reason, null);
      const token = check.row;
      const approval = core.store.approvals.get(token.approval_id);
      if (!approval) return await refuse('no_card', token.approval_id);
      if (approval.status === 'decided') return await refuse('already_decided', approval.id, `It was ${approval.outcome?.replace(/_/g, ' ')} by ${approval.decided_by}.`);
      if (approval.content_hash !== token.content_hash) return await refuse('altered', approval.id);
      const pending = core.gate.listPending().find((p) => p.id === approval.id);
      if (!pending || !remoteMayChoose(token.outcome, pending, config, 'chat')) return await refuse('not_offered', approval.id);
      if (!core.store.remote.useToken(token.id, at, core.redactor.redactTextSync(press.sender))) return await refuse('used', approval.id);
      const decided = await core.gate.decideApproval({
        approvalId: approval.id,
        hash: token.content_hash,
        outcome: token.outcome,
        surface: press.bridge,
        by: { kind: 'remote', via: press.bridge, who: press.sender },
      });
      if (!decided.ok) return await refuse(decided.error.code === 'already_decided' ? 'already_decided' : 'gate_refused', approval.id, decided.error.message);
      await press.reply(acceptedText(token.outcome as HumanOutcome, decided.value.follow_up === 'awaiting'), false).catch(() => undefined);
      return { ok: true, outcome: token.outcome as HumanOutcome };
    } catch (err) {
      return await refuse('gate_refused', null, core.redactor.redactTextSync((err as Error).message));
    }
  }

  private auditRefusal(press: Press, reason: RefusalReason, approvalId: string | null, detail?: string): void {
    const minute = Math.floor(this.now() / 60_000);
    const seen = this.refusals.get(press.bridge) ?? { minute, count: 0, dropped: 0 };
    if (seen.minute !== minute) {
      if (seen.dropped) this.append('remote.refused_flood', null, { bridge: press.bridge, refused_unaudited: seen.dropped });
      seen.minute = minute;
      seen.count = 0;
      seen.dropped = 0;
    }
    this.refusals.set(press.bridge, seen);
    if (++seen.count > REFUSALS_AUDITED_PER_MINUTE) {
      seen.dropped++;
      return;
    }
    this.append('remote.refused', approvalId, { bridge: press.bridge, chat: press.audience, sender: press.sender, reason, detail: detail ?? null });
  }

  private append(kind: string, subject: string | null, data: Record<string, unknown>): void {
    const { core } = this.o;
    try {
      core.store.transaction(() => core.store.audit.append({ at: this.now(), kind, subject, session_id: subject ? (core.store.approvals.get(subject)?.session_id ?? null) : null, data: core.redactor.redactRecord(data) }));
    } catch (err) {
      this.o.log?.(`remote: could not audit a refusal (${(err as Error).message})`);
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    for (const off of this.offs.splice(0)) off();
    await Promise.allSettled(this.o.bridges.map((b) => b.dispose()));
    await Promise.allSettled([...this.chains.values()]);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}
