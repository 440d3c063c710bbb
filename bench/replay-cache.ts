// For the CPU-bound figure: a front for the simulator that serves answers rendered before timing starts,
// so the simulator does not take CPU from edgelog on the same two cores (a real API runs elsewhere).
// Everything it serves was rendered by the simulator, byte for byte.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { originErrorLogsUrl, shieldEventLogsUrl, type ApiHosts } from '../src/api/paths.js';
import type { Day } from '../src/time/utc-day.js';

interface Answer {
  status: number;
  contentType: string;
  body: Buffer;
}

export interface WarmTargets {
  day: Day;
  pullZones: number[];
  shieldZones: number[];
}

export class ReplayCache {
  private readonly answers = new Map<string, Answer>();
  private server: Server | undefined;

  constructor(
    private readonly upstream: ApiHosts,
    private readonly accessKey: string,
  ) {}

  private async fetch(url: URL): Promise<Answer> {
    const res = await request(url, { headers: { accesskey: this.accessKey } });
    const body = Buffer.from(await res.body.arrayBuffer());
    const answer = { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), body };
    this.answers.set(url.pathname + url.search, answer);
    return answer;
  }

  /** Renders every page of the targets' days through the simulator. */
  async warm(t: WarmTargets): Promise<number> {
    for (const zone of t.pullZones) await this.fetch(originErrorLogsUrl(this.upstream, zone, t.day));
    for (const zone of t.shieldZones) {
      let token = '';
      for (;;) {
        const { status, body } = await this.fetch(shieldEventLogsUrl(this.upstream, zone, t.day, token));
        if (status !== 200) break;
        const page = JSON.parse(body.toString('utf8')) as {
          hasMoreData?: boolean;
          continuationToken?: string;
        };
        if (!page.hasMoreData || !page.continuationToken) break;
        token = page.continuationToken;
      }
    }
    return this.answers.size;
  }

  /** Serves the cached answers (anything else is a 404) on loopback; returns hosts like the upstream's. */
  async listen(): Promise<ApiHosts> {
    this.server = createServer((req, res) => {
      const answer = this.answers.get(req.url ?? '');
      if (!answer) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(answer.status, {
        'content-type': answer.contentType,
        'content-length': answer.body.length,
      });
      res.end(answer.body);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    const swap = (u: string) => {
      const url = new URL(u);
      url.port = String(port);
      return url.href.replace(/\/$/, '');
    };
    return {
      baseUrl: swap(this.upstream.baseUrl),
      originLogUrl: swap(this.upstream.originLogUrl),
      videoUrl: swap(this.upstream.videoUrl),
    };
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
