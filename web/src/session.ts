// Who is logged in: the session from POST/GET /api/v1/session, kept in memory.
import { ApiError, del, get, post, setCsrf } from './api';
import type { SessionBody, User } from './types';

let user: User | null = null;

export function currentUser(): User | null {
  return user;
}

function adopt(body: SessionBody): User {
  setCsrf(body.csrf);
  user = body.user;
  return user;
}

/** Asks the server whether the cookie still holds a session; null when it does not. */
export async function restore(): Promise<User | null> {
  try {
    return adopt(await get<SessionBody>('/api/v1/session', { quiet401: true }));
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      user = null;
      return null;
    }
    throw e;
  }
}

export async function login(name: string, password: string): Promise<User> {
  return adopt(await post<SessionBody>('/api/v1/session', { name, password }, { quiet401: true }));
}

export async function logout(): Promise<void> {
  try {
    await del('/api/v1/session', { quiet401: true });
  } finally {
    user = null;
    setCsrf('');
  }
}

/** Forgets the session without asking the server (it already said 401). */
export function forget(): void {
  user = null;
  setCsrf('');
}
