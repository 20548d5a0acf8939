// Why nothing can be decided or sent from this page right now, or null when it can. One sentence per
// state, shared by the cards (their disabled buttons), the slices (which refuse before calling) and the
// message box.
import type { Connection } from '../store/types';

export function cannotActNow(c: Connection): string | null {
  switch (c) {
    case 'open':
      return null;
    case 'connecting':
      return 'Cannot be decided yet: the page is still connecting to Threshold.';
    case 'reconnecting':
    case 'lost':
      return 'Cannot be decided right now: Threshold is not reachable. This card stays as it is until the page reconnects; its time limit is kept by Threshold, not by this page.';
    case 'unauthorized':
      return 'Cannot be decided from this page: it is not signed in to Threshold.';
    case 'stopped':
      return 'Cannot be decided right now: Threshold’s core is not running (see the message above). This card stays waiting in Threshold.';
  }
}

/** The message box's version: the text stays in the box. */
export function cannotSendNow(c: Connection): string | null {
  switch (c) {
    case 'open':
      return null;
    case 'connecting':
      return 'Not sent yet: the page is still connecting to Threshold. Your message is still in the box.';
    case 'reconnecting':
    case 'lost':
      return 'Not sent: Threshold is not reachable right now. Your message is still in the box; send it again once the page has reconnected.';
    case 'unauthorized':
      return 'Not sent: this page is not signed in to Threshold. Your message is still in the box.';
    case 'stopped':
      return 'Not sent: Threshold’s core is not running (see the message above). Your message is still in the box.';
  }
}
