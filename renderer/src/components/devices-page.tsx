// Settings → Devices (docs/remote.md): answering cards away from the desk. The chat bridges with where
// each token comes from (never the token) and whether it reaches its service, with "Send a test card";
// what a remote card may carry and approve; "Pair a phone" (a QR code of the phone page's address with a
// one-time code, and the certificate fingerprint to compare on the phone); the paired phones with
// Revoke. Names and service errors came from outside: they are shown through the one escaping rule.
import { useEffect, useId, useState } from 'react';
import { formatTime } from '../model/describe';
import type { DeviceView, RemoteStatus } from '../store/types';
import { useApp } from '../store/store';
import { Visible } from './call-body';

const STATE_WORDS: Record<RemoteStatus['bridges'][number]['state'], string> = {
  starting: 'Connecting…',
  ok: 'Connected',
  failing: 'Cannot reach the service',
  stopped: 'Stopped',
  not_started: 'Not running',
};

function BridgeRow({ b }: { b: RemoteStatus['bridges'][number] }) {
  const sendTest = useApp((s) => s.sendRemoteTest);
  const desktop = useApp((s) => s.info?.runtime === 'electron');
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const name = b.name === 'telegram' ? 'Telegram' : 'Matrix';
  const token = b.token_source === 'keychain' ? 'Its token comes from the OS keychain.' : b.token_source === 'environment' ? `Its token comes from the environment variable ${b.token_env}.` : `No token: set the environment variable ${b.token_env} and restart Threshold.`;
  return (
    <li className="bridge" data-testid={`bridge-${b.name}`}>
      <h3>{name}</h3>
      <p>
        {`${b.name === 'telegram' ? 'Chat' : 'Room'} `}
        <code>
          <Visible text={b.audience} />
        </code>
        {` · ${STATE_WORDS[b.state]}`}
        {b.last_ok_at ? ` (last reached ${formatTime(b.last_ok_at)})` : ''}
      </p>
      {b.error && (
        <p className="hint">
          <Visible text={b.error} />
        </p>
      )}
      <p className="hint">{token}</p>
      {desktop && <TokenField bridge={b.name} name={name} />}
      <button
        type="button"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          const r = await sendTest(b.name);
          setBusy(false);
          setResult(r.ok ? { ok: true, text: `Sent. Look for it in ${name}.` } : { ok: false, text: r.error.message });
        }}
      >
        {`Send a test card to ${name}`}
      </button>
      {result && (
        <p className={`test-result ${result.ok ? 'ok' : 'error'}`} role="status">
          <Visible text={result.text} />
        </p>
      )}
    </li>
  );
}

/** The desktop window only: a token typed here goes to the OS keychain and is used from the next start. */
function TokenField({ bridge, name }: { bridge: 'telegram' | 'matrix'; name: string }) {
  const id = useId();
  const store = useApp((s) => s.storeRemoteToken);
  const [token, setToken] = useState('');
  const [said, setSaid] = useState<string | null>(null);
  return (
    <form
      className="field"
      onSubmit={async (e) => {
        e.preventDefault();
        const r = await store(bridge, token.trim());
        setToken('');
        setSaid(r.ok ? 'Stored in the OS keychain; the bridge uses it now.' : r.error.message);
      }}
    >
      <label htmlFor={id}>{`${name} token (kept in the OS keychain)`}</label>
      <input id={id} type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} />
      <button type="submit" disabled={token.trim().length < 8}>
        Store in the keychain
      </button>
      {said && <p role="status">{said}</p>}
    </form>
  );
}

/** Where Telegram cards go: one chat id. */
function TelegramForm({ current }: { current: string | null }) {
  const id = useId();
  const configure = useApp((s) => s.configureRemote);
  const [chat, setChat] = useState(current ?? '');
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <form
      className="field bridge-form"
      onSubmit={async (e) => {
        e.preventDefault();
        const r = await configure({ telegram: { chat_id: Number(chat) } });
        setSaid(r.ok ? { ok: true, text: 'Saved: cards go to this chat from now on.' } : { ok: false, text: r.error.message });
      }}
    >
      <label htmlFor={id}>Telegram chat id (the only chat whose presses count)</label>
      <input id={id} inputMode="numeric" value={chat} onChange={(e) => setChat(e.target.value.trim())} />
      <button type="submit" disabled={!/^-?[1-9][0-9]{0,15}$/.test(chat)}>
        {current ? 'Save the Telegram chat' : 'Set up Telegram'}
      </button>
      {current && (
        <button type="button" onClick={() => void configure({ telegram: null })}>
          Turn Telegram off
        </button>
      )}
      {said && (
        <p role="status" className={said.ok ? 'test-result ok' : 'test-result error'}>
          <Visible text={said.text} />
        </p>
      )}
    </form>
  );
}

