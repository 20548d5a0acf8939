// The one store's shape: slices, each with its state and the actions that change it. Only slice
// actions (and the bridge wiring) call the API.
import type { DecisionRecord, GrantDuration, GrantRecord, HumanOutcome, PendingApproval } from '../../../common/approvals';
import type { AppInfo, CoreState, QuestionView, SessionView, TranscriptEntry } from '../../../common/contract';
import type { AppApi, Result, approveAllEndedSchema, approveAllViewSchema, sessionApprovalRevokedSchema, sessionApprovalViewSchema, callDetailSchema, restorePlanSchema, checkpointDiffSchema, checkpointViewSchema, grantSampleSchema, grantSuggestionSchema, modelTestSchema, modelViewSchema, providerInputSchema } from '../../../common/operations';
import type { CallFilter, CallRecord } from '../../../common/history';
import type { deviceViewSchema, pairingSchema, policyPreviewSchema, remoteStatusSchema } from '../../../common/operations';
import type { AccessDraft, SettingsView } from '../model/access';
import type { z } from 'zod';
import type { Class, GrantPattern } from '../../../common/domain';
import type { ReviewReport } from '../../../common/review';
import type { CallState, ConsentOfferView, NotificationView } from '../bridge/events';

export type GrantSample = z.output<typeof grantSampleSchema>;
/** The server's preview of a grant: samples judged by the real policy, the width judge's verdict, whether it covers the card's call. */
export type GrantPreview = { samples: GrantSample[]; verdict?: { ok: boolean; code?: string; reason?: string }; covers_call?: boolean | null };
export type GrantSuggestion = z.output<typeof grantSuggestionSchema>;
export type ModelView = z.output<typeof modelViewSchema>;
export type ModelTest = z.output<typeof modelTestSchema>;
export type ProviderInput = z.output<typeof providerInputSchema>;

/** Where this page stands with its daemon (renderer/src/bridge/socket-transport.ts says how each is told apart); stopped: the desktop shell's core is not running. */
export type Connection = 'connecting' | 'open' | 'reconnecting' | 'lost' | 'unauthorized' | 'stopped';

export interface ConnectionSlice {
  connection: Connection;
  info: AppInfo | null;
  model: string | null;
  /** The workspace commands run in (a card's working folder when the call names none). */
  workspace: string | null;
  problem: string | null;
  /** The desktop's word on its core: why it is not running (with the fix), or a problem of a running one. */
  coreMessage: string | null;
  setConnection(c: Connection): void;
  /** The desktop shell says where its core stands (common/contract.ts CORE_STATUS_SIGNAL). */
  onCoreStatus(status: { state: CoreState; message: string | null }): void;
  /** Loads everything a fresh page (or a reconnected one) needs. */
  reloadAll(): Promise<void>;
}

export interface LiveCall {
  state: CallState;
  detail: string | null;
  /** The gate's id for the call, once classified (output and approvals use it). */
  gateCallId: string | null;
}

export interface ChatSlice {
  sessions: SessionView[];
  currentSessionId: string | null;
  transcripts: Record<string, TranscriptEntry[]>;
  /** Text the model is writing that the stored transcript does not hold yet, per session. */
  streaming: Record<string, string>;
  calls: Record<string, LiveCall>;
  /** Each session's stored calls (the records History lists), by the model's call id; loaded with its transcript. */
  callRecords: Record<string, Record<string, CallRecord>>;
  /** Gate call id → the model's tool call id. */
  toolCallOf: Record<string, string>;
  output: Record<string, string>;
  running: string[];
  /** Lines the page itself adds to a chat (what was decided, where a card is), after N chat items. */
  localNotes: Record<string, { after: number; text: string }[]>;
  sendError: string | null;
  loadSessions(): Promise<void>;
  selectSession(id: string | null): Promise<void>;
  loadTranscript(sessionId: string): Promise<void>;
  /** Sends a message; a bare "yes"/"no" while a card of this chat waits is not sent and decides nothing (it points to the card). */
  send(text: string): Promise<boolean>;
  stop(): Promise<void>;
  addLocalNote(sessionId: string, text: string): void;
  onTurnStarted(e: { session_id: string; model: string }): void;
  onTurnText(e: { session_id: string; delta: string }): void;
  onTurnEnded(e: { session_id: string }): void;
  onCallState(e: { session_id: string; call_id: string; tool_call_id: string; state: CallState; detail: string | null }): void;
  onCallOutput(e: { call_id: string; chunk: string }): void;
  onSessionNote(e: { session_id: string | null; text: string }): void;
}

export interface DecideExtras {
  /** Sent with the decision (the model sees it with Skip or Deny). */
  note?: string;
  /** Stored on the grant approve_always makes. */
  grantNote?: string;
  grant?: { patterns?: GrantPattern[]; duration?: GrantDuration };
}

/** A card this page showed that was decided elsewhere (another window, ctl, the time limit): said in place, not silently replaced. */
export interface SettledCard {
  id: string;
  session_id: string;
  /** "Decided in another window: approved once: run_command: Run …" */
  text: string;
}

