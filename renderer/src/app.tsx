// The window: a header (the model's name, the connection, Chat, History and Settings, and in a browser
// the notifications switch), the screen, one polite live region announcing cards and decisions,
// attention (title, favicon, notifications) and the toasts.
import { useApp } from './store/store';
import { Visible } from './components/call-body';
import { oneLine } from './model/describe';
import { ChatScreen } from './components/chat';
import { Attention, NotificationsSwitch } from './components/attention';
import { HistoryScreen } from './components/history-screen';
import { SettingsScreen } from './components/settings-screen';
import { Toasts } from './components/prompt-cards';
import { CONNECTION_WORDS, ConnectionBanner, SignInNeeded } from './components/connection';
import { PhoneApp } from './components/phone-app';

/** A paired phone is refused when it was never paired or was revoked: it is told how to pair again. */
const PHONE_UNAUTHORIZED = 'This phone is not paired (or was revoked): pair it again from Settings → Devices on your computer.';

export function App() {
  const view = useApp((s) => s.view);
  const setView = useApp((s) => s.setView);
  const model = useApp((s) => s.model);
  const info = useApp((s) => s.info);
  const connection = useApp((s) => s.connection);
  const problem = useApp((s) => s.problem);
  const coreMessage = useApp((s) => s.coreMessage);
  const announcement = useApp((s) => s.announcement);
  const announcementSeq = useApp((s) => s.announcementSeq);
  const waiting = useApp((s) => s.pending.length);
  // The phone page (https on the LAN address): its own compact view, whoever it turns out to be.
  if (info?.runtime === 'phone' || (typeof location !== 'undefined' && location.protocol === 'https:' && !window.threshold)) {
    return <PhoneApp connectionWords={connection === 'unauthorized' ? PHONE_UNAUTHORIZED : CONNECTION_WORDS[connection]} />;
  }
  // Not signed in: the notice covers the app, which cannot be used meanwhile but keeps what was typed.
  const signedOut = connection === 'unauthorized';
  return (
    <div className="app" inert={signedOut}>
      <header className="top">
        <span className="brand">Threshold</span>
        <nav aria-label="Screens" className="screens">
          <button type="button" aria-current={view === 'chat' ? 'page' : undefined} onClick={() => setView('chat')}>
            {waiting ? `Chat (${waiting} waiting)` : 'Chat'}
          </button>
          <button type="button" aria-current={view === 'history' ? 'page' : undefined} onClick={() => setView('history')}>
            History
          </button>
          <button type="button" aria-current={view === 'settings' ? 'page' : undefined} onClick={() => setView('settings')}>
            Settings
          </button>
        </nav>
        <NotificationsSwitch />
        <span className="model" data-testid="model-label">
          {model ? `Model: ${oneLine(model)}` : 'No model'}
        </span>
        <span className={`connection connection-${connection}`} role="status">
          {CONNECTION_WORDS[connection]}
        </span>
        {info && <span className="version">{`${info.version} (${info.runtime})`}</span>}
      </header>
      {coreMessage && (
        <p className="error banner" role="alert" data-testid="core-message">
          {coreMessage}
        </p>
      )}
      <ConnectionBanner />
      {problem && problem !== coreMessage && (
        <p className="error banner" role="alert">
          <Visible text={problem} />
        </p>
      )}
      {/* In the page from the start (a region added late is often not read); the same words said twice
          differ by a trailing no-break space, so they are read twice. */}
      <div className="sr-only" role="status" aria-live="polite" aria-atomic="true" data-testid="announcer">
        {announcement + (announcementSeq % 2 ? '\u00a0' : '')}
      </div>
      <Attention />
      {view === 'chat' ? (
        <main className="main" aria-label="Threshold">
          <ChatScreen />
        </main>
      ) : view === 'history' ? (
        <HistoryScreen />
      ) : (
        <SettingsScreen />
      )}
      <Toasts />
      {signedOut && <SignInNeeded />}
    </div>
  );
}
