import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Scope } from '../../common/archive-types.ts';
import type { ApiKeyPrincipal } from '../auth/api-keys.ts';
import type { ServiceContext } from '../service-context.ts';

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
  /** The verified key; routes marked public get none. */
  principal: ApiKeyPrincipal;
  service: ServiceContext;
  /** Rate-limit headers to put on whatever the handler sends. */
  headers: Record<string, string>;
}

/** A JSON answer, or 'sent' when the handler wrote the response itself (redirects, file streams). */
export type RouteResult = { status: number; body: unknown; headers?: Record<string, string> } | 'sent';

export interface Route {
  method: 'GET' | 'POST' | 'DELETE' | 'PATCH';
  path: string;
  /** Required scope; null = any valid key. */
  scope: Scope | null;
  /** Public routes need no key (the OpenAPI document, health, signed downloads). */
  public?: boolean;
  /** Counts against the upload limit as well as the request limit. */
  upload?: boolean;
  /**
   * For a public route: the id of the key whose budget a request counts against (the key that signed a download link),
   * or null for the client IP's key-less budget. Must be cheap: it runs before the rate limit.
   */
  countedAs?: (request: { url: URL; params: Record<string, string>; service: ServiceContext }) => string | null;
  /** Counted per client address in the health window (`healthRequestsPerWindow`) instead of the key-less budget. */
  healthCheck?: boolean;
  /** The handler validates the query string itself (or ignores it: probes); any other route refuses a parameter (400). */
  acceptsQuery?: boolean;
  /** The handler reads the request body; any other route takes none, or an empty JSON object (400 otherwise). */
  acceptsBody?: boolean;
  handler: (ctx: RequestContext) => Promise<RouteResult> | RouteResult;
}

interface CompiledRoute extends Route {
  segments: string[];
}

export class Router {
  private readonly routes: CompiledRoute[] = [];

  add(...routes: Route[]): this {
    for (const route of routes) this.routes.push({ ...route, segments: route.path.split('/') });
    return this;
  }

  /** The route for a request; `allowed` lists methods of a path that exists under another method (for 405). */
  match(
    method: string,
    pathname: string,
  ): { route: CompiledRoute; params: Record<string, string> } | { allowed: string[] } {
    const parts = pathname.split('/');
    const allowed: string[] = [];
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (route.method === method) return { route, params };
      allowed.push(route.method);
    }
    return { allowed };
  }

  list(): readonly Route[] {
    return this.routes;
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i]!;
    const actual = parts[i]!;
    if (expected.startsWith(':')) {
      if (!actual) return null;
      try {
        params[expected.slice(1)] = decodeURIComponent(actual);
      } catch {
        // Not valid percent-encoding: the route still matches, and its own check names the parameter (400).
        params[expected.slice(1)] = actual;
      }
    } else if (expected !== actual) return null;
  }
  return params;
}