export interface ApprovalsSlice {
  pending: PendingApproval[];
  /** When each card became visible (performance.now()), for type-ahead safety. */
  shownAt: Record<string, number>;
  /** The class of each call that asked (gate call id → class), for the chat's tool-call rows. */
  classOf: Record<string, Class>;
  decisionError: string | null;
  /** The last card that arrived or decision made, said out loud by the polite live region. */
  announcement: string;
  /** Bumped with every announcement, so the same words said twice are announced twice. */
  announcementSeq: number;
  /** The last card that arrived while this page was open (not those loaded with it), bumped each time. */
  lastArrival: { id: string; n: number } | null;
  loadPending(): Promise<void>;
  markShown(id: string, at: number): void;
  decide(id: string, outcome: HumanOutcome, extras?: DecideExtras): Promise<Result<DecisionRecord>>;
  /** The pending call's original arguments, for the card to show while Reveal is pressed (never kept in the store). */
  reveal(id: string): Promise<Result<{ args: unknown }>>;
  onRequested(p: PendingApproval): void;
  onDecided(d: DecisionRecord): void;
  /** What the reviewer did on this page's watch (auto-approvals and escalations), newest last. */
  reviews: ReviewReport[];
  /** Auto-approval cards the user has put away from the queue (approval ids); the chat keeps them. */
  dismissedReviews: string[];
  onReview(r: ReviewReport): void;
  dismissReview(approvalId: string): void;
  /** Cards decided elsewhere while this page showed them, until put away. */
  settled: SettledCard[];
  dismissSettled(id: string): void;
}

export type ApproveAllView = z.output<typeof approveAllViewSchema>;
export type ApproveAllEnded = z.output<typeof approveAllEndedSchema>;
export type SessionApprovalView = z.output<typeof sessionApprovalViewSchema>;
export type SessionApprovalRevoked = z.output<typeof sessionApprovalRevokedSchema>;

export interface ApproveAllSlice {
  /** Sessions in approve-all mode (every session, not only the open one). */
  approveAll: ApproveAllView[];
  approveAllError: string | null;
  loadApproveAll(): Promise<void>;
  /** Ends it for every surface (audited as decided by this one). */
  endApproveAll(sessionId: string): Promise<Result<ApproveAllEnded>>;
  onApproveAllStarted(v: ApproveAllView): void;
  onApproveAllEnded(e: ApproveAllEnded): void;
  /** A call of the session was approved by it. */
  onApproveAllUsed(sessionId: string, at: number): void;
  /** Approvals for the session (Approve for session) in force: session grants for one exact call. */
  sessionApprovals: SessionApprovalView[];
  loadSessionApprovals(): Promise<void>;
  revokeSessionApproval(id: string): Promise<Result<SessionApprovalRevoked>>;
  onSessionApprovalRevoked(r: SessionApprovalRevoked): void;
}

export interface PromptsSlice {
  questions: QuestionView[];
  offers: ConsentOfferView[];
  toasts: NotificationView[];
  promptError: string | null;
  loadQuestions(): Promise<void>;
  loadOffers(): Promise<void>;
  answer(id: string, answer: string): Promise<boolean>;
  dismissQuestion(id: string): Promise<void>;
  decideOffer(id: string, choice: 'session' | 'hour' | 'always' | 'deny'): Promise<void>;
  onQuestionAsked(q: QuestionView): void;
  onQuestionClosed(id: string): void;
  onOffer(o: ConsentOfferView): void;
  onOfferClosed(id: string): void;
  onNotification(n: NotificationView): void;
  dismissToast(id: string): void;
}

export type GrantFilter = 'active' | 'expired' | 'revoked';

export interface GrantsSlice {
  grants: GrantRecord[];
  grantFilter: GrantFilter;
  grantsError: string | null;
  loadGrants(): Promise<void>;
  setGrantFilter(f: GrantFilter): void;
  revokeGrant(id: string): Promise<void>;
  updateGrant(id: string, change: { pattern: GrantPattern; duration: GrantDuration; note: string | null }): Promise<Result<GrantRecord>>;
  /** What a grant would cover, judged by the gate's own matching. */
  previewGrant(req: { tool: string; patterns: GrantPattern[]; approval_id?: string; samples?: string[] }): Promise<Result<GrantPreview>>;
  onGrantChanged(g: GrantRecord): void;
  /** Repeated approvals a grant could replace (Settings → Grants). */
  suggestions: GrantSuggestion[];
  loadSuggestions(): Promise<void>;
  /** The suggestion for one pending card (after the third identical approval), or null. */
  suggestionFor(approvalId: string): Promise<GrantSuggestion | null>;
  /** Makes the suggested grant (until revoked) through grant.create. */
  acceptSuggestion(s: GrantSuggestion): Promise<Result<GrantRecord[]>>;
  /** Suggestions set aside on this page (by hash), until it reloads. */
  dismissedSuggestions: string[];
  dismissSuggestion(hash: string): void;
}

export type CallDetail = z.output<typeof callDetailSchema>;
export type CheckpointDiff = z.output<typeof checkpointDiffSchema>;
export type CheckpointView = z.output<typeof checkpointViewSchema>;
export type RestorePlan = z.output<typeof restorePlanSchema>;

