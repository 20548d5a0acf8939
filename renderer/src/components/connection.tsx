// Where the page stands with its daemon, said plainly. While the daemon does not answer, a banner says
// that nothing can be decided or sent and (after a while) what to open instead; a page the daemon
// refuses (no token, or one it no longer accepts) is covered by a notice that says exactly that and how
// to get the address, over an app that cannot be used meanwhile (nothing typed in it is lost).
import { useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { formatTime } from '../model/describe';
import type { Connection } from '../store/types';
import { useApp } from '../store/store';

export const CONNECTION_WORDS: Record<Connection, string> = {
  connecting: 'Connecting…',
  open: 'Connected',
  reconnecting: 'Connection lost: reconnecting…',
  lost: 'Not connected',
  unauthorized: 'Not signed in: open the address Threshold printed (it carries the token).',
  stopped: 'Not running: see the message below.',
};

/** The command that prints the address again, and the line serve printed it in. */
export const ADDRESS_HELP = { command: 'threshold ctl web', line: 'threshold: web UI: ' };

/** Under the header while the daemon does not answer: what does not work now, and what to do. */
export function ConnectionBanner() {
  const connection = useApp((s) => s.connection);
  const [since, setSince] = useState<number | null>(null);
  useEffect(() => {
    if (connection === 'reconnecting' || connection === 'lost') setSince((t) => t ?? Date.now());
    else setSince(null);
  }, [connection]);
  if (connection !== 'reconnecting' && connection !== 'lost') return null;
  const host = location.host;
  return (
    <div className={`connection-banner banner-${connection}`} role="alert">
      {connection === 'reconnecting' ? (
        <p>Threshold is not reachable right now. Until it is back, cards cannot be decided and messages cannot be sent; the page reconnects by itself.</p>
      ) : (
        <p>
          {`Threshold has not answered at ${host}${since ? ` since ${formatTime(since)}` : ''}. If it was restarted on another address, open the address it printed (the line `}
          <code>{`${ADDRESS_HELP.line}http://…`}</code>
          {'), or run '}
          <code>{ADDRESS_HELP.command}</code>
          {' on this computer to print it again. Until then cards cannot be decided here; this page keeps trying.'}
        </p>
      )}
    </div>
  );
}

/** Over the whole page when the daemon refuses this page's token or cookie (outside the app, which is inert meanwhile). */
export function SignInNeeded() {
  return createPortal(<SignInNotice />, document.body);
}

function SignInNotice() {
  const titleId = useId();
  const descId = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  const host = location.host;
  return (
    <div className="sign-in-backdrop">
      <div className="sign-in" role="alertdialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={descId} tabIndex={-1} ref={ref}>
        <h1 id={titleId}>This page is not signed in to Threshold</h1>
        <div id={descId}>
          <p>{`Threshold answers at ${host}, but this page has no token it accepts: it was opened without the token, or the token has changed since (a new web-token in Threshold's data directory). Until it is signed in, this page cannot load, send or decide anything.`}</p>
          <p>
            {'Open the address Threshold printed when it started, the line '}
            <code>{`${ADDRESS_HELP.line}http://${host}/#token=…`}</code>
            {', or run '}
            <code>{ADDRESS_HELP.command}</code>
            {' on this computer to print it again. Open it in this tab: what you typed in the message box is kept.'}
          </p>
        </div>
      </div>
    </div>
  );
}
