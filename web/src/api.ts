// The one way the pages talk to the server: JSON over fetch, the session cookie,
// and the csrf token (kept in memory) on every unsafe method.

/** An answer that was not a success, or no answer at all (status 0). */
export class ApiError extends Error {
  readonly status: number;
  /** The form field at fault, or '' (from the error body's "field"). */
  readonly field: string;
  constructor(status: number, message: string, field = '') {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.field = field;
  }
}

let csrf = '';
let onUnauthorized: (() => void) | null = null;

export function setCsrf(token: string): void {
  csrf = token;
}

/** Called when a request answers 401 (the session ended), except for the login itself. */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

const UNSAFE = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

export interface RequestOptions {
  /** A JSON body (serialised here) or a raw body (a File or Blob for uploads). */
  body?: unknown;
  /** Don't call the unauthorized handler on a 401 (the login form reads it). */
  quiet401?: boolean;
  signal?: AbortSignal;
}

async function send(method: string, path: string, opts: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: BodyInit | undefined;
  if (opts.body instanceof Blob) {
    body = opts.body;
    headers['Content-Type'] = 'application/octet-stream';
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['Content-Type'] = 'application/json';
  }
  if (UNSAFE.has(method) && csrf) headers['X-CSRF-Token'] = csrf;
  try {
    return await fetch(path, {
      method,
      headers,
      body,
      credentials: 'same-origin',
      cache: 'no-store',
      signal: opts.signal,
    });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError(0, "Can't reach the server. Check your connection and try again.");
  }
}

async function errorFrom(res: Response): Promise<ApiError> {
  let message = '';
  let field = '';
  try {
    const body = (await res.json()) as { error?: unknown; field?: unknown };
    if (typeof body.error === 'string') message = body.error;
    if (typeof body.field === 'string') field = body.field;
  } catch {
    // not JSON: fall back to the status below
  }
  if (!message) message = defaultMessage(res.status);
  return new ApiError(res.status, message, field);
}

function defaultMessage(status: number): string {
  switch (status) {
    case 401: return 'Please log in again.';
    case 403: return "You aren't allowed to do that.";
    case 404: return 'Not found.';
    case 409: return "That can't be done in the run's current state.";
    case 413: return 'That is too large.';
    case 429: return 'Too many attempts. Please wait a little and try again.';
    default: return `The server answered with an error (${status}).`;
  }
}

/** Makes a request; resolves to the parsed JSON body (undefined for 204), or throws ApiError. */
export async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  let res = await send(method, path, opts);
  if (res.status === 403 && UNSAFE.has(method) && !path.endsWith('/session')) {
    // The csrf may have been renewed by another tab (GET /session gives a new one): renew and retry once.
    if (await refreshCsrf()) res = await send(method, path, opts);
  }
  if (res.status === 401 && !opts.quiet401 && onUnauthorized) onUnauthorized();
  if (!res.ok) throw await errorFrom(res);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

async function refreshCsrf(): Promise<boolean> {
  const res = await send('GET', '/api/v1/session', {});
  if (!res.ok) return false;
  const body = (await res.json()) as { csrf?: string };
  if (!body.csrf) return false;
  csrf = body.csrf;
  return true;
}

export const get = <T>(path: string, opts?: RequestOptions) => request<T>('GET', path, opts);
export const post = <T>(path: string, body?: unknown, opts?: RequestOptions) =>
  request<T>('POST', path, { ...opts, body });
export const put = <T>(path: string, body?: unknown, opts?: RequestOptions) =>
  request<T>('PUT', path, { ...opts, body });
export const del = <T>(path: string, opts?: RequestOptions) => request<T>('DELETE', path, opts);

/** Builds a query string from the defined, non-empty values. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The URL of one of a run's files: each path segment escaped, the slashes kept. */
export function fileUrl(runId: number, path: string): string {
  return `/api/v1/runs/${runId}/files/${path.split('/').map(encodeURIComponent).join('/')}`;
}
