import { parseRoute, routeHash, type Route } from './routes.ts';

class Router {
  route = $state<Route>(parseRoute(location.hash));

  constructor() {
    window.addEventListener('hashchange', () => {
      this.route = parseRoute(location.hash);
    });
  }

  /** Shows the route at once (the hashchange that follows parses the same route again). */
  go(route: Route): void {
    const hash = routeHash(route);
    this.route = route;
    if (location.hash !== hash) location.hash = hash;
  }
}

export const router = new Router();
