// The site's templates, fetched once per page load (they change only when the admin edits them).
import { get } from './api';
import type { Template } from './types';

let cached: Promise<Template[]> | null = null;

export function loadTemplates(): Promise<Template[]> {
  if (!cached) {
    cached = get<{ templates: Template[] }>('/api/v1/templates').then((b) => b.templates ?? []);
    cached.catch(() => (cached = null));
  }
  return cached;
}

export function templateTitle(t: Template): string {
  return t.title || t.name;
}
