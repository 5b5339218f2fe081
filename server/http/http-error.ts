/** Thrown anywhere below a route handler; the server turns it into `{ success: false, error }` with this status. */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.headers = headers;
  }
}

export const badRequest = (message: string): HttpError => new HttpError(400, message);