/** Where Matrix cards go: the homeserver, the room and the only person whose answers count. */
function MatrixForm({ current }: { current: { homeserver: string; room: string; user: string } | null }) {
  const id = useId();
  const configure = useApp((s) => s.configureRemote);
  const [homeserver, setHomeserver] = useState(current?.homeserver ?? '');
  const [room, setRoom] = useState(current?.room ?? '');
  const [user, setUser] = useState(current?.user ?? '');
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <form
      className="field bridge-form"
      onSubmit={async (e) => {
        e.preventDefault();
        const r = await configure({ matrix: { homeserver: homeserver.trim(), room_id: room.trim(), user_id: user.trim() } });
        setSaid(r.ok ? { ok: true, text: 'Saved: cards go to this room from now on.' } : { ok: false, text: r.error.message });
      }}
    >
      <label htmlFor={`${id}-hs`}>Matrix homeserver</label>
      <input id={`${id}-hs`} value={homeserver} placeholder="https://matrix.example.org" onChange={(e) => setHomeserver(e.target.value)} />
      <label htmlFor={`${id}-room`}>Room id</label>
      <input id={`${id}-room`} value={room} placeholder="!room:example.org" onChange={(e) => setRoom(e.target.value)} />
      <label htmlFor={`${id}-user`}>Your user id (the only person whose answers count)</label>
      <input id={`${id}-user`} value={user} placeholder="@me:example.org" onChange={(e) => setUser(e.target.value)} />
      <button type="submit" disabled={!homeserver.trim() || !room.trim() || !user.trim()}>
        {current ? 'Save the Matrix room' : 'Set up Matrix'}
      </button>
      {current && (
        <button type="button" onClick={() => void configure({ matrix: null })}>
          Turn Matrix off
        </button>
      )}
      {said && (
        <p role="status" className={said.ok ? 'test-result ok' : 'test-result error'}>
          <Visible text={said.text} />
        </p>
      )}
    </form>
  );
}

function DeviceRow({ d }: { d: DeviceView }) {
  const revoke = useApp((s) => s.revokeDevice);
  return (
    <li className="device" data-testid="device">
      <span className="device-name">
        <Visible text={d.name} />
      </span>
      <span className="hint">{`Paired ${formatTime(d.created_at)} · ${d.last_seen_at ? `last seen ${formatTime(d.last_seen_at)}` : 'not seen yet'}`}</span>
      <button type="button" className="danger" aria-label={`Revoke ${d.name}`} onClick={() => void revoke(d.id)}>
        Revoke
      </button>
    </li>
  );
}

function Pairing() {
  const pairing = useApp((s) => s.pairing);
  const start = useApp((s) => s.startPairing);
  const end = useApp((s) => s.endPairing);
  const phone = useApp((s) => s.remoteStatus?.phone ?? null);
  if (!phone) {
    return (
      <p className="hint">
        The phone page is off. To answer cards from a phone on your network, add <code>[remote.phone] address = "…"</code> (this computer&apos;s address on your network) to threshold.toml and restart
        Threshold. The page on 127.0.0.1 stays as it is.
      </p>
    );
  }
  if (!pairing) {
    return (
      <>
        <p className="hint">
          {`The phone page is at ${phone.origin}. Its certificate's SHA-256 fingerprint: `}
          <code className="fingerprint">{phone.fingerprint}</code>
        </p>
        <button type="button" onClick={() => void start()}>
          Pair a phone
        </button>
      </>
    );
  }
  return (
    <section className="pairing" aria-labelledby="pairing-title">
      <h3 id="pairing-title">Scan this with your phone</h3>
      <img className="qr" src={`data:image/svg+xml;base64,${btoa(pairing.qr_svg)}`} alt={`QR code for ${pairing.url}`} width={240} height={240} data-testid="pairing-qr" />
      <ol>
        <li>{`Your phone opens ${new URL(pairing.url).origin}. Its browser warns that it does not know the certificate: open the certificate's details and check that its SHA-256 fingerprint is:`}</li>
        <li>
          <code className="fingerprint">{pairing.fingerprint}</code>
        </li>
        <li>Only if it matches, go on, name the phone and pair it. The code works once, until {formatTime(pairing.expires_at)}.</li>
      </ol>
      <button type="button" onClick={end}>
        Done
      </button>
    </section>
  );
}

function matrixOf(status: RemoteStatus): { homeserver: string; room: string; user: string } | null {
  const m = status.bridges.find((b) => b.name === 'matrix');
  return m && m.endpoint && m.person ? { homeserver: m.endpoint, room: m.audience, user: m.person } : null;
}

export function DevicesPage() {
  const status = useApp((s) => s.remoteStatus);
  const devices = useApp((s) => s.devices);
  const error = useApp((s) => s.devicesError);
  const load = useApp((s) => s.loadDevices);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <div className="devices-page">
      <h2>Away from the desk</h2>
      <p>
        {status
          ? `Cards reach your chat and your paired phones with ${status.content === 'none' ? 'only the fact that one waits ([remote] content = "none"): they can be refused there, never approved' : 'the tool, its class, the session and the call in one line (redacted)'}. They can be approved there once, for calls up to the ${status.max_class} class; floors, always allow and approve all stay at your desk.`
          : 'Loading…'}
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <section aria-labelledby="bridges-title">
        <h2 id="bridges-title">Chat bridges</h2>
        {status && status.bridges.length === 0 && <p className="hint">No chat is set up. Set one up below, or in threshold.toml (docs/remote.md).</p>}
        <ul className="bridges">{status?.bridges.map((b) => <BridgeRow key={b.name} b={b} />)}</ul>
        {status && (
          <>
            <TelegramForm current={status.bridges.find((b) => b.name === 'telegram')?.audience ?? null} />
            <MatrixForm current={matrixOf(status)} />
          </>
        )}
      </section>
      <section aria-labelledby="phones-title">
        <h2 id="phones-title">Paired phones</h2>
        <Pairing />
        {devices.length === 0 ? <p className="hint">No phone is paired.</p> : <ul className="devices">{devices.map((d) => <DeviceRow key={d.id} d={d} />)}</ul>}
      </section>
    </div>
  );
}
