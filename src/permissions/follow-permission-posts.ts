import type { PermissionRegistry } from './create-permission-registry.js';
import type { PermissionOutcome, PermissionRequest } from './permission-types.js';

/**
 * What a surface does with each permission request: post it where its people are, and once it is
 * settled, mark that post. Settling waits for the post (a fast decision must not race it), and a
 * request whose post failed or had nowhere to go is settled without a mark.
 */
export function followPermissionPosts<Where>(
  registry: Pick<PermissionRegistry, 'onChange'>,
  surface: {
    post(request: PermissionRequest): Promise<Where | undefined>;
    settle(request: PermissionRequest, outcome: PermissionOutcome, where: Where): Promise<void>;
  },
): void {
  const posted = new Map<string, Promise<Where | undefined>>();
  registry.onChange(async (change) => {
    const { request } = change;
    if (change.kind === 'requested') {
      const post = surface.post(request);
      posted.set(request.id, post);
      await post;
      return;
    }
    const where = await posted.get(request.id);
    posted.delete(request.id);
    if (!where) return;
    await surface.settle(request, change.outcome, where);
  });
}
