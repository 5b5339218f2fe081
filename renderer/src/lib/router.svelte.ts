import { parseRoute, routeHash, type Route } from './routes.ts';

class Router {
  route = $state<Route>(parseRoute(location.hash));

  constructor() {
    window.addEventListener('hashchange', () => { this.route = parseRoute(location.hash); });
  }

  go(route: Route): void {
    const hash = routeHash(route);
    if (location.hash === hash) this.route = route;
    else location.hash = hash;
  }
}

export const router = new Router();
