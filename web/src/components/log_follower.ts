// Follows one of a run's output streams: asks /logs from the last offset, appends what
// came, and keeps only the tail in the page. The run's page says when to ask again.
import { get, query } from '../api';
import type { LogChunk } from '../types';

const CHUNK = 65536;
/** More than this still to read at the start: skip to the last CHUNK bytes. */
const SKIP_AHEAD = 4 * CHUNK;
/** The page keeps at most this many characters of output. */
const KEEP = 200_000;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: false });

export class LogFollower {
  private offset = 0;
  private busy = false;
  private again = false;
  private started = false;
  private stopped = false;
  /** The server said the output is complete (the run ended and all was read). */
  ended = false;
  /** Called after each read with whether anything was appended. */
  onRead: (appended: boolean) => void = () => {};

  constructor(
    private readonly runId: number,
    private readonly stream: 'stdout' | 'stderr',
    private readonly pane: HTMLElement,
    private readonly note: HTMLElement,
  ) {}

  /** Reads what is new; a call while a read is under way makes that read go on once more. */
  async poll(): Promise<void> {
    if (this.stopped) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    try {
      do {
        this.again = false;
        let full = true;
        while (full && !this.stopped) {
          const chunk = await get<LogChunk>(`/api/v1/runs/${this.runId}/logs${query({ stream: this.stream, offset: this.offset, limit: CHUNK })}`);
          const { text, bytes } = decode(chunk);
          const start = typeof chunk.offset === 'number' ? chunk.offset : this.offset;
          this.offset = start + bytes;
          this.ended = !!chunk.ended;
          if (!this.started) {
            this.started = true;
            if (typeof chunk.size === 'number' && chunk.size - this.offset > SKIP_AHEAD) {
              this.append(text);
              this.append(`\n… (${formatKiB(chunk.size - this.offset - CHUNK)} of output not shown here) …\n`);
              this.offset = chunk.size - CHUNK;
              continue;
            }
          }
          this.append(text);
          this.onRead(bytes > 0);
          full = bytes >= CHUNK;
        }
      } while (this.again && !this.stopped);
    } finally {
      this.busy = false;
    }
  }

  stop(): void {
    this.stopped = true;
  }

  private append(text: string): void {
    if (!text) return;
    const pane = this.pane;
    const atBottom = pane.scrollHeight - pane.scrollTop - pane.clientHeight < 32;
    this.note.hidden = true;
    pane.append(text);
    if ((pane.textContent ?? '').length > KEEP) {
      pane.textContent = `… (earlier output not shown) …\n${(pane.textContent ?? '').slice(-KEEP)}`;
    }
    if (atBottom) pane.scrollTop = pane.scrollHeight;
  }
}

function decode(chunk: LogChunk): { text: string; bytes: number } {
  if (typeof chunk.base64 === 'string') {
    const bin = atob(chunk.base64);
    const raw = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    return { text: decoder.decode(raw), bytes: raw.length };
  }
  const text = chunk.data ?? '';
  return { text, bytes: encoder.encode(text).length };
}

function formatKiB(n: number): string {
  return n < 1024 * 1024 ? `${Math.round(n / 1024)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
