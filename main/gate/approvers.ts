// Approver surfaces: who could answer an approval right now. With none, an ask is denied at once as
// no_approver instead of waiting for nobody.
export type SurfaceKind = 'desktop' | 'web' | 'control' | RemoteSurface;
/** Approvers away from the desk (main/remote): chat bridges and paired phones. */
export const REMOTE_SURFACES = ['telegram', 'matrix', 'phone'] as const;
export type RemoteSurface = (typeof REMOTE_SURFACES)[number];

export class ApproverRegistry {
  private readonly surfaces = new Map<string, SurfaceKind>();
  private counter = 0;

  /** Registers a surface; the returned function unregisters it. */
  add(kind: SurfaceKind): () => void {
    const id = `${kind}-${++this.counter}`;
    this.surfaces.set(id, kind);
    return () => this.surfaces.delete(id);
  }

  available(): boolean {
    return this.surfaces.size > 0;
  }

  kinds(): SurfaceKind[] {
    return [...new Set(this.surfaces.values())];
  }
}