export type VerifyState =
  | { state: 'idle' }
  | { state: 'running' }
  | { state: 'ok'; entries: number; at: number }
  | { state: 'broken'; entries: number; brokenAt: number; reason: string; at: number }
  | { state: 'error'; message: string; at: number };

export interface HistorySlice {
  historyFilter: CallFilter;
  /** How many calls match (null while the first page loads). */
  historyTotal: number | null;
  historyUpto: string | null;
  /** Loaded pages of HISTORY_PAGE calls, by page index. */
  historyPages: Record<number, CallRecord[]>;
  /** Bumped by every reload, so a late page of an older query is dropped. */
  historyGeneration: number;
  historyError: string | null;
  openCall: CallDetail | null;
  openCallError: string | null;
  verify: VerifyState;
  exportStatus: string | null;
  /** Merges the change (an empty or undefined value clears that filter) and reloads. */
  setHistoryFilter(change: { [K in keyof CallFilter]?: CallFilter[K] | '' }): void;
  reloadHistory(): Promise<void>;
  ensureHistoryPages(pages: number[]): Promise<void>;
  openHistoryCall(id: string): Promise<void>;
  closeHistoryCall(): void;
  getCheckpointDiff(id: string): Promise<Result<CheckpointDiff>>;
  /** Everything restoring a checkpoint would undo, to show before the person confirms. */
  planRestore(id: string): Promise<Result<RestorePlan>>;
  /** Restores it, only if the workspace is still `expectedTree` (the plan's). */
  restoreCheckpoint(id: string, expectedTree?: string): Promise<Result<{ restored: CheckpointView; safety: CheckpointView }>>;
  verifyNow(): Promise<void>;
  /** Every matching call as JSONL, handed to `save` (the page downloads it). */
  exportHistory(save: (jsonl: string, count: number) => void): Promise<void>;
}

export interface ModelSlice {
  modelView: ModelView | null;
  modelError: string | null;
  loadModel(): Promise<void>;
  saveModel(input: ProviderInput): Promise<Result<ModelView>>;
  testModel(input: ProviderInput): Promise<Result<ModelTest>>;
  storeApiKey(key: string): Promise<Result<{ stored: true }>>;
}

export interface SettingsSlice {
  settings: SettingsView | null;
  /** Changes made on Agent access and not saved yet. */
  draft: AccessDraft;
  policyPreview: PolicyPreview | null;
  previewing: boolean;
  settingsError: string | null;
  /** A line saying the last save worked. */
  settingsSaved: string | null;
  loadSettings(): Promise<void>;
  editDraft(edit: AccessDraft): void;
  discardDraft(): void;
  previewDraft(): Promise<void>;
  saveDraft(): Promise<void>;
}

export type PolicyPreview = z.output<typeof policyPreviewSchema>;

export type View = 'chat' | 'history' | 'settings';
export type SettingsTab = 'access' | 'model' | 'grants' | 'devices';

export interface UiSlice {
  view: View;
  settingsTab: SettingsTab;
  /** Bumped to ask the message box to take focus (after a decision). */
  composerFocus: number;
  /** A request to bring a card into view (a notification was clicked), bumped each time. */
  showRequest: { id: string; n: number } | null;
  setView(v: View): void;
  setSettingsTab(t: SettingsTab): void;
  focusComposer(): void;
  /** Shows the chat of a card's session and brings the card into view. */
  showApproval(id: string): void;
}

export type RemoteStatus = z.output<typeof remoteStatusSchema>;
export type DeviceView = z.output<typeof deviceViewSchema>;
export type Pairing = z.output<typeof pairingSchema>;

/** Settings → Devices: chat bridges and paired phones (docs/remote.md). */
export interface DevicesSlice {
  remoteStatus: RemoteStatus | null;
  devices: DeviceView[];
  pairing: Pairing | null;
  devicesError: string | null;
  loadDevices(): Promise<void>;
  startPairing(): Promise<void>;
  endPairing(): void;
  revokeDevice(id: string): Promise<Result<DeviceView>>;
  sendRemoteTest(bridge: 'telegram' | 'matrix'): Promise<Result<{ sent: true; message_id: string }>>;
  /** Sets where cards go (saved over the config file, applied at once); null turns a bridge off. */
  configureRemote(change: { telegram?: { chat_id: number } | null; matrix?: { homeserver: string; room_id: string; user_id: string } | null }): Promise<Result<RemoteStatus>>;
  /** Stores a bridge token in the OS keychain (the desktop window only); nothing keeps it here. */
  storeRemoteToken(bridge: 'telegram' | 'matrix', token: string): Promise<Result<{ stored: true }>>;
  onDevicePaired(d: DeviceView): void;
  onDeviceRevoked(d: DeviceView): void;
}

export type AppState = ConnectionSlice & ChatSlice & ApprovalsSlice & ApproveAllSlice & PromptsSlice & GrantsSlice & HistorySlice & ModelSlice & SettingsSlice & DevicesSlice & UiSlice;

export interface SliceDeps {
  api: AppApi;
  now: () => number;
}
