// Pair this phone: one field (its name, as Settings → Devices will list it) and one deliberate button.
import { useId, useState } from 'react';
import { pairDevice } from '../bridge/pairing';

export function PairScreen({ code, onPaired }: { code: string; onPaired: () => void }) {
  const id = useId();
  const [name, setName] = useState('My phone');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <main className="pair-screen" aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`}>Pair this phone with Threshold</h1>
      <p>Once paired, this phone can see the cards that wait for you and approve them once, skip or deny them. You can revoke it any time in Settings → Devices on your computer.</p>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          const r = await pairDevice(code, name, { fetch: window.fetch.bind(window) });
          setBusy(false);
          if (r.ok) onPaired();
          else setError(r.message);
        }}
      >
        <label htmlFor={`${id}-name`}>Name this phone</label>
        <input id={`${id}-name`} value={name} maxLength={60} onChange={(e) => setName(e.target.value)} autoComplete="off" />
        <button type="submit" disabled={busy || !name.trim()}>
          Pair this phone
        </button>
      </form>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </main>
  );
}
