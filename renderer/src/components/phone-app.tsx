// The page a paired phone sees (docs/remote.md): the cards that wait, each with only what a phone may
// choose (approve once, skip, deny; the server sends nothing else), and what stays at the desk. The same
// card component as the desk's, so a phone shows exactly what decides, escaped the same way.
import { useApp } from '../store/store';
import { ApprovalCard } from './approval-card';

export function PhoneApp({ connectionWords }: { connectionWords: string }) {
  const pending = useApp((s) => s.pending);
  const connection = useApp((s) => s.connection);
  const info = useApp((s) => s.info);
  return (
    <div className="app phone">
      <header className="top">
        <span className="brand">Threshold</span>
        <span className={`connection connection-${connection}`} role="status">
          {connectionWords}
        </span>
        {info && <span className="version">{`${info.version} (paired phone)`}</span>}
      </header>
      <main className="main phone-main" aria-labelledby="phone-title">
        <h1 id="phone-title">{pending.length ? `Waiting for you (${pending.length})` : 'Nothing waits for you'}</h1>
        <p className="hint">From this phone a card can be approved once, skipped or denied. Always allow, approve all, floors and calls above what you allowed from afar are decided at your desk.</p>
        <div className="phone-cards">
          {pending.map((p, i) => (
            <ApprovalCard key={p.id} p={p} position={i + 1} total={pending.length} />
          ))}
        </div>
      </main>
    </div>
  );
}
