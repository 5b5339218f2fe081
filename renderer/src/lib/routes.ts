/** Hash routes, so every screen is addressable (#/library, #/document/<id>, …) and the e2e tests can go straight there. */
export type Route =
  | { name: 'library'; deleted: boolean }
  | { name: 'document'; id: string }
  /** `item`: a queue row to scroll to and highlight (a failed-upload notification's target). */
  | { name: 'uploads'; item?: number }
  | { name: 'due' }
  | { name: 'settings' }
  | { name: 'welcome' };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#\/?/, '').split('?')[0] ?? '';
  const [head, arg] = path.split('/');
  switch (head) {
    case 'document':
      return arg ? { name: 'document', id: decodeURIComponent(arg) } : { name: 'library', deleted: false };
    case 'uploads':
      return arg && /^\d+$/.test(arg) ? { name: 'uploads', item: Number(arg) } : { name: 'uploads' };
    case 'due':
      return { name: 'due' };
    case 'settings':
      return { name: 'settings' };
    case 'welcome':
      return { name: 'welcome' };
    case 'deleted':
      return { name: 'library', deleted: true };
    default:
      return { name: 'library', deleted: arg === 'deleted' };
  }
}

export function routeHash(route: Route): string {
  switch (route.name) {
    case 'library':
      return route.deleted ? '#/library/deleted' : '#/library';
    case 'document':
      return `#/document/${encodeURIComponent(route.id)}`;
    case 'uploads':
      return route.item === undefined ? '#/uploads' : `#/uploads/${route.item}`;
    default:
      return `#/${route.name}`;
  }
}
