// The shapes of the API's JSON bodies (see the web API contract).

export interface User {
  name: string;
  admin: boolean;
  account: string;
}

export interface SessionBody {
  user: User;
  csrf: string;
  expires_in: number;
}

export type FieldType = 'integer' | 'number' | 'text' | 'choice' | 'file';

export interface TemplateField {
  name: string;
  label?: string;
  type: FieldType;
  min?: number;
  max?: number;
  default?: string | number;
  choices?: string[];
  /** Text fields: the longest value the server takes. */
  max_length?: number;
  help?: string;
  required?: boolean;
}

export interface Template {
  name: string;
  title?: string;
  description?: string;
  kind: 'job' | 'workflow';
  fields: TemplateField[];
}

export interface Step {
  name: string;
  state: string;
  needs?: string[];
}

export interface Run {
  id: number;
  name: string;
  template: string;
  kind: 'job' | 'workflow';
  owner: string;
  state: string;
  submit_time: number;
  start_time: number | null;
  end_time: number | null;
  backend?: string;
  exit_code: number | null;
  values?: Record<string, unknown>;
  requested?: { cpus?: number; mem_bytes?: number; walltime_s?: number };
  used?: { cpu_seconds?: number; max_rss_bytes?: number };
  jobs?: number[];
  steps?: Step[];
}

export interface RunEvent {
  time: number;
  state: string;
  detail?: string;
  /** The job the event is about, and its name (a workflow's step). */
  job?: number;
  name?: string;
}

export interface RunList {
  runs: Run[];
  next: number | string;
}

export interface LogChunk {
  data?: string;
  base64?: string;
  offset: number;
  size: number;
  ended: boolean;
}

export interface RunFile {
  path: string;
  size: number;
  mtime: number;
}

export interface UsageMonth {
  month: string;
  core_hours: { by_account: Record<string, number>; by_backend: Record<string, number> };
  jobs_by_state: Record<string, number>;
}
